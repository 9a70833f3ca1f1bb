// Demo data for the new-style data sets: financial statements (quarterly, annual, TTM) that add
// up, ratios derived from them and prices, float, short interest and volume, dividends on a
// quarterly schedule, the splits, risk factors with their taxonomy, and the Fed series.
//
// This module builds every record of the step and writes them; each part is generated in its own
// module (filers, prices, statements, dividends, risk factors, economy) from facts in facts/.
//
// Everything is synthetic and deterministic (seeded per company from src/demo/random.ts): the
// companies are real names, their numbers are not their real figures. Identities that hold on
// every row: total_assets = total_liabilities + total_equity = total_liabilities_and_equity;
// each subtotal is the sum of its lines; operating + investing + financing + FX effect = change
// in cash, which is also the change of the balance sheet's cash; annual and TTM flows are sums
// of their four quarters; EPS = income to common holders / weighted shares.

import { nextTradingDay, previousTradingDay, tradingDaysBetween } from '../domain/calendar.js';
import type { Store } from '../store/index.js';
import { DIVIDENDS, SPLITS } from '../store/repos/corporate-actions.js';
import {
  BALANCE_SHEETS,
  CASH_FLOW_STATEMENTS,
  FLOAT,
  INCOME_STATEMENTS,
  INFLATION,
  INFLATION_EXPECTATIONS,
  RATIOS,
  RISK_CATEGORIES,
  RISK_FACTORS,
  SHORT_INTEREST,
  SHORT_VOLUME,
  TREASURY_YIELDS,
} from '../store/repos/dataset-catalog.js';
import type { DatasetRecord } from '../store/repos/datasets.js';
import { dividendSchedule, type DemoDividend } from './dividends.js';
import { inflationRows, treasuryYieldRows } from './economy.js';
import { DIVIDENDS_SINCE } from './facts/filers.js';
import { TAXONOMY } from './facts/risk-taxonomy.js';
import { Prices, splitMultiple } from './filer-prices.js';
import { demoFilers, profileOf } from './filers.js';
import { fiscalQuarters, quarterlyStatements, statementRows, summedCashFlow, summedIncome, type Quarter } from './financial-statements.js';
import { addDays } from './civil-days.js';
import { demoStart, onOrBeforeTradingDay, round, sessionsOnSettlementDates } from './fundamental-dates.js';
import { DEMO_SPLITS, type DemoSplit } from './facts/market.js';
import { createRng } from './random.js';
import { riskCategoryRows } from './risk-factors.js';
import type { DemoStep } from './step.js';

export { demoStart } from './fundamental-dates.js';

export interface FundamentalsDemo {
  balance: DatasetRecord[];
  income: DatasetRecord[];
  cashFlow: DatasetRecord[];
  ratios: DatasetRecord[];
  float: DatasetRecord[];
  shortInterest: DatasetRecord[];
  shortVolume: DatasetRecord[];
  dividends: DatasetRecord[];
  splits: DatasetRecord[];
  riskFactors: DatasetRecord[];
  riskCategories: DatasetRecord[];
  inflation: DatasetRecord[];
  expectations: DatasetRecord[];
  yields: DatasetRecord[];
}

export interface FundamentalsOptions {
  asOf: string;
  /** Sessions of daily short volume per ticker (default one year). */
  shortVolumeDays?: number;
  splits?: readonly DemoSplit[];
}

/** Builds every record of the step (pure apart from reading prices from the store). */
export async function buildFundamentals(store: Store, opts: FundamentalsOptions): Promise<FundamentalsDemo> {
  const { asOf } = opts;
  const splits = opts.splits ?? DEMO_SPLITS;
  const from = demoStart(asOf);
  const root = createRng('fundamentals');
  const prices = new Prices(store, splits, asOf);
  const out: FundamentalsDemo = {
    balance: [], income: [], cashFlow: [], ratios: [], float: [], shortInterest: [], shortVolume: [], dividends: [], riskFactors: [],
    splits: splits.map((s) => ({ ...s })), riskCategories: riskCategoryRows(), inflation: [], expectations: [], yields: [],
  };
  const asOfSession = onOrBeforeTradingDay(asOf);
  const sessions = tradingDaysBetween(from, asOfSession);
  const shortVolumeSessions = sessions.slice(-(opts.shortVolumeDays ?? 250));
  const tertiaries = riskCategoryRows();

  for (const filer of demoFilers(asOf)) {
    const rng = root.fork(filer.cik);
    const p = profileOf(filer, rng.fork('profile'));
    const primary = filer.tickers.includes('GOOGL') ? 'GOOGL' : filer.tickers[0]!;
    const sharesMultiple = (date: string) => splitMultiple(splits, primary, date);
    // Scale the company to its price: with market bars stored, today's close and a drawn P/E
    // set earnings (and from them revenue), so the ratios come out plausible.
    const marginAfterTax = p.operatingMargin * (1 - p.taxRate);
    const drawnPrice = round(Math.max(5, p.revenuePerShare * marginAfterTax * p.peRatio), 2);
    const modelPriceToday = await prices.closeBefore(primary, nextTradingDay(asOfSession), () => drawnPrice);
    const epsToday = modelPriceToday / p.peRatio;
    p.revenuePerShare = epsToday / marginAfterTax;

    // Dividends per share class (same amount on every class of a filer).
    const annualDividend = filer.pays ? round(epsToday * p.payout, 2) : 0;
    const schedule = new Map<string, DemoDividend[]>();
    for (const t of filer.tickers) {
      if (!filer.pays) continue;
      const ds = dividendSchedule(t, p, annualDividend, DIVIDENDS_SINCE[t] && DIVIDENDS_SINCE[t] > from ? DIVIDENDS_SINCE[t] : from, asOf, splits);
      schedule.set(t, ds);
    }
    const primaryDividends = schedule.get(primary) ?? [];
    const perShareInQuarter = (q: Quarter) => {
      const start = addDays(q.periodEnd, -91);
      return primaryDividends.filter((d) => String(d.record.ex_dividend_date) > start && String(d.record.ex_dividend_date) <= q.periodEnd).reduce((a, d) => a + d.currentBasis, 0);
    };

    const quarters = fiscalQuarters(filer.fiscalYearEnd, from, asOf, rng.fork('calendar'));
    const statements = quarterlyStatements(filer, p, quarters, rng.fork('statements'), perShareInQuarter, sharesMultiple);
    const rows = statementRows(filer, statements);
    out.balance.push(...rows.balance);
    out.income.push(...rows.income);
    out.cashFlow.push(...rows.cashFlow);

    // Dividend adjustment factors from the closes before each ex-date (newest first).
    for (const [ticker, ds] of schedule) {
      let factor = 1;
      const desc = [...ds].sort((a, b) => (String(a.record.ex_dividend_date) < String(b.record.ex_dividend_date) ? 1 : -1));
      for (const d of desc) {
        const ex = String(d.record.ex_dividend_date);
        if (ex <= asOf) {
          const close = await prices.closeBefore(ticker, ex, () => prices.unadjustedModel(ticker, p, modelPriceToday, previousTradingDay(ex)));
          factor *= 1 - Number(d.record.cash_amount) / close;
        }
        out.dividends.push({ ...d.record, ...(ex <= asOf ? { historical_adjustment_factor: round(factor, 6) } : {}) });
      }
    }

    // Ratios (latest session), float, short interest and short volume per share class.
    const n = statements.quarters.length;
    const ttmIncome = summedIncome(statements.income.slice(n - 4));
    const ttmCash = summedCashFlow(statements.cashFlow.slice(n - 4));
    const bs = statements.balance[n - 1]!;
    const latestShares = statements.income[n - 1]!.basic_shares_outstanding!;
    for (const ticker of filer.tickers) {
      const trng = rng.fork(ticker);
      const price = round(await prices.closeBefore(ticker, nextTradingDay(asOfSession), () => prices.unadjustedModel(ticker, p, modelPriceToday, asOfSession)), 2);
      const avgVolume = (await prices.averageVolume(ticker, asOfSession)) ?? round(latestShares * p.turnover * (filer.tickers.length > 1 ? 0.5 : 1));
      const marketCap = round(price * latestShares);
      const debt = bs.debt_current! + bs.long_term_debt_and_capital_lease_obligations!;
      const ev = marketCap + debt - bs.cash_and_equivalents!;
      const eps = ttmIncome.diluted_earnings_per_share!;
      const netIncome = ttmIncome.net_income_loss_attributable_common_shareholders!;
      const ocf = ttmCash.net_cash_from_operating_activities!;
      const fcf = ocf + ttmCash.purchase_of_property_plant_and_equipment!;
      const yearAgo = addDays(asOf, -365);
      const paid = (schedule.get(ticker) ?? []).filter((d) => String(d.record.ex_dividend_date) > yearAgo && String(d.record.ex_dividend_date) <= asOf).reduce((a, d) => a + d.currentBasis, 0);
      const ratio = (a: number, b: number, digits = 2) => (b !== 0 ? round(a / b, digits) : undefined);
      const r: DatasetRecord = {
        ticker, cik: filer.cik, date: asOfSession, price, average_volume: round(avgVolume), market_cap: marketCap, enterprise_value: ev,
        earnings_per_share: eps, free_cash_flow: fcf, dividend_yield: round(paid / price, 4),
      };
      const put = (k: string, v: number | undefined) => {
        if (v !== undefined && Number.isFinite(v)) r[k] = v;
      };
      if (eps > 0) put('price_to_earnings', ratio(price, eps));
      put('price_to_book', ratio(marketCap, bs.total_equity_attributable_to_parent!));
      put('price_to_sales', ratio(marketCap, ttmIncome.revenue!));
      if (ocf > 0) put('price_to_cash_flow', ratio(marketCap, ocf));
      if (fcf > 0) put('price_to_free_cash_flow', ratio(marketCap, fcf));
      put('return_on_assets', ratio(netIncome, bs.total_assets!, 4));
      put('return_on_equity', ratio(netIncome, bs.total_equity!, 4));
      put('debt_to_equity', ratio(debt, bs.total_equity!));
      put('current', ratio(bs.total_current_assets!, bs.total_current_liabilities!));
      put('quick', ratio(bs.total_current_assets! - bs.inventories!, bs.total_current_liabilities!));
      put('cash', ratio(bs.cash_and_equivalents!, bs.total_current_liabilities!));
      put('ev_to_sales', ratio(ev, ttmIncome.revenue!));
      if (ttmIncome.ebitda! > 0) put('ev_to_ebitda', ratio(ev, ttmIncome.ebitda!));
      out.ratios.push(r);

      const classShares = latestShares / filer.tickers.length;
      const freeFloat = round(classShares * p.floatShare * trng.float(0.97, 1.0));
      out.float.push({ ticker, effective_date: asOfSession, free_float: freeFloat, free_float_percent: round((freeFloat / classShares) * 100, 2) });

      // FINRA short interest: settlement mid-month and at month end.
      const si = trng.fork('short-interest');
      for (const day of sessionsOnSettlementDates(from, asOfSession)) {
        const adv = round(avgVolume * si.float(0.7, 1.3));
        const shortInterest = round(classShares * sharesMultiple(day) * p.shortShare * si.float(0.7, 1.3));
        out.shortInterest.push({ ticker, settlement_date: day, short_interest: shortInterest, avg_daily_volume: adv, days_to_cover: round(shortInterest / adv, 2) });
      }

      const sv = trng.fork('short-volume');
      for (const day of shortVolumeSessions) {
        const total = round(avgVolume * 0.4 * sv.float(0.6, 1.5));
        const short = round(total * sv.float(0.35, 0.55));
        const exempt = round(short * sv.float(0.005, 0.02));
        const nonExempt = short - exempt;
        const venues = (x: number) => {
          const nyse = round(x * 0.05);
          const carteret = round(x * 0.7);
          const chicago = round(x * 0.2);
          return [nyse, carteret, chicago, x - nyse - carteret - chicago] as const;
        };
        const [nyse, carteret, chicago, adf] = venues(nonExempt);
        const [nyseX, carteretX, chicagoX, adfX] = venues(exempt);
        out.shortVolume.push({
          ticker, date: day, total_volume: total, short_volume: short, exempt_volume: exempt, non_exempt_volume: nonExempt,
          short_volume_ratio: round((short / total) * 100, 2),
          nyse_short_volume: nyse, nyse_short_volume_exempt: nyseX, nasdaq_carteret_short_volume: carteret, nasdaq_carteret_short_volume_exempt: carteretX,
          nasdaq_chicago_short_volume: chicago, nasdaq_chicago_short_volume_exempt: chicagoX, adf_short_volume: adf, adf_short_volume_exempt: adfX,
        });
      }
    }

    // Risk factors: each 10-K (the annual filing date) labels 6–10 risks.
    const rf = rng.fork('risk');
    for (const q of statements.quarters.filter((x) => x.fiscalQuarter === 4)) {
      for (const cat of rf.shuffle(tertiaries).slice(0, rf.int(6, 10))) {
        const phrase = TAXONOMY[String(cat.primary_category)]![String(cat.secondary_category)]![String(cat.tertiary_category)]!;
        out.riskFactors.push({
          cik: filer.cik, ticker: primary, filing_date: q.filingDate, primary_category: cat.primary_category!, secondary_category: cat.secondary_category!,
          tertiary_category: cat.tertiary_category!, supporting_text: `${filer.name} ${phrase}, which could adversely affect its business, results of operations and financial condition.`,
        });
      }
    }
  }

  const econ = root.fork('economy');
  const { inflation, expectations } = inflationRows(from, asOf, econ.fork('inflation'));
  out.inflation = inflation;
  out.expectations = expectations;
  out.yields = treasuryYieldRows(from, asOfSession, econ.fork('yields'));
  return out;
}

/** Writes the data sets; every write is an upsert on natural keys, so the step is idempotent. */
export async function loadFundamentals(store: Store, opts: FundamentalsOptions): Promise<string> {
  const d = await buildFundamentals(store, opts);
  await store.transaction(async (s) => {
    await s.corporateActions.upsert(SPLITS, d.splits);
    await s.corporateActions.upsert(DIVIDENDS, d.dividends);
    const sets = [
      [BALANCE_SHEETS, d.balance], [INCOME_STATEMENTS, d.income], [CASH_FLOW_STATEMENTS, d.cashFlow], [RATIOS, d.ratios], [FLOAT, d.float],
      [SHORT_INTEREST, d.shortInterest], [SHORT_VOLUME, d.shortVolume], [RISK_CATEGORIES, d.riskCategories], [RISK_FACTORS, d.riskFactors],
      [INFLATION, d.inflation], [INFLATION_EXPECTATIONS, d.expectations], [TREASURY_YIELDS, d.yields],
    ] as const;
    for (const [def, rows] of sets) await s.datasets.upsert(def, rows);
  });
  const statements = d.balance.length + d.income.length + d.cashFlow.length;
  return `${statements} statement rows, ${d.ratios.length} ratios, ${d.dividends.length} dividends, ${d.splits.length} splits, `
    + `${d.shortInterest.length + d.shortVolume.length} short rows, ${d.riskFactors.length} risk factors, `
    + `${d.inflation.length} inflation months, ${d.yields.length} yield days`;
}

export const fundamentalsDemoStep: DemoStep = {
  name: 'fundamentals, corporate actions, filings and economy',
  run: (store, opts) => loadFundamentals(store, { asOf: opts.asOf, shortVolumeDays: Math.round(250 * opts.scale) }),
};
