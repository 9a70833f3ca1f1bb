// Declarations of the listing data sets: IPOs (upstream's /vX/reference/ipos and
// /v1/reference/ipos) and related companies (/v1/related-companies/{ticker}). Field names and
// types are upstream's; the natural keys are ours.
import { defineDataset, type FilterForm } from './datasets.js';

const ALL: readonly FilterForm[] = ['eq', 'any_of', 'range'];
const EQ_RANGE: readonly FilterForm[] = ['eq', 'range'];

export const IPO_STATUSES = ['direct_listing_process', 'history', 'new', 'pending', 'postponed', 'rumor', 'withdrawn'] as const;

/**
 * One IPO event per ticker and issuer: its status, dates and figures change in place as the
 * offering moves from rumor or pending to new and history (a re-import replaces the row).
 * The filters are those of /v1/reference/ipos, the richer of the two endpoints.
 */
export const IPOS = defineDataset({
  name: 'ipos',
  table: 'ipos',
  fields: {
    announced_date: { type: 'date', description: 'The date when the IPO event was announced.' },
    currency_code: { type: 'text', maxLength: 8, description: 'Underlying currency of the security.' },
    final_issue_price: { type: 'float', min: 0, description: 'The price set by the company and its underwriters before the IPO goes live.' },
    highest_offer_price: { type: 'float', min: 0, description: 'The highest price within the IPO price range.' },
    ipo_status: { type: 'text', required: true, enum: IPO_STATUSES, description: 'The status of the IPO event.' },
    isin: { type: 'text', maxLength: 12, description: 'International Securities Identification Number.' },
    issue_end_date: { type: 'date', description: 'Last day of the offering period.' },
    issue_start_date: { type: 'date', description: 'First day of the offering period.' },
    issuer_name: { type: 'text', required: true, description: 'Name of issuer.' },
    last_updated: { type: 'date', required: true, description: 'The date when the IPO event was last modified.' },
    listing_date: { type: 'date', description: 'First trading date for the newly listed entity.' },
    lot_size: { type: 'int', min: 0, description: 'The minimum number of shares that can be bought or sold in a single transaction.' },
    lowest_offer_price: { type: 'float', min: 0, description: 'The lowest price within the IPO price range.' },
    max_shares_offered: { type: 'int', min: 0, description: 'The upper limit of the shares offered.' },
    min_shares_offered: { type: 'int', min: 0, description: 'The lower limit of the shares offered.' },
    primary_exchange: { type: 'text', maxLength: 16, description: 'MIC of the primary exchange where the security is listed.' },
    security_description: { type: 'text', description: 'Description of the security, e.g. Ordinary Shares - Class A.' },
    security_type: { type: 'text', required: true, maxLength: 16, description: 'The classification of the stock, e.g. CS for common stock.' },
    shares_outstanding: { type: 'int', min: 0, description: 'Shares issued and held by investors.' },
    ticker: { type: 'text', required: true, maxLength: 64, description: 'The ticker symbol of the IPO event.' },
    total_offer_size: { type: 'float', min: 0, description: 'The total amount raised by the company for IPO.' },
    us_code: { type: 'text', maxLength: 9, description: 'CUSIP: nine-character code of a North American security.' },
  },
  key: ['ticker', 'issuer_name'],
  filters: { ticker: ALL, us_code: ALL, isin: ALL, listing_date: EQ_RANGE, ipo_status: ['eq', 'any_of'] },
  sort: 'listing_date.desc',
  limit: { default: 10, max: 1001 },
});

/** Fields of the vX IPO sort parameter, as upstream enumerates them. */
export const IPO_SORTS = [
  'listing_date', 'ticker', 'last_updated', 'security_type', 'issuer_name', 'currency_code', 'isin', 'us_code', 'final_issue_price', 'min_shares_offered',
  'max_shares_offered', 'lowest_offer_price', 'highest_offer_price', 'total_offer_size', 'shares_outstanding', 'primary_exchange', 'lot_size', 'security_description',
  'ipo_status', 'announced_date',
] as const;

/**
 * Tickers related to a ticker, most related first (`rank` ascending; without a rank, after the
 * ranked ones by ticker). Not a list endpoint: one ticker's relations are one answer.
 */
export const RELATED_COMPANIES = defineDataset({
  name: 'related-companies',
  table: 'related_companies',
  fields: {
    ticker: { type: 'text', required: true, maxLength: 64, description: 'The ticker whose relations these are.' },
    related_ticker: { type: 'text', required: true, maxLength: 64, description: 'A ticker related to `ticker`.' },
    rank: { type: 'int', min: 1, description: 'Order of the relation, 1 = most related.' },
  },
  key: ['ticker', 'related_ticker'],
  filters: { ticker: ['eq'] },
  sort: 'rank.asc',
  limit: { default: 100, max: 1001 },
});

export const LISTING_DATASETS = [IPOS, RELATED_COMPANIES] as const;
