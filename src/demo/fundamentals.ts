// Demo data for the new-style data sets: financial statements (quarterly, annual, TTM) that add
// up, ratios derived from them and prices, float, short interest and volume, dividends on a
// quarterly schedule, the splits, risk factors with their taxonomy, and the Fed series.
//
// Everything is synthetic and deterministic (seeded per company from src/demo/random.ts): the
// companies are real names, their numbers are not their real figures. Identities that hold on
// every row: total_assets = total_liabilities + total_equity = total_liabilities_and_equity;
// each subtotal is the sum of its lines; operating + investing + financing + FX effect = change
// in cash, which is also the change of the balance sheet's cash; annual and TTM flows are sums
// of their four quarters; EPS = income to common holders / weighted shares.
import { dateOfDay, dayOfDate, isTradingDay, nextTradingDay, nyMidnight, previousTradingDay, tradingDaysBetween } from '../domain/calendar.js';
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
import type { DemoStep } from './step.js';
import { DEMO_SPLITS, type DemoSplit } from './market.js';
import { createRng, type Rng } from './random.js';
import { REAL_STOCK_SYMBOLS, realTickers } from './universe.js';

// ---------------------------------------------------------------------------------------------
// Dates

const addDays = (date: string, n: number) => dateOfDay(dayOfDate(date) + n);
const yearsBetween = (a: string, b: string) => (dayOfDate(b) - dayOfDate(a)) / 365.25;

/** Last day of a month (1–12). */
function lastDayOfMonth(year: number, month: number): string {
  const nextYear = month === 12 ? year + 1 : year;
  const next = month === 12 ? 1 : month + 1;
  return dateOfDay(dayOfDate(`${nextYear}-${String(next).padStart(2, '0')}-01`) - 1);
}

function onOrAfterTradingDay(date: string): string {
  return isTradingDay(date) ? date : nextTradingDay(date);
}

function onOrBeforeTradingDay(date: string): string {
  return isTradingDay(date) ? date : previousTradingDay(date);
}

/** The demo covers five years of history up to `asOf`. */
export function demoStart(asOf: string): string {
  return `${Number(asOf.slice(0, 4)) - 5}${asOf.slice(4)}`;
}

const round = (x: number, digits = 0) => {
  const p = 10 ** digits;
  return Math.round(x * p) / p;
};

// ---------------------------------------------------------------------------------------------
// Splits: the market-data demo's list (its raw bars jump at them), stored here as split rows.

/** Shares on the date's basis per share today: 10 before NVDA's 10:1 split, 1 after. */
function splitMultiple(splits: readonly DemoSplit[], ticker: string, date: string): number {
  let m = 1;
  for (const s of splits) if (s.ticker === ticker && s.execution_date > date) m *= s.split_to / s.split_from;
  return m;
}

// ---------------------------------------------------------------------------------------------
// Companies

/** Fiscal-year end month (1–12) of filers that do not close in December. */
const FISCAL_YEAR_END: Record<string, number> = {
  AAPL: 9, MSFT: 6, NVDA: 1, WMT: 1, COST: 8, ORCL: 5, CSCO: 7, ADBE: 11, NKE: 5, SBUX: 9, QCOM: 9, CRM: 1, A: 10, DIS: 9, V: 9, AVGO: 10, MCD: 12,
};

/** Real payers of regular quarterly dividends (the demo amounts are synthetic). */
const DIVIDEND_PAYERS = new Set([
  'A', 'AA', 'AAPL', 'ABBV', 'AVGO', 'BAC', 'C', 'CAT', 'COST', 'CRM', 'CSCO', 'CVX', 'DIS', 'F', 'GM', 'GOOGL', 'GOOG', 'GS', 'HD',
  'IBM', 'INTC', 'JNJ', 'JPM', 'KO', 'LLY', 'MA', 'MCD', 'META', 'MRK', 'MS', 'MSFT', 'NKE', 'NVDA', 'ORCL', 'PEP', 'PFE', 'PG',
  'QCOM', 'SBUX', 'T', 'TXN', 'UNH', 'V', 'VZ', 'WFC', 'WMT', 'XOM',
]);

/** Payers that started paying within the demo range: no dividends before this date. */
const DIVIDENDS_SINCE: Record<string, string> = { GOOGL: '2024-06-01', GOOG: '2024-06-01', META: '2024-02-01', CRM: '2024-03-01', DIS: '2024-01-01' };

const TECH_SIC = new Set(['3570', '3571', '3576', '3663', '3674', '7370', '7372', '7389']);
const BANK_SIC = new Set(['6021', '6022', '6211']);

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
interface Profile {
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

function profileOf(f: DemoFiler, rng: Rng): Profile {
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

// ---------------------------------------------------------------------------------------------
// Prices: day bars from the market-data store when it has them, else a deterministic path.

class Prices {
  private readonly cache = new Map<string, number | null>();

  constructor(
    private readonly store: Store,
    private readonly splits: readonly DemoSplit[],
    private readonly asOf: string,
  ) {}

  /** Close (unadjusted, as traded) of the last session strictly before `date`. */
  async closeBefore(ticker: string, date: string, model: () => number): Promise<number> {
    const key = `${ticker}|${date}`;
    let c = this.cache.get(key);
    if (c === undefined) {
      const bar = await this.store.market?.lastDayBarBefore(ticker, nyMidnight(date)).catch(() => undefined);
      // Only a bar from the days just before counts: a stale one means no history there.
      c = bar && bar.t >= nyMidnight(addDays(date, -7)) && bar.c > 0 ? bar.c : null;
      this.cache.set(key, c);
    }
    return c ?? model();
  }

  /** Model close, current share basis, on `date`. */
  static model(p: Profile, priceToday: number, asOf: string, date: string): number {
    const years = yearsBetween(date, asOf);
    return priceToday * Math.exp(-p.priceDrift * years) * (1 + 0.08 * Math.sin(2 * Math.PI * 1.3 * years + p.pricePhase));
  }

  /** Model close as traded on `date` (before a split the price is higher by the split ratio). */
  unadjustedModel(ticker: string, p: Profile, priceToday: number, date: string): number {
    return round(Prices.model(p, priceToday, this.asOf, date) * splitMultiple(this.splits, ticker, date), 2);
  }

  /** Average day volume over the last 30 sessions before `date`, or undefined without bars. */
  async averageVolume(ticker: string, date: string): Promise<number | undefined> {
    if (!this.store.market) return undefined;
    const bars = await this.store.market
      .readBars('day', { ticker, fromMs: nyMidnight(addDays(date, -50)), toMs: nyMidnight(addDays(date, 1)), order: 'desc', limit: 30 })
      .catch(() => []);
    const vols = bars.map((b) => b.v ?? 0).filter((v) => v > 0);
    return vols.length > 0 ? vols.reduce((a, b) => a + b, 0) / vols.length : undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Statements

interface Quarter {
  periodEnd: string;
  fiscalYear: number;
  fiscalQuarter: number;
  filingDate: string;
  /** Years before asOf (for growth). */
  age: number;
}

/** Fiscal quarters ending after `from` whose report is filed by `asOf`. */
export function fiscalQuarters(fyEndMonth: number, from: string, asOf: string, rng: Rng): Quarter[] {
  const out: Quarter[] = [];
  const startYear = Number(from.slice(0, 4)) - 1;
  const endYear = Number(asOf.slice(0, 4));
  for (let y = startYear; y <= endYear; y++) {
    for (let month = 1; month <= 12; month++) {
      if ((month - fyEndMonth + 12) % 3 !== 0) continue;
      const periodEnd = lastDayOfMonth(y, month);
      if (periodEnd <= from) continue;
      const k = ((month - fyEndMonth + 12) % 12) / 3;
      const fiscalQuarter = k === 0 ? 4 : k;
      const fiscalYear = k === 0 ? y : month > fyEndMonth ? y + 1 : y;
      // 10-Qs about five weeks after the quarter, the 10-K about eight.
      const filingDate = onOrAfterTradingDay(addDays(periodEnd, fiscalQuarter === 4 ? rng.int(50, 62) : rng.int(30, 42)));
      if (filingDate > asOf) continue;
      out.push({ periodEnd, fiscalYear, fiscalQuarter, filingDate, age: yearsBetween(periodEnd, asOf) });
    }
  }
  return out.sort((a, b) => (a.periodEnd < b.periodEnd ? -1 : 1));
}

type Rec = Record<string, number>;

const sum = (recs: readonly Rec[], field: string) => recs.reduce((a, r) => a + (r[field] ?? 0), 0);

const INCOME_FLOWS = [
  'revenue', 'cost_of_revenue', 'gross_profit', 'selling_general_administrative', 'research_development',
  'depreciation_depletion_amortization', 'other_operating_expenses', 'total_operating_expenses', 'operating_income',
  'interest_income', 'interest_expense', 'other_income_expense', 'total_other_income_expense', 'income_before_income_taxes',
  'income_taxes', 'consolidated_net_income_loss', 'noncontrolling_interest', 'preferred_stock_dividends_declared',
  'net_income_loss_attributable_common_shareholders', 'ebitda',
];

const CASH_FLOWS = [
  'net_income', 'depreciation_depletion_and_amortization', 'change_in_other_operating_assets_and_liabilities_net',
  'other_operating_activities', 'cash_from_operating_activities_continuing_operations', 'net_cash_from_operating_activities',
  'purchase_of_property_plant_and_equipment', 'sale_of_property_plant_and_equipment', 'other_investing_activities',
  'net_cash_from_investing_activities_continuing_operations', 'net_cash_from_investing_activities',
  'short_term_debt_issuances_repayments', 'long_term_debt_issuances_repayments', 'dividends', 'other_financing_activities',
  'net_cash_from_financing_activities_continuing_operations', 'net_cash_from_financing_activities',
  'effect_of_currency_exchange_rate', 'change_in_cash_and_equivalents',
];

export interface FilerStatements {
  quarters: Quarter[];
  income: Rec[];
  cashFlow: Rec[];
  balance: Rec[];
}

/**
 * Quarterly statements of one filer. `dividendsPerShare(q)` is the cash paid per current-basis
 * share in the quarter; `sharesMultiple(date)` turns current-basis shares into the basis of that
 * date (more shares after a split).
 */
export function quarterlyStatements(
  filer: DemoFiler,
  p: Profile,
  quarters: readonly Quarter[],
  rng: Rng,
  dividendsPerShare: (q: Quarter) => number,
  sharesMultiple: (date: string) => number,
): FilerStatements {
  const income: Rec[] = [];
  const cashFlow: Rec[] = [];
  const balance: Rec[] = [];
  const revenueToday = filer.shares * p.revenuePerShare;
  const bank = filer.sic !== undefined && BANK_SIC.has(filer.sic);
  // Opening cash a quarter before the first one.
  let cash = round(revenueToday * Math.pow(1 + p.growth, -(quarters[0]?.age ?? 0)) * rng.float(0.08, 0.25));
  let debt = round(revenueToday * p.assetsToRevenue * (bank ? 0.08 : rng.float(0.1, 0.3)));
  for (const q of quarters) {
    const scale = Math.pow(1 + p.growth, -q.age);
    const shares = filer.shares * Math.pow(1 + p.buybackRate, q.age * 4) / sharesMultiple(q.periodEnd);
    const season = 1 + 0.05 * Math.sin((q.fiscalQuarter * Math.PI) / 2 + p.seasonPhase);
    const revenue = round((revenueToday / 4) * scale * season * rng.float(0.97, 1.03));
    const costOfRevenue = round(revenue * (1 - p.grossMargin) * rng.float(0.98, 1.02));
    const grossProfit = revenue - costOfRevenue;
    const opex = grossProfit - revenue * p.operatingMargin * rng.float(0.9, 1.1);
    const da = round(revenue * rng.float(0.03, 0.06));
    const rd = round(revenue * p.rdShare);
    const other = round(Math.max(0, opex - da - rd) * rng.float(0.02, 0.08));
    const sga = Math.max(0, round(opex - da - rd - other));
    const totalOpex = sga + rd + da + other;
    const operatingIncome = grossProfit - totalOpex;
    const interestIncome = round(cash * 0.01);
    const interestExpense = round(debt * rng.float(0.008, 0.012));
    const otherIncome = round(revenue * rng.float(-0.004, 0.004));
    const totalOther = interestIncome - interestExpense + otherIncome;
    const pretax = operatingIncome + totalOther;
    const taxes = round(pretax * p.taxRate);
    const consolidated = pretax - taxes;
    const nci = bank || filer.cik.endsWith('3') ? round(consolidated * 0.004) : 0;
    const preferred = bank ? round(revenue * 0.004) : 0;
    const common = consolidated - nci - preferred;
    const diluted = shares * rng.float(1.003, 1.015);
    income.push({
      revenue, cost_of_revenue: costOfRevenue, gross_profit: grossProfit, selling_general_administrative: sga, research_development: rd,
      depreciation_depletion_amortization: da, other_operating_expenses: other, total_operating_expenses: totalOpex, operating_income: operatingIncome,
      interest_income: interestIncome, interest_expense: interestExpense, other_income_expense: otherIncome, total_other_income_expense: totalOther,
      income_before_income_taxes: pretax, income_taxes: taxes, consolidated_net_income_loss: consolidated, noncontrolling_interest: nci,
      preferred_stock_dividends_declared: preferred, net_income_loss_attributable_common_shareholders: common,
      basic_earnings_per_share: round(common / shares, 2), diluted_earnings_per_share: round(common / diluted, 2),
      basic_shares_outstanding: round(shares), diluted_shares_outstanding: round(diluted), ebitda: operatingIncome + da,
    });

    // Cash flow: operating, investing, then financing steers cash toward a target level.
    const workingCapital = round(revenue * rng.float(-0.04, 0.04));
    const otherOperating = round(revenue * rng.float(0.005, 0.03));
    const operating = consolidated + da + workingCapital + otherOperating;
    const capex = -round(revenue * p.capexShare);
    const assetSales = rng.chance(0.3) ? round(-capex * rng.float(0.01, 0.05)) : 0;
    const otherInvesting = round(revenue * rng.float(-0.03, 0.01));
    const investing = capex + assetSales + otherInvesting;
    const shortDebt = round(revenue * rng.float(-0.01, 0.01));
    const dividendsPaid = -round(dividendsPerShare(q) * filer.shares * Math.pow(1 + p.buybackRate, q.age * 4));
    const fx = round(revenue * rng.float(-0.002, 0.002));
    const targetCash = revenueToday * scale * 0.15;
    let longDebt = round(revenue * rng.float(-0.02, 0.025));
    // Borrow when cash would fall below a floor; otherwise buy back what exceeds the cash target.
    const floor = revenueToday * scale * 0.04;
    const before = cash + operating + investing + shortDebt + longDebt + dividendsPaid + fx;
    if (before < floor) longDebt += round(floor - before);
    const desired = (targetCash - cash) * 0.35;
    const buybacks = -Math.max(0, Math.min(round(operating + investing + shortDebt + longDebt + dividendsPaid + fx - desired), round(before - floor)));
    const financing = shortDebt + longDebt + dividendsPaid + buybacks;
    const change = operating + investing + financing + fx;
    cash += change;
    debt = Math.max(0, debt + shortDebt + longDebt);
    cashFlow.push({
      net_income: consolidated, depreciation_depletion_and_amortization: da, change_in_other_operating_assets_and_liabilities_net: workingCapital,
      other_operating_activities: otherOperating, cash_from_operating_activities_continuing_operations: operating, net_cash_from_operating_activities: operating,
      purchase_of_property_plant_and_equipment: capex, sale_of_property_plant_and_equipment: assetSales, other_investing_activities: otherInvesting,
      net_cash_from_investing_activities_continuing_operations: investing, net_cash_from_investing_activities: investing,
      short_term_debt_issuances_repayments: shortDebt, long_term_debt_issuances_repayments: longDebt, dividends: dividendsPaid,
      other_financing_activities: buybacks, net_cash_from_financing_activities_continuing_operations: financing, net_cash_from_financing_activities: financing,
      effect_of_currency_exchange_rate: fx, change_in_cash_and_equivalents: change,
    });

    // Balance sheet at period end, built from its lines so every total is an exact sum.
    const annualRevenue = revenue * 4;
    const shortTermInvestments = round(annualRevenue * rng.float(0, 0.12));
    const receivables = round(revenue * rng.float(0.4, 0.9));
    const inventories = TECH_SIC.has(filer.sic ?? '') || bank ? round(revenue * rng.float(0, 0.2)) : round(revenue * rng.float(0.3, 0.9));
    const otherCurrent = round(annualRevenue * rng.float(0.01, 0.04));
    const totalCurrentAssets = cash + shortTermInvestments + receivables + inventories + otherCurrent;
    const ppe = round(annualRevenue * p.assetsToRevenue * rng.float(0.12, 0.3));
    const goodwill = round(annualRevenue * p.assetsToRevenue * rng.float(0.02, 0.15));
    const intangibles = round(goodwill * rng.float(0.05, 0.3));
    const otherAssets = round(Math.max(0, annualRevenue * p.assetsToRevenue - totalCurrentAssets - ppe - goodwill - intangibles) + annualRevenue * 0.02);
    const totalAssets = totalCurrentAssets + ppe + goodwill + intangibles + otherAssets;
    const payables = round(costOfRevenue * rng.float(0.5, 1));
    const accrued = round(totalAssets * rng.float(0.03, 0.07));
    const debtCurrent = round(debt * rng.float(0.08, 0.15));
    const deferred = round(revenue * rng.float(0, 0.15));
    const totalCurrentLiabilities = payables + accrued + debtCurrent + deferred;
    const longTermDebt = debt - debtCurrent;
    const otherNoncurrent = round(Math.max(0, totalAssets * p.leverage - totalCurrentLiabilities - longTermDebt));
    const totalLiabilities = totalCurrentLiabilities + longTermDebt + otherNoncurrent;
    const totalEquity = totalAssets - totalLiabilities;
    const minority = nci > 0 ? round(totalEquity * 0.01) : 0;
    const parent = totalEquity - minority;
    const commonStock = round(shares * 0.00001);
    const apic = round(parent * 0.45);
    const aoci = round(parent * rng.float(-0.03, 0.01));
    const treasury = -round(parent * rng.float(0, 0.1));
    const retained = parent - commonStock - apic - aoci - treasury;
    balance.push({
      cash_and_equivalents: cash, short_term_investments: shortTermInvestments, receivables, inventories, other_current_assets: otherCurrent,
      total_current_assets: totalCurrentAssets, property_plant_equipment_net: ppe, goodwill, intangible_assets_net: intangibles, other_assets: otherAssets,
      total_assets: totalAssets, accounts_payable: payables, accrued_and_other_current_liabilities: accrued, debt_current: debtCurrent,
      deferred_revenue_current: deferred, total_current_liabilities: totalCurrentLiabilities, long_term_debt_and_capital_lease_obligations: longTermDebt,
      other_noncurrent_liabilities: otherNoncurrent, total_liabilities: totalLiabilities, preferred_stock: bank ? round(parent * 0.02) : 0,
      common_stock: commonStock, additional_paid_in_capital: apic, retained_earnings_deficit: retained - (bank ? round(parent * 0.02) : 0),
      accumulated_other_comprehensive_income: aoci, treasury_stock: treasury, total_equity_attributable_to_parent: parent,
      noncontrolling_interest: minority, total_equity: totalEquity, total_liabilities_and_equity: totalLiabilities + totalEquity,
    });
  }
  return { quarters: [...quarters], income, cashFlow, balance };
}

/** Flows of four quarters summed; per-share and share counts from the four-quarter average. */
function summedIncome(qs: readonly Rec[]): Rec {
  const out: Rec = {};
  for (const f of INCOME_FLOWS) out[f] = sum(qs, f);
  const basic = sum(qs, 'basic_shares_outstanding') / qs.length;
  const diluted = sum(qs, 'diluted_shares_outstanding') / qs.length;
  out.basic_shares_outstanding = round(basic);
  out.diluted_shares_outstanding = round(diluted);
  out.basic_earnings_per_share = round(out.net_income_loss_attributable_common_shareholders! / basic, 2);
  out.diluted_earnings_per_share = round(out.net_income_loss_attributable_common_shareholders! / diluted, 2);
  return out;
}

function summedCashFlow(qs: readonly Rec[]): Rec {
  const out: Rec = {};
  for (const f of CASH_FLOWS) out[f] = sum(qs, f);
  return out;
}

/** Zero-valued optional lines are left out, as upstream omits what a filer did not report. */
function withoutZeros(r: Rec, keep: readonly string[]): DatasetRecord {
  const out: DatasetRecord = {};
  for (const [k, v] of Object.entries(r)) if (v !== 0 || keep.includes(k)) out[k] = v;
  return out;
}

const ALWAYS = ['revenue', 'net_income', 'total_assets', 'total_liabilities', 'total_equity', 'change_in_cash_and_equivalents', 'cash_and_equivalents'];

interface StatementRows {
  balance: DatasetRecord[];
  income: DatasetRecord[];
  cashFlow: DatasetRecord[];
}

/** Quarterly, annual and TTM rows of one filer, with the fields the API shows. */
function statementRows(filer: DemoFiler, s: FilerStatements): StatementRows {
  const rows: StatementRows = { balance: [], income: [], cashFlow: [] };
  const head = (q: Quarter, timeframe: string, withQuarter: boolean): DatasetRecord => ({
    cik: filer.cik,
    tickers: filer.tickers,
    period_end: q.periodEnd,
    filing_date: q.filingDate,
    fiscal_year: q.fiscalYear,
    ...(withQuarter ? { fiscal_quarter: q.fiscalQuarter } : {}),
    timeframe,
  });
  s.quarters.forEach((q, i) => {
    rows.balance.push({ ...head(q, 'quarterly', true), ...withoutZeros(s.balance[i]!, ALWAYS) });
    rows.income.push({ ...head(q, 'quarterly', true), ...withoutZeros(s.income[i]!, ALWAYS) });
    rows.cashFlow.push({ ...head(q, 'quarterly', true), ...withoutZeros(s.cashFlow[i]!, ALWAYS) });
    if (i < 3) return;
    const last4 = s.quarters.slice(i - 3, i + 1);
    // Four distinct consecutive quarters only (the series has no gaps, but be exact).
    if (yearsBetween(last4[0]!.periodEnd, q.periodEnd) > 1) return;
    const ttmIncome = summedIncome(s.income.slice(i - 3, i + 1));
    const ttmCash = summedCashFlow(s.cashFlow.slice(i - 3, i + 1));
    rows.income.push({ ...head(q, 'trailing_twelve_months', false), ...withoutZeros(ttmIncome, ALWAYS) });
    rows.cashFlow.push({ ...head(q, 'trailing_twelve_months', false), ...withoutZeros(ttmCash, ALWAYS) });
    if (q.fiscalQuarter === 4 && last4[0]!.fiscalQuarter === 1) {
      rows.income.push({ ...head(q, 'annual', false), ...withoutZeros(ttmIncome, ALWAYS) });
      rows.cashFlow.push({ ...head(q, 'annual', false), ...withoutZeros(ttmCash, ALWAYS) });
      rows.balance.push({ ...head(q, 'annual', false), ...withoutZeros(s.balance[i]!, ALWAYS) });
    }
  });
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Dividends

interface DemoDividend {
  record: DatasetRecord;
  /** Cash per current-basis share. */
  currentBasis: number;
}

/** Quarterly dividends (ex-dates every three months) from `from` to shortly after `asOf`. */
function dividendSchedule(ticker: string, p: Profile, annualToday: number, from: string, asOf: string, splits: readonly DemoSplit[]): DemoDividend[] {
  const out: DemoDividend[] = [];
  const startMonth = (p.exDayOfMonth % 3) + 1; // Feb/May/Aug/Nov style offsets per company
  const firstYear = Number(from.slice(0, 4));
  const lastYear = Number(asOf.slice(0, 4));
  for (let y = firstYear; y <= lastYear; y++) {
    for (let m = startMonth; m <= 12; m += 3) {
      const ex = onOrAfterTradingDay(`${y}-${String(m).padStart(2, '0')}-${String(p.exDayOfMonth).padStart(2, '0')}`);
      const declared = onOrBeforeTradingDay(addDays(ex, -28));
      if (ex < from || declared > asOf) continue;
      // Raised once a year, in the first quarter.
      const currentBasis = round((annualToday / 4) * Math.pow(1 + p.dividendRaise, -Math.floor(yearsBetween(`${y}-01-01`, `${lastYear}-01-01`))), 4);
      // T+1 settlement from 2024-05-28: record date = ex-date; before, the next session.
      const record = ex >= '2024-05-28' ? ex : nextTradingDay(ex);
      const cash = round(currentBasis * splitMultiple(splits, ticker, ex), 4);
      out.push({
        currentBasis,
        record: {
          ticker, cash_amount: cash, currency: 'USD', declaration_date: declared, ex_dividend_date: ex, record_date: record,
          pay_date: onOrAfterTradingDay(addDays(ex, 14 + (p.exDayOfMonth % 10))), frequency: 4, distribution_type: 'recurring',
        },
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Risk taxonomy (one snake_case vocabulary for both endpoints)

const TAXONOMY: Record<string, Record<string, Record<string, string>>> = {
  financial_and_market: {
    credit_and_liquidity: {
      access_to_capital_and_financing: 'may not obtain financing on acceptable terms when it needs capital',
      debt_covenants_and_refinancing: 'must meet covenants in its debt agreements and refinance maturing borrowings',
      liquidity_and_cash_management: 'could face liquidity shortfalls if cash flows fall short of obligations',
    },
    market_and_economic_conditions: {
      macroeconomic_downturn: 'depends on consumer and business spending that weakens in economic downturns',
      interest_rate_changes: 'is exposed to changes in interest rates affecting borrowing costs and asset values',
      foreign_exchange_exposure: 'earns revenue in currencies other than the US dollar and is exposed to exchange-rate moves',
      inflation_and_input_costs: 'faces rising input, labor and freight costs it may not pass on to customers',
    },
  },
  operational: {
    supply_chain: {
      supplier_concentration: 'relies on a limited number of suppliers, some of them single-source, for key components',
      component_shortages: 'could be unable to meet demand if components are in short supply',
      logistics_disruption: 'depends on shipping and logistics networks that natural disasters or conflicts can disrupt',
    },
    technology_and_systems: {
      cybersecurity_breaches: 'could suffer cyberattacks that compromise its systems or the data it holds',
      system_outages: 'relies on information systems whose failure could interrupt its operations',
    },
    people: {
      talent_retention: 'competes intensely for skilled employees and may fail to attract or retain them',
      labor_relations: 'could be affected by strikes, work stoppages or changes in labor law',
    },
  },
  legal_and_regulatory: {
    regulation: {
      data_privacy_regulation: 'is subject to evolving privacy and data-protection laws in many jurisdictions',
      antitrust_and_competition_law: 'faces antitrust scrutiny that could limit its business practices',
      environmental_regulation: 'must comply with environmental laws that may become more stringent and costly',
      tax_law_changes: 'could see its effective tax rate rise with changes in tax law or in their interpretation',
    },
    litigation: {
      intellectual_property_disputes: 'is party to intellectual-property claims that could be costly or restrict its products',
      product_liability_claims: 'could face product-liability claims and recalls',
    },
  },
  strategic_and_competitive: {
    competition: {
      pricing_pressure: 'operates in markets where competitors may cut prices and compress its margins',
      new_market_entrants: 'may lose share to new entrants with different business models',
    },
    innovation: {
      technology_shifts: 'must keep pace with rapid technological change, including artificial intelligence',
      product_development_failure: 'invests in new products that may not succeed commercially',
    },
    growth: {
      acquisition_integration: 'may not realise the expected benefits of acquisitions',
      international_expansion: 'expands in international markets with risks it does not face at home',
    },
  },
  governance_and_stakeholder: {
    organizational_and_management: {
      key_personnel_dependence: 'depends on the continued service of its senior management',
      performance_management_and_accountability: 'relies on management systems and incentives that may not drive the intended results',
    },
    shareholder_matters: {
      share_price_volatility: 'has a share price that may be volatile and decline regardless of its performance',
      concentrated_voting_control: 'has shareholders whose voting control limits the influence of other holders',
    },
  },
  environmental_and_social: {
    climate: {
      physical_climate_risk: 'has facilities and suppliers exposed to extreme weather and other physical effects of climate change',
      low_carbon_transition: 'could be affected by policies and market shifts toward a low-carbon economy',
    },
    reputation: {
      brand_damage: 'depends on a reputation and brands that adverse publicity could harm',
      sustainability_expectations: 'faces stakeholder expectations on sustainability that it may not meet',
    },
  },
  geopolitical: {
    trade: {
      tariffs_and_trade_restrictions: 'is exposed to tariffs and trade restrictions between the countries where it operates',
      export_controls: 'is subject to export controls that restrict sales of some products to some countries',
    },
    political: {
      political_instability: 'operates in regions where political instability could disrupt its business',
      sanctions: 'must comply with sanctions regimes that may restrict its activities',
    },
  },
};

const display = (s: string) => s.replace(/_/g, ' ');

export function riskCategoryRows(): DatasetRecord[] {
  const out: DatasetRecord[] = [];
  for (const [primary, seconds] of Object.entries(TAXONOMY)) {
    for (const [secondary, thirds] of Object.entries(seconds)) {
      for (const [tertiary, phrase] of Object.entries(thirds)) {
        out.push({
          taxonomy: 1,
          primary_category: primary,
          secondary_category: secondary,
          tertiary_category: tertiary,
          description: `Risk that the company ${phrase} (${display(primary)} / ${display(secondary)}).`,
        });
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Economy

/** [date, value] anchors, linearly interpolated. */
function interpolate(anchors: readonly (readonly [string, number])[], date: string): number {
  const d = dayOfDate(date);
  if (d <= dayOfDate(anchors[0]![0])) return anchors[0]![1];
  for (let i = 1; i < anchors.length; i++) {
    const [bd, bv] = anchors[i]!;
    const b = dayOfDate(bd);
    if (d <= b) {
      const [ad, av] = anchors[i - 1]!;
      const a = dayOfDate(ad);
      return av + ((bv - av) * (d - a)) / (b - a);
    }
  }
  return anchors[anchors.length - 1]![1];
}

// Shapes loosely follow the 2021–2026 cycle; the values are synthetic.
const INFLATION_RATE: readonly (readonly [string, number])[] = [
  ['2020-01-01', 2.0], ['2021-06-01', 5.0], ['2022-06-01', 9.0], ['2023-06-01', 3.5], ['2024-06-01', 3.0], ['2025-06-01', 2.7], ['2026-12-01', 2.5],
];
const SHORT_RATE: readonly (readonly [string, number])[] = [
  ['2020-01-01', 0.05], ['2022-03-01', 0.3], ['2022-12-31', 4.3], ['2023-08-01', 5.45], ['2024-08-01', 5.3], ['2024-12-31', 4.3], ['2025-12-31', 3.7], ['2026-12-31', 3.4],
];
const TEN_YEAR: readonly (readonly [string, number])[] = [
  ['2020-01-01', 1.5], ['2021-11-20', 1.6], ['2022-10-20', 4.1], ['2023-04-01', 3.5], ['2023-10-19', 4.95], ['2024-09-15', 3.65], ['2025-01-14', 4.75], ['2025-09-01', 4.2], ['2026-12-31', 4.1],
];

const TENORS: readonly (readonly [string, number])[] = [
  ['yield_1_month', 1 / 12], ['yield_3_month', 0.25], ['yield_6_month', 0.5], ['yield_1_year', 1], ['yield_2_year', 2], ['yield_3_year', 3],
  ['yield_5_year', 5], ['yield_7_year', 7], ['yield_10_year', 10], ['yield_20_year', 20], ['yield_30_year', 30],
];

export function treasuryYieldRows(from: string, asOf: string, rng: Rng): DatasetRecord[] {
  const out: DatasetRecord[] = [];
  let shortNoise = 0;
  let longNoise = 0;
  for (const date of tradingDaysBetween(from, asOf)) {
    shortNoise = shortNoise * 0.9 + rng.normal(0, 0.02);
    longNoise = longNoise * 0.95 + rng.normal(0, 0.03);
    const short = Math.max(0.01, interpolate(SHORT_RATE, date) + shortNoise);
    const ten = Math.max(0.3, interpolate(TEN_YEAR, date) + longNoise);
    const tau = 2.5;
    const row: DatasetRecord = { date };
    for (const [name, t] of TENORS) {
      let y: number;
      if (t <= 10) y = short + ((ten - short) * (1 - Math.exp(-t / tau))) / (1 - Math.exp(-10 / tau));
      else y = ten + (t === 20 ? 0.3 : 0.2);
      row[name] = round(Math.max(0.01, y), 2);
    }
    out.push(row);
  }
  return out;
}

export function inflationRows(from: string, asOf: string, rng: Rng): { inflation: DatasetRecord[]; expectations: DatasetRecord[] } {
  const inflation: DatasetRecord[] = [];
  const expectations: DatasetRecord[] = [];
  // Twelve months of warm-up so the first year-over-year figure has its base.
  const startYear = Number(from.slice(0, 4)) - 1;
  const startMonth = Number(from.slice(5, 7)) - 1;
  let cpi = 270;
  let core = 276;
  let pce = 114;
  let pceCore = 113.5;
  let spending = 15600;
  const history: number[] = [];
  for (let i = 0; ; i++) {
    const y = startYear + Math.floor((startMonth + i) / 12);
    const m = ((startMonth + i) % 12) + 1;
    const date = `${y}-${String(m).padStart(2, '0')}-01`;
    // A month's figures are published mid-month after it.
    if (addDays(lastDayOfMonth(y, m), 15) > asOf) break;
    const annual = interpolate(INFLATION_RATE, date) / 100;
    const monthly = Math.pow(1 + annual, 1 / 12) - 1;
    cpi *= 1 + monthly + rng.normal(0, 0.0008);
    core *= 1 + monthly * 0.85 + 0.0004 + rng.normal(0, 0.0006);
    pce *= 1 + monthly * 0.8 + rng.normal(0, 0.001);
    pceCore *= 1 + monthly * 0.75 + 0.0003 + rng.normal(0, 0.0005);
    spending *= 1 + 0.004 + rng.normal(0, 0.002);
    history.push(cpi);
    if (date < from.slice(0, 7) + '-01') continue;
    const yearAgo = history[history.length - 13];
    inflation.push({
      date, cpi: round(cpi, 3), cpi_core: round(core, 3),
      ...(yearAgo ? { cpi_year_over_year: round((cpi / yearAgo - 1) * 100, 2) } : {}),
      pce: round(pce, 3), pce_core: round(pceCore, 3), pce_spending: round(spending, 1),
    });
    const current = annual * 100;
    expectations.push({
      date,
      market_5_year: round(2.1 + (current - 2) * 0.12 + rng.normal(0, 0.05), 2),
      market_10_year: round(2.15 + (current - 2) * 0.07 + rng.normal(0, 0.04), 2),
      forward_years_5_to_10: round(2.2 + (current - 2) * 0.03 + rng.normal(0, 0.04), 2),
      model_1_year: round(1.8 + (current - 2) * 0.45 + rng.normal(0, 0.08), 2),
      model_5_year: round(2.0 + (current - 2) * 0.12 + rng.normal(0, 0.04), 2),
      model_10_year: round(2.1 + (current - 2) * 0.07 + rng.normal(0, 0.03), 2),
      model_30_year: round(2.25 + (current - 2) * 0.03 + rng.normal(0, 0.02), 2),
    });
  }
  return { inflation, expectations };
}

// ---------------------------------------------------------------------------------------------
// The demo step

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

/** Short-interest settlement dates: the 15th and the month end, moved back to a session. */
function sessionsOnSettlementDates(from: string, to: string): string[] {
  const out: string[] = [];
  let y = Number(from.slice(0, 4));
  let m = Number(from.slice(5, 7)) - 1;
  for (;;) {
    for (const d of [`${y}-${String(m + 1).padStart(2, '0')}-15`, lastDayOfMonth(y, m + 1)]) {
      const s = onOrBeforeTradingDay(d);
      if (s >= from && s <= to) out.push(s);
    }
    if (`${y}-${String(m + 1).padStart(2, '0')}` >= to.slice(0, 7)) break;
    m++;
    if (m === 12) {
      m = 0;
      y++;
    }
  }
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
