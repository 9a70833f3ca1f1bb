// The one seam between repositories and an engine. Repositories write portable SQL with `?`
// placeholders; each engine's driver adapts placeholders, value types and bulk loading.

export type SqlValue = string | number | bigint | null | Buffer;
export type Row = Record<string, unknown>;

export interface QueryOptions {
  /** Return 64-bit integer columns as bigint (needed for nanosecond timestamps). */
  bigint?: boolean;
}

export interface BulkInsert {
  table: string;
  columns: string[];
  rows: SqlValue[][];
  /** Columns of the natural key; rows that collide with an existing row are skipped. */
  conflictColumns?: string[];
  /** On a natural-key collision, overwrite these columns instead of skipping. */
  updateColumns?: string[];
}

/**
 * Bulk inserts of at least this many rows go through COPY on engines that have it (copyInsert);
 * smaller ones as multi-row INSERTs (one round trip instead of three).
 */
export const COPY_MIN_ROWS = 500;

export interface SqlDriver {
  readonly engine: 'sqlite' | 'postgres';
  all(sql: string, params?: readonly SqlValue[], opts?: QueryOptions): Promise<Row[]>;
  get(sql: string, params?: readonly SqlValue[], opts?: QueryOptions): Promise<Row | undefined>;
  run(sql: string, params?: readonly SqlValue[], opts?: WriteOptions): Promise<{ changes: number }>;
  /**
   * A read whose rows are arrays of the selected values in select order, with no object per row
   * (large pages serialized straight from the rows). Integer columns are numbers: select a value
   * that may exceed 2^53 (nanosecond times) as text, e.g. `CAST(ts AS TEXT)`.
   */
  rawRows(sql: string, params?: readonly SqlValue[], opts?: RawRowsOptions): Promise<unknown[][]>;
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Inserts many rows; returns how many were written (skipped duplicates not counted). */
  insertMany(spec: BulkInsert): Promise<number>;
  /**
   * Bulk load (PostgreSQL only; absent on SQLite) with the conflict clause (leading space, or '')
   * and the returned written count of a multi-row INSERT of the same rows. The rows are first
   * streamed with COPY straight into `table`; when that meets a key already stored or repeated
   * in `rows` (a unique violation), it is undone and the rows go through a staging table and
   * `INSERT INTO table (columns) SELECT ... <conflictSql>` in their order, as do later batches of
   * that table in the same transaction. `conflictRows` gives the rows for that path when they
   * differ (one per key, for DO UPDATE). Within a transaction it uses that transaction.
   */
  copyInsert?(
    table: string,
    columns: readonly string[],
    rows: readonly (readonly SqlValue[])[],
    conflictSql: string,
    conflictRows?: () => readonly (readonly SqlValue[])[],
  ): Promise<number>;
  /**
   * PostgreSQL transactions only (absent elsewhere): one binary `COPY table (columns) FROM STDIN`
   * that takes rows while the caller produces them, for bulk loads of rows new to the
   * table. No conflict handling: a row whose key is stored already or repeats in the stream fails
   * it with KeyConflictError, and none of its rows are kept. No other statement may run on the
   * transaction until the stream is ended or aborted.
   */
  copyStream?(table: string, columns: readonly string[]): Promise<CopyStream>;
  /**
   * PostgreSQL's driver only (absent on SQLite and inside transactions): rows new to their tables
   * as a live write (TransactionOptions.live), one binary COPY per part, all in one transaction of
   * their own on the live writes' connections and one round trip; resolves with the rows each
   * part stored. No conflict handling: a key stored already or repeated among the rows, or a row
   * of a day without a partition, fails it with KeyConflictError and nothing is stored.
   */
  copyLive?(parts: readonly CopyPart[]): Promise<number[]>;
  /** Runs fn inside one transaction on one connection; rolls back if it throws. */
  transaction<T>(fn: (tx: SqlDriver) => Promise<T>, opts?: TransactionOptions): Promise<T>;
  /**
   * A token that differs whenever the stored data may have changed since it was last read, so a
   * cache of answers can tell when to recompute. Writes through this driver change it at once;
   * other connections' commits within DATA_VERSION_TTL_MS of the engine (SQLite reads PRAGMA
   * data_version, which costs a lock round on the WAL index, at most that often; PostgreSQL has
   * no cheap equivalent: its drivers announce their commits with NOTIFY and hear the others' on a
   * LISTEN connection, and until that listens the token changes every TTL).
   */
  dataVersion(): string;
  /**
   * dataVersion() without this driver's live writes (TransactionOptions.live): it moves for
   * imports, reference data, corrections and other connections' or processes' writes, so answers
   * kept under it survive the feed's publishing. Whoever keeps such answers must learn of the live
   * writes another way (services/live-versions.ts).
   */
  importVersion(): string;
  close(): Promise<void>;
}

/** One COPY of SqlDriver.copyLive: the table, its columns, and rows as binary COPY tuples of them. */
export interface CopyPart {
  table: string;
  columns: readonly string[];
  tuples: Uint8Array;
}

/** A COPY in progress (SqlDriver.copyStream). */
export interface CopyStream {
  /**
   * Sends rows as tuples of PostgreSQL's binary COPY format (the stream sends its header and
   * trailer); resolves when more may be sent.
   */
  write(tuples: Uint8Array): Promise<void>;
  /** Ends the COPY; resolves with the rows stored once the server has them all. */
  end(): Promise<number>;
  /** Cancels the COPY and undoes its rows (the transaction stays usable); a no-op once it ended or failed. */
  abort(): Promise<void>;
}

/**
 * Rows loaded as new (SqlDriver.copyStream) met a key already stored or repeated among them;
 * none of them were kept, and the transaction stays usable for loading them another way.
 */
export class KeyConflictError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KeyConflictError';
  }
}

/**
 * Property key under which a store keeps its driver: a symbol, so the driver is absent from the
 * Store type and reachable only through store/inspect.ts.
 */
export const STORE_DRIVER: unique symbol = Symbol('tickerbase.store.driver');

export interface RawRowsOptions {
  /**
   * A long read (a page of thousands of rows joined into one text): SQLite runs it on its reader
   * thread, off the event loop, unless this connection is inside a transaction (whose writes only
   * it sees). PostgreSQL runs every query on the server anyway.
   */
  long?: boolean;
}

export interface WriteOptions {
  /**
   * The write is bookkeeping (usage counts, keys, accounts, sessions), no part of the data answers
   * are made of: this connection's data version stays, and answers cached by it with it.
   */
  unversioned?: boolean;
}

/**
 * The options of a bookkeeping write. Keys, accounts and dashboard sessions are such writes: no
 * cached answer is made of them (an answer depends on a key's plan, and the response cache keys
 * answers by plan), and the dashboard's API explorer makes a short-lived key on every visit.
 */
export const UNVERSIONED: Readonly<TransactionOptions> = Object.freeze({ unversioned: true });

/** The options of a transaction storing what the live feed published. */
export const LIVE_WRITE: Readonly<TransactionOptions> = Object.freeze({ live: true });

export interface TransactionOptions extends WriteOptions {
  /**
   * The transaction stores what the live feed published (ticks, live minute and day bars): it
   * moves dataVersion() but not importVersion(). Other connections and processes still see it as
   * any write (their import version moves), since they do not hear of the ticks themselves.
   */
  live?: boolean;
  /**
   * When another connection holds the write lock, fail at once with StoreBusyError instead of
   * waiting for it (SQLite; PostgreSQL takes row locks only, so it ignores this). For writes on
   * the request path, which must never wait behind an import.
   */
  noWait?: boolean;
  /**
   * SQLite: how long to wait for another connection's write lock before StoreBusyError, instead of
   * the store's busy timeout (for a last write at shutdown, which may wait longer than a request).
   */
  lockWaitMs?: number;
}

/**
 * Another connection holds the write lock past the wait allowed (the store's busy timeout, or
 * TransactionOptions.noWait / lockWaitMs); nothing was written.
 */
export class StoreBusyError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreBusyError';
  }
}

/**
 * The text of a data version made of three counters, made anew only when one of them moved: a
 * cached answer is looked up with it on every request, and the same string compares at once.
 */
export class VersionText {
  private a = NaN;
  private b = NaN;
  private c = NaN;
  private text = '';

  of(a: number, b: number, c: number): string {
    if (a !== this.a || b !== this.b || c !== this.c) {
      this.a = a;
      this.b = b;
      this.c = c;
      this.text = `${a}.${b}.${c}`;
    }
    return this.text;
  }
}

/** How long another connection's writes may stay unseen by dataVersion(), per engine. */
export const DATA_VERSION_TTL_MS = { sqlite: 100, postgres: 1000 } as const;

/**
 * True unless the statement is a plain read: SELECT, VALUES, EXPLAIN, or a WITH query naming no
 * data-changing statement. The batched snapshot reads start with WITH; counted as writes on
 * PostgreSQL, each moved the data version (and announced a write to every process), so cached
 * answers were made anew after every snapshot.
 */
export function mayWrite(sql: string): boolean {
  if (/^\s*(SELECT|VALUES|EXPLAIN)\b/i.test(sql)) return false;
  return !/^\s*WITH\b/i.test(sql) || /\b(INSERT|UPDATE|DELETE|MERGE)\b/i.test(sql);
}

/** Store-level failure that the HTTP layer answers with 503 (engine unreachable). */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

export function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') return Number(v);
  throw new TypeError(`expected a number, got ${typeof v}`);
}

export function toOptionalNumber(v: unknown): number | undefined {
  return v === null || v === undefined ? undefined : toNumber(v);
}

export function toBigInt(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(v);
  if (typeof v === 'string') return BigInt(v);
  throw new TypeError(`expected an integer, got ${typeof v}`);
}

export function toOptionalBigInt(v: unknown): bigint | undefined {
  return v === null || v === undefined ? undefined : toBigInt(v);
}

export function toOptionalString(v: unknown): string | undefined {
  return v === null || v === undefined ? undefined : String(v);
}
