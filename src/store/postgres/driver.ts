import pg from 'pg';
import { StoreUnavailableError, type BulkInsert, type QueryOptions, type Row, type SqlDriver, type SqlValue } from '../driver.js';

// int8 columns (counts, nanosecond timestamps) arrive as exact bigint; callers that asked for
// plain numbers get them converted back below.
pg.types.setTypeParser(20, (v: string) => BigInt(v));

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

function wrap(err: unknown): unknown {
  const code = (err as { code?: string } | null)?.code;
  const msg = (err as Error | null)?.message ?? '';
  if ((code && CONNECTION_ERRORS.has(code)) || /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Cannot use a pool after calling end/i.test(msg)) {
    return new StoreUnavailableError('PostgreSQL is unreachable', { cause: err });
  }
  return err;
}

type Queryable = pg.Pool | pg.PoolClient;

class PgSession implements SqlDriver {
  readonly engine = 'postgres' as const;
  constructor(protected readonly q: Queryable) {}

  async all(sql: string, params: readonly SqlValue[] = [], opts: QueryOptions = {}): Promise<Row[]> {
    try {
      const r = await this.q.query({ text: toPgPlaceholders(sql), values: params as unknown[] });
      return opts.bigint ? (r.rows as Row[]) : numberify(r.rows as Row[]);
    } catch (err) {
      throw wrap(err);
    }
  }

  async get(sql: string, params: readonly SqlValue[] = [], opts: QueryOptions = {}): Promise<Row | undefined> {
    return (await this.all(sql, params, opts))[0];
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<{ changes: number }> {
    try {
      const r = await this.q.query({ text: toPgPlaceholders(sql), values: params as unknown[] });
      return { changes: r.rowCount ?? 0 };
    } catch (err) {
      throw wrap(err);
    }
  }

  async exec(sql: string): Promise<void> {
    try {
      await this.q.query(sql);
    } catch (err) {
      throw wrap(err);
    }
  }

  async insertMany(spec: BulkInsert): Promise<number> {
    if (spec.rows.length === 0) return 0;
    // Multi-row VALUES in chunks that stay under PostgreSQL's 65535-parameter limit.
    const width = spec.columns.length;
    const perChunk = Math.max(1, Math.floor(60000 / width));
    let conflict = '';
    if (spec.conflictColumns) {
      const target = spec.conflictColumns.join(', ');
      conflict = spec.updateColumns && spec.updateColumns.length > 0
        ? ` ON CONFLICT (${target}) DO UPDATE SET ${spec.updateColumns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}`
        : ` ON CONFLICT (${target}) DO NOTHING`;
    }
    let written = 0;
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
        throw wrap(err);
      }
    }
    return written;
  }

  async transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T> {
    return fn(this);
  }

  async close(): Promise<void> {}
}

class PgTransaction extends PgSession {}

export class PostgresDriver extends PgSession {
  constructor(readonly pool: pg.Pool) {
    super(pool);
  }

  static open(url: string, opts: { schema?: string; max?: number } = {}): PostgresDriver {
    const pool = new pg.Pool({
      connectionString: url,
      max: opts.max ?? 10,
      connectionTimeoutMillis: 5000,
      options: opts.schema ? `-c search_path=${opts.schema}` : undefined,
    });
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on('error', () => {});
    return new PostgresDriver(pool);
  }

  override async transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw wrap(err);
    }
    try {
      await client.query('BEGIN');
      const result = await fn(new PgTransaction(client));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw wrap(err);
    } finally {
      client.release();
    }
  }

  override async close(): Promise<void> {
    await this.pool.end();
  }
}
