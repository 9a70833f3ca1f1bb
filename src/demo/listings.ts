// The demo's listing data sets, both synthetic:
// - IPOs around the demo date: the synthetic issuers of the demo universe that listed in the year
//   before it (status history), and invented issuers with fresh symbols that list on the date
//   (new), are pending in the weeks after it, or are rumored, postponed, withdrawn or direct
//   listings. Prices, share counts, CUSIPs (00IPO…) and ISINs are made up.
// - Related companies of the real stocks: the other real stocks ranked by how much of their SIC
//   code they share (same industry first, then the same major group), then by symbol.
import type { DatasetRecord } from '../store/repos/datasets.js';
import type { TickerRecord } from '../store/records.js';
import { addDays } from './civil-days.js';
import { RESERVED_SYMBOLS } from './facts/reserved-symbols.js';
import { REAL_STOCKS } from './facts/real-stocks.js';
import { CORP_SUFFIXES, INDUSTRIES, NAME_STEMS } from './facts/synthetic-words.js';
import { round } from './fundamental-dates.js';
import { upsertSets } from './partner.js';
import { createRng, type Rng } from './random.js';
import { SymbolAllocator } from './synthetic-ids.js';
import type { DemoStep } from './step.js';
import { demoTickers, REAL_STOCK_SYMBOLS } from './universe.js';

/** Invented offerings per status, beside the universe's recent listings (history). */
const INVENTED: readonly { status: string; count: number }[] = [
  { status: 'new', count: 2 },
  { status: 'pending', count: 8 },
  { status: 'rumor', count: 5 },
  { status: 'postponed', count: 3 },
  { status: 'withdrawn', count: 3 },
  { status: 'direct_listing_process', count: 2 },
];
/** Recent listings of the universe shown as past IPOs, at most. */
const MAX_HISTORY = 20;
const RELATED_PER_TICKER = 10;

const ids = (i: number) => {
  const n = String(i).padStart(4, '0');
  return { us_code: `00IPO${n}`, isin: `US00IPO${n}0` };
};

/** Price range, final price and share counts of an offering of `shares` shares. */
function offering(rng: Rng, shares: number, priced: boolean): DatasetRecord {
  const low = rng.int(10, 24);
  const high = low + rng.int(1, 4);
  const max = Math.round(shares * rng.float(0.12, 0.3) / 1000) * 1000;
  const out: DatasetRecord = {
    lowest_offer_price: low, highest_offer_price: high, max_shares_offered: max, min_shares_offered: Math.round(max * 0.5 / 1000) * 1000, lot_size: 100,
  };
  if (priced) {
    const final = round(rng.float(low - 1, high + 2), 2);
    out.final_issue_price = final;
    out.total_offer_size = round(final * max, 2);
  }
  return out;
}

function historyIpo(t: TickerRecord, asOf: string, i: number, rng: Rng): DatasetRecord {
  const shares = t.share_class_shares_outstanding ?? rng.int(20, 200) * 1_000_000;
  const listed = t.list_date!;
  const updated = addDays(listed, rng.int(1, 20));
  return {
    announced_date: addDays(listed, -rng.int(20, 45)), currency_code: 'USD', ipo_status: 'history', ...ids(i),
    issue_end_date: addDays(listed, -1), issue_start_date: addDays(listed, -7), issuer_name: t.name, last_updated: updated < asOf ? updated : asOf,
    listing_date: listed, primary_exchange: t.primary_exchange ?? 'XNAS', security_description: 'Ordinary Shares', security_type: 'CS', shares_outstanding: shares, ticker: t.ticker,
    ...offering(rng, shares, true),
  };
}

/** An offering of an invented issuer in `status`, dated around asOf. */
function inventedIpo(status: string, asOf: string, i: number, rng: Rng, symbols: SymbolAllocator): DatasetRecord {
  const industry = rng.pick(INDUSTRIES);
  const stem = rng.pick(NAME_STEMS);
  const noun = rng.pick(industry.nouns);
  const ticker = symbols.root(rng, [...stem.split(' '), noun]);
  const shares = rng.int(20, 300) * 1_000_000;
  const record: DatasetRecord = {
    currency_code: 'USD', ipo_status: status, ...ids(i), issuer_name: `${stem} ${noun} ${rng.pick(CORP_SUFFIXES)}`, primary_exchange: rng.chance(0.6) ? 'XNAS' : 'XNYS',
    security_description: rng.chance(0.3) ? 'Class A Ordinary Shares' : 'Ordinary Shares', security_type: 'CS', ticker,
  };
  switch (status) {
    case 'new':
      return { ...record, ...offering(rng, shares, true), announced_date: addDays(asOf, -rng.int(20, 40)), issue_start_date: addDays(asOf, -7), issue_end_date: addDays(asOf, -1), last_updated: asOf, listing_date: asOf, shares_outstanding: shares };
    case 'pending': {
      const listing = addDays(asOf, rng.int(3, 35));
      return { ...record, ...offering(rng, shares, false), announced_date: addDays(asOf, -rng.int(5, 30)), issue_start_date: addDays(listing, -7), issue_end_date: addDays(listing, -1), last_updated: addDays(asOf, -rng.int(0, 4)), listing_date: listing };
    }
    case 'rumor':
      return { ...record, last_updated: addDays(asOf, -rng.int(0, 30)), ...(rng.chance(0.5) ? { listing_date: addDays(asOf, rng.int(30, 120)) } : {}) };
    case 'direct_listing_process':
      return { ...record, announced_date: addDays(asOf, -rng.int(10, 40)), last_updated: addDays(asOf, -rng.int(0, 5)), listing_date: addDays(asOf, rng.int(5, 40)), shares_outstanding: shares };
    default: {
      // postponed and withdrawn: announced and priced as a range, the listing date that did not happen
      const planned = addDays(asOf, -rng.int(5, 60));
      return { ...record, ...offering(rng, shares, false), announced_date: addDays(planned, -rng.int(15, 30)), last_updated: addDays(planned, -rng.int(0, 3)), listing_date: planned };
    }
  }
}

export function buildIpoDemo(asOf: string, universe: readonly TickerRecord[] = demoTickers(asOf)): DatasetRecord[] {
  const rng = createRng(`ipos:${asOf}`);
  const real = new Set(REAL_STOCK_SYMBOLS);
  const from = addDays(asOf, -365);
  const history = universe
    .filter((t) => t.type === 'CS' && t.market === 'stocks' && !real.has(t.ticker) && t.list_date !== undefined && t.list_date >= from && t.list_date < asOf)
    .sort((a, b) => (a.list_date! < b.list_date! ? 1 : a.list_date! > b.list_date! ? -1 : a.ticker < b.ticker ? -1 : 1))
    .slice(0, MAX_HISTORY);
  const out = history.map((t, i) => historyIpo(t, asOf, i + 1, rng.fork(t.ticker)));
  const symbols = new SymbolAllocator(new Set([...RESERVED_SYMBOLS, ...universe.map((t) => t.ticker)]));
  let i = out.length;
  for (const { status, count } of INVENTED) for (let k = 0; k < count; k++) out.push(inventedIpo(status, asOf, ++i, rng.fork(`${status}:${k}`), symbols));
  return out;
}

/** Length of the common prefix of two SIC codes. */
function sharedDigits(a: string, b: string): number {
  let n = 0;
  while (n < a.length && a[n] === b[n]) n++;
  return n;
}

export function buildRelatedCompaniesDemo(): DatasetRecord[] {
  const stocks = REAL_STOCKS.filter((s) => s.type === 'CS' && s.sic !== undefined);
  const out: DatasetRecord[] = [];
  for (const s of stocks) {
    const ranked = stocks
      .filter((o) => o.t !== s.t && sharedDigits(s.sic!, o.sic!) > 0)
      .sort((a, b) => sharedDigits(s.sic!, b.sic!) - sharedDigits(s.sic!, a.sic!) || (a.t < b.t ? -1 : 1))
      .slice(0, RELATED_PER_TICKER);
    ranked.forEach((o, i) => out.push({ ticker: s.t, related_ticker: o.t, rank: i + 1 }));
  }
  return out;
}

export const listingsDemoStep: DemoStep = {
  name: 'IPOs and related companies',
  run: async (store, opts) => {
    const rows = await upsertSets(store, { ipos: buildIpoDemo(opts.asOf), 'related-companies': buildRelatedCompaniesDemo() });
    return `${rows} IPO and related-company rows`;
  },
};
