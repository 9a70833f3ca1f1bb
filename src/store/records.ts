// Plain records as the store keeps them and the services hand them on. Field names follow the
// upstream API so that a record serialises to the wire with no renaming. Optional fields are
// omitted (never null) when unknown.

export type Market = 'stocks' | 'otc' | 'crypto' | 'fx' | 'indices';
export type AssetClass = 'stocks' | 'options' | 'crypto' | 'fx' | 'indices' | 'futures';

export interface TickerAddress {
  address1?: string;
  address2?: string;
  city?: string;
  state?: string;
  postal_code?: string;
  country?: string;
}

export interface TickerBranding {
  logo_url?: string;
  icon_url?: string;
  accent_color?: string;
  light_color?: string;
  dark_color?: string;
}

/**
 * One version of a ticker. A symbol may have several versions over time (renames, a delisting,
 * a symbol reused by another issuer): each is valid from `valid_from` (inclusive) until the next
 * version's `valid_from` (exclusive), or open-ended when `valid_to` is absent.
 */
export interface TickerRecord {
  ticker: string;
  name: string;
  market: Market;
  locale: 'us' | 'global';
  primary_exchange?: string;
  type?: string;
  active: boolean;
  currency_name?: string;
  currency_symbol?: string;
  base_currency_symbol?: string;
  base_currency_name?: string;
  cik?: string;
  composite_figi?: string;
  share_class_figi?: string;
  /** Filter only: CUSIP is never returned (licensing). */
  cusip?: string;
  last_updated_utc: string;
  delisted_utc?: string;
  source_feed?: string;
  // overview-only fields
  description?: string;
  homepage_url?: string;
  phone_number?: string;
  address?: TickerAddress;
  branding?: TickerBranding;
  list_date?: string;
  market_cap?: number;
  share_class_shares_outstanding?: number;
  weighted_shares_outstanding?: number;
  round_lot?: number;
  sic_code?: string;
  sic_description?: string;
  ticker_root?: string;
  ticker_suffix?: string;
  total_employees?: number;
  /** Version validity (YYYY-MM-DD). Not part of the wire format. */
  valid_from: string;
  valid_to?: string;
}

export interface TickerTypeRecord {
  code: string;
  description: string;
  asset_class: AssetClass;
  locale: 'us' | 'global';
}

export interface ExchangeRecord {
  id: number;
  type: string;
  asset_class: AssetClass;
  locale: 'us' | 'global';
  name: string;
  acronym?: string;
  mic?: string;
  operating_mic?: string;
  participant_id?: string;
  url?: string;
}

export interface UpdateRule {
  updates_high_low: boolean;
  updates_open_close: boolean;
  updates_volume: boolean;
}

export interface ConditionRecord {
  id: number;
  type: string;
  name: string;
  abbreviation?: string;
  description?: string;
  asset_class: AssetClass;
  sip_mapping?: Record<string, string>;
  exchange?: number;
  legacy?: boolean;
  data_types: string[];
  update_rules?: { consolidated: UpdateRule; market_center: UpdateRule };
}
