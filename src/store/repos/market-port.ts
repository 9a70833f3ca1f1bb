// The market-data port: what the aggregates, trades, quotes, snapshot and indicator services need
// from the store. One implementation (SQL shared by both engines) lives in market.ts.
import type { BarRow, QuoteRow, TradeRow } from '../../domain/market-records.js';

export type BarKind = 'minute' | 'day';

export interface BarRange {
  ticker: string;
  /** Inclusive lower bound on bar start, Unix ms. */
  fromMs: number;
  /** Exclusive upper bound on bar start, Unix ms. */
  toMs: number;
  order: 'asc' | 'desc';
  limit: number;
}

/** Bounds on the tick time (sip_timestamp, or participant_timestamp for forex quotes), ns. */
export interface TickRange {
  ticker: string;
  gte?: bigint;
  gt?: bigint;
  lte?: bigint;
  lt?: bigint;
  order: 'asc' | 'desc';
  limit: number;
  /** Resume strictly after this row of a previous page, in `order`. */
  after?: TickPosition;
}

/** Keyset position of a tick: its time, then sequence number, then a store-assigned tiebreaker. */
export interface TickPosition {
  ts: string; // bigint as decimal string (JSON-safe for cursors)
  seq: string;
  pk: string;
}

export interface PagedTick<T> {
  row: T;
  position: TickPosition;
}

export interface MarketDataPort {
  /** Idempotent on (ticker, t): re-importing the same bars changes nothing. Returns rows written. */
  insertBars(kind: BarKind, rows: BarRow[]): Promise<number>;
  /** Idempotent on the trade's natural key. */
  insertTrades(rows: TradeRow[]): Promise<number>;
  /** Idempotent on the quote's natural key. */
  insertQuotes(rows: QuoteRow[]): Promise<number>;
  readBars(kind: BarKind, range: BarRange): Promise<BarRow[]>;
  /** Day bars of every ticker whose bar starts at exactly `t` (grouped daily). */
  dayBarsAt(t: number): Promise<BarRow[]>;
  /** The latest day bar starting strictly before `beforeMs` (previous close). */
  lastDayBarBefore(ticker: string, beforeMs: number): Promise<BarRow | undefined>;
  readTrades(range: TickRange): Promise<PagedTick<TradeRow>[]>;
  readQuotes(range: TickRange): Promise<PagedTick<QuoteRow>[]>;
  /** Latest trade/quote at or before `atNs` (default: the latest stored). */
  lastTrade(ticker: string, atNs?: bigint): Promise<TradeRow | undefined>;
  lastQuote(ticker: string, atNs?: bigint): Promise<QuoteRow | undefined>;
  /**
   * Builds day bars from minute bars for tickers (ET calendar days incl. extended hours; forex:
   * UTC days) where no day bar was given; `window` limits it to the days holding those instants.
   */
  deriveDayBars(tickers?: string[], window?: { fromMs: number; toMs: number }): Promise<number>;
  /** Tickers that have bars of this kind (snapshots, grouped). */
  tickersWithBars(kind: BarKind): Promise<string[]>;
}
