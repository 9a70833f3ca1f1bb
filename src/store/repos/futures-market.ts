// Futures trades, quotes and minute bars (migrations/<engine>/0900_futures_market.sql), and the
// contract list of the futures snapshot (the latest row of each contract in futures_contracts).
// One SQL dialect for both engines; ns times are bigint in and out.
import type { FuturesCandle, FuturesMinuteBar, FuturesQuote, FuturesTrade, TextFilter } from '../../domain/futures-market.js';
import type { Row, SqlDriver, SqlValue } from '../driver.js';
import { toBigInt, toNumber, toOptionalBigInt, toOptionalNumber } from '../driver.js';
import { insertRows, upsert, type InsertSpec } from './market.js';

const nullable = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

const TRADE_COLUMNS = ['ticker', 'ts', 'sequence_number', 'session_end_date', 'price', 'size', 'report_sequence', 'channel'] as const;
const QUOTE_COLUMNS = [
  'ticker', 'ts', 'sequence_number', 'session_end_date', 'bid_price', 'bid_size', 'bid_timestamp', 'ask_price', 'ask_size', 'ask_timestamp', 'report_sequence', 'channel',
] as const;
const BAR_COLUMNS = ['ticker', 'window_start', 'session_end_date', 'open', 'high', 'low', 'close', 'volume', 'transactions', 'dollar_volume'] as const;
const TICK_KEY = ['ticker', 'ts', 'sequence_number'] as const;
const BAR_KEY = ['ticker', 'window_start'] as const;
const rest = (columns: readonly string[], key: readonly string[]) => columns.filter((c) => !key.includes(c));

// A re-imported row with a stored key replaces the stored values: corrections win.
const TRADES: InsertSpec<FuturesTrade> = {
  table: 'futures_trades',
  columns: TRADE_COLUMNS,
  conflict: upsert('futures_trades', TICK_KEY, rest(TRADE_COLUMNS, TICK_KEY)),
  key: (r) => `${r.ticker}\0${r.timestamp}\0${r.sequence_number}`,
  write: (r, out) => {
    out.push(r.ticker, r.timestamp, r.sequence_number, r.session_end_date, r.price, r.size, nullable(r.report_sequence), nullable(r.channel));
  },
};
const QUOTES: InsertSpec<FuturesQuote> = {
  table: 'futures_quotes',
  columns: QUOTE_COLUMNS,
  conflict: upsert('futures_quotes', TICK_KEY, rest(QUOTE_COLUMNS, TICK_KEY)),
  key: (r) => `${r.ticker}\0${r.timestamp}\0${r.sequence_number}`,
  write: (r, out) => {
    out.push(
      r.ticker, r.timestamp, r.sequence_number, r.session_end_date, nullable(r.bid_price), nullable(r.bid_size), nullable(r.bid_timestamp),
      nullable(r.ask_price), nullable(r.ask_size), nullable(r.ask_timestamp), nullable(r.report_sequence), nullable(r.channel),
    );
  },
};
const BARS: InsertSpec<FuturesMinuteBar> = {
  table: 'futures_minute_bars',
  columns: BAR_COLUMNS,
  conflict: upsert('futures_minute_bars', BAR_KEY, rest(BAR_COLUMNS, BAR_KEY)),
  key: (r) => `${r.ticker}\0${r.window_start}`,
  write: (r, out) => {
    out.push(r.ticker, r.window_start, r.session_end_date, r.open, r.high, r.low, r.close, r.volume, r.transactions, r.dollar_volume);
  },
};

function tradeFromRow(r: Row): FuturesTrade {
  return {
    ticker: String(r.ticker), timestamp: toBigInt(r.ts), sequence_number: toBigInt(r.sequence_number), session_end_date: String(r.session_end_date),
    price: toNumber(r.price), size: toNumber(r.size), report_sequence: toOptionalBigInt(r.report_sequence), channel: toOptionalNumber(r.channel),
  };
}

function quoteFromRow(r: Row): FuturesQuote {
  return {
    ticker: String(r.ticker), timestamp: toBigInt(r.ts), sequence_number: toBigInt(r.sequence_number), session_end_date: String(r.session_end_date),
    bid_price: toOptionalNumber(r.bid_price), bid_size: toOptionalNumber(r.bid_size), bid_timestamp: toOptionalBigInt(r.bid_timestamp),
    ask_price: toOptionalNumber(r.ask_price), ask_size: toOptionalNumber(r.ask_size), ask_timestamp: toOptionalBigInt(r.ask_timestamp),
    report_sequence: toOptionalBigInt(r.report_sequence), channel: toOptionalNumber(r.channel),
  };
}

function barFromRow(r: Row): FuturesMinuteBar {
  return {
    ticker: String(r.ticker), window_start: toBigInt(r.window_start), session_end_date: String(r.session_end_date),
    open: toNumber(r.open), high: toNumber(r.high), low: toNumber(r.low), close: toNumber(r.close),
    volume: toNumber(r.volume), transactions: toNumber(r.transactions), dollar_volume: toNumber(r.dollar_volume),
  };
}

export type FuturesTickKind = 'trades' | 'quotes';

/** Where a page of ticks resumes: strictly after this (time, sequence number). */
export interface FuturesTickPosition {
  ts: bigint;
  seq: bigint;
}

export interface FuturesTickRange {
  ticker: string;
  /** Time bounds, Unix ns: gte ≤ ts < lt. */
  gte?: bigint;
  lt?: bigint;
  sessionEndDate?: string;
  order: 'asc' | 'desc';
  limit: number;
  after?: FuturesTickPosition;
}

export interface FuturesBarRange {
  ticker: string;
  gte?: bigint;
  lt?: bigint;
  order: 'asc' | 'desc';
  limit: number;
  /** Resume strictly after this window start. */
  after?: bigint;
}

export interface SessionCandleRange {
  ticker: string;
  /** Trading dates, both inclusive. */
  from?: string;
  to?: string;
  /** Only minute bars starting before this instant (ns): the session so far. */
  beforeNs?: bigint;
  order: 'asc' | 'desc';
  limit?: number;
}

export interface SnapshotContractQuery {
  /** The date whose contract rows are read: each contract's latest row on or before it. */
  asOf: string;
  ticker: TextFilter;
  product_code: TextFilter;
  sort: 'ticker' | 'product_code';
  order: 'asc' | 'desc';
  limit: number;
  /** Resume strictly after this (sort value, ticker). */
  after?: { value: string; ticker: string };
}

export interface SnapshotContract {
  ticker: string;
  product_code: string;
  settlement_date?: string;
}

const TABLE = { trades: 'futures_trades', quotes: 'futures_quotes' } as const;

/** A WHERE clause built from conditions whose value is given; absent values add nothing. */
class Where {
  readonly parts: string[] = [];
  readonly params: SqlValue[] = [];

  constructor(sql: string, value: SqlValue) {
    this.add(sql, value);
  }

  add(sql: string, value: SqlValue | undefined, ...more: SqlValue[]): this {
    if (value === undefined) return this;
    this.parts.push(sql);
    this.params.push(value, ...more);
    return this;
  }

  text(column: string, f: TextFilter): this {
    this.add(`${column} = ?`, f.eq);
    if (f.any_of !== undefined) {
      this.parts.push(`${column} IN (${f.any_of.map(() => '?').join(', ')})`);
      this.params.push(...f.any_of);
    }
    return this.add(`${column} > ?`, f.gt).add(`${column} >= ?`, f.gte).add(`${column} < ?`, f.lt).add(`${column} <= ?`, f.lte);
  }

  get sql(): string {
    return this.parts.join(' AND ');
  }
}

/** The per-session statistics from minute bars: first open, last close, extremes and sums. */
const SESSION_SQL = (where: string, dir: string) => `
  SELECT g.session_end_date AS session_end_date, f.open AS open, g.high AS high, g.low AS low, z.close AS close,
         g.volume AS volume, g.transactions AS transactions, g.dollar_volume AS dollar_volume, g.first_start AS first_start
  FROM (SELECT session_end_date, MIN(window_start) AS first_start, MAX(window_start) AS last_start, MAX(high) AS high, MIN(low) AS low,
               SUM(volume) AS volume, SUM(transactions) AS transactions, SUM(dollar_volume) AS dollar_volume
        FROM futures_minute_bars WHERE ${where} GROUP BY session_end_date) g
  JOIN futures_minute_bars f ON f.ticker = ? AND f.window_start = g.first_start
  JOIN futures_minute_bars z ON z.ticker = ? AND z.window_start = g.last_start
  ORDER BY g.session_end_date ${dir}`;

export class FuturesMarketRepository {
  constructor(private readonly db: SqlDriver) {}

  insertTrades(rows: readonly FuturesTrade[]): Promise<number> {
    return insertRows(this.db, TRADES, rows);
  }

  insertQuotes(rows: readonly FuturesQuote[]): Promise<number> {
    return insertRows(this.db, QUOTES, rows);
  }

  insertMinuteBars(rows: readonly FuturesMinuteBar[]): Promise<number> {
    return insertRows(this.db, BARS, rows);
  }

  private async ticks(kind: FuturesTickKind, range: FuturesTickRange): Promise<Row[]> {
    const where = new Where('ticker = ?', range.ticker).add('ts >= ?', range.gte).add('ts < ?', range.lt).add('session_end_date = ?', range.sessionEndDate);
    if (range.after) where.add(`(ts, sequence_number) ${range.order === 'asc' ? '>' : '<'} (?, ?)`, range.after.ts, range.after.seq);
    const dir = range.order === 'asc' ? 'ASC' : 'DESC';
    const sql = `SELECT ${(kind === 'trades' ? TRADE_COLUMNS : QUOTE_COLUMNS).join(', ')} FROM ${TABLE[kind]} WHERE ${where.sql}
      ORDER BY ts ${dir}, sequence_number ${dir} LIMIT ?`;
    return this.db.all(sql, [...where.params, range.limit], { bigint: true });
  }

  async readTrades(range: FuturesTickRange): Promise<FuturesTrade[]> {
    return (await this.ticks('trades', range)).map(tradeFromRow);
  }

  async readQuotes(range: FuturesTickRange): Promise<FuturesQuote[]> {
    return (await this.ticks('quotes', range)).map(quoteFromRow);
  }

  async readMinuteBars(range: FuturesBarRange): Promise<FuturesMinuteBar[]> {
    const where = new Where('ticker = ?', range.ticker).add('window_start >= ?', range.gte).add('window_start < ?', range.lt)
      .add(`window_start ${range.order === 'asc' ? '>' : '<'} ?`, range.after);
    const sql = `SELECT ${BAR_COLUMNS.join(', ')} FROM futures_minute_bars WHERE ${where.sql}
      ORDER BY window_start ${range.order === 'asc' ? 'ASC' : 'DESC'} LIMIT ?`;
    return (await this.db.all(sql, [...where.params, range.limit], { bigint: true })).map(barFromRow);
  }

  /**
   * One candle per trading date from the minute bars, its settlement price the close of its last
   * minute (CME settles on the closing range; no separate settlement is stored).
   */
  async sessionCandles(range: SessionCandleRange): Promise<FuturesCandle[]> {
    const where = new Where('ticker = ?', range.ticker).add('session_end_date >= ?', range.from).add('session_end_date <= ?', range.to).add('window_start < ?', range.beforeNs);
    const params = [...where.params, range.ticker, range.ticker];
    let sql = SESSION_SQL(where.sql, range.order === 'asc' ? 'ASC' : 'DESC');
    if (range.limit !== undefined) {
      sql += ' LIMIT ?';
      params.push(range.limit);
    }
    const rows = await this.db.all(sql, params, { bigint: true });
    return rows.map((r) => ({
      ticker: range.ticker, window_start: toBigInt(r.first_start), session_end_date: String(r.session_end_date),
      open: toNumber(r.open), high: toNumber(r.high), low: toNumber(r.low), close: toNumber(r.close),
      volume: toNumber(r.volume), transactions: toNumber(r.transactions), dollar_volume: toNumber(r.dollar_volume), settlement_price: toNumber(r.close),
    }));
  }

  private async last(table: string, time: string, ticker: string, atNs: bigint): Promise<Row | undefined> {
    const order = table === 'futures_minute_bars' ? `${time} DESC` : `${time} DESC, sequence_number DESC`;
    return this.db.get(`SELECT * FROM ${table} WHERE ticker = ? AND ${time} <= ? ORDER BY ${order} LIMIT 1`, [ticker, atNs], { bigint: true });
  }

  /** The latest trade at or before `atNs`. */
  async lastTrade(ticker: string, atNs: bigint): Promise<FuturesTrade | undefined> {
    const r = await this.last('futures_trades', 'ts', ticker, atNs);
    return r && tradeFromRow(r);
  }

  async lastQuote(ticker: string, atNs: bigint): Promise<FuturesQuote | undefined> {
    const r = await this.last('futures_quotes', 'ts', ticker, atNs);
    return r && quoteFromRow(r);
  }

  /** The latest minute bar starting at or before `atNs`. */
  async lastMinuteBar(ticker: string, atNs: bigint): Promise<FuturesMinuteBar | undefined> {
    const r = await this.last('futures_minute_bars', 'window_start', ticker, atNs);
    return r && barFromRow(r);
  }

  /** Contracts of the snapshot: each one's latest reference row on or before `asOf`, when it is active. */
  async snapshotContracts(q: SnapshotContractQuery): Promise<SnapshotContract[]> {
    const where = new Where('c.date = (SELECT MAX(d.date) FROM futures_contracts d WHERE d.ticker = c.ticker AND d.date <= ?)', q.asOf)
      .add('c.active = ?', 1).text('c.ticker', q.ticker).text('c.product_code', q.product_code);
    const op = q.order === 'asc' ? '>' : '<';
    const dir = q.order === 'asc' ? 'ASC' : 'DESC';
    const sort = `c.${q.sort}`;
    if (q.after && q.sort === 'ticker') where.add(`c.ticker ${op} ?`, q.after.ticker);
    else if (q.after) where.add(`(${sort} ${op} ? OR (${sort} = ? AND c.ticker ${op} ?))`, q.after.value, q.after.value, q.after.ticker);
    const rows = await this.db.all(
      `SELECT c.ticker AS ticker, c.product_code AS product_code, c.settlement_date AS settlement_date FROM futures_contracts c
       WHERE ${where.sql} ORDER BY ${sort} ${dir}, c.ticker ${dir} LIMIT ?`,
      [...where.params, q.limit],
    );
    return rows.map((r) => ({ ticker: String(r.ticker), product_code: String(r.product_code), ...(r.settlement_date ? { settlement_date: String(r.settlement_date) } : {}) }));
  }
}
