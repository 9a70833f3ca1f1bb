// Declarations of the data sets other than corporate actions: fundamentals, filings and economy.
// Field names, types, filters, default sorts and limits are those of upstream's
// /stocks/financials/v1/*, /stocks/filings/v1/*, /stocks/v1/* and /fed/v1/* endpoints; the
// natural keys are ours.
import { DIVIDENDS, SPLITS } from './corporate-actions.js';
import { ECONOMY_EXTRA_DATASETS, FUNDING_CONDITIONS } from './economy-catalog.js';
import { DISCLOSURE_TAXONOMY, EIGHT_K_DISCLOSURES, FILING_DATASETS } from './filings-catalog.js';
import { FUTURES_DATASETS } from './futures-catalog.js';
import { LISTING_DATASETS } from './listings-catalog.js';
import { PARTNER_DATASETS } from './partner-catalog.js';
import { defineDataset, type DatasetDef, type DatasetFields, type FieldDef, type FilterForm } from './datasets.js';

const ALL: readonly FilterForm[] = ['eq', 'any_of', 'range'];
const EQ_RANGE: readonly FilterForm[] = ['eq', 'range'];

const num = (description: string): FieldDef => ({ type: 'float', description });
const int = (description: string): FieldDef => ({ type: 'int', description });

function numbers(spec: Record<string, string>, type: 'float' | 'int' = 'float'): DatasetFields {
  const out: DatasetFields = {};
  for (const [name, description] of Object.entries(spec)) out[name] = type === 'float' ? num(description) : int(description);
  return out;
}

const CIK: FieldDef = { type: 'text', normalize: 'cik', description: 'SEC Central Index Key, 10 digits zero-padded.' };

// ---------------------------------------------------------------------------------------------
// Financial statements: balance sheets, cash-flow and income statements

function statementHead(timeframes: readonly string[]): DatasetFields {
  return {
    cik: { ...CIK, required: true },
    tickers: { type: 'string-array', description: 'Ticker symbols of the filer\'s share classes.' },
    period_end: { type: 'date', required: true, description: 'Last day of the reporting period.' },
    filing_date: { type: 'date', description: 'SEC filing date.' },
    fiscal_year: { type: 'float', description: 'Fiscal year.' },
    fiscal_quarter: { type: 'float', min: 1, max: 4, description: 'Fiscal quarter (1–4); omitted on annual and TTM rows.' },
    timeframe: { type: 'text', required: true, enum: timeframes, description: timeframes.join(', ') },
  };
}

const STATEMENT_FILTERS: Record<string, readonly FilterForm[]> = {
  cik: ALL,
  tickers: ['eq', 'any_of', 'all_of'],
  period_end: EQ_RANGE,
  filing_date: EQ_RANGE,
  fiscal_year: EQ_RANGE,
  fiscal_quarter: EQ_RANGE,
  timeframe: ALL,
};

const statement = (name: string, table: string, timeframes: readonly string[], values: DatasetFields): DatasetDef =>
  defineDataset({
    name,
    table,
    fields: { ...statementHead(timeframes), ...values },
    key: ['cik', 'period_end', 'timeframe'],
    filters: STATEMENT_FILTERS,
    sort: 'period_end.asc',
    limit: { default: 100, max: 50001 },
  });

export const STATEMENT_TIMEFRAMES = ['quarterly', 'annual', 'trailing_twelve_months'] as const;

export const BALANCE_SHEETS = statement('balance-sheets', 'balance_sheets', ['quarterly', 'annual'], numbers({
  cash_and_equivalents: 'Cash plus near-cash instruments.',
  short_term_investments: 'Marketable securities due within a year, not cash equivalents.',
  receivables: 'Amounts owed to the company, net of allowances.',
  inventories: 'Raw materials, work in progress and finished goods.',
  other_current_assets: 'Current assets not listed elsewhere.',
  total_current_assets: 'Sum of current assets.',
  property_plant_equipment_net: 'Fixed assets net of depreciation.',
  goodwill: 'Acquisition premium over net assets.',
  intangible_assets_net: 'Intangibles other than goodwill, net.',
  other_assets: 'Remaining non-current assets.',
  total_assets: 'All assets.',
  accounts_payable: 'Owed to suppliers.',
  accrued_and_other_current_liabilities: 'Accruals and other current obligations.',
  debt_current: 'Short-term borrowings plus the current part of long-term debt.',
  deferred_revenue_current: 'Customer prepayments due within a year.',
  total_current_liabilities: 'Sum of current liabilities.',
  long_term_debt_and_capital_lease_obligations: 'Debt and leases due after a year.',
  other_noncurrent_liabilities: 'Remaining long-term liabilities.',
  total_liabilities: 'All liabilities.',
  commitments_and_contingencies: 'Disclosed commitments and contingencies.',
  preferred_stock: 'Preferred equity at par or stated value.',
  common_stock: 'Common equity at par or stated value.',
  additional_paid_in_capital: 'Paid-in capital above par.',
  retained_earnings_deficit: 'Accumulated earnings less dividends.',
  accumulated_other_comprehensive_income: 'Accumulated other comprehensive income.',
  treasury_stock: 'Repurchased shares held (usually negative).',
  other_equity: 'Other equity items.',
  total_equity_attributable_to_parent: 'Equity excluding minority interest.',
  noncontrolling_interest: 'Minority interest in subsidiaries.',
  total_equity: 'All equity.',
  total_liabilities_and_equity: 'Equals total_assets.',
}));

export const CASH_FLOW_STATEMENTS = statement('cash-flow-statements', 'cash_flow_statements', STATEMENT_TIMEFRAMES, numbers({
  net_income: 'Starting point of the operating section.',
  depreciation_depletion_and_amortization: 'Non-cash D&A add-back.',
  change_in_other_operating_assets_and_liabilities_net: 'Working-capital change.',
  other_operating_activities: 'Other reconciling items.',
  cash_from_operating_activities_continuing_operations: 'Operating cash flow, continuing operations.',
  net_cash_from_operating_activities_discontinued_operations: 'Operating cash flow, discontinued operations.',
  net_cash_from_operating_activities: 'Total operating cash flow.',
  purchase_of_property_plant_and_equipment: 'Capital expenditure (negative).',
  sale_of_property_plant_and_equipment: 'Asset disposals (positive).',
  other_investing_activities: 'Other investing flows.',
  net_cash_from_investing_activities_continuing_operations: 'Investing, continuing operations.',
  net_cash_from_investing_activities_discontinued_operations: 'Investing, discontinued operations.',
  net_cash_from_investing_activities: 'Total investing.',
  short_term_debt_issuances_repayments: 'Net short-term debt flow.',
  long_term_debt_issuances_repayments: 'Net long-term debt flow.',
  dividends: 'Dividends paid (negative).',
  other_financing_activities: 'Buybacks and other financing.',
  net_cash_from_financing_activities_continuing_operations: 'Financing, continuing operations.',
  net_cash_from_financing_activities_discontinued_operations: 'Financing, discontinued operations.',
  net_cash_from_financing_activities: 'Total financing.',
  effect_of_currency_exchange_rate: 'Exchange-rate effect on cash.',
  other_cash_adjustments: 'Remaining adjustments.',
  change_in_cash_and_equivalents: 'Net change in cash.',
  income_loss_from_discontinued_operations: 'After-tax result of discontinued operations.',
  noncontrolling_interests: 'Flows with minority holders.',
}));

export const INCOME_STATEMENTS = statement('income-statements', 'income_statements', STATEMENT_TIMEFRAMES, numbers({
  revenue: 'Total revenue / net sales.',
  cost_of_revenue: 'Cost of goods sold.',
  gross_profit: 'Revenue minus cost of revenue.',
  selling_general_administrative: 'SG&A.',
  research_development: 'R&D.',
  depreciation_depletion_amortization: 'D&A expense.',
  other_operating_expenses: 'Other operating costs.',
  total_operating_expenses: 'All operating costs.',
  operating_income: 'Gross profit minus operating expenses.',
  interest_income: 'Interest earned.',
  interest_expense: 'Interest paid.',
  other_income_expense: 'Other non-operating items.',
  total_other_income_expense: 'Net non-operating total.',
  income_before_income_taxes: 'Pre-tax income.',
  income_taxes: 'Tax expense (benefit negative).',
  discontinued_operations: 'After-tax discontinued operations.',
  extraordinary_items: 'Extraordinary gains or losses.',
  equity_in_affiliates: 'Share of equity-method results.',
  consolidated_net_income_loss: 'Net income including minority interest.',
  noncontrolling_interest: 'Part attributable to minority holders.',
  preferred_stock_dividends_declared: 'Preferred dividends.',
  net_income_loss_attributable_common_shareholders: 'Income to common holders.',
  basic_earnings_per_share: 'Basic EPS.',
  diluted_earnings_per_share: 'Diluted EPS.',
  basic_shares_outstanding: 'Weighted basic shares.',
  diluted_shares_outstanding: 'Weighted diluted shares.',
  ebitda: 'Earnings before interest, taxes, depreciation and amortization.',
}));

// ---------------------------------------------------------------------------------------------
// Ratios, float, short interest, short volume

const RATIO_VALUES = numbers({
  price: 'Close used.',
  average_volume: '30-trading-day average volume.',
  market_cap: 'Price × shares outstanding.',
  enterprise_value: 'Market cap + total debt − cash.',
  earnings_per_share: 'TTM EPS.',
  price_to_earnings: 'Price / EPS; only when EPS > 0.',
  price_to_book: 'Price / book value per share.',
  price_to_sales: 'Price / revenue per share.',
  price_to_cash_flow: 'Price / operating cash flow per share; only when positive.',
  price_to_free_cash_flow: 'Price / free cash flow per share; only when positive.',
  free_cash_flow: 'Operating cash flow − capex.',
  dividend_yield: 'Annual dividends per share / price (fraction).',
  return_on_assets: 'Net income / total assets (fraction).',
  return_on_equity: 'Net income / equity (fraction).',
  debt_to_equity: '(Current + long-term debt) / equity.',
  current: 'Current assets / current liabilities.',
  quick: '(Current assets − inventories) / current liabilities.',
  cash: 'Cash and equivalents / current liabilities.',
  ev_to_sales: 'EV / revenue.',
  ev_to_ebitda: 'EV / EBITDA.',
});

export const RATIOS = defineDataset({
  name: 'ratios',
  table: 'ratios',
  fields: {
    ticker: { type: 'text', required: true, description: 'Ticker symbol.' },
    cik: CIK,
    date: { type: 'date', required: true, description: 'Trading date of the computation.' },
    ...RATIO_VALUES,
    price: { ...RATIO_VALUES.price!, required: true },
  },
  key: ['ticker', 'date'],
  filters: { ticker: ALL, cik: ALL, ...Object.fromEntries(Object.keys(RATIO_VALUES).map((f) => [f, EQ_RANGE])) },
  sort: 'ticker.asc',
  limit: { default: 100, max: 50001 },
  latestPer: { group: 'ticker', by: 'date' },
});

export const FLOAT = defineDataset({
  name: 'float',
  table: 'free_float',
  fields: {
    ticker: { type: 'text', required: true, description: 'Ticker symbol.' },
    effective_date: { type: 'date', required: true, description: 'As-of date of the measurement.' },
    free_float: { type: 'int', min: 0, description: 'Freely tradable shares.' },
    free_float_percent: { type: 'float', min: 0, max: 100, description: 'Free float / shares outstanding × 100.' },
  },
  key: ['ticker', 'effective_date'],
  filters: { ticker: ALL, free_float_percent: EQ_RANGE },
  sort: 'ticker.asc',
  limit: { default: 100, max: 5001 },
  latestPer: { group: 'ticker', by: 'effective_date' },
});

export const SHORT_INTEREST = defineDataset({
  name: 'short-interest',
  table: 'short_interest',
  fields: {
    ticker: { type: 'text', required: true, description: 'Ticker symbol.' },
    settlement_date: { type: 'date', required: true, description: 'Settlement date of the report.' },
    short_interest: { type: 'int', min: 0, description: 'Shares sold short and not covered.' },
    avg_daily_volume: { type: 'int', required: true, min: 0, description: 'Average daily volume.' },
    days_to_cover: { type: 'float', required: true, min: 0, description: 'short_interest / avg_daily_volume.' },
  },
  key: ['ticker', 'settlement_date'],
  filters: { ticker: ALL, settlement_date: ALL, days_to_cover: ALL, avg_daily_volume: ALL },
  sort: 'ticker.asc',
  limit: { default: 10, max: 50001 },
});

export const SHORT_VOLUME = defineDataset({
  name: 'short-volume',
  table: 'short_volume',
  fields: {
    ticker: { type: 'text', required: true, description: 'Ticker symbol.' },
    date: { type: 'date', required: true, description: 'Trade date.' },
    ...numbers({
      total_volume: 'All reported volume.',
      short_volume: 'Short-sale volume, all venues.',
      exempt_volume: 'Short volume marked Reg SHO exempt.',
      non_exempt_volume: 'short_volume − exempt_volume.',
      short_volume_ratio: 'short_volume / total_volume × 100.',
    }),
    ...numbers({
      nyse_short_volume: 'FINRA/NYSE TRF, non-exempt.',
      nyse_short_volume_exempt: 'FINRA/NYSE TRF, exempt.',
      nasdaq_carteret_short_volume: 'FINRA/Nasdaq TRF Carteret, non-exempt.',
      nasdaq_carteret_short_volume_exempt: 'FINRA/Nasdaq TRF Carteret, exempt.',
      nasdaq_chicago_short_volume: 'FINRA/Nasdaq TRF Chicago, non-exempt.',
      nasdaq_chicago_short_volume_exempt: 'FINRA/Nasdaq TRF Chicago, exempt.',
      adf_short_volume: 'FINRA ADF, non-exempt.',
      adf_short_volume_exempt: 'FINRA ADF, exempt.',
    }, 'int'),
  },
  key: ['ticker', 'date'],
  filters: { ticker: ALL, date: ALL, short_volume_ratio: ALL },
  sort: 'ticker.asc',
  limit: { default: 10, max: 50001 },
});

// ---------------------------------------------------------------------------------------------
// Filings: risk factors and their categories. One vocabulary: snake_case category names, shared by both endpoints.

export const RISK_FACTORS = defineDataset({
  name: 'risk-factors',
  table: 'risk_factors',
  fields: {
    cik: CIK,
    ticker: { type: 'text', required: true, description: 'Ticker symbol.' },
    filing_date: { type: 'date', required: true, description: 'SEC filing date.' },
    primary_category: { type: 'text', required: true, description: 'Top-level category (see risk-categories).' },
    secondary_category: { type: 'text', required: true, description: 'Middle-level category.' },
    tertiary_category: { type: 'text', required: true, description: 'Most specific category.' },
    supporting_text: { type: 'text', maxLength: 100_000, description: 'Excerpt of the filing that justifies the label.' },
    risk_factor_id: { type: 'text', required: true, derived: true, hidden: true, description: 'Hash of the record; its natural key.' },
  },
  key: ['risk_factor_id'],
  derivedKey: { field: 'risk_factor_id', from: ['cik', 'ticker', 'filing_date', 'primary_category', 'secondary_category', 'tertiary_category', 'supporting_text'], prefix: 'R' },
  filters: { filing_date: ALL, ticker: ALL, cik: ALL },
  sort: 'filing_date.desc',
  limit: { default: 100, max: 50000 },
});

export const RISK_CATEGORIES = defineDataset({
  name: 'risk-categories',
  table: 'risk_categories',
  fields: {
    taxonomy: { type: 'float', required: true, positive: true, description: 'Taxonomy version, e.g. 1.0.' },
    primary_category: { type: 'text', required: true, description: 'Top level.' },
    secondary_category: { type: 'text', required: true, description: 'Middle level.' },
    tertiary_category: { type: 'text', required: true, description: 'Most specific label.' },
    description: { type: 'text', maxLength: 100_000, description: 'What the category covers.' },
  },
  key: ['taxonomy', 'primary_category', 'secondary_category', 'tertiary_category'],
  filters: { taxonomy: EQ_RANGE, primary_category: ALL, secondary_category: ALL, tertiary_category: ALL },
  sort: 'taxonomy.desc',
  limit: { default: 200, max: 1000 },
});

// ---------------------------------------------------------------------------------------------
// Economy: the Fed's inflation, inflation expectations and treasury yields

const fed = (name: string, table: string, values: Record<string, string>): DatasetDef =>
  defineDataset({
    name,
    table,
    fields: { date: { type: 'date', required: true, description: 'Observation date.' }, ...numbers(values) },
    key: ['date'],
    filters: { date: ALL },
    sort: 'date.asc',
    limit: { default: 100, max: 50001 },
  });

export const INFLATION = fed('inflation', 'fed_inflation', {
  cpi: 'CPI-U headline index level, not seasonally adjusted.',
  cpi_core: 'CPI less food and energy, index level.',
  cpi_year_over_year: 'Headline CPI change against the same month a year earlier, percent.',
  pce: 'PCE price index level.',
  pce_core: 'PCE less food and energy, index level.',
  pce_spending: 'Nominal personal consumption expenditures, billions of USD.',
});

export const INFLATION_EXPECTATIONS = fed('inflation-expectations', 'fed_inflation_expectations', {
  market_5_year: '5-year breakeven inflation, percent.',
  market_10_year: '10-year breakeven inflation, percent.',
  forward_years_5_to_10: '5-year, 5-year-forward expectation, percent.',
  model_1_year: 'Model expectation over 1 year, percent.',
  model_5_year: 'Model expectation over 5 years, percent.',
  model_10_year: 'Model expectation over 10 years, percent.',
  model_30_year: 'Model expectation over 30 years, percent.',
});

export const TREASURY_YIELDS = fed('treasury-yields', 'fed_treasury_yields', {
  yield_1_month: '1-month constant-maturity yield, percent.',
  yield_3_month: '3-month yield, percent.',
  yield_6_month: '6-month yield, percent.',
  yield_1_year: '1-year yield, percent.',
  yield_2_year: '2-year yield, percent.',
  yield_3_year: '3-year yield, percent.',
  yield_5_year: '5-year yield, percent.',
  yield_7_year: '7-year yield, percent.',
  yield_10_year: '10-year yield, percent.',
  yield_20_year: '20-year yield, percent.',
  yield_30_year: '30-year yield, percent.',
});

/** Every declared data set, by name (import --dataset, detection, migrations). */
export const DATASET_DECLARATIONS: readonly DatasetDef[] = [
  DIVIDENDS, SPLITS, BALANCE_SHEETS, CASH_FLOW_STATEMENTS, INCOME_STATEMENTS, RATIOS, FLOAT, SHORT_INTEREST,
  SHORT_VOLUME, RISK_FACTORS, RISK_CATEGORIES, INFLATION, INFLATION_EXPECTATIONS, TREASURY_YIELDS,
  ...PARTNER_DATASETS, ...ECONOMY_EXTRA_DATASETS, ...FILING_DATASETS, ...FUTURES_DATASETS,
  ...LISTING_DATASETS,
  // the data sets of the official client's newer paths, after the rest (tests spread their import formats by position)
  EIGHT_K_DISCLOSURES, DISCLOSURE_TAXONOMY, FUNDING_CONDITIONS,
];

export function datasetByName(name: string): DatasetDef | undefined {
  return DATASET_DECLARATIONS.find((d) => d.name === name);
}
