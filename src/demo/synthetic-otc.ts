// Synthetic over-the-counter issues: common stock, foreign ordinary shares, unsponsored ADRs and a
// few warrants, preferreds and others.

import { draftCompany, issueRecord, type GenContext } from './ticker-drafts.js';

/**
 * OTC: primary_exchange is 'OTCM' (ISO 10383 operating MIC of OTC Markets Group), and
 * currency_name is upper-case 'USD' (upstream writes it in either letter case, item by item).
 */
export function genOtc(ctx: GenContext): void {
  const { rng } = ctx;
  const one = (type: string, symbolSuffix: '' | 'F' | 'Y', foreign: boolean, n: number): void => {
    for (let i = 0; i < n; i++) {
      const company = draftCompany(ctx, {
        market: 'otc', type, exchange: 'OTCM', listFrom: '1995-01-03', listTo: '2026-11-13', pInactive: 0.12, foreign,
      });
      let ticker = company.root;
      if (symbolSuffix) {
        ticker = company.root.slice(0, 4) + symbolSuffix;
        if (!ctx.symbols.isFree(ticker)) continue;
        ctx.symbols.claim(ticker);
      }
      let name = company.name;
      if (type === 'ADRC') name = `${company.name} Unsponsored ADR`;
      if (type === 'PFD') name = `${company.name} Preferred Stock`;
      if (type === 'WARRANT') name = `${company.name} Warrants`;
      if (rng.chance(0.45)) name = name.toUpperCase().replace(/[.,]/g, '');
      ctx.drafts.push(
        issueRecord(ctx, {
          ticker, name, type, market: 'otc', exchange: 'OTCM', company, list: company.list,
          ...(company.delisted ? { delisted: company.delisted } : {}),
          overview: rng.chance(0.5) ? 'basic' : 'minimal', currencyName: 'USD', figiChance: 0.75,
          shares: [6.0, 9.3],
        }),
      );
    }
  };
  one('CS', '', false, 1500);
  one('OS', 'F', true, 450);
  one('ADRC', 'Y', true, 250);
  one('OTHER', '', false, 50);
  one('WARRANT', '', false, 20);
  one('PFD', '', false, 30);
}
