// The demo ticker universe: real, well-known US stocks/ETFs, real indices, FX and crypto pairs
// built from real currency/asset codes, plus a deterministic synthetic long tail (invented
// issuers) so that the dataset has the size and variety of the upstream reference data. This
// module assembles the parts and cuts them at an as-of date; the facts live in facts/ and each
// kind of instrument has its own generator module.
//
// Everything here is deterministic: same input -> byte-identical output, on every platform. The
// generators draw from one random stream in a fixed order (the order of the calls in timeline()),
// so reordering them changes every synthetic ticker.
//
// What is real and what is not:
// - facts/real-stocks.ts: real companies/funds, with identifiers only where verified.
// - FX/crypto pairs: real ISO 4217 currency codes and real crypto asset codes; the list of
//   crosses is generated (upstream may not carry every cross).
// - Synthetic long tail: invented names, symbols, CIKs and FIGIs. CIKs are drawn from
//   9,000,000-9,999,999 (real CIKs are < 2,100,000 as of 2026, so they cannot collide). FIGIs
//   are well-formed (BBG00 + 6 chars + valid check digit) but invented: they may coincide with
//   some real FIGI somewhere in the world and must be documented as synthetic. Homepages use the
//   reserved `.example` TLD and phone numbers the fictional 555-01xx range.
//
// Symbol collision policy: a synthetic symbol (and its root) is never in RESERVED_SYMBOLS
// (facts/reserved-symbols.ts). Synthetic roots are exactly 4 letters. A synthetic symbol may
// still coincide with some small real listing outside that list; docs/demo-data.md says the long
// tail is synthetic.

import type { TickerRecord } from '../store/records.js';
import { REAL_STOCKS } from './facts/real-stocks.js';
import { RESERVED_SYMBOLS } from './facts/reserved-symbols.js';
import { utc } from './civil-days.js';
import { createRng } from './random.js';
import { cryptoDrafts, fxDrafts, realStockDrafts } from './real-instruments.js';
import { showcaseDrafts } from './showcase.js';
import { IdFactory, SymbolAllocator } from './synthetic-ids.js';
import { genIndices } from './synthetic-indices.js';
import { genCommonStocks, genEtfs, genOtherListed, genSpacs } from './synthetic-listed.js';
import { genOtc } from './synthetic-otc.js';
import type { Draft, GenContext } from './ticker-drafts.js';

export { CRYPTO_MAJOR_SYMBOLS, FX_MAJOR_SYMBOLS, REAL_INDEX_SYMBOLS } from './facts/indices-currencies.js';
export { REAL_STOCK_SYMBOLS } from './facts/real-stocks.js';
export { RESERVED_SYMBOLS } from './facts/reserved-symbols.js';
export { figiCheckDigit, isValidFigi } from './figi.js';
export { HISTORY_DEMO } from './showcase.js';

export const DEFAULT_AS_OF = '2026-11-20';

let cachedDrafts: readonly Draft[] | undefined;

/** The full, as-of-independent timeline of every version (built once, then copied per call). */
function timeline(): readonly Draft[] {
  if (cachedDrafts) return cachedDrafts;
  const rng = createRng('tickerbase/universe/v1');
  const realFigis = REAL_STOCKS.flatMap((s) => [s.figi, s.scfigi].filter((x): x is string => typeof x === 'string'));
  const ctx: GenContext = {
    rng,
    symbols: new SymbolAllocator(RESERVED_SYMBOLS),
    ids: new IdFactory(rng.fork('ids'), realFigis),
    usedNames: new Set(REAL_STOCKS.map((s) => s.name)),
    drafts: [],
  };
  showcaseDrafts(ctx);
  genCommonStocks(ctx, 4600, { renames: 60, transfers: 25, reuses: 20 });
  genSpacs(ctx, 150);
  genEtfs(ctx, 900, 'ETF');
  genEtfs(ctx, 40, 'ETN');
  genOtherListed(ctx);
  genOtc(ctx);
  genIndices(ctx, 120);
  syntheticCount = ctx.drafts.length;
  const all = [...realStockDrafts(), ...fxDrafts(), ...cryptoDrafts()];
  realCount = all.length;
  syntheticSymbols = new Set(ctx.drafts.map((d) => d.rec.ticker));
  all.push(...ctx.drafts);
  cachedDrafts = all;
  return all;
}

let syntheticCount = 0;
let realCount = 0;
let syntheticSymbols: ReadonlySet<string> = new Set();

function cmpBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function copyRecord(r: TickerRecord): TickerRecord {
  const out: TickerRecord = { ...r };
  if (r.address) out.address = { ...r.address };
  if (r.branding) out.branding = { ...r.branding };
  return out;
}

function materialize(drafts: readonly Draft[], asOf: string): TickerRecord[] {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(asOf) || Number.isNaN(Date.parse(`${asOf}T00:00:00Z`))) {
    throw new RangeError(`demoTickers: invalid asOf date ${asOf}`);
  }
  const out: TickerRecord[] = [];
  for (const d of drafts) {
    if (d.rec.valid_from > asOf) continue; // did not exist yet
    const rec = copyRecord(d.rec);
    if (rec.list_date !== undefined && rec.list_date > asOf) delete rec.list_date;
    if (rec.valid_to !== undefined && rec.valid_to > asOf) delete rec.valid_to; // successor not known yet
    const delisted = d.delisted !== undefined && d.delisted <= asOf ? d.delisted : undefined;
    if (delisted) {
      rec.active = false;
      rec.delisted_utc = utc(delisted);
    } else {
      rec.active = true;
      delete rec.delisted_utc;
    }
    if (rec.valid_to !== undefined) {
      rec.last_updated_utc = utc(rec.valid_to);
    } else if (delisted) {
      rec.last_updated_utc = utc(delisted);
    } else {
      rec.last_updated_utc = utc(asOf);
    }
    out.push(rec);
  }
  out.sort((a, b) => cmpBytes(a.ticker, b.ticker) || cmpBytes(a.valid_from, b.valid_from));
  return out;
}

/**
 * The whole demo universe as known on `asOf` (YYYY-MM-DD): every version of every ticker, sorted
 * by ticker (byte order) then valid_from. Versions that start after `asOf` are left out, a version
 * whose successor starts after `asOf` is the current one, and delistings after `asOf` have not
 * happened yet. Deterministic: the same `asOf` always yields deep-equal, byte-identical output.
 */
export function demoTickers(asOf: string = DEFAULT_AS_OF): TickerRecord[] {
  return materialize(timeline(), asOf);
}

/** Only the real instruments (real stocks/ETFs/ADRs, real indices, FX and crypto pairs). */
export function realTickers(asOf: string = DEFAULT_AS_OF): TickerRecord[] {
  const drafts = timeline();
  return materialize(drafts.slice(0, realCount), asOf);
}

/** Only the synthetic long tail (invented issuers: stocks, OTC and indices). */
export function syntheticTickers(asOf: string = DEFAULT_AS_OF): TickerRecord[] {
  const drafts = timeline();
  return materialize(drafts.slice(realCount, realCount + syntheticCount), asOf);
}

/** True when `ticker` belongs to the synthetic long tail. */
export function isSyntheticTicker(ticker: string): boolean {
  timeline();
  return syntheticSymbols.has(ticker);
}