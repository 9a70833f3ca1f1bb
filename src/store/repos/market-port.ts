// The market-data port: what the aggregates, trades, quotes, snapshot and indicator services need
// from the store. One implementation (SQL shared by both engines) lives in market.ts.
import type { BarRow, QuoteRow, TradeRow } from '../../domain/market-records.js';
import type { JoinedItems } from './joined-json.js';

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

/** Which fields a page writes of each trade (as tradesJson in services/tick-json.ts). */
export interface TradeJsonForm {
  /** Crypto: the participant time (or the SIP time when there is none) and no sip_timestamp. */
  crypto: boolean;
  /** Stocks: the size as a decimal string too. */
  decimalSize: boolean;
}

/** A page of ticks as JSON items joined by commas (no brackets), with the cursor position when more follow. */
export interface TickJsonPage {
  items: JoinedItems;
  count: number;
  next?: TickPosition;
  /** Made from ticks kept in memory (a slice of their buffer), not read from the store. */
  fromMemory?: boolean;
}

/** The newest ticks of a ticker as JSON (readTickList), newest first, in parts read one after the other. */
export interface TickListItems {
  count: number;
  /** Whether these are all the ticks asked for (else the oldest of them were left out). */
  complete: boolean;
  /** Newest first; none when there are no ticks. */
  parts: TickListPart[];
}

/** Consecutive ticks of a list read. */
export interface TickListPart {
  count: number;
  /** The items joined by commas: bytes, or text (PostgreSQL's), turned into bytes by the reader. */
  items: Buffer | string;
  /** Each item's length in bytes, as decimal text joined by commas. */
  lengths: string;
  /** Each item's position as `time:sequence:key` (decimal), joined by commas. */
  keys: string;
}

/** A page of bars as JSON items joined by commas (no brackets), in the range's order. */
export interface BarJsonPage {
  items: JoinedItems;
  count: number;
  /** The time of the page's last bar (in the range's order), when another bar follows the page. */
  lastT?: number;
  /** The time of the bar after the page, when one follows in the range. */
  nextT?: number;
  /** Whether every bar of the page starts on a whole minute. */
  aligned: boolean;
  /** Made from bars kept in memory (slices of their buffers), not read from the store. */
  fromMemory?: boolean;
}

/** One UTC day of minute bars as JSON (readMinuteBarDays). */
export interface MinuteBarDayItems {
  /** Days since 1970-01-01 (UTC). */
  day: number;
  /** The day's bars' JSON objects joined by commas, ascending by time. */
  items: Buffer;
  /** The bars' start times (Unix ms) in decimal, joined by commas, in the same order. */
  times: string;
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

/**
 * A trade as a large page reads it: the stored columns in this order, no object per row. Times
 * and the sequence number are decimal text (exact above 2^53); an absent sequence number is
 * '-1' and an absent id ''; conditions are the stored text ('12,37') or null.
 */
export type RawTrade = [
  sip_timestamp: string, sequence_number: string, pk: string, exchange: number, id: string, price: number, size: number,
  participant_timestamp: string | null, trf_timestamp: string | null, conditions: string | null,
  correction: number | null, tape: number | null, trf_id: number | null,
];

/**
 * A quote as a large page reads it (see RawTrade): `ts` is the SIP time when ts_is_sip is 1,
 * else the participant time (forex).
 */
export type RawQuote = [
  ts: string, sequence_number: string, pk: string, ts_is_sip: number, participant_timestamp: string | null,
  trf_timestamp: string | null, ask_price: number, ask_size: number | null, ask_exchange: number | null,
  bid_price: number, bid_size: number | null, bid_exchange: number | null, conditions: string | null,
  indicators: string | null, tape: number | null,
];

/** A bar as a large page reads it: t (Unix ms), o, h, l, c, then v, vw, n or null where absent. */
export type RawBar = [t: number, o: number, h: number, l: number, c: number, v: number | null, vw: number | null, n: number | null];

/** The keyset position of a raw trade or quote (its first three values). */
export function rawTickPosition(r: RawTrade | RawQuote): TickPosition {
  return { ts: r[0], seq: r[1], pk: r[2] };
}

/** The rows of each kind that an import can load as new (MarketDataPort.newRowsLoader). */
export interface NewRows {
  minute: BarRow;
  trades: TradeRow;
  quotes: QuoteRow;
}

/** Batches of rows new to the store, loaded in one stream (see MarketDataPort.newRowsLoader). */
export interface NewRowsLoader<T> {
  /** Sends a batch; resolves when the store can take the next. */
  add(rows: readonly T[]): Promise<void>;
  /**
   * Sends a batch already encoded (market-copy.ts: copyRowsOf); `days`: the UTC days (since
   * 1970-01-01) of its rows' time keys, for stores that keep a partition per day.
   */
  addEncoded(tuples: Uint8Array, days?: readonly number[]): Promise<void>;
  /** Resolves with the rows stored once all of them are. */
  end(): Promise<number>;
  /** Gives up: none of the rows are kept. */
  abort(): Promise<void>;
}

export interface MarketDataPort {
  /** Idempotent on (ticker, t): re-importing the same bars changes nothing. Returns rows written. */
  insertBars(kind: BarKind, rows: BarRow[]): Promise<number>;
  /** Idempotent on the trade's natural key. */
  insertTrades(rows: TradeRow[]): Promise<number>;
  /** Idempotent on the quote's natural key. */
  insertQuotes(rows: QuoteRow[]): Promise<number>;
  /**
   * The trades and quotes of one publish, all new to the store, in a transaction of their own, a
   * live write (PostgreSQL: a binary COPY per table in one round trip). Undefined where the engine
   * has no such path, or when a row's key is stored already or repeats among them (nothing is
   * stored then): the caller writes them in a live transaction of upserts.
   */
  insertLiveTicks(trades: readonly TradeRow[], quotes: readonly QuoteRow[]): Promise<{ trades: number; quotes: number } | undefined>;
  /**
   * Where the engine has a faster path for rows that are all new (PostgreSQL, in a transaction:
   * one COPY for every batch), a loader of them; undefined elsewhere (insert* then). A row whose
   * key is stored already or repeats makes add() or end() throw KeyConflictError with none of
   * the loader's rows kept; the rows must then go through insert*.
   */
  newRowsLoader<K extends keyof NewRows>(kind: K): Promise<NewRowsLoader<NewRows[K]> | undefined>;
  /** Whether newRowsLoader gives loaders here. */
  loadsNewRows(): boolean;
  readBars(kind: BarKind, range: BarRange): Promise<BarRow[]>;
  /** Day bars of every ticker whose bar starts at exactly `t` (grouped daily). */
  dayBarsAt(t: number): Promise<BarRow[]>;
  /** The latest day bar starting strictly before `beforeMs` (previous close). */
  lastDayBarBefore(ticker: string, beforeMs: number): Promise<BarRow | undefined>;
  readTrades(range: TickRange): Promise<PagedTick<TradeRow>[]>;
  readQuotes(range: TickRange): Promise<PagedTick<QuoteRow>[]>;
  /** readTrades / readQuotes / readBars as raw rows, for pages serialized straight from them. */
  readTradesRaw(range: TickRange): Promise<RawTrade[]>;
  readQuotesRaw(range: TickRange): Promise<RawQuote[]>;
  readBarsRaw(kind: BarKind, range: BarRange): Promise<RawBar[]>;
  /**
   * A page of trades written as JSON by the engine (range.limit is the page size plus one), with
   * the fields and values services/tick-json.ts writes for this form; undefined when a row of it
   * needs that writer (a size whose decimal_size the engine cannot write the same way).
   */
  readTradesJsonPage(range: TickRange, form: TradeJsonForm): Promise<TickJsonPage | undefined>;
  /** A page of quotes written as JSON by the engine (range.limit is the page size plus one), as quotesJson writes them. */
  readQuotesJsonPage(range: TickRange): Promise<TickJsonPage>;
  /** Up to range.limit minute bars written as JSON by the engine (barTuplesJson's fields), `otc` on each when set. */
  readMinuteBarsJsonPage(range: BarRange, otc: boolean): Promise<BarJsonPage>;
  /**
   * The first `maxRows` minute bars of `ticker` in [fromMs, toMs) (fromMs >= 0), ascending, grouped
   * by UTC day: per day its bars' JSON items as readMinuteBarsJsonPage writes them, joined by
   * commas, and their start times.
   */
  readMinuteBarDays(ticker: string, fromMs: number, toMs: number, maxRows: number, otc: boolean): Promise<MinuteBarDayItems[]>;
  /**
   * The newest `maxRows` trades (written in `form`) or quotes of `ticker`, of time `since` or
   * later when given, as the JSON items its pages hold, newest first; undefined when one of them is
   * a trade only JavaScript can write.
   */
  readTickList(ticker: string, form: TradeJsonForm | 'quotes', maxRows: number, since?: bigint): Promise<TickListItems | undefined>;
  /** The time (ns) of the newest stored trade or quote of `ticker` (the time its pages filter on); undefined when none is stored. */
  newestTickNs(kind: 'trades' | 'quotes', ticker: string): Promise<bigint | undefined>;
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
