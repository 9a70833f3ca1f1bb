import Database from 'better-sqlite3';
import { DATA_VERSION_TTL_MS, mayWrite, VersionText, StoreBusyError, StoreUnavailableError, type BulkInsert, type TransactionOptions, type WriteOptions, type RawRowsOptions, type QueryOptions, type Row, type SqlDriver, type SqlValue } from '../driver.js';
import { ReadThread } from './read-thread.js';
import { WriteThread } from './write-thread.js';

type Statement = Database.Statement<unknown[], Row>;

/** Builds a row object from the values of one result row, in column order. */
type RowBuilder = (values: readonly unknown[]) => Row;

/**
 * A function that makes a row object from a raw (array) result row with one object literal, so
 * every row of a statement has the same shape from the start. better-sqlite3's own objects are
 * built property by property in native code: for a 1000-row page of tickers (22 columns) that
 * took 6.3–8.4 ms against 3.0–3.7 ms for raw rows and this literal (measured on the demo store).
 * Column names come from our SQL and are written as JSON string literals; a repeated name keeps
 * its last value and `__proto__` sets the prototype, as in better-sqlite3's objects.
 */
function rowBuilder(columns: readonly string[]): RowBuilder {
  const fields = columns.map((name, i) => `${JSON.stringify(name)}: v[${i}]`);
  return new Function('v', `return { ${fields.join(', ')} };`) as RowBuilder;
}

/**
 * How long a statement waits for another connection's write lock (imports hold it per file) unless
 * the store is opened with a shorter wait. better-sqlite3 waits synchronously, blocking the event
 * loop, so the server opens its store with SERVING_BUSY_TIMEOUT_MS instead.
 */
const BUSY_TIMEOUT_MS = 10_000;

/**
 * The lock wait of a store that serves requests: long enough to get past another writer's short
 * commit, short enough that a write refused behind a long import freezes nobody else's requests.
 */
export const SERVING_BUSY_TIMEOUT_MS = 50;

export interface SqliteOpenOptions {
  /** How long a write waits for another connection's write lock before StoreBusyError (ms). */
  busyTimeoutMs?: number;
  /** Long reads on a thread of their own (read-thread.ts); default true for a file, never in memory. */
  readThread?: boolean;
  /** The connection's page cache in MiB (default DEFAULT_CACHE_MIB). */
  cacheMiB?: number;
  /** The live feed's writes on a thread of their own (write-thread.ts); default true for a file, never in memory. */
  writeThread?: boolean;
}

/** Page cache of a connection for commands and imports: the index pages of bulk writes. */
export const DEFAULT_CACHE_MIB = 64;

/**
 * Page cache of the serving connection. Its reads are short (long ones go to the reader thread,
 * which has a cache of its own) and the operating system caches the file: the HTTP bench's peak
 * RSS went down by 13 MiB at start with no change in rate on cases the store answers.
 */
export const SERVING_CACHE_MIB = 16;

/** SQLITE_BUSY (and its extended codes) as StoreBusyError; any other error unchanged. */
function busyAsStoreBusy(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) {
    return new StoreBusyError('another connection (such as an import) holds the SQLite write lock', { cause: err });
  }
  return err;
}

/**
 * better-sqlite3 is synchronous; the async surface lets services treat both engines alike.
 * Statements are prepared once and cached by SQL text.
 */
export class SqliteDriver implements SqlDriver {
  readonly engine = 'sqlite' as const;
  private readonly cache = new Map<string, Statement>();
  /** Row builders of reading statements, with their column count. */
  private readonly builders = new Map<Statement, { build: RowBuilder; width: number }>();
  private depth = 0;
  /** Statements run through this connection that may have written (see dataVersion). */
  private writes = 0;
  /** Writes of live transactions (TransactionOptions.live), counted apart from `writes`. */
  private liveWrites = 0;
  /** A live transaction is open: statements' writes count as live ones. */
  private inLive = false;
  private versionStmt?: Database.Statement<[], number>;
  /** PRAGMA data_version when last read (it changes when another connection commits). */
  private lastDataVersion = 0;
  /** Changes of data_version put down to the write thread's commits (not other writers'). */
  private threadDataVersions = 0;
  /** Other connections' commits the write thread saw that data_version did not count. */
  private threadForeign = 0;
  /** Where the write thread stood at the last read of data_version. */
  private threadMark = { sent: 0, waiting: false };
  private otherWrites = 0;
  private otherWritesReadAt = -Infinity;
  /** The live feed's writes (live-writes.ts) on a thread of their own: a SQLite file only. */
  readonly writeThread: WriteThread | undefined;
  private readonly versionText = new VersionText();
  private readonly importVersionText = new VersionText();

  constructor(
    readonly db: Database.Database,
    private readonly busyTimeoutMs = BUSY_TIMEOUT_MS,
    private readonly readThread?: ReadThread,
    file?: string,
  ) {
    this.writeThread = file === undefined ? undefined : WriteThread.for(file, {
      committed: () => {
        this.liveWrites++;
      },
      foreign: () => {
        this.threadForeign++;
      },
    });
  }

  static open(file: string, opts: SqliteOpenOptions = {}): SqliteDriver {
    const busyTimeoutMs = opts.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
    if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0) throw new RangeError(`busyTimeoutMs must be a non-negative integer, got ${busyTimeoutMs}`);
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    db.pragma('foreign_keys = ON');
    db.pragma(`cache_size = -${Math.round((opts.cacheMiB ?? DEFAULT_CACHE_MIB) * 1024)}`);
    const onFile = file !== '' && file !== ':memory:' && !file.startsWith('file::memory:');
    return new SqliteDriver(db, busyTimeoutMs, onFile && opts.readThread !== false ? ReadThread.for(file) : undefined, onFile && opts.writeThread !== false ? file : undefined);
  }

  private stmt(sql: string): Statement {
    if (!this.db.open) throw new StoreUnavailableError('the SQLite database is closed');
    let s = this.cache.get(sql);
    if (!s) {
      s = this.db.prepare(sql) as Statement;
      this.cache.set(sql, s);
    }
    return s;
  }

  allSync(sql: string, params: readonly SqlValue[] = [], opts: QueryOptions = {}): Row[] {
    const s = this.stmt(sql);
    if (!s.readonly) this.wrote();
    s.safeIntegers(opts.bigint === true);
    if (!s.reader) return s.all(...params) as Row[]; // better-sqlite3's own error
    let b = this.builders.get(s) ?? this.newBuilder(s);
    let values: unknown[][];
    try {
      values = s.raw(true).all(...params) as unknown as unknown[][];
    } catch (err) {
      throw busyAsStoreBusy(err); // a statement with RETURNING writes
    }
    // A schema change since the builder was made (SELECT * after ALTER TABLE) changes the columns.
    if (values.length > 0 && values[0]!.length !== b.width) b = this.newBuilder(s);
    const rows = new Array<Row>(values.length);
    for (let i = 0; i < values.length; i++) rows[i] = b.build(values[i]!);
    return rows;
  }

  async rawRows(sql: string, params: readonly SqlValue[] = [], opts: RawRowsOptions = {}): Promise<unknown[][]> {
    if (opts.long && this.readThread !== undefined && this.depth === 0 && !mayWrite(sql)) {
      try {
        return await this.readThread.run(sql, params);
      } catch (err) {
        throw busyAsStoreBusy(err);
      }
    }
    const s = this.stmt(sql);
    if (!s.readonly) this.wrote();
    s.safeIntegers(false);
    try {
      return s.raw(true).all(...params) as unknown as unknown[][];
    } catch (err) {
      throw busyAsStoreBusy(err);
    }
  }

  private newBuilder(s: Statement): { build: RowBuilder; width: number } {
    const columns = s.columns().map((c) => c.name);
    const b = { build: rowBuilder(columns), width: columns.length };
    this.builders.set(s, b);
    return b;
  }

  async all(sql: string, params: readonly SqlValue[] = [], opts: QueryOptions = {}): Promise<Row[]> {
    return this.allSync(sql, params, opts);
  }

  async get(sql: string, params: readonly SqlValue[] = [], opts: QueryOptions = {}): Promise<Row | undefined> {
    const s = this.stmt(sql);
    if (!s.readonly) this.wrote();
    s.safeIntegers(opts.bigint === true);
    if (s.reader) s.raw(false); // allSync may have left the statement in raw mode
    try {
      return s.get(...params) as Row | undefined;
    } catch (err) {
      throw busyAsStoreBusy(err);
    }
  }

  async run(sql: string, params: readonly SqlValue[] = [], opts: WriteOptions = {}): Promise<{ changes: number }> {
    const s = this.stmt(sql);
    if (!opts.unversioned) this.wrote();
    try {
      return { changes: s.run(...params).changes };
    } catch (err) {
      throw busyAsStoreBusy(err);
    }
  }

  async exec(sql: string): Promise<void> {
    this.wrote();
    try {
      this.db.exec(sql);
    } catch (err) {
      throw busyAsStoreBusy(err);
    }
  }

  /** Counts a statement that may have written, as a live write inside a live transaction. */
  private wrote(): void {
    if (this.inLive) this.liveWrites++;
    else this.writes++;
  }

  dataVersion(): string {
    this.readOtherWrites();
    return this.versionText.of(this.otherWrites, this.writes, this.liveWrites);
  }

  importVersion(): string {
    this.readOtherWrites();
    return this.importVersionText.of(this.otherWrites, this.writes, 0);
  }

  /**
   * data_version changes when another connection commits; `writes` and `liveWrites` cover this
   * one's. The write thread's commits are live writes of this process (counted in `liveWrites`
   * when it answers), yet change data_version as any other connection's do, and one change may
   * hide several commits. So a change over a time the thread may have committed in is put down to
   * the thread, which is then asked to look (WriteThread.look): it reads data_version of its own
   * connection, which every other connection's commit changes, and reports one that happened
   * since its previous look or job. The serving connection's own commits are among those, so
   * such a report may move the import version needlessly, never miss another writer.
   */
  private readOtherWrites(): void {
    if (!this.db.open) throw new StoreUnavailableError('the SQLite database is closed');
    const t = Date.now();
    if (t - this.otherWritesReadAt >= DATA_VERSION_TTL_MS.sqlite || t < this.otherWritesReadAt) {
      this.versionStmt ??= this.db.prepare<[], number>('PRAGMA data_version').pluck();
      const now = this.versionStmt.get()!;
      const thread = this.writeThread;
      if (thread !== undefined && now !== this.lastDataVersion && this.otherWritesReadAt !== -Infinity) {
        const was = this.threadMark;
        const mark = thread.mark();
        if (mark.sent !== was.sent || was.waiting) {
          this.threadDataVersions += now - this.lastDataVersion;
          thread.look();
        }
      }
      if (thread !== undefined) this.threadMark = thread.mark();
      this.lastDataVersion = now;
      this.otherWritesReadAt = t;
    }
    this.otherWrites = this.lastDataVersion - this.threadDataVersions + this.threadForeign;
  }

  insertManySync(spec: BulkInsert): number {
    if (spec.rows.length === 0) return 0;
    const cols = spec.columns.join(', ');
    const marks = spec.columns.map(() => '?').join(', ');
    let conflict = '';
    if (spec.conflictColumns) {
      const target = spec.conflictColumns.join(', ');
      conflict = spec.updateColumns && spec.updateColumns.length > 0
        ? ` ON CONFLICT (${target}) DO UPDATE SET ${spec.updateColumns.map((c) => `${c} = excluded.${c}`).join(', ')}`
        : ` ON CONFLICT (${target}) DO NOTHING`;
    }
    const s = this.stmt(`INSERT INTO ${spec.table} (${cols}) VALUES (${marks})${conflict}`);
    let written = 0;
    this.wrote();
    const load = () => {
      for (const row of spec.rows) written += s.run(...row).changes;
    };
    try {
      if (this.db.inTransaction) load();
      else this.db.transaction(load)();
    } catch (err) {
      throw busyAsStoreBusy(err);
    }
    return written;
  }

  async insertMany(spec: BulkInsert): Promise<number> {
    return this.insertManySync(spec);
  }

  async transaction<T>(fn: (tx: SqlDriver) => Promise<T>, opts: TransactionOptions = {}): Promise<T> {
    // Nested calls join the outer transaction (savepoints are not needed by any caller).
    if (this.depth > 0) return fn(this);
    const wait = opts.noWait ? 0 : opts.lockWaitMs;
    if (wait === undefined || wait === this.busyTimeoutMs) this.begin();
    else this.beginWaiting(wait);
    this.depth++;
    const counted = opts.unversioned ? 0 : 1;
    // A write joining this transaction from another turn counts as live too (it commits with it).
    this.inLive = opts.live === true;
    this.count(counted);
    try {
      const result = await fn(this);
      this.db.exec('COMMIT');
      return result;
    } catch (err) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw busyAsStoreBusy(err);
    } finally {
      this.depth--;
      this.count(counted);
      this.inLive = false;
    }
  }

  private count(n: number): void {
    if (this.inLive) this.liveWrites += n;
    else this.writes += n;
  }

  /**
   * Takes the write lock, waiting at most the store's busy timeout, or throws StoreBusyError. Once
   * held, the lock needs no waiting (in WAL mode a commit does not wait for readers).
   */
  private begin(): void {
    try {
      this.db.exec('BEGIN IMMEDIATE');
    } catch (err) {
      throw busyAsStoreBusy(err);
    }
  }

  /** begin() waiting `ms` instead of the store's busy timeout (0: take the lock now or fail). */
  private beginWaiting(ms: number): void {
    if (!Number.isInteger(ms) || ms < 0) throw new RangeError(`lockWaitMs must be a non-negative integer, got ${ms}`);
    this.db.pragma(`busy_timeout = ${ms}`);
    try {
      this.begin();
    } finally {
      this.db.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
    }
  }

  async close(): Promise<void> {
    await this.readThread?.close();
    await this.writeThread?.close();
    this.cache.clear();
    this.builders.clear();
    if (this.db.open) this.db.close();
  }
}
