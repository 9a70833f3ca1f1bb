// Rows read from upstream flat files (trades_v1, quotes_v1, minute_aggs_v1, day_aggs_v1) and
// handed to the store. Field names follow the v3 trades and quotes wire format and the `Agg`
// bar of the aggregates endpoints. Tick times are exact Unix nanoseconds as bigint (they exceed
// 2^53); bar times are Unix milliseconds. An optional field the file does not carry is `undefined`: the readers
// build every row with all keys present (one object shape keeps the hot loop fast), so a
// writer must skip undefined values rather than test `'key' in row`.

export type FlatFileKind = 'trades' | 'quotes' | 'minute_aggs' | 'day_aggs';

export interface TradeRow {
  ticker: string;
  /**
   * Ns. Crypto trade files have no SIP time, only `participant_timestamp`; for them this holds
   * the participant time so that every trade has one time key to order and filter on.
   */
  sip_timestamp: bigint;
  participant_timestamp?: bigint;
  trf_timestamp?: bigint;
  price: number;
  /** Shares (fractional for fractional-share trades), contracts, or coins. */
  size: number;
  exchange: number;
  id?: string;
  conditions?: number[];
  correction?: number;
  sequence_number?: bigint;
  tape?: number;
  trf_id?: number;
}

export interface QuoteRow {
  ticker: string;
  /** Ns. Absent for forex, whose quotes carry only `participant_timestamp`. */
  sip_timestamp?: bigint;
  participant_timestamp?: bigint;
  trf_timestamp?: bigint;
  ask_price: number;
  ask_size?: number;
  ask_exchange?: number;
  bid_price: number;
  bid_size?: number;
  bid_exchange?: number;
  conditions?: number[];
  indicators?: number[];
  sequence_number?: bigint;
  tape?: number;
}

export interface BarRow {
  ticker: string;
  /** Window start, Unix ms. */
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  /** Absent on index bars. */
  v?: number;
  /** Flat files carry no VWAP: always undefined from them. */
  vw?: number;
  /** Absent on index bars. */
  n?: number;
}
