// Synthetic exchange-listed issues: common stocks (with renames, transfers and reused symbols),
// SPACs with their units, warrants and rights, ETFs and ETNs, preferred stock, ADRs and the rarer
// listed types.

import { dateOfDay, dayOfDate } from '../domain/calendar.js';
import {
  ETF_THEMES,
  FUND_FAMILIES,
  FUND_THEMES,
  INDEX_THEMES,
  INDUSTRIES,
  LISTED_EXCHANGES,
  type Industry,
} from './facts/synthetic-words.js';
import { addDays, randomDate, recentSkewedDate, weekday } from './civil-days.js';
import { SHOWCASE } from './showcase.js';
import {
  SYNTHETIC_NOTE,
  draftCompany,
  issueRecord,
  pickWeighted,
  renameDraft,
  reuseDraft,
  slug,
  transferDraft,
  uniqueName,
  type Company,
  type Draft,
  type GenContext,
} from './ticker-drafts.js';

export interface HistoryPlan {
  renames: number;
  transfers: number;
  reuses: number;
}

export function genCommonStocks(ctx: GenContext, count: number, plan: HistoryPlan): Company[] {
  const { rng } = ctx;
  const companies: Company[] = [];
  for (let i = 0; i < count; i++) {
    const exchange = pickWeighted(rng, LISTED_EXCHANGES);
    const company = draftCompany(ctx, { market: 'stocks', type: 'CS', exchange, listFrom: '1980-01-02', listTo: '2026-11-13', pInactive: 0.09 });
    const draft = issueRecord(ctx, {
      ticker: company.root,
      name: company.name,
      type: 'CS',
      market: 'stocks',
      exchange,
      company,
      list: company.list,
      ...(company.delisted ? { delisted: company.delisted } : {}),
      overview: 'full',
      shares: [6.6, 9.4],
    });
    companies.push(company);
    ctx.drafts.push(draft);
  }

  // Point-in-time history on a deterministic subset of active companies listed before 2018.
  const eligible = ctx.drafts.filter(
    (d) =>
      d.rec.type === 'CS' &&
      d.rec.market === 'stocks' &&
      d.delisted === undefined &&
      d.rec.valid_to === undefined &&
      d.rec.valid_from < '2018-01-01' &&
      !SHOWCASE.has(d.rec.ticker),
  );
  const chosen = rng.shuffle(eligible);
  let k = 0;
  for (let i = 0; i < plan.renames && k < chosen.length; i++, k++) renameDraft(ctx, chosen[k] as Draft);
  for (let i = 0; i < plan.transfers && k < chosen.length; i++, k++) transferDraft(ctx, chosen[k] as Draft);
  for (let i = 0; i < plan.reuses && k < chosen.length; i++, k++) reuseDraft(ctx, chosen[k] as Draft);
  return companies;
}

export function genSpacs(ctx: GenContext, count: number): void {
  const { rng } = ctx;
  for (let i = 0; i < count; i++) {
    const nyse = rng.chance(0.3);
    const exchange = nyse ? 'XNYS' : 'XNAS';
    const company = draftCompany(ctx, {
      market: 'stocks', type: 'CS', exchange, listFrom: '2019-01-02', listTo: '2026-10-30', pInactive: 0.18, spac: true,
    });
    const common = {
      market: 'stocks' as const,
      exchange,
      company,
      list: company.list,
      ...(company.delisted ? { delisted: company.delisted } : {}),
      overview: 'basic' as const,
    };
    ctx.drafts.push(issueRecord(ctx, { ...common, ticker: company.root, name: `${company.name} Class A Ordinary Shares`, type: 'CS', shares: [7.0, 7.6] }));
    const derived: Array<readonly [type: string, suffix: string, label: string]> = [
      ['UNIT', nyse ? 'U' : 'U', 'Units'],
      ['WARRANT', nyse ? 'WS' : 'W', 'Warrants'],
    ];
    if (rng.chance(0.4)) derived.push(['RIGHT', nyse ? 'RT' : 'R', 'Rights']);
    for (const [type, suffix, label] of derived) {
      const ticker = nyse ? `${company.root}.${suffix}` : `${company.root}${suffix}`;
      if (!ctx.symbols.isFree(ticker)) continue;
      ctx.symbols.claim(ticker);
      ctx.drafts.push(issueRecord(ctx, { ...common, ticker, name: `${company.name} ${label}`, type, root: company.root, suffix }));
    }
  }
}

export function genEtfs(ctx: GenContext, count: number, type: 'ETF' | 'ETN'): void {
  const { rng } = ctx;
  const families = FUND_FAMILIES.map((f) => ({
    name: f,
    cik: ctx.ids.nextCik(),
    homepage: `https://www.${slug(f)}funds.example`,
  }));
  const seen = new Set<string>();
  let made = 0;
  let guard = 0;
  while (made < count && guard++ < count * 20) {
    const fam = rng.pick(families);
    let theme = rng.pick(ETF_THEMES);
    if (theme === 'Buffer') theme = `U.S. Equity Buffer - ${rng.pick(['January', 'April', 'July', 'October'])}`;
    const lev = type === 'ETF' && rng.chance(0.06) ? rng.pick(['2X Long', '2X Short', '3X Long', '3X Short']) : '';
    const key = `${fam.name}|${theme}|${lev}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const label = type === 'ETF' ? 'ETF' : 'ETN';
    const name = `${fam.name} ${lev ? `${lev} ` : ''}${theme} ${label}`;
    if (ctx.usedNames.has(name)) continue;
    ctx.usedNames.add(name);
    const words = [fam.name.split(' ')[0] as string, ...theme.replace(/[^A-Za-z ]/g, ' ').split(/\s+/).filter((w) => w.length > 1 && w !== 'U' && w !== 'S')];
    const root = ctx.symbols.root(rng, words);
    const exchange = pickWeighted(rng, [['ARCX', 60], ['BATS', 22], ['XNAS', 18]]);
    const list = recentSkewedDate(rng, type === 'ETF' ? '1996-01-02' : '2006-01-03', '2026-11-13', 2.2);
    let delisted: string | undefined;
    if (rng.chance(0.06)) {
      const earliest = dayOfDate(list) + 200;
      const latest = dayOfDate('2026-10-30');
      if (earliest < latest) delisted = dateOfDay(Math.min(weekday(rng.int(earliest, latest)), latest));
    }
    const company: Company = {
      name: fam.name,
      root,
      cik: fam.cik,
      list,
      industry: INDUSTRIES[0] as Industry,
      homepage: fam.homepage,
      exchange,
    };
    const what =
      type === 'ETF'
        ? `Exchange-traded fund that seeks to track a ${lev ? `${lev.toLowerCase()} daily multiple of a ` : ''}${theme.toLowerCase()} index. ${SYNTHETIC_NOTE}`
        : `Exchange-traded note linked to a ${theme.toLowerCase()} index; subject to the credit risk of the issuer. ${SYNTHETIC_NOTE}`;
    ctx.drafts.push(
      issueRecord(ctx, {
        ticker: root,
        name,
        type,
        market: 'stocks',
        exchange,
        company,
        list,
        ...(delisted ? { delisted } : {}),
        overview: 'basic',
        description: what,
        shares: [5.5, 8.7],
      }),
    );
    made++;
  }
}

/** Issues hanging off fresh synthetic issuers: PFD, ADRC, OS, FUND and the rare types. */
export function genOtherListed(ctx: GenContext): void {
  const { rng } = ctx;

  // Preferred stock of banks, REITs, utilities and insurers (Polygon-style "ROOTpA" symbols).
  const pfdIndustries = new Set(['6022', '6798', '4911', '6331']);
  for (let i = 0; i < 110; i++) {
    const company = draftCompany(ctx, {
      market: 'stocks', type: 'CS', exchange: 'XNYS', listFrom: '1990-01-02', listTo: '2024-12-31', pInactive: 0.05, sics: pfdIndustries,
    });
    ctx.drafts.push(
      issueRecord(ctx, {
        ticker: company.root, name: company.name, type: 'CS', market: 'stocks', exchange: 'XNYS', company, list: company.list,
        ...(company.delisted ? { delisted: company.delisted } : {}), overview: 'full', shares: [7.0, 9.0],
      }),
    );
    const series = rng.int(1, 3);
    for (let s = 0; s < series; s++) {
      const letter = 'ABCDEFGH'[s] as string;
      const ticker = `${company.root}p${letter}`;
      ctx.symbols.claim(ticker);
      const rate = (rng.int(32, 68) / 8).toFixed(3).replace(/0$/, '');
      const list = randomDate(rng, company.list, company.delisted ? addDays(company.delisted, -30) : '2026-10-30');
      ctx.drafts.push(
        issueRecord(ctx, {
          ticker, name: `${company.name} ${rate}% Series ${letter} Cumulative Preferred Stock`, type: 'PFD', market: 'stocks',
          exchange: 'XNYS', company, list, ...(company.delisted ? { delisted: company.delisted } : {}), overview: 'basic',
          root: company.root, suffix: `p${letter}`, shares: [6.3, 7.5],
        }),
      );
    }
  }

  const simple = (
    type: string, n: number, exchanges: ReadonlyArray<readonly [string, number]>, opts: { foreign?: boolean; label: (c: Company) => string; overview: 'full' | 'basic'; suffix?: string; listFrom?: string },
  ): void => {
    for (let i = 0; i < n; i++) {
      const exchange = pickWeighted(rng, exchanges);
      const company = draftCompany(ctx, {
        market: 'stocks', type, exchange, listFrom: opts.listFrom ?? '1995-01-03', listTo: '2026-11-13', pInactive: 0.06, ...(opts.foreign ? { foreign: true } : {}),
      });
      let ticker = company.root;
      if (opts.suffix) {
        ticker = `${company.root}${opts.suffix}`;
        if (!ctx.symbols.isFree(ticker)) continue;
        ctx.symbols.claim(ticker);
      }
      ctx.drafts.push(
        issueRecord(ctx, {
          ticker, name: opts.label(company), type, market: 'stocks', exchange, company, list: company.list,
          ...(company.delisted ? { delisted: company.delisted } : {}), overview: opts.overview,
          ...(opts.suffix ? { root: company.root, suffix: opts.suffix } : {}),
          shares: [6.5, 9.2],
        }),
      );
    }
  };

  simple('ADRC', 220, [['XNYS', 60], ['XNAS', 40]], { foreign: true, label: (c) => `${c.name} American Depositary Shares`, overview: 'basic' });
  simple('OS', 100, [['XNAS', 80], ['XNYS', 20]], { foreign: true, label: (c) => `${c.name} Ordinary Shares`, overview: 'basic' });
  simple('ADRP', 4, [['XNYS', 1]], { foreign: true, label: (c) => `${c.name} Sponsored ADR Preferred Shares`, overview: 'basic' });
  simple('ADRW', 3, [['XNAS', 1]], { foreign: true, label: (c) => `${c.name} ADS Warrants`, overview: 'basic', suffix: 'W' });
  simple('ADRR', 3, [['XNAS', 1]], { foreign: true, label: (c) => `${c.name} ADS Rights`, overview: 'basic', suffix: 'R' });
  simple('GDR', 4, [['XNYS', 1]], { foreign: true, label: (c) => `${c.name} Global Depositary Receipts`, overview: 'basic' });
  simple('NYRS', 4, [['XNYS', 1]], { foreign: true, label: (c) => `${c.name} New York Registry Shares`, overview: 'basic' });
  simple('LT', 5, [['XASE', 1]], { label: (c) => `${c.name.replace(/ (Inc\.|Corp\.|Corporation|Co\.|Holdings, Inc\.|Group, Inc\.)$/, '')} Liquidating Trust`, overview: 'basic' });
  simple('OTHER', 10, [['XNAS', 1]], { label: (c) => `${c.name} Contingent Value Rights`, overview: 'basic' });
  simple('BOND', 5, [['XNYS', 1]], { label: (c) => `${c.name} ${(rng.int(500, 800) / 100).toFixed(3)}% Senior Notes due ${rng.int(2028, 2065)}`, overview: 'basic' });
  simple('EQLK', 3, [['XNYS', 1]], { label: (c) => `${c.name} Equity-Linked Notes due ${rng.int(2027, 2031)}`, overview: 'basic' });

  // Fund-family products.
  const fundType = (type: string, n: number, exchanges: ReadonlyArray<readonly [string, number]>, label: (fam: string) => string, what: string): void => {
    for (let i = 0; i < n; i++) {
      const fam = rng.pick(FUND_FAMILIES);
      const name = uniqueName(ctx, () => label(rng.pick(FUND_FAMILIES)));
      const famName = FUND_FAMILIES.find((f) => name.startsWith(f)) ?? fam;
      const root = ctx.symbols.root(rng, name.split(/\s+/).filter((w) => /^[A-Za-z]/.test(w)));
      const exchange = pickWeighted(rng, exchanges);
      const list = recentSkewedDate(rng, '1998-01-02', '2026-11-13', 1.5);
      const company: Company = {
        name: famName, root, cik: ctx.ids.nextCik(), list, industry: INDUSTRIES[0] as Industry,
        homepage: `https://www.${slug(famName)}funds.example`, exchange,
      };
      ctx.drafts.push(
        issueRecord(ctx, {
          ticker: root, name, type, market: 'stocks', exchange, company, list, overview: 'basic',
          description: `${what} ${SYNTHETIC_NOTE}`, shares: [6.0, 8.3],
        }),
      );
    }
  };
  fundType('FUND', 120, [['XNYS', 1]], (f) => `${f} ${rng.pick(FUND_THEMES)} Fund`, 'Closed-end fund.');
  fundType('ETV', 20, [['ARCX', 3], ['BATS', 1]], (f) => `${f} ${rng.pick(['Physical Gold Trust', 'Physical Silver Trust', 'Physical Platinum Trust', 'Bitcoin Trust', 'Ether Trust', 'Crude Oil Fund', 'Natural Gas Fund', 'Broad Commodity Fund'])}`, 'Exchange-traded vehicle holding a commodity or digital asset.');
  fundType('SP', 10, [['ARCX', 1]], (f) => `${f} Bank Structured Notes Linked to the ${rng.pick(INDEX_THEMES)} Index`, 'Structured product.');
  fundType('AGEN', 3, [['XNYS', 1]], (f) => `${f} Farm Credit Agency ${(rng.int(300, 600) / 100).toFixed(2)}% Notes due ${rng.int(2028, 2040)}`, 'Agency bond.');
  fundType('BASKET', 2, [['ARCX', 1]], (f) => `${f} ${rng.pick(['Dividend', 'Technology', 'Energy'])} Basket Security`, 'Basket security.');
  // Single-stock ETFs on real underlyings from invented fund families.
  fundType(
    'ETS', 15, [['XNAS', 2], ['BATS', 1]],
    (f) => `${f} ${rng.pick(['2X Long', '1.5X Long', '2X Short'])} ${rng.pick(['AAPL', 'MSFT', 'NVDA', 'TSLA', 'AMZN', 'META', 'GOOGL', 'AMD', 'COIN', 'PLTR'])} Daily ETF`,
    'Single-security exchange-traded fund seeking a daily multiple of one stock\'s return.',
  );
}
