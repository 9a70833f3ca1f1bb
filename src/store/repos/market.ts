// Market data over SqlDriver: one SQL dialect for both engines (see migrations/<engine>/0100_market_data.sql
// for the schema and its keys). Reads are range scans on (ticker, time[, sequence, pk]).
import type { CopyPart, Row, SqlDriver, SqlValue } from '../driver.js';
import { COPY_MIN_ROWS, KeyConflictError, toBigInt, toNumber, toOptionalBigInt, toOptionalNumber } from '../driver.js';
import type { BarRow, QuoteRow, TradeRow } from '../../domain/market-records.js';
import { localDayOf, localDayStart, type Zone } from '../../domain/calendar.js';
import { isMissingPartition } from '../postgres/driver.js';
import { daysOf, type DayPartitions } from '../postgres/partitions.js';
import type { BarJsonPage, BarKind, BarRange, MarketDataPort, MinuteBarDayItems, NewRows, NewRowsLoader, PagedTick, RawBar, RawQuote, RawTrade, TickJsonPage, TickListItems, TickPosition, TickRange, TradeJsonForm } from './market-port.js';
import { BAR_COLUMNS, copyRowsOf, NO_ID, NO_SEQUENCE, QUOTE_COLUMNS, TRADE_COLUMNS } from './market-copy.js';
import { DAY_BAR_DERIVED, DERIVE_WINDOW_SQL, DERIVED_PER_WRITE, foldHoursIntoDays, HOURLY_PARTS_SQL } from './day-bar-derivation.js';
import { readMinuteBarDays, readMinuteBarsJsonPage, readQuotesJsonPage, readTickListItems, readTradesJsonPage } from './tick-json-sql.js';

/**
 * Rows per multi-row INSERT, well under both engines' parameter limits. SQLite gains little
 * beyond 64 (it is in-process); PostgreSQL pays a round trip per statement, so it gets more.
 */
const ROWS_PER_STATEMENT = { sqlite: 64, postgres: 256 } as const;
// PostgreSQL batches of COPY_MIN_ROWS or more skip these statements: they are bulk-loaded with
// COPY (driver.copyInsert), then moved by one INSERT ... SELECT with the same ON CONFLICT clause.
const BAR_SELECT = BAR_COLUMNS.join(', ');
const TRADE_SELECT = `pk, ${TRADE_COLUMNS.join(', ')}`;
const QUOTE_SELECT = `pk, ${QUOTE_COLUMNS.join(', ')}`;
// The select lists of RawTrade, RawQuote and RawBar (market-port.ts): 64-bit values as text.
const text = (c: string) => `CAST(${c} AS TEXT)`;
const TRADE_RAW_SELECT = [
  text('sip_timestamp'), text('sequence_number'), text('pk'), 'exchange', 'id', 'price', 'size',
  text('participant_timestamp'), text('trf_timestamp'), 'conditions', 'correction', 'tape', 'trf_id',
].join(', ');
const QUOTE_RAW_SELECT = [
  text('ts'), text('sequence_number'), text('pk'), 'ts_is_sip', text('participant_timestamp'), text('trf_timestamp'),
  'ask_price', 'ask_size', 'ask_exchange', 'bid_price', 'bid_size', 'bid_exchange', 'conditions', 'indicators', 'tape',
].join(', ');
const BAR_RAW_SELECT = 't, o, h, l, c, v, vw, n';

// Re-importing a row whose key is already stored replaces its other columns: upstream republishes
// corrected files, and the correction must win. The WHERE clause skips rows whose values are
// unchanged, so an identical re-import writes nothing and counts nothing as written.
/** ` ON CONFLICT (key) DO UPDATE SET ...` of `columns`, only where one of them differs. */
export function upsert(table: string, key: readonly string[], columns: readonly string[], extraSet = '', extraWhere = ''): string {
  const set = columns.map((c) => `${c} = excluded.${c}`).join(', ');
  const changed = columns.map((c) => `${table}.${c} IS DISTINCT FROM excluded.${c}`).join(' OR ');
  return ` ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${set}${extraSet} WHERE ${extraWhere}${changed}`;
}

const BAR_KEY = ['ticker', 't'] as const;
const BAR_VALUES = ['o', 'h', 'l', 'c', 'v', 'vw', 'n'] as const;
const TRADE_KEY = ['ticker', 'sip_timestamp', 'sequence_number', 'exchange', 'id', 'price', 'size'] as const;
const QUOTE_KEY = ['ticker', 'ts', 'sequence_number'] as const;
const notKey = (columns: readonly string[], key: readonly string[]) => columns.filter((c) => !key.includes(c));

const MINUTE_UPSERT = upsert('minute_bars', BAR_KEY, BAR_VALUES);
// Day bars: an imported bar replaces a derived one and a changed imported one; a derived bar
// replaces only a derived one (re-deriving after corrected minutes), never an imported bar.
const DAY_BAR_IMPORTED = upsert('day_bars', BAR_KEY, BAR_VALUES, ', derived = 0', 'day_bars.derived = 1 OR ');
// A trade's key includes price and size (options trades have no other way to tell two prints
// apart), so a corrected price is a new trade; the other columns are replaced in place.
const TRADE_UPSERT = upsert('trades', TRADE_KEY, notKey(TRADE_COLUMNS, TRADE_KEY));
const QUOTE_UPSERT = upsert('quotes', QUOTE_KEY, notKey(QUOTE_COLUMNS, QUOTE_KEY));

/** The zone of a ticker's day bars: forex days start at 00:00 UTC, everything else at 00:00 ET, as upstream's daily bars. */
export function dayZoneOf(ticker: string): Zone {
  return ticker.startsWith('C:') ? 'UTC' : 'America/New_York';
}

function joinCodes(codes: number[] | undefined): string | null {
  return codes === undefined || codes.length === 0 ? null : codes.join(',');
}

function splitCodes(v: unknown): number[] | undefined {
  if (v === null || v === undefined || v === '') return undefined;
  return String(v).split(',').map(Number);
}

function nullable<T>(v: T | undefined): T | null {
  return v === undefined ? null : v;
}

export function barFromRow(r: Row): BarRow {
  return {
    ticker: String(r.ticker),
    t: toNumber(r.t),
    o: toNumber(r.o),
    h: toNumber(r.h),
    l: toNumber(r.l),
    c: toNumber(r.c),
    v: toOptionalNumber(r.v),
    vw: toOptionalNumber(r.vw),
    n: toOptionalNumber(r.n),
  };
}

export function tradeFromRow(r: Row): TradeRow {
  const seq = toBigInt(r.sequence_number);
  return {
    ticker: String(r.ticker),
    sip_timestamp: toBigInt(r.sip_timestamp),
    participant_timestamp: toOptionalBigInt(r.participant_timestamp),
    trf_timestamp: toOptionalBigInt(r.trf_timestamp),
    price: toNumber(r.price),
    size: toNumber(r.size),
    exchange: toNumber(r.exchange),
    id: r.id === NO_ID ? undefined : String(r.id),
    conditions: splitCodes(r.conditions),
    correction: toOptionalNumber(r.correction),
    sequence_number: seq === NO_SEQUENCE ? undefined : seq,
    tape: toOptionalNumber(r.tape),
    trf_id: toOptionalNumber(r.trf_id),
  };
}

export function quoteFromRow(r: Row): QuoteRow {
  const seq = toBigInt(r.sequence_number);
  return {
    ticker: String(r.ticker),
    sip_timestamp: toNumber(r.ts_is_sip) === 1 ? toBigInt(r.ts) : undefined,
    participant_timestamp: toOptionalBigInt(r.participant_timestamp),
    trf_timestamp: toOptionalBigInt(r.trf_timestamp),
    ask_price: toNumber(r.ask_price),
    ask_size: toOptionalNumber(r.ask_size),
    ask_exchange: toOptionalNumber(r.ask_exchange),
    bid_price: toNumber(r.bid_price),
    bid_size: toOptionalNumber(r.bid_size),
    bid_exchange: toOptionalNumber(r.bid_exchange),
    conditions: splitCodes(r.conditions),
    indicators: splitCodes(r.indicators),
    sequence_number: seq === NO_SEQUENCE ? undefined : seq,
    tape: toOptionalNumber(r.tape),
  };
}

function positionOf(r: Row, timeColumn: string): TickPosition {
  return { ts: String(r[timeColumn]), seq: String(r.sequence_number), pk: String(r.pk) };
}

/** Appends one row's values for a multi-row insert. */
type RowWriter<T> = (row: T, out: SqlValue[]) => void;

function writeBar(b: BarRow, out: SqlValue[]): void {
  out.push(b.ticker, b.t, b.o, b.h, b.l, b.c, nullable(b.v), nullable(b.vw), nullable(b.n));
}

function writeTrade(r: TradeRow, out: SqlValue[]): void {
  out.push(
    r.ticker, r.sip_timestamp, r.sequence_number ?? NO_SEQUENCE, r.exchange, r.id ?? NO_ID, r.price, r.size,
    nullable(r.participant_timestamp), nullable(r.trf_timestamp), joinCodes(r.conditions),
    nullable(r.correction), nullable(r.tape), nullable(r.trf_id),
  );
}

function writeQuote(q: QuoteRow, out: SqlValue[]): void {
  const ts = q.sip_timestamp ?? q.participant_timestamp;
  if (ts === undefined) throw new Error(`quote of ${q.ticker} has neither sip_timestamp nor participant_timestamp`);
  out.push(
    q.ticker, ts, q.sequence_number ?? NO_SEQUENCE, q.sip_timestamp === undefined ? 0 : 1,
    nullable(q.participant_timestamp), nullable(q.trf_timestamp),
    q.ask_price, nullable(q.ask_size), nullable(q.ask_exchange), q.bid_price, nullable(q.bid_size), nullable(q.bid_exchange),
    joinCodes(q.conditions), joinCodes(q.indicators), nullable(q.tape),
  );
}

export interface InsertSpec<T> {
  table: string;
  columns: readonly string[];
  /** ON CONFLICT clause. */
  conflict: string;
  write: RowWriter<T>;
  /**
   * The conflict key of a row. PostgreSQL refuses to update one row twice in a statement, so a
   * batch there keeps only the last row of each key (the file's later row wins, as it does on
   * SQLite, which applies a statement's rows in order).
   */
  key: (row: T) => string;
}

const tupleCache = new Map<string, string>();

/**
 * `rows` with one row per key: the last row's values at the first row's place (the order rows
 * are stored in stays the file's). `rows` itself when no key repeats.
 */
function lastPerKey<T>(rows: readonly T[], key: (row: T) => string): readonly T[] {
  const at = new Map<string, number>();
  let out: T[] | undefined;
  for (let i = 0; i < rows.length; i++) {
    const k = key(rows[i]!);
    const first = at.get(k);
    if (first === undefined) {
      at.set(k, out ? out.length : i);
      out?.push(rows[i]!);
    } else {
      out ??= rows.slice(0, i);
      out[first] = rows[i]!;
    }
  }
  return out ?? rows;
}

function insertSql(spec: InsertSpec<unknown>, rows: number): string {
  const key = `${spec.table}|${spec.conflict}|${rows}`;
  let sql = tupleCache.get(key);
  if (sql === undefined) {
    const tuple = `(${spec.columns.map(() => '?').join(',')})`;
    sql = `INSERT INTO ${spec.table} (${spec.columns.join(', ')}) VALUES ${Array(rows).fill(tuple).join(',')}${spec.conflict}`;
    tupleCache.set(key, sql);
  }
  return sql;
}

const barKey = (b: BarRow): string => `${b.ticker}\0${b.t}`;
const tradeKey = (r: TradeRow): string =>
  `${r.ticker}\0${r.sip_timestamp}\0${r.sequence_number ?? NO_SEQUENCE}\0${r.exchange}\0${r.id ?? NO_ID}\0${r.price}\0${r.size}`;
const quoteKey = (q: QuoteRow): string => `${q.ticker}\0${q.sip_timestamp ?? q.participant_timestamp}\0${q.sequence_number ?? NO_SEQUENCE}`;
const TRADE_INSERT: InsertSpec<TradeRow> = { table: 'trades', columns: TRADE_COLUMNS, conflict: TRADE_UPSERT, write: writeTrade, key: tradeKey };
const QUOTE_INSERT: InsertSpec<QuoteRow> = { table: 'quotes', columns: QUOTE_COLUMNS, conflict: QUOTE_UPSERT, write: writeQuote, key: quoteKey };
const MINUTE_INSERT: InsertSpec<BarRow> = { table: 'minute_bars', columns: BAR_COLUMNS, conflict: MINUTE_UPSERT, write: writeBar, key: barKey };
const DAY_INSERT: InsertSpec<BarRow> = { table: 'day_bars', columns: BAR_COLUMNS, conflict: DAY_BAR_IMPORTED, write: writeBar, key: barKey };
const DERIVED_DAY_INSERT: InsertSpec<BarRow> = {
  table: 'day_bars',
  columns: [...BAR_COLUMNS, 'derived'],
  conflict: DAY_BAR_DERIVED,
  key: barKey,
  write: (b, out) => {
    writeBar(b, out);
    out.push(1);
  },
};

/** The live feed's trades and quotes as binary COPY tuples (insertLiveTicks). */
const encodeTrades = copyRowsOf('trades');
const encodeQuotes = copyRowsOf('quotes');

const NEW_ROWS: { [K in keyof NewRows]: InsertSpec<NewRows[K]> } = { minute: MINUTE_INSERT, trades: TRADE_INSERT, quotes: QUOTE_INSERT };

interface TickTable {
  table: string;
  timeColumn: string;
  select: string;
}
const TRADES: TickTable = { table: 'trades', timeColumn: 'sip_timestamp', select: TRADE_SELECT };
const QUOTES: TickTable = { table: 'quotes', timeColumn: 'ts', select: QUOTE_SELECT };

function barsSql(kind: BarKind, order: 'asc' | 'desc', select: string): string {
  return `SELECT ${select} FROM ${kind}_bars WHERE ticker = ? AND t >= ? AND t < ? ORDER BY t ${order === 'asc' ? 'ASC' : 'DESC'} LIMIT ?`;
}

const barsParams = (range: BarRange): SqlValue[] => [range.ticker, range.fromMs, range.toMs, range.limit];

export interface DeriveWindow {
  /** Any instant of the first day to rebuild, Unix ms. */
  fromMs: number;
  /** Any instant of the last day to rebuild, Unix ms. */
  toMs: number;
}

/**
 * Multi-row upserts inside one transaction (joins the caller's when there is one); on
 * PostgreSQL, large batches go through COPY with the same conflict clause and count. Returns
 * the rows written: new ones and changed ones.
 */
export async function insertRows<T>(db: SqlDriver, spec: InsertSpec<T>, batch: readonly T[]): Promise<number> {
  if (batch.length === 0) return 0;
  const valuesOf = (rows: readonly T[]): SqlValue[][] => {
    const values: SqlValue[][] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const out: SqlValue[] = [];
      spec.write(rows[i]!, out);
      values[i] = out;
    }
    return values;
  };
  return db.transaction(async (tx) => {
    if (tx.engine === 'postgres' && tx.copyInsert && batch.length >= COPY_MIN_ROWS) {
      // Repeated keys make the direct COPY fail; only then are they reduced to one row each.
      return tx.copyInsert(spec.table, spec.columns, valuesOf(batch), spec.conflict, () => valuesOf(lastPerKey(batch, spec.key)));
    }
    const rows = tx.engine === 'postgres' ? lastPerKey(batch, spec.key) : batch;
    let written = 0;
    const per = ROWS_PER_STATEMENT[tx.engine];
    const full = rows.length - (rows.length % per);
    const params: SqlValue[] = [];
    if (full > 0) {
      const sql = insertSql(spec as InsertSpec<unknown>, per);
      for (let i = 0; i < full; i += per) {
        params.length = 0;
        for (let j = i; j < i + per; j++) spec.write(rows[j]!, params);
        written += (await tx.run(sql, params)).changes;
      }
    }
    if (full < rows.length) {
      params.length = 0;
      for (let j = full; j < rows.length; j++) spec.write(rows[j]!, params);
      written += (await tx.run(insertSql(spec as InsertSpec<unknown>, rows.length - full), params)).changes;
    }
    return written;
  });
}

/** The time key of a row of each day-partitioned table (PostgreSQL), as stored. */
const PARTITION_TIME: Readonly<Record<string, (row: never) => bigint | number | undefined>> = {
  trades: (r: TradeRow) => r.sip_timestamp,
  quotes: (q: QuoteRow) => q.sip_timestamp ?? q.participant_timestamp,
  minute_bars: (b: BarRow) => b.t,
};

/** The UTC days of the time keys of `rows` of `table` ([] for a table not partitioned by day). */
function partitionDaysOf(table: string, rows: readonly unknown[]): number[] {
  const timeOf = PARTITION_TIME[table] as ((row: unknown) => bigint | number | undefined) | undefined;
  return (timeOf && daysOf(table, rows, timeOf)) ?? [];
}

/** The UTC days of new rows of `kind` (what newRowsLoader makes partitions for before loading them). */
export function newRowsDaysOf<K extends keyof NewRows>(kind: K, rows: readonly NewRows[K][]): number[] {
  return partitionDaysOf(NEW_ROWS[kind].table, rows);
}

export class MarketDataRepository implements MarketDataPort {
  /** `partitions`: PostgreSQL's day partitions, created before each write that needs them. */
  constructor(
    private readonly db: SqlDriver,
    private readonly partitions?: DayPartitions,
  ) {}

  private async insert<T>(spec: InsertSpec<T>, batch: readonly T[]): Promise<number> {
    const timeOf = PARTITION_TIME[spec.table] as ((row: T) => bigint | number | undefined) | undefined;
    if (!this.partitions || !timeOf) return insertRows(this.db, spec, batch);
    await this.partitions.ensureFor(spec.table, batch, timeOf);
    try {
      return await insertRows(this.db, spec, batch);
    } catch (err) {
      // A day partition dropped after this process made or saw it (retention): the next write
      // checks again and makes it anew.
      if (isMissingPartition(err)) this.partitions.forget(spec.table);
      throw err;
    }
  }

  insertBars(kind: BarKind, rows: BarRow[]): Promise<number> {
    return this.insert(kind === 'minute' ? MINUTE_INSERT : DAY_INSERT, rows);
  }

  insertTrades(rows: TradeRow[]): Promise<number> {
    return this.insert(TRADE_INSERT, rows);
  }

  insertQuotes(rows: QuoteRow[]): Promise<number> {
    return this.insert(QUOTE_INSERT, rows);
  }

  async insertLiveTicks(trades: readonly TradeRow[], quotes: readonly QuoteRow[]): Promise<{ trades: number; quotes: number } | undefined> {
    const copyLive = this.db.copyLive?.bind(this.db);
    if (copyLive === undefined || !this.partitions) return undefined;
    await this.partitions.ensureFor('trades', trades, PARTITION_TIME.trades as (r: TradeRow) => bigint);
    await this.partitions.ensureFor('quotes', quotes, PARTITION_TIME.quotes as (q: QuoteRow) => bigint | undefined);
    const parts: CopyPart[] = [];
    if (trades.length > 0) parts.push({ table: 'trades', columns: TRADE_COLUMNS, tuples: encodeTrades(trades) });
    if (quotes.length > 0) parts.push({ table: 'quotes', columns: QUOTE_COLUMNS, tuples: encodeQuotes(quotes) });
    try {
      const counts = await copyLive(parts);
      return { trades: trades.length > 0 ? counts[0]! : 0, quotes: quotes.length > 0 ? counts[counts.length - 1]! : 0 };
    } catch (err) {
      if (!(err instanceof KeyConflictError)) throw err;
      // A row stored before (a publish sent again, a correction) or repeated, or a day partition
      // dropped after this process made it: the caller's transaction upserts them, making the
      // partition anew.
      if (isMissingPartition(err)) {
        this.partitions.forget('trades');
        this.partitions.forget('quotes');
      }
      return undefined;
    }
  }

  loadsNewRows(): boolean {
    return this.db.copyStream !== undefined;
  }

  async newRowsLoader<K extends keyof NewRows>(kind: K): Promise<NewRowsLoader<NewRows[K]> | undefined> {
    if (!this.db.copyStream) return undefined;
    const db = this.db;
    const copyStream = db.copyStream!.bind(db);
    const partitions = this.partitions;
    const spec = NEW_ROWS[kind] as InsertSpec<NewRows[K]>;
    const encode = copyRowsOf(kind);
    // A running COPY does not see partitions attached after it began, so a batch with a day the
    // current COPY was not opened for ends that COPY, has the day's partition made, and starts
    // the next one (a COPY per day of the file). The COPYs of one loader share a savepoint:
    // giving up, or a stored key met by any of them, undoes the rows of all.
    let stream: Awaited<ReturnType<typeof copyStream>> | undefined;
    let saved = false;
    let stored = 0;
    const covered = new Set<number>();
    const undo = async () => {
      if (!saved) return;
      saved = false;
      await db.exec('ROLLBACK TO SAVEPOINT tb_new_rows; RELEASE SAVEPOINT tb_new_rows').catch(() => {});
    };
    const guarded = async <R>(fn: () => Promise<R>): Promise<R> => {
      try {
        return await fn();
      } catch (err) {
        await undo();
        throw err;
      }
    };
    const streamFor = async (days: readonly number[] | undefined) => {
      const fresh = partitions && days ? days.filter((d) => !covered.has(d)) : [];
      if (stream && fresh.length === 0) return stream;
      if (!saved) {
        await db.exec('SAVEPOINT tb_new_rows');
        saved = true;
      }
      if (fresh.length > 0) {
        if (stream) stored += await stream.end();
        stream = undefined;
        await partitions!.ensureDays(spec.table, fresh);
        for (const d of fresh) covered.add(d);
      }
      return (stream ??= await copyStream(spec.table, spec.columns));
    };
    return {
      add: (rows) => guarded(async () => (await streamFor(newRowsDaysOf(kind, rows))).write(encode(rows))),
      addEncoded: (tuples, days) => guarded(async () => (await streamFor(days)).write(tuples)),
      end: () =>
        guarded(async () => {
          if (stream) stored += await stream.end();
          stream = undefined;
          if (saved) await db.exec('RELEASE SAVEPOINT tb_new_rows');
          saved = false;
          return stored;
        }),
      abort: async () => {
        await stream?.abort();
        await undo();
      },
    };
  }

  async readBars(kind: BarKind, range: BarRange): Promise<BarRow[]> {
    return (await this.db.all(barsSql(kind, range.order, BAR_SELECT), barsParams(range))).map(barFromRow);
  }

  async readBarsRaw(kind: BarKind, range: BarRange): Promise<RawBar[]> {
    return (await this.db.rawRows(barsSql(kind, range.order, BAR_RAW_SELECT), barsParams(range))) as RawBar[];
  }

  async dayBarsAt(t: number): Promise<BarRow[]> {
    const rows = await this.db.all(`SELECT ${BAR_SELECT} FROM day_bars WHERE t = ? ORDER BY ticker`, [t]);
    return rows.map(barFromRow);
  }

  async lastDayBarBefore(ticker: string, beforeMs: number): Promise<BarRow | undefined> {
    const row = await this.db.get(
      `SELECT ${BAR_SELECT} FROM day_bars WHERE ticker = ? AND t < ? ORDER BY t DESC LIMIT 1`,
      [ticker, beforeMs],
    );
    return row ? barFromRow(row) : undefined;
  }

  /** The statement and parameters of a page of ticks, selecting `select`. */
  /**
   * WHERE (with its params) and ORDER BY of a page of ticks of one ticker in a time range. The
   * ORDER BY names the table's columns qualified: the raw selects write them as CAST(... AS TEXT),
   * and PostgreSQL names such an output column after the column inside it, so a bare name would
   * sort by the text ("10" before "9"). `rowOrder` is the same order by bare names, for a query over
   * a subquery that selects those columns as they are.
   */
  private ticksFilter(table: TickTable, range: TickRange): { where: string; params: SqlValue[]; orderBy: string; rowOrder: string } {
    const time = table.timeColumn;
    const where = ['ticker = ?'];
    const params: SqlValue[] = [range.ticker];
    for (const [op, v] of [['>=', range.gte], ['>', range.gt], ['<=', range.lte], ['<', range.lt]] as const) {
      if (v !== undefined) {
        where.push(`${time} ${op} ?`);
        params.push(v);
      }
    }
    if (range.after) {
      // Strictly after the last row of the previous page, ties on time broken by sequence then pk.
      // The plain bound on time is implied by the row comparison, but only a plain bound lets
      // PostgreSQL prune the day partitions before the cursor (and use it as an index bound).
      const asc = range.order === 'asc';
      where.push(`${time} ${asc ? '>=' : '<='} ?`, `(${time}, sequence_number, pk) ${asc ? '>' : '<'} (?, ?, ?)`);
      params.push(BigInt(range.after.ts), BigInt(range.after.ts), BigInt(range.after.seq), BigInt(range.after.pk));
    }
    const dir = range.order === 'asc' ? 'ASC' : 'DESC';
    const order = (q: string) => `${q}${time} ${dir}, ${q}sequence_number ${dir}, ${q}pk ${dir}`;
    return { where: where.join(' AND '), params, orderBy: order(`${table.table}.`), rowOrder: order('') };
  }

  private ticksQuery(table: TickTable, range: TickRange, select: string): { sql: string; params: SqlValue[] } {
    const { where, params, orderBy } = this.ticksFilter(table, range);
    return { sql: `SELECT ${select} FROM ${table.table} WHERE ${where} ORDER BY ${orderBy} LIMIT ?`, params: [...params, range.limit] };
  }

  private readTicks(table: TickTable, range: TickRange): Promise<Row[]> {
    const { sql, params } = this.ticksQuery(table, range, table.select);
    return this.db.all(sql, params, { bigint: true });
  }

  async readTradesRaw(range: TickRange): Promise<RawTrade[]> {
    const { sql, params } = this.ticksQuery(TRADES, range, TRADE_RAW_SELECT);
    return (await this.db.rawRows(sql, params)) as RawTrade[];
  }

  async readMinuteBarsJsonPage(range: BarRange, otc: boolean): Promise<BarJsonPage> {
    return readMinuteBarsJsonPage(this.db, range, otc);
  }

  async readMinuteBarDays(ticker: string, fromMs: number, toMs: number, maxRows: number, otc: boolean): Promise<MinuteBarDayItems[]> {
    return readMinuteBarDays(this.db, ticker, fromMs, toMs, maxRows, otc);
  }

  async readTradesJsonPage(range: TickRange, form: TradeJsonForm): Promise<TickJsonPage | undefined> {
    return readTradesJsonPage(this.db, range, form, this.ticksFilter(TRADES, range));
  }

  async readQuotesJsonPage(range: TickRange): Promise<TickJsonPage> {
    return readQuotesJsonPage(this.db, range, this.ticksFilter(QUOTES, range));
  }

  async readQuotesRaw(range: TickRange): Promise<RawQuote[]> {
    const { sql, params } = this.ticksQuery(QUOTES, range, QUOTE_RAW_SELECT);
    return (await this.db.rawRows(sql, params)) as RawQuote[];
  }

  async readTrades(range: TickRange): Promise<PagedTick<TradeRow>[]> {
    return (await this.readTicks(TRADES, range)).map((r) => ({ row: tradeFromRow(r), position: positionOf(r, 'sip_timestamp') }));
  }

  async readQuotes(range: TickRange): Promise<PagedTick<QuoteRow>[]> {
    return (await this.readTicks(QUOTES, range)).map((r) => ({ row: quoteFromRow(r), position: positionOf(r, 'ts') }));
  }

  private async lastTick(table: TickTable, ticker: string, atNs: bigint | undefined): Promise<Row | undefined> {
    const time = table.timeColumn;
    const params: SqlValue[] = [ticker];
    let bound = '';
    if (atNs !== undefined) {
      bound = ` AND ${time} <= ?`;
      params.push(atNs);
    }
    return this.db.get(
      `SELECT ${table.select} FROM ${table.table} WHERE ticker = ?${bound} ORDER BY ${time} DESC, sequence_number DESC, pk DESC LIMIT 1`,
      params,
      { bigint: true },
    );
  }

  async readTickList(ticker: string, form: TradeJsonForm | 'quotes', maxRows: number, since?: bigint): Promise<TickListItems | undefined> {
    return readTickListItems(this.db, ticker, form, maxRows, since);
  }

  async newestTickNs(kind: 'trades' | 'quotes', ticker: string): Promise<bigint | undefined> {
    const { table, timeColumn } = kind === 'trades' ? TRADES : QUOTES;
    const row = await this.db.get(`SELECT ${timeColumn} AS t FROM ${table} WHERE ticker = ? ORDER BY ${timeColumn} DESC LIMIT 1`, [ticker], { bigint: true });
    return row === undefined ? undefined : BigInt(row.t as bigint);
  }

  async lastTrade(ticker: string, atNs?: bigint): Promise<TradeRow | undefined> {
    const row = await this.lastTick(TRADES, ticker, atNs);
    return row ? tradeFromRow(row) : undefined;
  }

  async lastQuote(ticker: string, atNs?: bigint): Promise<QuoteRow | undefined> {
    const row = await this.lastTick(QUOTES, ticker, atNs);
    return row ? quoteFromRow(row) : undefined;
  }

  /**
   * Builds day bars from minute bars (whole local day: 00:00 ET, forex 00:00 UTC, so extended
   * hours count) for `tickers` (default: every ticker with minute bars), optionally only for
   * the days of `window`. Imported day bars are never replaced; derived ones are refreshed.
   */
  async deriveDayBars(tickers?: string[], window?: DeriveWindow): Promise<number> {
    if (this.db.engine === 'postgres' && tickers && window) return this.deriveWindow(tickers, window);
    const list = tickers ?? (await this.tickersWithBars('minute'));
    let written = 0;
    // The day bars of many tickers go out in one write (one statement or COPY instead of one per
    // ticker: a day's file holds thousands of tickers with a bar or two each); keys never repeat
    // across tickers, so the result is that of writing them ticker by ticker.
    let pending: BarRow[] = [];
    for (const ticker of list) {
      const zone = dayZoneOf(ticker);
      const from = window ? localDayStart(localDayOf(window.fromMs, zone), zone) : Number.MIN_SAFE_INTEGER;
      const to = window ? localDayStart(localDayOf(window.toMs, zone) + 1, zone) : Number.MAX_SAFE_INTEGER;
      const hours = await this.db.all(HOURLY_PARTS_SQL, [ticker, from, to, ticker, ticker]);
      for (const bar of foldHoursIntoDays(ticker, hours, zone)) pending.push(bar);
      if (pending.length >= DERIVED_PER_WRITE) {
        written += await this.insert(DERIVED_DAY_INSERT, pending);
        pending = [];
      }
    }
    return written + (await this.insert(DERIVED_DAY_INSERT, pending));
  }

  /** deriveDayBars of `tickers` over `window` on PostgreSQL: one statement per day zone. */
  private async deriveWindow(tickers: string[], window: DeriveWindow): Promise<number> {
    const byZone = new Map<Zone, string[]>();
    for (const ticker of tickers) {
      const zone = dayZoneOf(ticker);
      let list = byZone.get(zone);
      if (list === undefined) byZone.set(zone, (list = []));
      list.push(ticker);
    }
    let written = 0;
    for (const [zone, list] of byZone) {
      const starts: number[] = [];
      const ends: number[] = [];
      for (let d = localDayOf(window.fromMs, zone); d <= localDayOf(window.toMs, zone); d++) {
        starts.push(localDayStart(d, zone));
        ends.push(localDayStart(d + 1, zone));
      }
      written += (await this.db.run(DERIVE_WINDOW_SQL, [JSON.stringify(list), starts.join(','), ends.join(',')])).changes;
    }
    return written;
  }

  async tickersWithBars(kind: BarKind): Promise<string[]> {
    // Skip-scan over the primary key: one index probe per ticker instead of reading every bar.
    const rows = await this.db.all(
      `WITH RECURSIVE k(ticker) AS (
         SELECT MIN(ticker) FROM ${kind}_bars
         UNION ALL
         SELECT (SELECT MIN(ticker) FROM ${kind}_bars WHERE ticker > k.ticker) FROM k WHERE k.ticker IS NOT NULL
       ) SELECT ticker FROM k WHERE ticker IS NOT NULL`,
    );
    return rows.map((r) => String(r.ticker));
  }
}
