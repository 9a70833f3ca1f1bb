// Three fixed synthetic issuers that show the point-in-time (`date`) feature: one renamed, one
// whose symbol was reused by another issuer, one that moved exchange.

import { SIC } from './facts/sic.js';
import { INDUSTRIES, type Industry } from './facts/synthetic-words.js';
import {
  SYNTHETIC_NOTE,
  issueRecord,
  renameDraft,
  reuseDraft,
  slug,
  transferDraft,
  type Company,
  type Draft,
  type GenContext,
} from './ticker-drafts.js';

/** Showcase symbols for the point-in-time (`date`) feature; fixed names and dates. */
export const HISTORY_DEMO = {
  /** Renamed on 2021-06-01: "Harborview Data Systems Inc." -> "Harborview Cloud Inc.". */
  renamed: 'HRBV',
  /** "Velox Robotics Corp." delisted 2019-11-14; symbol reused by "Valxor Therapeutics Inc." from 2022-02-07. */
  reused: 'VLXR',
  /** "Kestrel Aerospace Corp." moved from XNAS to XNYS on 2019-08-05. */
  transferred: 'KSTL',
} as const;

export const SHOWCASE: ReadonlySet<string> = new Set(Object.values(HISTORY_DEMO));

export function showcaseDrafts(ctx: GenContext): void {
  const mk = (ticker: string, name: string, list: string, exchange: string, sic: string, what: string): Draft => {
    ctx.symbols.claim(ticker);
    ctx.usedNames.add(name);
    const industry = INDUSTRIES.find((i) => i.sic === sic) ?? (INDUSTRIES[0] as Industry);
    const company: Company = {
      name, root: ticker, cik: ctx.ids.nextCik(), list, industry: { ...industry, what }, homepage: `https://www.${slug(name.split(' ')[0] as string)}.example`, exchange,
    };
    const d = issueRecord(ctx, { ticker, name, type: 'CS', market: 'stocks', exchange, company, list, overview: 'full', shares: [7.5, 8.5] });
    ctx.drafts.push(d);
    return d;
  };
  const hrbv = mk('HRBV', 'Harborview Data Systems Inc.', '2011-04-14', 'XNAS', '7370', 'provides data-center hosting and managed cloud services');
  renameDraft(ctx, hrbv, '2021-06-01', 'Harborview Cloud Inc.');
  ctx.usedNames.add('Harborview Cloud Inc.');

  const vlxr = mk('VLXR', 'Velox Robotics Corp.', '2014-09-18', 'XNAS', '3559', 'builds industrial robots and automation systems');
  reuseDraft(ctx, vlxr, { delisted: '2019-11-14', relisted: '2022-02-07' }, 'Valxor Therapeutics Inc.');
  ctx.usedNames.add('Valxor Therapeutics Inc.');
  if (vlxr.rec.description) {
    vlxr.rec.description = `Valxor Therapeutics Inc. develops biologic therapies for oncology, immunology and rare diseases. ${SYNTHETIC_NOTE}`;
  }
  vlxr.rec.sic_code = '2836';
  vlxr.rec.sic_description = SIC['2836'] as string;

  const kstl = mk('KSTL', 'Kestrel Aerospace Corp.', '2009-03-12', 'XNAS', '3728', 'manufactures aircraft components and defense systems');
  transferDraft(ctx, kstl, '2019-08-05', 'XNYS');
}
