// Futures market data for /futures/vX/trades, /quotes, /aggs and /snapshot: keyset-paged ticks of
// one contract, candles computed from stored minute bars (seconds from trades, sessions and longer
// from per-session sums), and a snapshot per contract of its latest trade, quote, minute and session.
import { globexSession } from '../domain/futures-calendar.js';
import {
  candlesOf, dateOfUtcNs, foldCandle, intradayCandleStart, intradayLengthNs, isIntraday, parseResolution, periodCandleStart, tradingDateOfMs,
  type FuturesCandle, type FuturesQuote, type FuturesTrade, type Resolution, type TextFilter,
} from '../domain/futures-market.js';
import { NS_PER_MS } from '../domain/nanoseconds.js';
import type { Store } from '../store/index.js';
import type { FuturesTickKind, SnapshotContract } from '../store/repos/futures-market.js';
import type { KeysetRows, PageRequest } from './paging.js';
import type { VisibleTicks } from './snapshots.js';

export const MAX_FUTURES_LIMIT = 50_000;

const isDigits = (v: unknown): v is string => typeof v === 'string' && /^\d{1,19}$/.test(v);
const validLimit = (v: unknown) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_FUTURES_LIMIT;
const validOrder = (v: unknown) => v === 'asc' || v === 'desc';

// ---------------------------------------------------------------------------------------------
// Trades and quotes

/** The resolved request a page of ticks reads (and its cursor carries): ns bounds as decimal text. */
export interface FuturesTickQuery {
  ticker: string;
  gte?: string;
  lt?: string;
  session_end_date?: string;
  order: 'asc' | 'desc';
  limit: number;
}

export interface FuturesTickPosition {
  ts: string;
  seq: string;
}

export function validTickCursor(q: FuturesTickQuery, a: FuturesTickPosition, ticker: string): boolean {
  return q.ticker === ticker && validOrder(q.order) && validLimit(q.limit) && (q.gte === undefined || isDigits(q.gte)) && (q.lt === undefined || isDigits(q.lt))
    && (q.session_end_date === undefined || /^\d{4}-\d{2}-\d{2}$/.test(q.session_end_date)) && isDigits(a.ts) && isDigits(a.seq);
}

// ---------------------------------------------------------------------------------------------
// Aggregates

/** The resolved request of a page of candles: window_start bounds (ns text), gte ≤ window_start < lt. */
export interface FuturesAggQuery {
  ticker: string;
  resolution: string;
  gte?: string;
  lt?: string;
  /** The plan's clock (ns text): candles hold only the trades and whole minutes before it. */
  until?: string;
  order: 'asc' | 'desc';
  limit: number;
}

export interface FuturesAggPosition {
  ws: string;
}

export function validAggCursor(q: FuturesAggQuery, a: FuturesAggPosition, ticker: string): boolean {
  if (q.ticker !== ticker || typeof q.resolution !== 'string' || !validOrder(q.order) || !validLimit(q.limit)) return false;
  try {
    parseResolution(q.resolution);
  } catch {
    return false;
  }
  return [q.gte, q.lt, q.until].every((v) => v === undefined || isDigits(v)) && isDigits(a.ws);
}

/** Base rows read at once while looking for the candles of a page. */
const CHUNK_ROWS = 20_000;

const oneTradeCandle = (t: FuturesTrade): FuturesCandle => ({
  ticker: t.ticker, window_start: t.timestamp, session_end_date: t.session_end_date, open: t.price, high: t.price, low: t.price, close: t.price,
  volume: t.size, transactions: 1, dollar_volume: t.price * t.size,
});

const MINUTE_NS = 60_000n * NS_PER_MS;

/** Where the base rows of a candle query end (exclusive): trades before the plan's clock, minutes that ended by it. */
function sourceEnd(q: FuturesAggQuery, trades: boolean): bigint | undefined {
  if (q.until === undefined) return undefined;
  return trades ? BigInt(q.until) : BigInt(q.until) - MINUTE_NS + 1n;
}

const minOf = (a: bigint | undefined, b: bigint | undefined) => (a === undefined ? b : b === undefined || a < b ? a : b);

const byStart = (a: FuturesCandle, b: FuturesCandle) => (a.window_start < b.window_start ? -1 : a.window_start > b.window_start ? 1 : 0);

// ---------------------------------------------------------------------------------------------
// Snapshot

export interface FuturesSnapshotQuery {
  ticker: TextFilter;
  product_code: TextFilter;
  sort: 'ticker' | 'product_code';
  order: 'asc' | 'desc';
  limit: number;
}

export interface FuturesSnapshotPosition {
  value: string;
  ticker: string;
}

export function validSnapshotCursor(q: FuturesSnapshotQuery, a: FuturesSnapshotPosition): boolean {
  const filter = (f: unknown) => typeof f === 'object' && f !== null;
  return filter(q.ticker) && filter(q.product_code) && (q.sort === 'ticker' || q.sort === 'product_code') && validOrder(q.order) && validLimit(q.limit)
    && typeof a.value === 'string' && typeof a.ticker === 'string';
}

export type Timeframe = 'REAL-TIME' | 'DELAYED';

export interface FuturesSnapshotItem {
  ticker: string;
  product_code: string;
  details: { product_code: string; settlement_date?: string; ticker: string };
  last_minute?: { close: number; high: number; last_updated: number; low: number; open: number; timeframe: Timeframe; volume: number };
  last_quote?: {
    ask?: number; ask_size?: number; ask_timestamp?: bigint; bid?: number; bid_size?: number; bid_timestamp?: bigint; last_updated: bigint; timeframe: Timeframe;
  };
  last_trade?: { last_updated: bigint; price: number; size: number; timeframe: Timeframe };
  session?: {
    change?: number; change_percent?: number; close: number; high: number; low: number; open: number; previous_settlement?: number; settlement_price?: number; volume: number;
  };
}

function quoteWire(q: FuturesQuote, timeframe: Timeframe): NonNullable<FuturesSnapshotItem['last_quote']> {
  return {
    ask: q.ask_price, ask_size: q.ask_size, ask_timestamp: q.ask_timestamp, bid: q.bid_price, bid_size: q.bid_size, bid_timestamp: q.bid_timestamp,
    last_updated: q.timestamp, timeframe,
  };
}

export class FuturesMarketService {
  constructor(
    private readonly store: Pick<Store, 'futures'>,
    /** Base rows read at once for intraday candles (tests make it small to cross chunk edges). */
    private readonly chunkRows = CHUNK_ROWS,
  ) {}

  async ticks(kind: 'trades', q: FuturesTickQuery, page: PageRequest<FuturesTickPosition>): Promise<KeysetRows<FuturesTrade, FuturesTickPosition>>;
  async ticks(kind: 'quotes', q: FuturesTickQuery, page: PageRequest<FuturesTickPosition>): Promise<KeysetRows<FuturesQuote, FuturesTickPosition>>;
  async ticks(kind: FuturesTickKind, q: FuturesTickQuery, page: PageRequest<FuturesTickPosition>): Promise<KeysetRows<FuturesTrade | FuturesQuote, FuturesTickPosition>> {
    const range = {
      ticker: q.ticker, gte: q.gte === undefined ? undefined : BigInt(q.gte), lt: q.lt === undefined ? undefined : BigInt(q.lt),
      sessionEndDate: q.session_end_date, order: q.order, limit: page.limit,
      after: page.after && { ts: BigInt(page.after.ts), seq: BigInt(page.after.seq) },
    };
    const rows = kind === 'trades' ? await this.store.futures.readTrades(range) : await this.store.futures.readQuotes(range);
    return { rows, position: (r) => ({ ts: r.timestamp.toString(), seq: r.sequence_number.toString() }) };
  }

  /** A page of candles: those with window_start in the query's bounds, after the position, in order. */
  async candles(q: FuturesAggQuery, page: PageRequest<FuturesAggPosition>): Promise<KeysetRows<FuturesCandle, FuturesAggPosition>> {
    const r = parseResolution(q.resolution);
    let lo = q.gte === undefined ? undefined : BigInt(q.gte);
    let hi = q.lt === undefined ? undefined : BigInt(q.lt);
    if (page.after) {
      const at = BigInt(page.after.ws);
      if (q.order === 'asc') lo = lo === undefined || at + 1n > lo ? at + 1n : lo;
      else hi = hi === undefined || at < hi ? at : hi;
    }
    const position = (c: FuturesCandle) => ({ ws: c.window_start.toString() });
    if (lo !== undefined && hi !== undefined && lo >= hi) return { rows: [], position };
    const inRange = (ws: bigint) => (lo === undefined || ws >= lo) && (hi === undefined || ws < hi);
    const found = isIntraday(r) ? await this.intraday(q, r, lo, hi, inRange, page.limit) : await this.periods(q, r, lo, hi, page.limit);
    const rows = found.filter((c) => inRange(c.window_start));
    if (q.order === 'desc') rows.reverse();
    return { rows: rows.slice(0, page.limit), position };
  }

  /**
   * Candles shorter than a session, ascending: base rows (minute bars; trades for seconds) are read
   * in the page's order, chunk by chunk, and folded candle by candle (one candle's rows held at a
   * time) until `limit` candles are whole (the next one has begun) or the rows run out.
   */
  private async intraday(q: FuturesAggQuery, r: Resolution, lo: bigint | undefined, hi: bigint | undefined, inRange: (ws: bigint) => boolean, limit: number): Promise<FuturesCandle[]> {
    const size = intradayLengthNs(r);
    const seconds = r.unit === 'sec';
    // the last candle starting before hi holds rows up to hi + its length; none after the plan's clock
    const lt = minOf(hi === undefined ? undefined : hi + size, sourceEnd(q, seconds));
    const out: FuturesCandle[] = [];
    let group: FuturesCandle[] = [];
    let groupStart: bigint | undefined;
    const closeGroup = () => {
      if (groupStart !== undefined) out.push(foldCandle(q.order === 'asc' ? group : group.reverse(), groupStart));
      group = [];
    };
    let afterBar: bigint | undefined;
    let afterTrade: { ts: bigint; seq: bigint } | undefined;
    for (;;) {
      let chunk: FuturesCandle[];
      if (seconds) {
        const trades = await this.store.futures.readTrades({ ticker: q.ticker, gte: lo, lt, order: q.order, limit: this.chunkRows, after: afterTrade });
        const last = trades[trades.length - 1];
        afterTrade = last && { ts: last.timestamp, seq: last.sequence_number };
        chunk = trades.map(oneTradeCandle);
      } else {
        chunk = await this.store.futures.readMinuteBars({ ticker: q.ticker, gte: lo, lt, order: q.order, limit: this.chunkRows, after: afterBar });
        afterBar = chunk[chunk.length - 1]?.window_start;
      }
      for (const row of chunk) {
        const start = intradayCandleStart(row.window_start, r);
        if (!inRange(start)) continue;
        if (start !== groupStart) {
          closeGroup();
          if (out.length >= limit) return q.order === 'asc' ? out : out.reverse();
          groupStart = start;
        }
        group.push(row);
      }
      if (chunk.length < this.chunkRows) break;
    }
    closeGroup();
    return q.order === 'asc' ? out : out.reverse();
  }

  /** Candles of a session or longer, ascending, from per-session candles. */
  private async periods(q: FuturesAggQuery, r: Resolution, lo: bigint | undefined, hi: bigint | undefined, limit: number): Promise<FuturesCandle[]> {
    const from = lo === undefined ? undefined : dateOfUtcNs(lo);
    if (r.unit === 'session') {
      const to = hi === undefined ? undefined : dateOfUtcNs(hi - 1n);
      const sessions = await this.store.futures.sessionCandles({ ticker: q.ticker, from, to, beforeNs: sourceEnd(q, false), order: q.order, limit: limit + 1 });
      return sessions.map((s) => ({ ...s, window_start: periodCandleStart(s.session_end_date, r) })).sort(byStart);
    }
    // a period starting before hi runs at most a year past it
    const to = hi === undefined ? undefined : dateOfUtcNs(hi + 366n * 86_400_000n * NS_PER_MS);
    const sessions = await this.store.futures.sessionCandles({ ticker: q.ticker, from, to, beforeNs: sourceEnd(q, false), order: 'asc' });
    return candlesOf(sessions, (s) => periodCandleStart(s.session_end_date, r));
  }

  /** A page of the snapshot as of `nowMs`: each listed contract with what is stored of it (ticks the plan covers). */
  async snapshot(
    q: FuturesSnapshotQuery, page: PageRequest<FuturesSnapshotPosition>, at: { nowMs: number; timeframe: Timeframe; visible: VisibleTicks },
  ): Promise<KeysetRows<FuturesSnapshotItem, FuturesSnapshotPosition>> {
    const { nowMs } = at;
    const contracts = await this.store.futures.snapshotContracts({
      asOf: tradingDateOfMs(nowMs), ticker: q.ticker, product_code: q.product_code, sort: q.sort, order: q.order, limit: page.limit, after: page.after,
    });
    const rows: FuturesSnapshotItem[] = [];
    for (const c of contracts) rows.push(await this.snapshotItem(c, at));
    return { rows, position: (item) => ({ value: q.sort === 'ticker' ? item.ticker : item.product_code, ticker: item.ticker }) };
  }

  private async snapshotItem(c: SnapshotContract, { nowMs, timeframe, visible }: { nowMs: number; timeframe: Timeframe; visible: VisibleTicks }): Promise<FuturesSnapshotItem> {
    const at = BigInt(nowMs) * NS_PER_MS;
    const repo = this.store.futures;
    const item: FuturesSnapshotItem = {
      ticker: c.ticker, product_code: c.product_code,
      details: { product_code: c.product_code, ...(c.settlement_date ? { settlement_date: c.settlement_date } : {}), ticker: c.ticker },
    };
    const trade = visible.trades ? await repo.lastTrade(c.ticker, at) : undefined;
    if (trade) item.last_trade = { last_updated: trade.timestamp, price: trade.price, size: trade.size, timeframe };
    const quote = visible.quotes ? await repo.lastQuote(c.ticker, at) : undefined;
    if (quote) item.last_quote = quoteWire(quote, timeframe);
    // a minute is whole once it has ended; upstream writes this bar's time in ms
    const minute = await repo.lastMinuteBar(c.ticker, at - MINUTE_NS);
    if (minute) {
      item.last_minute = {
        close: minute.close, high: minute.high, last_updated: Number(minute.window_start / NS_PER_MS), low: minute.low, open: minute.open, timeframe, volume: minute.volume,
      };
    }
    const [current, previous] = await repo.sessionCandles({ ticker: c.ticker, to: tradingDateOfMs(nowMs), beforeNs: at, order: 'desc', limit: 2 });
    if (current) {
      const close = globexSession(current.session_end_date)?.close;
      const settled = close !== undefined && close <= nowMs;
      const session: NonNullable<FuturesSnapshotItem['session']> = { close: current.close, high: current.high, low: current.low, open: current.open, volume: current.volume };
      if (settled) session.settlement_price = current.settlement_price;
      if (previous?.settlement_price !== undefined) {
        // upstream's change is from the previous settlement to this one (the last price while the
        // session runs), and its change_percent the ratio of the two (0.0962 for +9.62 %)
        const change = (session.settlement_price ?? session.close) - previous.settlement_price;
        session.previous_settlement = previous.settlement_price;
        session.change = Math.round(change * 1e6) / 1e6;
        session.change_percent = Math.round((change / previous.settlement_price) * 1e8) / 1e8;
      }
      item.session = session;
    }
    return item;
  }
}
