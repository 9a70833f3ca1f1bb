// Financial statements of one filer: fiscal quarters, quarterly income, cash-flow and balance
// sheet figures that add up, and the quarterly, annual and TTM rows the API shows.

import type { DatasetRecord } from '../store/repos/datasets.js';
import { BANK_SIC, TECH_SIC } from './facts/filers.js';
import { ALWAYS, CASH_FLOWS, INCOME_FLOWS } from './facts/statement-fields.js';
import type { DemoFiler, Profile } from './filers.js';
import { addDays } from './civil-days.js';
import { lastDayOfMonth, onOrAfterTradingDay, round, yearsBetween } from './fundamental-dates.js';
import type { Rng } from './random.js';

export interface Quarter {
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
export function summedIncome(qs: readonly Rec[]): Rec {
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

export function summedCashFlow(qs: readonly Rec[]): Rec {
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

interface StatementRows {
  balance: DatasetRecord[];
  income: DatasetRecord[];
  cashFlow: DatasetRecord[];
}

/** Quarterly, annual and TTM rows of one filer, with the fields the API shows. */
export function statementRows(filer: DemoFiler, s: FilerStatements): StatementRows {
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
