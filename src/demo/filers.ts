// The filers of the fundamentals demo (the real-name operating companies of the universe) and
// the per-company drivers their synthetic numbers are drawn from.

import { BANK_SIC, DIVIDEND_PAYERS, FISCAL_YEAR_END, TECH_SIC } from './facts/filers.js';
import type { Rng } from './random.js';
import { REAL_STOCK_SYMBOLS, realTickers } from './universe.js';

export interface DemoFiler {
  cik: string;
  name: string;
  /** Share classes, e.g. GOOG and GOOGL. */
  tickers: string[];
  sic?: string;
  /** Shares outstanding today (all classes), current basis. */
  shares: number;
  fiscalYearEnd: number;
  pays: boolean;
}

/** The real-name operating companies of the universe, one filer per CIK. */
export function demoFilers(asOf: string): DemoFiler[] {
  const real = new Set(REAL_STOCK_SYMBOLS);
  const byCik = new Map<string, DemoFiler>();
  for (const t of realTickers(asOf)) {
    if (t.valid_to || !real.has(t.ticker) || t.type !== 'CS' || !t.cik) continue;
    const f = byCik.get(t.cik);
    const shares = t.share_class_shares_outstanding ?? 0;
    if (f) {
      f.tickers.push(t.ticker);
      f.shares += shares;
      f.pays ||= DIVIDEND_PAYERS.has(t.ticker);
    } else {
      byCik.set(t.cik, {
        cik: t.cik,
        name: t.name.replace(/ Class [A-C]$/, ''),
        tickers: [t.ticker],
        sic: t.sic_code,
        shares,
        fiscalYearEnd: FISCAL_YEAR_END[t.ticker] ?? 12,
        pays: DIVIDEND_PAYERS.has(t.ticker),
      });
    }
  }
  const out = [...byCik.values()];
  for (const f of out) {
    f.tickers.sort();
    if (f.shares <= 0) f.shares = 1e9;
  }
  return out.sort((a, b) => (a.cik < b.cik ? -1 : 1));
}

/** Per-company drivers, drawn once from the company's own stream. */
export interface Profile {
  revenuePerShare: number;
  growth: number;
  grossMargin: number;
  operatingMargin: number;
  rdShare: number;
  assetsToRevenue: number;
  leverage: number;
  taxRate: number;
  capexShare: number;
  buybackRate: number;
  peRatio: number;
  payout: number;
  dividendRaise: number;
  seasonPhase: number;
  priceDrift: number;
  pricePhase: number;
  floatShare: number;
  shortShare: number;
  turnover: number;
  exDayOfMonth: number;
}

export function profileOf(f: DemoFiler, rng: Rng): Profile {
  const tech = f.sic !== undefined && TECH_SIC.has(f.sic);
  const bank = f.sic !== undefined && BANK_SIC.has(f.sic);
  const grossMargin = tech ? rng.float(0.45, 0.78) : bank ? rng.float(0.55, 0.7) : rng.float(0.22, 0.55);
  return {
    revenuePerShare: rng.float(6, 60),
    growth: rng.float(-0.03, tech ? 0.3 : 0.1),
    grossMargin,
    operatingMargin: Math.min(grossMargin - 0.08, rng.float(0.08, tech ? 0.42 : 0.25)),
    rdShare: tech ? rng.float(0.08, 0.22) : f.sic?.startsWith('28') ? rng.float(0.12, 0.22) : rng.float(0, 0.03),
    assetsToRevenue: bank ? rng.float(6, 12) : rng.float(0.7, 2.2),
    leverage: bank ? rng.float(0.86, 0.92) : rng.float(0.35, 0.75),
    taxRate: rng.float(0.13, 0.24),
    capexShare: rng.float(0.02, tech ? 0.12 : 0.06),
    buybackRate: f.pays ? rng.float(0.002, 0.008) : rng.float(-0.004, 0.004),
    peRatio: rng.float(12, 42),
    payout: rng.float(0.2, 0.6),
    dividendRaise: rng.float(0.02, 0.08),
    seasonPhase: rng.float(0, 2 * Math.PI),
    priceDrift: rng.float(-0.05, 0.3),
    pricePhase: rng.float(0, 2 * Math.PI),
    floatShare: rng.float(0.6, 0.995),
    shortShare: rng.float(0.005, 0.04),
    turnover: rng.float(0.002, 0.012),
    exDayOfMonth: rng.int(5, 25),
  };
}
