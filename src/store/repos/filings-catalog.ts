// Declarations of the SEC filings data sets: the filings index, 10-K sections, 8-K text, 13-F
// holdings, Forms 3 and 4, and the 8-K disclosures with the taxonomy their categories come from. Field names, types, filter forms, default sorts and limits are
// those of upstream's /stocks/filings/… endpoints (fields in upstream's alphabetical wire order);
// the natural keys are ours: rows of 13-F and Forms 3 and 4 have none, so a hash of every field
// keys them (importing a file twice changes nothing; a corrected row is added beside the old one).
import { defineDataset, type DatasetFields, type DatasetRecord, type FieldDef, type FilterForm } from './datasets.js';

const ALL: readonly FilterForm[] = ['eq', 'any_of', 'range'];
const EQ_RANGE: readonly FilterForm[] = ['eq', 'range'];
const CIK: FieldDef = { type: 'text', normalize: 'cik', description: 'SEC Central Index Key, 10 digits zero-padded.' };

/** Fills the hidden `min_ticker`/`max_ticker` filter fields from `tickers` (byte order). */
function tickerBounds(r: DatasetRecord): void {
  const tickers = Array.isArray(r.tickers) ? [...(r.tickers as string[])].sort() : [];
  delete r.min_ticker;
  delete r.max_ticker;
  if (tickers.length === 0) return;
  r.min_ticker = tickers[0]!;
  r.max_ticker = tickers.at(-1)!;
}

export const FILINGS_INDEX = defineDataset({
  name: 'filings-index',
  table: 'filings_index',
  fields: {
    accession_number: { type: 'text', required: true },
    cik: { ...CIK, required: true },
    filing_date: { type: 'date', required: true },
    filing_url: { type: 'text', maxLength: 2_048 },
    form_type: { type: 'text', required: true },
    issuer_name: { type: 'text' },
    ticker: { type: 'text' },
  },
  key: ['accession_number', 'cik'],
  filters: { cik: ALL, ticker: ALL, form_type: ALL, filing_date: EQ_RANGE },
  sort: 'filing_date.desc',
  limit: { default: 1000, max: 50001 },
});

export const TEN_K_SECTIONS = defineDataset({
  name: '10k-sections',
  table: 'filing_10k_sections',
  fields: {
    cik: { ...CIK, required: true },
    filing_date: { type: 'date', required: true },
    filing_url: { type: 'text', maxLength: 2_048 },
    period_end: { type: 'date' },
    section: { type: 'text', required: true, enum: ['business', 'risk_factors'] },
    text: { type: 'text', maxLength: 1_000_000, required: true },
    ticker: { type: 'text' },
  },
  key: ['cik', 'filing_date', 'section'],
  filters: { cik: ALL, ticker: ALL, section: ['eq', 'any_of'], filing_date: EQ_RANGE, period_end: EQ_RANGE },
  sort: 'period_end.desc',
  limit: { default: 10, max: 100 },
});

export const EIGHT_K_TEXT = defineDataset({
  name: '8k-text',
  table: 'filing_8k_text',
  fields: {
    accession_number: { type: 'text', required: true },
    cik: { ...CIK, required: true },
    filing_date: { type: 'date', required: true },
    filing_url: { type: 'text', maxLength: 2_048 },
    form_type: { type: 'text', required: true },
    items_text: { type: 'text', maxLength: 1_000_000, required: true },
    ticker: { type: 'text' },
  },
  key: ['accession_number'],
  filters: { cik: ALL, ticker: ALL, form_type: ALL, filing_date: EQ_RANGE },
  sort: 'filing_date.desc',
  limit: { default: 10, max: 100 },
});

const FORM_13F_WIRE: DatasetFields = {
  accession_number: { type: 'text', required: true },
  cusip: { type: 'text' },
  file_number: { type: 'text' },
  filer_cik: { ...CIK, required: true },
  filing_date: { type: 'date', required: true },
  filing_url: { type: 'text', maxLength: 2_048 },
  film_number: { type: 'text' },
  form_type: { type: 'text' },
  investment_discretion: { type: 'text' },
  issuer_name: { type: 'text' },
  market_value: { type: 'int' },
  other_managers: { type: 'string-array', arrayItems: 'label' },
  period: { type: 'date' },
  put_call: { type: 'text' },
  shares_or_principal_amount: { type: 'int' },
  shares_or_principal_type: { type: 'text' },
  title_of_class: { type: 'text' },
  voting_authority_none: { type: 'int' },
  voting_authority_shared: { type: 'int' },
  voting_authority_sole: { type: 'int' },
};

export const FORM_13F = defineDataset({
  name: '13f-holdings',
  table: 'form_13f_holdings',
  fields: {
    ...FORM_13F_WIRE,
    holding_id: { type: 'text', required: true, derived: true, hidden: true, description: 'Hash of every field of the row; its natural key.' },
  },
  key: ['holding_id'],
  derivedKey: { field: 'holding_id', from: Object.keys(FORM_13F_WIRE), prefix: 'F' },
  filters: { filer_cik: ['eq', 'any_of'], filing_date: EQ_RANGE },
  sort: 'filing_date.desc',
  limit: { default: 100, max: 1001 },
});

/** Fields Forms 3 and 4 share: the filing, the issuer, the reporting owner and the security. */
const OWNERSHIP_WIRE: DatasetFields = {
  accession_number: { type: 'text', required: true },
  aff_10b5_one: { type: 'bool' },
  date_of_original_submission: { type: 'date' },
  direct_or_indirect: { type: 'text' },
  exercise_date: { type: 'date' },
  exercise_price: { type: 'float' },
  filing_date: { type: 'date', required: true },
  filing_url: { type: 'text', maxLength: 2_048 },
  footnotes: { type: 'json' },
  form_type: { type: 'text', required: true },
  is_director: { type: 'bool' },
  is_officer: { type: 'bool' },
  is_other: { type: 'bool' },
  is_ten_percent_owner: { type: 'bool' },
  issuer_cik: { ...CIK, required: true },
  issuer_name: { type: 'text' },
  nature_of_ownership: { type: 'text' },
  not_subject_to_section_16: { type: 'bool' },
  officer_title: { type: 'text' },
  owner_cik: { ...CIK },
  owner_name: { type: 'text' },
  period_of_report: { type: 'date' },
  remarks: { type: 'text', maxLength: 100_000 },
  security_title: { type: 'text' },
  security_type: { type: 'text' },
  tickers: { type: 'string-array' },
  underlying_security_shares: { type: 'float' },
  underlying_security_title: { type: 'text' },
};

/** A Form 3 or 4 data set: its wire fields, the hidden row hash and ticker bounds, and the shared filters. */
function ownershipForm(name: string, table: string, wire: DatasetFields, filters: Record<string, readonly FilterForm[]> = {}) {
  return defineDataset({
    name,
    table,
    fields: {
      ...wire,
      holding_id: { type: 'text', required: true, derived: true, hidden: true, description: 'Hash of every field of the row; its natural key.' },
      min_ticker: { type: 'text', derived: true, hidden: true, description: 'The `min_ticker` filter: the first of tickers in byte order.' },
      max_ticker: { type: 'text', derived: true, hidden: true, description: 'The `max_ticker` filter: the last of tickers in byte order.' },
    },
    key: ['holding_id'],
    derivedKey: { field: 'holding_id', from: Object.keys(wire), prefix: 'F' },
    prepare: tickerBounds,
    filters: { issuer_cik: ['eq', 'any_of'], owner_cik: ['eq', 'any_of'], tickers: ['eq', 'all_of', 'any_of'], form_type: ['eq'], filing_date: EQ_RANGE, ...filters, max_ticker: ALL, min_ticker: ALL },
    sort: 'filing_date.desc',
    limit: { default: 100, max: 10001 },
  });
}

export const FORM_3 = ownershipForm('form-3', 'form_3_holdings', { ...OWNERSHIP_WIRE, shares_owned: { type: 'float' } });

export const FORM_4 = ownershipForm('form-4', 'form_4_transactions', {
  ...OWNERSHIP_WIRE,
  deemed_execution_date: { type: 'date' },
  equity_swap_involved: { type: 'bool' },
  expiration_date: { type: 'date' },
  record_type: { type: 'text' },
  shares_owned_following_transaction: { type: 'float' },
  transaction_acquired_disposed: { type: 'text' },
  transaction_code: { type: 'text' },
  transaction_date: { type: 'date' },
  transaction_price_per_share: { type: 'float' },
  transaction_shares: { type: 'float' },
  transaction_timeliness: { type: 'text' },
  transaction_value: { type: 'float' },
}, { transaction_code: ['eq'] });

// The 8-K disclosures and their taxonomy are in the official client (10.8) but not in the
// OpenAPI document the rest is built from; fields, filters, default sorts and limits follow the
// client's /stocks/filings/8-K/vX/disclosures and /stocks/taxonomies/vX/disclosures.

/** The three levels of a disclosure category (the taxonomy's rows and the disclosures' labels; fields in alphabetical wire order). */
const CATEGORY_LEVELS: DatasetFields = {
  primary_category: { type: 'text', description: 'Top-level disclosure category, e.g. financial_results.' },
  secondary_category: { type: 'text', description: 'Mid-level disclosure category, e.g. earnings_announcement.' },
  tertiary_category: { type: 'text', description: 'Most specific disclosure category, e.g. quarterly_results.' },
};

export const EIGHT_K_DISCLOSURES = defineDataset({
  name: '8k-disclosures',
  table: 'filing_8k_disclosures',
  fields: {
    accession_number: { type: 'text', required: true },
    cik: { ...CIK, required: true },
    filing_date: { type: 'date', required: true },
    filing_url: { type: 'text', maxLength: 2_048 },
    primary_category: CATEGORY_LEVELS.primary_category!,
    secondary_category: CATEGORY_LEVELS.secondary_category!,
    supporting_text: { type: 'text', maxLength: 100_000, description: 'A verbatim excerpt of the filing supporting the categories.' },
    tertiary_category: CATEGORY_LEVELS.tertiary_category!,
    tickers: { type: 'string-array', description: 'Ticker symbols of the filer; empty when none is mapped to it.' },
    disclosure_id: { type: 'text', required: true, derived: true, hidden: true, description: 'Hash of the filing and its three categories; its natural key.' },
  },
  // One 8-K holds several disclosures, one row per category it is tagged with.
  key: ['disclosure_id'],
  derivedKey: { field: 'disclosure_id', from: ['accession_number', 'primary_category', 'secondary_category', 'tertiary_category'], prefix: 'D' },
  filters: { cik: ['eq', 'any_of'], tickers: ['eq', 'all_of', 'any_of'], filing_date: ALL, tertiary_category: ['eq'] },
  sort: 'filing_date.desc',
  limit: { default: 100, max: 1000 },
});

export const DISCLOSURE_TAXONOMY = defineDataset({
  name: 'disclosure-taxonomy',
  table: 'disclosure_taxonomy',
  fields: {
    description: { type: 'text', maxLength: 100_000, description: 'What the category covers, with typical examples.' },
    primary_category: CATEGORY_LEVELS.primary_category!,
    secondary_category: CATEGORY_LEVELS.secondary_category!,
    taxonomy: { type: 'text', required: true, description: 'Taxonomy version, e.g. 1.0.' },
    tertiary_category: CATEGORY_LEVELS.tertiary_category!,
    category_id: { type: 'text', required: true, derived: true, hidden: true, description: 'Hash of the version and the three levels; its natural key.' },
  },
  key: ['category_id'],
  derivedKey: { field: 'category_id', from: ['taxonomy', 'primary_category', 'secondary_category', 'tertiary_category'], prefix: 'T' },
  filters: { taxonomy: ALL, primary_category: ALL, secondary_category: ALL, tertiary_category: ALL },
  sort: 'taxonomy.desc',
  limit: { default: 200, max: 1000 },
});

export const FILING_DATASETS = [FILINGS_INDEX, TEN_K_SECTIONS, EIGHT_K_TEXT, FORM_13F, FORM_3, FORM_4] as const;
