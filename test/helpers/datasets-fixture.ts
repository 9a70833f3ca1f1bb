// Small hand-made rows of the new-style data sets, whose expected answers can be worked out by hand.
import type { Store } from '../../src/store/index.js';
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
} from '../../src/store/repos/dataset-catalog.js';
import type { DatasetRecord } from '../../src/store/repos/datasets.js';

export const SPLIT_ROWS: DatasetRecord[] = [
  { ticker: 'AAPL', execution_date: '2005-02-28', split_from: 1, split_to: 2 },
  { ticker: 'AAPL', execution_date: '2014-06-09', split_from: 1, split_to: 7 },
  { ticker: 'AAPL', execution_date: '2020-08-31', split_from: 1, split_to: 4 },
  { ticker: 'TSLA', execution_date: '2022-08-25', split_from: 1, split_to: 3 },
  { ticker: 'GE', execution_date: '2021-08-02', split_from: 8, split_to: 1 },
  { ticker: 'XYZ', execution_date: '2023-05-01', split_from: 100, split_to: 105, adjustment_type: 'stock_dividend' },
];

const aaplDiv = { ticker: 'AAPL', currency: 'USD', frequency: 4, distribution_type: 'recurring' };

export const DIVIDEND_ROWS: DatasetRecord[] = [
  { ...aaplDiv, id: 'Ed2c9da60abda1e3f0e99a43f6465863c137b671e1f5cd3f833d1fcb4f4eb27fe', cash_amount: 0.26, declaration_date: '2025-07-31', ex_dividend_date: '2025-08-11', record_date: '2025-08-11', pay_date: '2025-08-14', historical_adjustment_factor: 0.997899 },
  { ...aaplDiv, cash_amount: 0.26, declaration_date: '2025-05-01', ex_dividend_date: '2025-05-12', record_date: '2025-05-12', pay_date: '2025-05-15' },
  { ...aaplDiv, cash_amount: 0.82, declaration_date: '2020-07-30', ex_dividend_date: '2020-08-07', record_date: '2020-08-10', pay_date: '2020-08-13' },
  { ticker: 'MSFT', cash_amount: 0.83, currency: 'USD', declaration_date: '2025-06-10', ex_dividend_date: '2025-08-21', record_date: '2025-08-21', pay_date: '2025-09-11', frequency: 4, distribution_type: 'recurring' },
  { ticker: 'KO', cash_amount: 0.51, currency: 'USD', ex_dividend_date: '2025-06-13', pay_date: '2025-07-01', frequency: 4, distribution_type: 'recurring' },
  { ticker: 'KO', cash_amount: 0.1, currency: 'USD', ex_dividend_date: '2024-11-29', frequency: 0, distribution_type: 'special' },
  { ticker: 'SPY', cash_amount: 1.76, currency: 'USD', ex_dividend_date: '2025-06-20', record_date: '2025-06-20', pay_date: '2025-07-31', frequency: 4, distribution_type: 'recurring' },
  // v3-style rows: dividend_type instead of distribution_type
  { ticker: 'CSSEN', cash_amount: 0.59375, declaration_date: '2020-09-09', ex_dividend_date: '2025-06-12', record_date: '2025-06-15', pay_date: '2025-06-30', frequency: 4, dividend_type: 'CD' },
  { ticker: 'VTI', cash_amount: 0.05, currency: 'USD', ex_dividend_date: '2024-12-20', frequency: 0, dividend_type: 'LT' },
];

// Three filers; quarters of 2024 and 2025 H1, annual 2024, TTM at 2024Q4 and 2025Q2.
const FILERS = [
  { cik: '0000320193', tickers: ['AAPL'], base: 100 },
  { cik: '0001652044', tickers: ['GOOG', 'GOOGL'], base: 80 },
  { cik: '0001067983', tickers: ['BRK.A', 'BRK.B'], base: 90 },
];
const QUARTERS = [
  { period_end: '2024-03-31', filing_date: '2024-05-02', fiscal_year: 2024, fiscal_quarter: 1 },
  { period_end: '2024-06-30', filing_date: '2024-08-01', fiscal_year: 2024, fiscal_quarter: 2 },
  { period_end: '2024-09-30', filing_date: '2024-10-31', fiscal_year: 2024, fiscal_quarter: 3 },
  { period_end: '2024-12-31', filing_date: '2025-02-20', fiscal_year: 2024, fiscal_quarter: 4 },
  { period_end: '2025-03-31', filing_date: '2025-05-01', fiscal_year: 2025, fiscal_quarter: 1 },
  { period_end: '2025-06-30', filing_date: '2025-07-31', fiscal_year: 2025, fiscal_quarter: 2 },
];

/** Statement rows: revenue = base + quarter index (×1e9), so values are easy to predict. */
export function statementRows(kind: 'balance' | 'income' | 'cash'): DatasetRecord[] {
  const out: DatasetRecord[] = [];
  for (const f of FILERS) {
    QUARTERS.forEach((q, i) => {
      const head = { cik: f.cik, tickers: f.tickers, ...q, timeframe: 'quarterly' };
      const v = (f.base + i) * 1e9;
      if (kind === 'balance') out.push({ ...head, total_assets: v * 3, total_liabilities: v * 2, total_equity: v, total_liabilities_and_equity: v * 3 });
      else if (kind === 'income') out.push({ ...head, revenue: v, net_income_loss_attributable_common_shareholders: v / 5, diluted_earnings_per_share: (f.base + i) / 10 });
      else out.push({ ...head, net_cash_from_operating_activities: v / 4, net_cash_from_investing_activities: -v / 8, net_cash_from_financing_activities: -v / 16, change_in_cash_and_equivalents: v / 16 });
    });
    const annual = { cik: f.cik, tickers: f.tickers, period_end: '2024-12-31', filing_date: '2025-02-20', fiscal_year: 2024, timeframe: 'annual' };
    const ttm = (q: (typeof QUARTERS)[number]) => ({ cik: f.cik, tickers: f.tickers, period_end: q.period_end, filing_date: q.filing_date, fiscal_year: q.fiscal_year, timeframe: 'trailing_twelve_months' });
    if (kind === 'balance') out.push({ ...annual, total_assets: 1, total_liabilities: 1, total_equity: 0, total_liabilities_and_equity: 1 });
    else if (kind === 'income') out.push({ ...annual, revenue: (4 * f.base + 6) * 1e9 }, { ...ttm(QUARTERS[3]!), revenue: 1 }, { ...ttm(QUARTERS[5]!), revenue: 2 });
    else out.push({ ...annual, net_cash_from_operating_activities: 1 }, { ...ttm(QUARTERS[5]!), net_cash_from_operating_activities: 2 });
  }
  return out;
}

export const RATIO_ROWS: DatasetRecord[] = [
  { ticker: 'AAPL', cik: '0000320193', date: '2025-11-20', price: 230.5, market_cap: 3.4e12, price_to_earnings: 34.8, dividend_yield: 0.0045 },
  // an older row of AAPL: not the latest, so never listed
  { ticker: 'AAPL', cik: '0000320193', date: '2025-11-19', price: 228.0, market_cap: 3.38e12, price_to_earnings: 34.4 },
  { ticker: 'KO', cik: '0000021344', date: '2025-11-20', price: 70.1, market_cap: 3.0e11, price_to_earnings: 23.5, dividend_yield: 0.029 },
  { ticker: 'NVDA', cik: '0001045810', date: '2025-11-20', price: 180.2, market_cap: 4.4e12, price_to_earnings: 52.0 },
  { ticker: 'LOSS', date: '2025-11-20', price: 3.2, market_cap: 5.0e8 },
];

export const FLOAT_ROWS: DatasetRecord[] = [
  { ticker: 'AAPL', effective_date: '2025-11-01', free_float: 14_700_000_000, free_float_percent: 99.4 },
  { ticker: 'AAPL', effective_date: '2025-10-01', free_float: 14_800_000_000, free_float_percent: 99.5 },
  { ticker: 'META', effective_date: '2025-11-01', free_float: 2_150_000_000, free_float_percent: 85.12 },
  { ticker: 'WMT', effective_date: '2025-11-01', free_float: 4_000_000_000, free_float_percent: 50.1 },
];

export const SHORT_INTEREST_ROWS: DatasetRecord[] = ['AAPL', 'MSFT', 'TSLA'].flatMap((ticker, i) =>
  ['2025-09-15', '2025-09-30', '2025-10-15', '2025-10-31'].map((settlement_date, j) => ({
    ticker, settlement_date, short_interest: (i + 1) * 1_000_000 + j, avg_daily_volume: 500_000 * (i + 1), days_to_cover: round2(((i + 1) * 1_000_000 + j) / (500_000 * (i + 1))) + j,
  })),
);

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

export const SHORT_VOLUME_ROWS: DatasetRecord[] = ['AAPL', 'TSLA'].flatMap((ticker, i) =>
  ['2025-11-17', '2025-11-18', '2025-11-19', '2025-11-20'].map((date, j) => ({
    ticker, date, total_volume: 1000, short_volume: 300 + 100 * j + i, exempt_volume: 10, non_exempt_volume: 290 + 100 * j + i,
    short_volume_ratio: (300 + 100 * j + i) / 10, nyse_short_volume: 20, nasdaq_carteret_short_volume: 200, adf_short_volume: 5,
  })),
);

export const RISK_CATEGORY_ROWS: DatasetRecord[] = [
  { taxonomy: 1, primary_category: 'financial_and_market', secondary_category: 'credit_and_liquidity', tertiary_category: 'access_to_capital_and_financing', description: 'Financing risk.' },
  { taxonomy: 1, primary_category: 'operational', secondary_category: 'supply_chain', tertiary_category: 'supplier_concentration', description: 'Supplier risk.' },
  { taxonomy: 1.1, primary_category: 'operational', secondary_category: 'technology_and_systems', tertiary_category: 'cybersecurity_breaches', description: 'Cyber risk.' },
  { taxonomy: 1.1, primary_category: 'geopolitical', secondary_category: 'trade', tertiary_category: 'export_controls', description: 'Export controls.' },
];

export const RISK_FACTOR_ROWS: DatasetRecord[] = [
  { cik: '0000320193', ticker: 'AAPL', filing_date: '2024-11-01', primary_category: 'operational', secondary_category: 'supply_chain', tertiary_category: 'supplier_concentration', supporting_text: 'Single-source suppliers.' },
  { cik: '0000320193', ticker: 'AAPL', filing_date: '2025-10-31', primary_category: 'operational', secondary_category: 'supply_chain', tertiary_category: 'supplier_concentration', supporting_text: 'Single-source suppliers.' },
  { cik: '0000320193', ticker: 'AAPL', filing_date: '2025-10-31', primary_category: 'operational', secondary_category: 'technology_and_systems', tertiary_category: 'cybersecurity_breaches', supporting_text: 'Cyberattacks.' },
  { cik: '0001045810', ticker: 'NVDA', filing_date: '2025-02-26', primary_category: 'geopolitical', secondary_category: 'trade', tertiary_category: 'export_controls', supporting_text: 'Export licences.' },
  { cik: '0000789019', ticker: 'MSFT', filing_date: '2025-07-30', primary_category: 'financial_and_market', secondary_category: 'credit_and_liquidity', tertiary_category: 'access_to_capital_and_financing', supporting_text: 'Markets.' },
];

export const INFLATION_ROWS: DatasetRecord[] = ['2025-01', '2025-02', '2025-03', '2025-04', '2025-05', '2025-06'].map((m, i) => ({
  date: `${m}-01`, cpi: 315 + i, cpi_core: 320 + i, cpi_year_over_year: 3 - i / 10, pce: 125 + i / 2, pce_core: 124 + i / 2, pce_spending: 20000 + 50 * i,
}));

export const EXPECTATION_ROWS: DatasetRecord[] = ['2025-04-01', '2025-05-01', '2025-06-01'].map((date, i) => ({
  date, market_5_year: 2.4 + i / 10, market_10_year: 2.3, forward_years_5_to_10: 2.25, model_1_year: 2.9, model_5_year: 2.4, model_10_year: 2.35, model_30_year: 2.4,
}));

export const YIELD_ROWS: DatasetRecord[] = [
  // an early date without the short tenors
  { date: '1962-01-02', yield_1_year: 3.22, yield_5_year: 3.88, yield_10_year: 4.06 },
  ...['2025-11-17', '2025-11-18', '2025-11-19', '2025-11-20'].map((date, i) => ({
    date, yield_1_month: 4 + i / 100, yield_3_month: 3.9, yield_6_month: 3.8, yield_1_year: 3.7, yield_2_year: 3.6, yield_3_year: 3.6, yield_5_year: 3.7, yield_7_year: 3.9, yield_10_year: 4.1 + i / 100, yield_20_year: 4.6, yield_30_year: 4.7,
  })),
];

export async function seedCorporateActions(store: Store): Promise<void> {
  await store.corporateActions.upsertSplits(SPLIT_ROWS);
  await store.corporateActions.upsertDividends(DIVIDEND_ROWS);
}

export async function seedFundamentals(store: Store): Promise<void> {
  await store.datasets.upsert(BALANCE_SHEETS, statementRows('balance'));
  await store.datasets.upsert(INCOME_STATEMENTS, statementRows('income'));
  await store.datasets.upsert(CASH_FLOW_STATEMENTS, statementRows('cash'));
  await store.datasets.upsert(RATIOS, RATIO_ROWS);
  await store.datasets.upsert(FLOAT, FLOAT_ROWS);
  await store.datasets.upsert(SHORT_INTEREST, SHORT_INTEREST_ROWS);
  await store.datasets.upsert(SHORT_VOLUME, SHORT_VOLUME_ROWS);
}

export async function seedFilings(store: Store): Promise<void> {
  await store.datasets.upsert(RISK_CATEGORIES, RISK_CATEGORY_ROWS);
  await store.datasets.upsert(RISK_FACTORS, RISK_FACTOR_ROWS);
}

export async function seedEconomy(store: Store): Promise<void> {
  await store.datasets.upsert(INFLATION, INFLATION_ROWS);
  await store.datasets.upsert(INFLATION_EXPECTATIONS, EXPECTATION_ROWS);
  await store.datasets.upsert(TREASURY_YIELDS, YIELD_ROWS);
}

/** Follows next_url and returns every result, page after page. */
export function resultsOf(pages: { results: unknown[] }[]): any[] {
  return pages.flatMap((p) => p.results);
}
