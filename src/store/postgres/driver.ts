import { once } from 'node:events';
import { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { COPY_MIN_ROWS, DATA_VERSION_TTL_MS, VersionText, KeyConflictError, mayWrite, StoreUnavailableError, type BulkInsert, type CopyPart, type CopyStream, type QueryOptions, type Row, type SqlDriver, type SqlValue, type TransactionOptions, type WriteOptions, type RawRowsOptions } from '../driver.js';
import { BINARY_HEADER, BINARY_TRAILER, copyInOneTrip } from './live-copy.js';
import { TableCounters, UNANNOUNCED_POLL_MS } from './table-counters.js';
import { WRITES_CHANNEL, WriteListener } from './write-listener.js';

// int8 columns (counts, nanosecond timestamps) arrive as exact bigint; callers that asked for
// plain numbers get them converted back below.
pg.types.setTypeParser(20, (v: string) => BigInt(v));

/** Type parsers of rawRows: int8 as a number (rawRows callers select larger values as text). */
const INT8_AS_NUMBER = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? Number : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

const placeholderCache = new Map<string, string>();

/** Repositories write `?` placeholders; PostgreSQL wants `$1, $2, ...`. */
export function toPgPlaceholders(sql: string): string {
  let out = placeholderCache.get(sql);
  if (out === undefined) {
    let n = 0;
    out = sql.replace(/\?/g, () => `$${++n}`);
    placeholderCache.set(sql, out);
  }
  return out;
}

function numberify(rows: Row[]): Row[] {
  for (const row of rows) {
    for (const k in row) {
      const v = row[k];
      if (typeof v === 'bigint') row[k] = Number(v);
    }
  }
  return rows;
}

const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004']);

/** 57014 query_canceled: the server's statement_timeout cut a statement. */
const STATEMENT_TIMEOUT = '57014';

/** `err` of the pg client as the store reports it: StoreUnavailableError for a deadline or a server away. */
export function storeErrorOf(err: unknown): unknown {
  if (err instanceof StoreUnavailableError) return err;
  const code = (err as { code?: string } | null)?.code;
  const msg = (err as Error | null)?.message ?? '';
  if (code === STATEMENT_TIMEOUT) return new StoreUnavailableError('PostgreSQL cancelled a statement at the store deadline', { cause: err });
  if (/Query read timeout/i.test(msg)) return new PgAwayError('PostgreSQL did not answer within the store deadline', { cause: err });
  if ((code && CONNECTION_ERRORS.has(code)) || /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|^timeout expired$|Cannot use a pool after calling end/i.test(msg)) {
    return new PgAwayError('PostgreSQL is unreachable', { cause: err });
  }
  return err;
}

/** The server is silent or unreachable (not merely slow on one statement). */
class PgAwayError extends StoreUnavailableError {}

/**
 * Fails fast while PostgreSQL is known to be away: after a call found it silent or unreachable,
 * calls fail at once for `windowMs` instead of each waiting out the deadline, so a request gets
 * its 503 at once and the pool is not filled with doomed waits; calls after the window try the
 * server again. A call that started before the last success cannot reopen the window (it only
 * reports an outage that is already over). 0: off.
 */
class Outage {
  private until = 0;
  private lastOk = 0;
  constructor(private readonly windowMs: number) {}

  /** Throws while the window is open; else the call's start time. */
  check(): number {
    const now = Date.now();
    if (now < this.until) throw new PgAwayError('PostgreSQL did not answer moments ago; failing fast until it is tried again');
    return now;
  }

  ok(): void {
    if (this.windowMs > 0) {
      this.lastOk = Date.now();
      this.until = 0;
    }
  }

  /** The error to throw for `err` of a call started at `startedAt`, noting an outage. */
  note(err: unknown, startedAt: number): unknown {
    const wrapped = storeErrorOf(err);
    if (this.windowMs > 0 && wrapped instanceof PgAwayError && startedAt >= this.lastOk) this.until = Date.now() + this.windowMs;
    return wrapped;
  }
}

/** How long a store call may take against PostgreSQL, and how long connecting may take. */
export interface PgDeadlines {
  /**
   * Deadline of one statement in ms: the server cancels it (statement_timeout) and the client
   * gives up on a silent server shortly after (query_timeout). 0 or absent: none (imports, whose
   * bulk statements may run for minutes).
   */
  statementTimeoutMs?: number;
  /** Connecting, or waiting for a free pooled connection (default 5000 ms). */
  connectTimeoutMs?: number;
}

/** How long calls fail at once after one found PostgreSQL silent or unreachable (with deadlines on). */
export const FAIL_FAST_MS = 1000;

/** The client-side deadline: later than the server's, so a live server reports its own cancel first. */
const CLIENT_GRACE_MS = 500;

type Queryable = pg.Pool | pg.PoolClient;


/** Staging-table column that keeps the rows' order (which duplicate comes first matters). */
const ORDINAL = 'tb_copy_ord';

function conflictClause(spec: BulkInsert): string {
  if (!spec.conflictColumns) return '';
  const target = spec.conflictColumns.join(', ');
  return spec.updateColumns && spec.updateColumns.length > 0
    ? ` ON CONFLICT (${target}) DO UPDATE SET ${spec.updateColumns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}`
    : ` ON CONFLICT (${target}) DO NOTHING`;
}

const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_SPECIAL_ALL = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

const pgUtils = (pg as unknown as { utils?: { prepareValue?(v: unknown): unknown } }).utils;

/**
 * One value in COPY text format, as pg would have sent it as a query parameter: NULL as \N,
 * integers (bigint included) as decimal digits, bytea as \x hex, text with backslash, tab,
 * newline and carriage return escaped.
 */
export function copyTextValue(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  switch (typeof v) {
    case 'string':
      return COPY_SPECIAL.test(v) ? v.replace(COPY_SPECIAL_ALL, (c) => COPY_ESCAPES[c]!) : v;
    case 'number':
    case 'bigint':
      return String(v);
    case 'boolean':
      return v ? 't' : 'f';
  }
  if (Buffer.isBuffer(v)) return `\\\\x${v.toString('hex')}`;
  // Anything else (Date, arrays, objects): whatever pg would have sent for it as a parameter.
  const prepared = pgUtils?.prepareValue ? pgUtils.prepareValue(v) : JSON.stringify(v);
  return copyTextValue(Buffer.isBuffer(prepared) ? prepared : prepared === null ? null : String(prepared));
}

/**
 * Rows as COPY text (tab-separated, newline-terminated, with the row ordinal last when
 * `ordinal`), in ~64 KiB pieces.
 */
function* copyText(rows: readonly (readonly SqlValue[])[], width: number, ordinal: boolean): Generator<string> {
  let out = '';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.length !== width) throw new Error(`insertMany: row ${i} has ${row.length} values for ${width} columns`);
    for (let j = 0; j < width - 1; j++) out += copyTextValue(row[j]) + '\t';
    out += copyTextValue(row[width - 1]) + (ordinal ? `\t${i}\n` : '\n');
    if (out.length >= 65536) {
      yield out;
      out = '';
    }
  }
  if (out.length > 0) yield out;
}

class PgSession implements SqlDriver {
  readonly engine = 'postgres' as const;
  /** Statements of this driver (and its transactions) that may have written (see dataVersion). */
  constructor(
    protected readonly q: Queryable,
    protected readonly writes: { n: number } = { n: 0 },
    protected readonly outage: Outage = new Outage(0),
  ) {}

  dataVersion(): string {
    return `${this.writes.n}.${Math.floor(Date.now() / DATA_VERSION_TTL_MS.postgres)}`;
  }

  /** A transaction's own: its writes are not told apart (only the driver that began it keeps caches). */
  importVersion(): string {
    return this.dataVersion();
  }

  /** Called once a write outside a transaction has committed (PostgresDriver tells other processes). */
  protected wrote(): void {}

  async all(sql: string, params: readonly SqlValue[] = [], opts: QueryOptions = {}): Promise<Row[]> {
    const started = this.outage.check();
    const writing = mayWrite(sql);
    if (writing) this.writes.n++;
    try {
      const r = await this.q.query({ text: toPgPlaceholders(sql), values: params as unknown[] });
      this.outage.ok();
      if (writing) this.wrote();
      return opts.bigint ? (r.rows as Row[]) : numberify(r.rows as Row[]);
    } catch (err) {
      throw this.outage.note(err, started);
    }
  }

  async rawRows(sql: string, params: readonly SqlValue[] = [], _opts?: RawRowsOptions): Promise<unknown[][]> {
    const started = this.outage.check();
    const writing = mayWrite(sql);
    if (writing) this.writes.n++;
    try {
      const r = await this.q.query({ text: toPgPlaceholders(sql), values: params as unknown[], rowMode: 'array', types: INT8_AS_NUMBER });
      this.outage.ok();
      if (writing) this.wrote();
      return r.rows as unknown[][];
    } catch (err) {
      throw this.outage.note(err, started);
    }
  }

  async get(sql: string, params: readonly SqlValue[] = [], opts: QueryOptions = {}): Promise<Row | undefined> {
    return (await this.all(sql, params, opts))[0];
  }

  async run(sql: string, params: readonly SqlValue[] = [], opts: WriteOptions = {}): Promise<{ changes: number }> {
    const started = this.outage.check();
    if (!opts.unversioned) this.writes.n++;
    try {
      const r = await this.q.query({ text: toPgPlaceholders(sql), values: params as unknown[] });
      this.outage.ok();
      if (!opts.unversioned) this.wrote();
      return { changes: r.rowCount ?? 0 };
    } catch (err) {
      throw this.outage.note(err, started);
    }
  }

  async exec(sql: string): Promise<void> {
    const started = this.outage.check();
    this.writes.n++;
    try {
      await this.q.query(sql);
      this.outage.ok();
      this.wrote();
    } catch (err) {
      throw this.outage.note(err, started);
    }
  }

  async insertMany(spec: BulkInsert): Promise<number> {
    if (spec.rows.length === 0) return 0;
    if (spec.rows.length >= COPY_MIN_ROWS) return this.copyInsert(spec.table, spec.columns, spec.rows, conflictClause(spec));
    return this.insertValues(spec);
  }

  /** Small batches: multi-row VALUES in chunks that stay under PostgreSQL's 65535-parameter limit. */
  private async insertValues(spec: BulkInsert): Promise<number> {
    const width = spec.columns.length;
    const perChunk = Math.max(1, Math.floor(60000 / width));
    const conflict = conflictClause(spec);
    let written = 0;
    this.writes.n++;
    for (let i = 0; i < spec.rows.length; i += perChunk) {
      const chunk = spec.rows.slice(i, i + perChunk);
      const values: unknown[] = [];
      const tuples: string[] = [];
      let n = 0;
      for (const row of chunk) {
        const marks: string[] = [];
        for (const v of row) {
          values.push(v);
          marks.push(`$${++n}`);
        }
        tuples.push(`(${marks.join(',')})`);
      }
      try {
        const r = await this.q.query({
          text: `INSERT INTO ${spec.table} (${spec.columns.join(', ')}) VALUES ${tuples.join(',')}${conflict}`,
          values,
        });
        written += r.rowCount ?? 0;
      } catch (err) {
        throw storeErrorOf(err);
      }
      this.wrote();
    }
    return written;
  }

  /**
   * Bulk load through COPY: the rows are streamed (COPY text format) into a temporary table with
   * the target's column types, then moved with `INSERT INTO table (columns) SELECT ... ON
   * CONFLICT ...` in their original order, so the conflict clause behaves exactly as the
   * multi-row INSERT did. Returns the rows the INSERT wrote (skipped duplicates not counted).
   * `conflict` is an ON CONFLICT clause with a leading space, or ''.
   * Needs one connection for the whole operation: outside a transaction it opens one.
   */
  async copyInsert(
    table: string,
    columns: readonly string[],
    rows: readonly (readonly SqlValue[])[],
    conflict: string,
    conflictRows?: () => readonly (readonly SqlValue[])[],
  ): Promise<number> {
    if (rows.length === 0) return 0;
    return this.transaction((tx) => (tx as PgTransaction).copyInsert(table, columns, rows, conflict, conflictRows));
  }

  async transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T> {
    return fn(this);
  }

  async close(): Promise<void> {}
}

/** 23514 check_violation from tuple routing: a partitioned table has no partition for a row. */
export function isMissingPartition(err: unknown): boolean {
  const e = err as { code?: string; message?: string; cause?: unknown } | null;
  return (e?.code === '23514' && /no partition of relation/.test(e.message ?? '')) || (e?.cause !== undefined && isMissingPartition(e.cause));
}

/** 23505 unique_violation: a direct COPY met a key already stored or repeated in its rows. */
const UNIQUE_VIOLATION = '23505';

class PgTransaction extends PgSession {
  /** Staging tables created in this transaction (dropped at its end), by target table and columns. */
  private readonly staging = new Map<string, string>();
  /** Tables whose direct COPY met a stored or repeated key in this transaction: the rest go through staging. */
  private readonly conflicted = new Set<string>();

  constructor(
    private readonly client: pg.PoolClient,
    writes: { n: number },
    outage: Outage,
  ) {
    super(client, writes, outage);
  }

  override async copyInsert(
    table: string,
    columns: readonly string[],
    rows: readonly (readonly SqlValue[])[],
    conflict: string,
    conflictRows?: () => readonly (readonly SqlValue[])[],
  ): Promise<number> {
    if (rows.length === 0) return 0;
    this.writes.n++;
    const cols = columns.join(', ');
    const width = columns.length;
    // Straight into the table first: new rows (a first import) cost one COPY and no second
    // pass. A unique violation rolls back to the savepoint (COPY stops at the first such row).
    if (!this.conflicted.has(table)) {
      const direct = copyFrom(`COPY ${table} (${cols}) FROM STDIN`);
      try {
        await this.client.query('SAVEPOINT tb_copy_direct');
        await pipeline(Readable.from(copyText(rows, width, false)), this.client.query(direct));
        await this.client.query('RELEASE SAVEPOINT tb_copy_direct');
        return rows.length;
      } catch (err) {
        if ((err as { code?: string } | null)?.code !== UNIQUE_VIOLATION) throw storeErrorOf(err);
        try {
          await this.client.query('ROLLBACK TO SAVEPOINT tb_copy_direct; RELEASE SAVEPOINT tb_copy_direct');
        } catch (undo) {
          throw storeErrorOf(undo);
        }
        this.conflicted.add(table);
      }
    }
    return this.copyUpsert(table, cols, width, conflictRows ? conflictRows() : rows, conflict);
  }

  /**
   * One COPY (binary format) straight into `table` for as many rows as the caller sends, under a savepoint: the
   * server stores rows while the caller encodes the next ones, with no round trip between
   * batches. A unique violation undoes the stream's rows and marks the table for the staging
   * path (copyInsert) for the rest of the transaction.
   */
  async copyStream(table: string, columns: readonly string[]): Promise<CopyStream> {
    this.writes.n++;
    try {
      await this.client.query(`SAVEPOINT ${STREAM_SAVEPOINT}`);
    } catch (err) {
      throw storeErrorOf(err);
    }
    return new PgCopyStream(this.client, `COPY ${table} (${columns.join(', ')}) FROM STDIN (FORMAT binary)`, () => this.conflicted.add(table));
  }

  /** COPY into a staging table, then INSERT ... SELECT in the rows' order with the conflict clause. */
  private async copyUpsert(table: string, cols: string, width: number, rows: readonly (readonly SqlValue[])[], conflict: string): Promise<number> {
    const key = `${table}\0${cols}`;
    try {
      let temp = this.staging.get(key);
      if (temp === undefined) {
        temp = `tb_copy_${this.staging.size + 1}`;
        // Same column types as the target, without its constraints, defaults or sequences.
        await this.client.query(
          `CREATE TEMPORARY TABLE ${temp} ON COMMIT DROP AS SELECT ${cols}, 0::bigint AS ${ORDINAL} FROM ${table} WITH NO DATA`,
        );
        this.staging.set(key, temp);
      }
      await pipeline(Readable.from(copyText(rows, width, true)), this.client.query(copyFrom(`COPY ${temp} (${cols}, ${ORDINAL}) FROM STDIN`)));
      const moved = (await this.client.query(
        `INSERT INTO ${table} (${cols}) SELECT ${cols} FROM ${temp} ORDER BY ${ORDINAL}${conflict}; TRUNCATE ${temp}`,
      )) as unknown as pg.QueryResult[];
      return moved[0]!.rowCount ?? 0;
    } catch (err) {
      throw storeErrorOf(err);
    }
  }
}

const STREAM_SAVEPOINT = 'tb_copy_stream';
/** Rows buffered ahead of the socket before CopyStream.write waits. */
const STREAM_AHEAD_BYTES = 4 << 20;

/** A COPY FROM STDIN of PgTransaction.copyStream (pg-copy-streams underneath). */
class PgCopyStream implements CopyStream {
  private readonly stream: ReturnType<typeof copyFrom>;
  /** The server's (or the connection's) error, once the COPY failed. */
  private failure: unknown;
  private state: 'open' | 'ended' | 'failed' | 'aborted' = 'open';

  constructor(
    private readonly client: pg.PoolClient,
    sql: string,
    private readonly onConflict: () => void,
  ) {
    // Rows encoded ahead of the server wait here, so it has work while this thread is busy.
    this.stream = client.query(copyFrom(sql, { highWaterMark: STREAM_AHEAD_BYTES }));
    this.stream.write(BINARY_HEADER);
    this.stream.on('error', (err) => {
      this.failure ??= err;
      // No more data for a COPY that failed: buffered writes would reach a finished query. On
      // the next tick, once pg-copy-streams let go of the connection (no CopyFail is sent then).
      process.nextTick(() => this.stream.destroy());
    });
  }

  async write(tuples: Uint8Array): Promise<void> {
    if (this.state !== 'open' || this.failure !== undefined) throw await this.fail();
    if (this.stream.write(tuples)) return;
    try {
      await once(this.stream, 'drain');
    } catch {
      throw await this.fail();
    }
  }

  async end(): Promise<number> {
    if (this.state !== 'open' || this.failure !== undefined) throw await this.fail();
    try {
      this.stream.end(BINARY_TRAILER);
      await finished(this.stream);
    } catch {
      throw await this.fail();
    }
    this.state = 'ended';
    try {
      await this.client.query(`RELEASE SAVEPOINT ${STREAM_SAVEPOINT}`);
    } catch (err) {
      throw storeErrorOf(err);
    }
    return this.stream.rowCount;
  }

  async abort(): Promise<void> {
    if (this.state !== 'open') return;
    this.state = 'aborted';
    if (this.failure === undefined) {
      // CopyFail: the server ends the COPY with an error, which closes the stream.
      const closed = once(this.stream, 'close').catch(() => {});
      this.stream.destroy(new Error('import cancelled'));
      await closed;
    }
    await this.client.query(`ROLLBACK TO SAVEPOINT ${STREAM_SAVEPOINT}; RELEASE SAVEPOINT ${STREAM_SAVEPOINT}`).catch(() => {});
  }

  /** The error to throw for a COPY that failed, after undoing its rows. */
  private async fail(): Promise<unknown> {
    if (this.state === 'aborted') return new Error('the COPY was cancelled');
    if (this.state === 'failed') return this.failed;
    this.state = 'failed';
    const err = this.failure ?? new Error('the COPY ended unexpectedly');
    try {
      // Queued behind the failed COPY: runs once the server is ready for the next statement.
      await this.client.query(`ROLLBACK TO SAVEPOINT ${STREAM_SAVEPOINT}; RELEASE SAVEPOINT ${STREAM_SAVEPOINT}`);
    } catch (undo) {
      return (this.failed = storeErrorOf(undo));
    }
    if ((err as { code?: string } | null)?.code === UNIQUE_VIOLATION) {
      this.onConflict();
      return (this.failed = new KeyConflictError(`rows loaded as new met a stored or repeated key: ${(err as Error).message}`, { cause: err }));
    }
    // A row of a day whose partition was not made before the COPY began (a running COPY does not
    // see partitions attached meanwhile): loaded the other way, whose writes make them first.
    if (isMissingPartition(err)) {
      return (this.failed = new KeyConflictError(`rows loaded as new need a day partition not made yet: ${(err as Error).message}`, { cause: err }));
    }
    return (this.failed = storeErrorOf(err));
  }

  private failed: unknown;
}

export class PostgresDriver extends PgSession {
  /** Other processes' writes, heard once dataVersion() is first asked (a server with caches). */
  private readonly listener: WriteListener;
  /** Other programs' writes, which announce nothing, seen in the schema's row counters. */
  private readonly counters: TableCounters;
  private readonly versionText = new VersionText();
  private readonly importVersionText = new VersionText();
  /** Writes of live transactions (TransactionOptions.live), counted apart from `writes`. */
  private readonly liveWrites = { n: 0 };
  private notifyQueued = false;
  /** An ordinary write is to be announced; else only live ones (see announce). */
  private notifyPlain = false;
  /** Names this driver's live announcements, so that its own listener does not count them. */
  private readonly liveTag = `${process.pid}.${Math.random().toString(36).slice(2)}`;

  constructor(
    readonly pool: pg.Pool,
    failFastMs = 0,
    /** The store's schema (its writes are announced and heard under this name). */
    private readonly schema = '',
    unannouncedPollMs = UNANNOUNCED_POLL_MS,
    /**
     * Connections of the live feed's writes (TransactionOptions.live), apart from the pool that
     * reads: a publish no longer waits for a connection behind a dozen reads of a busy server.
     */
    private readonly livePool: pg.Pool = pool,
  ) {
    super(pool, { n: 0 }, new Outage(failFastMs));
    this.listener = new WriteListener(pool.options, schema, this.liveTag);
    this.counters = new TableCounters(pool, unannouncedPollMs);
  }

  /**
   * Writes through this driver, and those other tickerbase processes announced (NOTIFY) once the
   * listener runs; until it does, and while it is disconnected, every DATA_VERSION_TTL_MS as
   * before. Writes by other programs, which announce nothing, once the schema's row counters show
   * them (TableCounters): before, the version moved every minute for them, and a server's cached
   * answers were all made anew each minute (a second of a busy server's CPU for 1,000 overviews).
   */
  override dataVersion(): string {
    return this.versionOf(this.versionText, this.writes.n + this.liveWrites.n);
  }

  /**
   * dataVersion() without this driver's live writes. Other programs' writes seen in the row
   * counters include the live rows of this process too, so while publishing it moves once per
   * poll period (UNANNOUNCED_POLL_MS) at most.
   */
  override importVersion(): string {
    return this.versionOf(this.importVersionText, this.writes.n);
  }

  private versionOf(text: VersionText, own: number): string {
    const heard = this.listener.heard();
    if (heard === undefined) return text.of(own, -1, Math.floor(Date.now() / DATA_VERSION_TTL_MS.postgres));
    return text.of(own, heard, this.counters.seen());
  }

  /** Announces a committed write to the other processes (one NOTIFY for the writes of one turn). */
  protected override wrote(): void {
    this.announce(false);
  }

  /**
   * One NOTIFY for the writes of one turn: the schema's name, or for live writes alone the
   * schema, `|live|` and this driver's tag, which every other process counts as a write and this
   * one's listener ignores (its live state heard of them already).
   */
  private announce(live: boolean): void {
    if (!live) this.notifyPlain = true;
    if (this.notifyQueued) return;
    this.notifyQueued = true;
    setImmediate(() => {
      this.notifyQueued = false;
      const payload = this.notifyPlain ? this.schema : `${this.schema}|live|${this.liveTag}`;
      this.notifyPlain = false;
      this.pool.query(`SELECT pg_notify('${WRITES_CHANNEL}', $1)`, [payload]).catch(() => {}); // an outage: the others' TTL covers it
    });
  }

  /** `unannouncedPollMs`: how often other programs' writes are looked for (default UNANNOUNCED_POLL_MS). */
  static open(url: string, opts: { schema?: string; max?: number; unannouncedPollMs?: number } & PgDeadlines = {}): PostgresDriver {
    const statementMs = opts.statementTimeoutMs ?? 0;
    const pool = new pg.Pool({
      connectionString: url,
      max: opts.max ?? 10,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000,
      // a peer that vanished without a FIN (host down, partition) is noticed by the kernel
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      ...(statementMs > 0 ? { statement_timeout: statementMs, query_timeout: statementMs + CLIENT_GRACE_MS } : {}),
      options: opts.schema ? `-c search_path=${opts.schema}` : undefined,
    });
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on('error', () => {});
    const livePool = new pg.Pool({ ...pool.options, max: LIVE_LANE_CONNECTIONS, options: [pool.options.options, LIVE_SESSION].filter(Boolean).join(' ') });
    livePool.on('error', () => {});
    // with deadlines (serving), an outage found by one call fails the next ones at once for a while
    return new PostgresDriver(pool, statementMs > 0 ? FAIL_FAST_MS : 0, opts.schema ?? '', opts.unannouncedPollMs, livePool);
  }

  /**
   * Rows new to their tables on a connection of the live pool, one binary COPY per part, in one
   * round trip and one implicit transaction (live-copy.ts): where BEGIN, SAVEPOINT, a COPY
   * waiting for the server's go-ahead, RELEASE and COMMIT took five, each waiting for its turn of
   * an event loop busy with requests. A stored or repeated key, or a day without a partition,
   * rejects with KeyConflictError, nothing stored.
   */
  async copyLive(parts: readonly CopyPart[]): Promise<number[]> {
    const started = this.outage.check();
    this.liveWrites.n++;
    let client: pg.PoolClient | undefined;
    let failure: unknown;
    try {
      client = await this.livePool.connect();
      const counts = await copyInOneTrip(client, parts);
      this.outage.ok();
      this.announce(true);
      return counts;
    } catch (err) {
      const code = (err as { code?: string } | null)?.code;
      if (code === UNIQUE_VIOLATION || isMissingPartition(err)) {
        throw new KeyConflictError(`live rows met a stored or repeated key, or a day without a partition: ${(err as Error).message}`, { cause: err });
      }
      throw (failure = this.outage.note(err, started));
    } finally {
      this.liveWrites.n++;
      // a connection that timed out may still be busy with its COPY: discarded, not reused
      client?.release(failure instanceof StoreUnavailableError ? failure : undefined);
    }
  }

  override async transaction<T>(fn: (tx: SqlDriver) => Promise<T>, opts: TransactionOptions = {}): Promise<T> {
    const started = this.outage.check();
    const counter = opts.live ? this.liveWrites : this.writes;
    let client: pg.PoolClient;
    try {
      client = await (opts.live ? this.livePool : this.pool).connect();
    } catch (err) {
      throw this.outage.note(err, started);
    }
    let failure: unknown;
    try {
      await client.query('BEGIN');
      if (!opts.unversioned) counter.n++;
      const result = await fn(new PgTransaction(client, counter, this.outage));
      await client.query('COMMIT');
      if (!opts.unversioned) this.announce(opts.live === true);
      return result;
    } catch (err) {
      failure = this.outage.note(err, started);
      // a connection that timed out may still be busy with (or deaf to) its last statement:
      // never send it a ROLLBACK to wait on, discard it (the server rolls back on disconnect)
      if (!(failure instanceof StoreUnavailableError)) await client.query('ROLLBACK').catch(() => {});
      throw failure;
    } finally {
      if (!opts.unversioned) counter.n++;
      client.release(failure instanceof StoreUnavailableError ? failure : undefined);
    }
  }

  override async close(): Promise<void> {
    this.listener.close();
    if (this.livePool !== this.pool) await this.livePool.end();
    await this.pool.end();
  }
}

/**
 * The live pool's connections commit without waiting for their WAL to reach the disk: each
 * publish is a transaction of its own, and a flush per commit held the live writes to the disk's
 * flushes per second (15,000 trades/s in publishes of 200 on the bench's machine, 36,000
 * without). As SQLite's synchronous=NORMAL in WAL mode: a commit is atomic and seen by every
 * connection at once; a crash of the machine (not of PostgreSQL) may lose the last ~0.6 s
 * (3 × wal_writer_delay) of acknowledged publishes, never keep half of one.
 */
const LIVE_SESSION = '-c synchronous_commit=off';

/** Connections of the live writes' own pool (PostgresDriver's livePool). */
const LIVE_LANE_CONNECTIONS = 2;
