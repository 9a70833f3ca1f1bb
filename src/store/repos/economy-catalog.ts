// Declarations of the economy data sets beyond the Fed's prices and rates: the labor market
// (/fed/v1/labor-market), money-market funding conditions (/fed/v1/funding-conditions) and
// European consumer spending (/consumer-spending/eu/v1/…: merchant
// aggregates and the merchant hierarchy). Field names, types, filter forms, default sorts and
// limits are upstream's; the natural keys are ours (hashes of the identifying fields where the
// rows have no id).
import { defineDataset, type FieldDef, type FilterForm } from './datasets.js';

const ALL: readonly FilterForm[] = ['eq', 'any_of', 'range'];
const EQ_RANGE: readonly FilterForm[] = ['eq', 'range'];

export const LABOR_MARKET = defineDataset({
  name: 'labor-market',
  table: 'fed_labor_market',
  fields: {
    avg_hourly_earnings: { type: 'float' },
    date: { type: 'date', required: true },
    job_openings: { type: 'float' },
    labor_force_participation_rate: { type: 'float' },
    unemployment_rate: { type: 'float' },
  },
  key: ['date'],
  filters: { date: ALL },
  sort: 'date.asc',
  limit: { default: 100, max: 50001 },
});

export const EU_MERCHANT_AGGREGATES = defineDataset({
  name: 'eu-merchant-aggregates',
  table: 'eu_merchant_aggregates',
  fields: {
    channel: { type: 'text', required: true, enum: ['online', 'offline', 'bnpl'] },
    consumer_type: { type: 'text', required: true, enum: ['consumer_credit', 'consumer_debit', 'open_banking'] },
    eight_day_rolling_category_accounts: { type: 'int' },
    eight_day_rolling_total_accounts: { type: 'int' },
    mcc_group: { type: 'text' },
    merchant_industry: { type: 'text' },
    merchant_ticker: { type: 'text' },
    name: { type: 'text', required: true },
    parent_name: { type: 'text' },
    published_date: { type: 'date' },
    spend_in_distinct_account_key_count: { type: 'int' },
    spend_in_spend: { type: 'float' },
    spend_in_transaction_count: { type: 'int' },
    spend_out_distinct_account_key_count: { type: 'int' },
    spend_out_spend: { type: 'float' },
    spend_out_transaction_count: { type: 'int' },
    total_accounts: { type: 'int' },
    total_spend: { type: 'float' },
    total_transactions: { type: 'int' },
    transaction_currency: { type: 'text' },
    transaction_date: { type: 'date', required: true },
    twenty_eight_day_rolling_category_accounts: { type: 'int' },
    twenty_eight_day_rolling_total_accounts: { type: 'int' },
    type: { type: 'text', required: true },
    user_country: { type: 'text', required: true, enum: ['UK', 'DE', 'FR', 'ES', 'IT', 'AT', 'unknown'] },
    aggregate_id: { type: 'text', required: true, derived: true, hidden: true, description: 'Hash of the row\'s dimensions; its natural key.' },
  },
  key: ['aggregate_id'],
  derivedKey: { field: 'aggregate_id', from: ['transaction_date', 'name', 'type', 'parent_name', 'user_country', 'channel', 'consumer_type', 'transaction_currency', 'mcc_group'], prefix: 'A' },
  filters: { transaction_date: EQ_RANGE, name: ALL, user_country: ['eq', 'any_of'], channel: ['eq', 'any_of'], consumer_type: ['eq', 'any_of'], parent_name: ALL },
  sort: 'transaction_date.desc',
  limit: { default: 100, max: 5001 },
});

export const EU_MERCHANT_HIERARCHY = defineDataset({
  name: 'eu-merchant-hierarchy',
  table: 'eu_merchant_hierarchy',
  fields: {
    active_from: { type: 'date' },
    active_to: { type: 'date' },
    category: { type: 'text' },
    grandparent_name: { type: 'text' },
    grandparent_ticker: { type: 'text' },
    great_grandparent_name: { type: 'text' },
    great_grandparent_ticker: { type: 'text' },
    industry: { type: 'text' },
    industry_group: { type: 'text' },
    listing_status: { type: 'text', required: true, enum: ['public', 'private'] },
    lookup_name: { type: 'text', required: true },
    normalized_name: { type: 'text' },
    parent_name: { type: 'text' },
    parent_ticker: { type: 'text' },
    sector: { type: 'text' },
    sub_industry: { type: 'text' },
    ticker: { type: 'text' },
    hierarchy_id: { type: 'text', required: true, derived: true, hidden: true, description: 'Hash of lookup_name and the validity range; its natural key.' },
  },
  key: ['hierarchy_id'],
  derivedKey: { field: 'hierarchy_id', from: ['lookup_name', 'active_from', 'active_to'], prefix: 'H' },
  filters: { lookup_name: ALL, ticker: ALL, listing_status: ['eq', 'any_of'], active_from: EQ_RANGE, active_to: EQ_RANGE },
  sort: 'lookup_name.asc',
  limit: { default: 100, max: 50001 },
});

const percent = (description: string): FieldDef => ({ type: 'float', description: `${description}, percent.` });
const billions = (description: string): FieldDef => ({ type: 'float', description: `${description}, billions of US dollars.` });

// In the official client (10.8), not in the OpenAPI document the rest is built from: fields,
// filters, sort and limits are the client's. One row per calendar day; the policy rates are
// posted every day, the market rates and volumes on business days only (absent on the others).
export const FUNDING_CONDITIONS = defineDataset({
  name: 'funding-conditions',
  table: 'fed_funding_conditions',
  fields: {
    date: { type: 'date', required: true },
    effective_fed_funds_rate: percent('Federal funds effective rate'),
    effective_fed_funds_volume: billions('Volume behind the effective federal funds rate'),
    fed_funds_target_lower: percent('Lower bound of the federal funds target range'),
    fed_funds_target_upper: percent('Upper bound of the federal funds target range'),
    fed_overnight_repo_treasury_amount: billions('NY Fed overnight repo operations against Treasury collateral'),
    fed_overnight_reverse_repo_treasury_amount: billions('NY Fed overnight reverse repo operations against Treasury collateral'),
    financial_commercial_paper_90d_rate: percent('90-day AA financial commercial paper rate (discount basis)'),
    interest_on_reserve_balances: percent('Interest on reserve balances'),
    nonfinancial_commercial_paper_90d_rate: percent('90-day AA nonfinancial commercial paper rate (discount basis)'),
    obfr_25th_percentile: percent('25th percentile of the OBFR distribution'),
    obfr_75th_percentile: percent('75th percentile of the OBFR distribution'),
    obfr_volume: billions('Volume behind the OBFR'),
    overnight_bank_funding_rate: percent('Overnight bank funding rate (OBFR)'),
    secured_overnight_financing_rate: percent('Secured overnight financing rate (SOFR)'),
    sofr_25th_percentile: percent('25th percentile of the SOFR distribution'),
    sofr_75th_percentile: percent('75th percentile of the SOFR distribution'),
    sofr_volume: billions('Volume behind the SOFR'),
    tgcr_25th_percentile: percent('25th percentile of the TGCR distribution'),
    tgcr_75th_percentile: percent('75th percentile of the TGCR distribution'),
    tri_party_general_collateral_rate: percent('Tri-party general collateral rate (TGCR)'),
    tri_party_general_collateral_volume: billions('Volume behind the TGCR'),
  },
  key: ['date'],
  filters: { date: EQ_RANGE },
  sort: 'date.asc',
  limit: { default: 100, max: 50000 },
});

export const ECONOMY_EXTRA_DATASETS = [LABOR_MARKET, EU_MERCHANT_AGGREGATES, EU_MERCHANT_HIERARCHY] as const;
