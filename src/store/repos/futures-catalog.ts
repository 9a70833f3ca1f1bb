// Declarations of the futures reference data sets: products, contracts, exchanges and session
// schedules. Field names, types, filter forms, default sorts and limits are upstream's
// /futures/vX/products, /contracts, /exchanges and /schedules; the natural keys are ours.
// Products and contracts are point-in-time rows (one per code or ticker and `date`), as upstream
// serves them.
import { daysBetween } from '../../domain/futures-contracts.js';
import { defineDataset, type FilterForm } from './datasets.js';

const ALL: readonly FilterForm[] = ['eq', 'any_of', 'range'];
const EQ_RANGE: readonly FilterForm[] = ['eq', 'range'];
const EQ_ANY: readonly FilterForm[] = ['eq', 'any_of'];

export const FUTURES_SECTORS = [
  'asia', 'base', 'biofuels', 'coal', 'cross_rates', 'crude_oil', 'custom_index', 'dairy', 'dj_ubs_ci', 'electricity', 'emissions', 'europe', 'fertilizer',
  'forestry', 'grains_and_oilseeds', 'intl_index', 'liq_nat_gas_lng', 'livestock', 'long_term_gov', 'long_term_non_gov', 'majors', 'minors', 'nat_gas',
  'nat_gas_liq_petro', 'precious', 'refined_products', 's_and_p_gsci', 'sel_sector_index', 'short_term_gov', 'short_term_non_gov', 'softs', 'us', 'us_index', 'wet_bulk',
] as const;
export const FUTURES_SUB_SECTORS = [
  'asian', 'canadian', 'cat', 'cooling_degree_days', 'ercot', 'european', 'gulf', 'heating_degree_days', 'iso_ne', 'large_cap_index', 'mid_cap_index', 'miso',
  'north_american', 'nyiso', 'pjm', 'small_cap_index', 'west', 'western_power',
] as const;
const ASSET_CLASSES = ['alt_investment', 'commodity', 'financials'] as const;
const ASSET_SUB_CLASSES = ['agricultural', 'commodity_index', 'energy', 'equity', 'foreign_exchange', 'freight', 'housing', 'interest_rate', 'metals', 'weather'] as const;
const TYPES = ['single', 'combo'] as const;

export const FUTURES_PRODUCTS = defineDataset({
  name: 'futures-products',
  table: 'futures_products',
  fields: {
    asset_class: { type: 'text', enum: ASSET_CLASSES },
    asset_sub_class: { type: 'text', enum: ASSET_SUB_CLASSES },
    date: { type: 'date', required: true, description: 'The day this point-in-time description of the product applies to.' },
    last_updated: { type: 'text', description: 'When this product was last updated.' },
    name: { type: 'text', description: 'The full name of the product.' },
    price_quotation: { type: 'text' },
    product_code: { type: 'text', required: true, maxLength: 32, description: 'The identifier for the product.' },
    sector: { type: 'text', enum: FUTURES_SECTORS },
    settlement_currency_code: { type: 'text', maxLength: 8 },
    settlement_method: { type: 'text' },
    settlement_type: { type: 'text' },
    sub_sector: { type: 'text', enum: FUTURES_SUB_SECTORS },
    trade_currency_code: { type: 'text', maxLength: 8 },
    trading_venue: { type: 'text', maxLength: 16, description: 'MIC of the exchange the product\'s contracts trade on.' },
    type: { type: 'text', enum: TYPES },
    unit_of_measure: { type: 'text' },
    unit_of_measure_qty: { type: 'float' },
  },
  key: ['product_code', 'date'],
  filters: {
    name: ALL, product_code: ALL, date: EQ_RANGE, trading_venue: ALL, sector: EQ_ANY, sub_sector: EQ_ANY, asset_class: EQ_ANY, asset_sub_class: EQ_ANY, type: EQ_ANY,
  },
  sort: 'date.asc',
  limit: { default: 100, max: 50001 },
});

export const FUTURES_CONTRACTS = defineDataset({
  name: 'futures-contracts',
  table: 'futures_contracts',
  fields: {
    active: {
      type: 'bool', required: true, derived: true,
      description: 'Whether the contract was tradeable on `date`: first_trade_date <= date <= last_trade_date (computed when an import leaves it out).',
    },
    date: { type: 'date', required: true, description: 'The day this point-in-time description of the contract applies to.' },
    days_to_maturity: { type: 'int', derived: true, description: 'Calendar days from `date` to the settlement date (computed when an import leaves it out).' },
    first_trade_date: { type: 'date' },
    group_code: { type: 'text', maxLength: 16 },
    last_trade_date: { type: 'date' },
    max_order_quantity: { type: 'int', min: 0 },
    min_order_quantity: { type: 'int', min: 0 },
    name: { type: 'text' },
    product_code: { type: 'text', required: true, maxLength: 32 },
    settlement_date: { type: 'date' },
    settlement_tick_size: { type: 'float', positive: true },
    spread_tick_size: { type: 'float', positive: true },
    ticker: { type: 'text', required: true, maxLength: 64 },
    trade_tick_size: { type: 'float', positive: true },
    trading_venue: { type: 'text', maxLength: 16 },
    type: { type: 'text', enum: TYPES },
  },
  key: ['ticker', 'date'],
  prepare: (r) => {
    const date = r.date as string;
    if (r.active === undefined) {
      const first = r.first_trade_date as string | undefined;
      const last = r.last_trade_date as string | undefined;
      r.active = (first === undefined || first <= date) && (last === undefined || date <= last);
    }
    const settles = (r.settlement_date ?? r.last_trade_date) as string | undefined;
    if (r.days_to_maturity === undefined && settles !== undefined) r.days_to_maturity = daysBetween(date, settles);
  },
  filters: {
    date: EQ_RANGE, product_code: ALL, ticker: ALL, active: ['eq'], type: EQ_ANY, first_trade_date: EQ_RANGE, last_trade_date: EQ_RANGE,
  },
  sort: 'product_code.asc',
  limit: { default: 100, max: 1001 },
});

export const FUTURES_EXCHANGES = defineDataset({
  name: 'futures-exchanges',
  table: 'futures_exchanges',
  fields: {
    acronym: { type: 'text', maxLength: 32 },
    id: { type: 'text', required: true, maxLength: 32 },
    locale: { type: 'text', maxLength: 8 },
    mic: { type: 'text', maxLength: 16 },
    name: { type: 'text', required: true },
    operating_mic: { type: 'text', maxLength: 16 },
    type: { type: 'text', required: true },
    url: { type: 'text', maxLength: 2_048 },
  },
  key: ['id'],
  filters: {},
  sort: 'id.asc',
  limit: { default: 100, max: 1000 },
});

export const FUTURES_SCHEDULES = defineDataset({
  name: 'futures-schedules',
  table: 'futures_schedules',
  fields: {
    event: { type: 'text', required: true, maxLength: 32, description: 'The session event: pre_open, open, close, or a venue\'s own.' },
    product_code: { type: 'text', required: true, maxLength: 32 },
    product_name: { type: 'text' },
    session_end_date: { type: 'date', required: true, description: 'The trading date: the day the session ends.' },
    timestamp: { type: 'text', required: true, maxLength: 32, description: 'When the event happens, UTC (e.g. 2026-11-25T23:00:00+00:00).' },
    trading_venue: { type: 'text', maxLength: 16 },
  },
  key: ['product_code', 'timestamp', 'event'],
  filters: { product_code: ALL, session_end_date: EQ_RANGE, trading_venue: ALL },
  sort: 'product_code.asc',
  limit: { default: 10, max: 1001 },
});

export const FUTURES_DATASETS = [FUTURES_PRODUCTS, FUTURES_CONTRACTS, FUTURES_EXCHANGES, FUTURES_SCHEDULES] as const;
