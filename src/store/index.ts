import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LIVE_WRITE, STORE_DRIVER, type SqlDriver } from './driver.js';
import { writerOver, type LiveWriter } from './live-writes.js';
import { migrate } from './migrations/index.js';
import { PostgresDriver, type PgDeadlines } from './postgres/driver.js';
import { DayPartitions } from './postgres/partitions.js';
import { AccountRepository } from './repos/accounts.js';
import { readStoreStatus, type StoreStatus } from './repos/store-status.js';
import { CorporateActionsRepository } from './repos/corporate-actions.js';
import { CryptoBookRepository } from './repos/crypto-book.js';
import { DatasetRepository } from './repos/datasets.js';
import { FlatFileManifestRepository } from './repos/flatfile-manifest.js';
import { FuturesMarketRepository } from './repos/futures-market.js';
import { KeyRepository } from './repos/keys.js';
import { MarketDataRepository } from './repos/market.js';
import type { MarketDataPort } from './repos/market-port.js';
import { MetaRepository } from './repos/meta.js';
import { OptionsRepository } from './repos/options.js';
import { ReferenceRepository } from './repos/reference.js';
import { SnapshotReadRepository } from './repos/snapshot-reads.js';
import { NewsRepository } from './repos/news.js';
import { SessionRepository } from './repos/sessions.js';
import { SocialRepository } from './repos/social.js';
import { UpstreamLedgerRepository } from './repos/upstream-ledger.js';
import { UsageRepository } from './repos/usage.js';
import { SqliteDriver } from './sqlite/driver.js';

export { SERVING_BUSY_TIMEOUT_MS, SERVING_CACHE_MIB } from './sqlite/driver.js';

/** The port every service talks to: one repository per data area over one engine. */
export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  readonly meta: MetaRepository;
  readonly keys: KeyRepository;
  readonly reference: ReferenceRepository;
  readonly market: MarketDataPort;
  readonly options: OptionsRepository;
  /** Futures trades, quotes and minute bars, and the contracts of the futures snapshot. */
  readonly futures: FuturesMarketRepository;
  /** Batched per-ticker reads of the market-data tables for snapshots. */
  readonly snapshotReads: SnapshotReadRepository;
  readonly news: NewsRepository;
  readonly social: SocialRepository;
  /** Declared data sets (fundamentals, filings, economy, corporate actions): generic declared tables. */
  readonly datasets: DatasetRepository;
  /** Dividends and splits, shared by both API families and the aggregates' adjustment. */
  readonly corporateActions: CorporateActionsRepository;
  /** Per-key request counts per day and endpoint family. */
  readonly usage: UsageRepository;
  /** Level-2 books of crypto pairs, as imported. */
  readonly cryptoBooks: CryptoBookRepository;
  /** Which objects of upstream's flat-file bucket `sync flatfiles` stored, and in which version. */
  readonly flatFileManifest: FlatFileManifestRepository;
  /** What was fetched from upstream's REST API, and the counts of upstream calls. */
  readonly upstreamLedger: UpstreamLedgerRepository;
  /**
   * Runs fn with a store whose every repository works inside one transaction: committed when fn
   * resolves, rolled back when it throws. A transaction started inside fn joins the outer one.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>, opts?: TransactionOptions): Promise<T>;
  /** Applies the schema migrations not yet recorded in this database; returns their ids in order. */
  migrate(): Promise<string[]>;
  /** Dashboard accounts, invitations and sessions. */
  readonly accounts: AccountRepository;
  readonly sessions: SessionRepository;
  /** Size on disk and row counts of the main tables (the operator's status page). */
  status(): Promise<StoreStatus>;
  /**
   * Brings the query planner's statistics up to date after a bulk load, so that the first
   * queries after it get the plans the data calls for. PostgreSQL: ANALYZE of this schema's
   * tables (without it, until autovacuum runs, if it runs, a 1,000-ticker page read every current
   * ticker and sorted them: 35 ms instead of 5 ms). SQLite: nothing; its plans here follow from
   * the indexes alone.
   */
  refreshStatistics(): Promise<void>;
  /** Throws StoreUnavailableError (or the engine's error) when the store cannot answer. */
  ping(): Promise<void>;
  /** Changes whenever stored data may have changed (SqlDriver.dataVersion): keys caches of answers. */
  dataVersion(): string;
  /** dataVersion() without this process's live writes (SqlDriver.importVersion). */
  importVersion(): string;
  /**
   * The live feed's writes (live-writes.ts): on a SQLite file on a thread of their own, else on
   * the calling thread (inside a transaction: in it).
   */
  readonly live: LiveWriter;
  /**
   * Gets the live writes ready ahead of the first publish: on a SQLite file its write thread is
   * started (loading its modules and opening its connection took 200 ms on a quiet machine, and
   * longer under load, while the first publishes of a server waited for it). Nothing elsewhere.
   */
  prepareLive(): void;
  close(): Promise<void>;
}

export interface TransactionOptions {
  /** The transaction stores what the live feed published (SqlDriver's TransactionOptions.live). */
  live?: boolean;
  /**
   * Transactions given the same id run one after another, so a check-then-write inside one sees
   * what an earlier one wrote. PostgreSQL takes a transaction-scoped advisory lock on the id;
   * SQLite write transactions (BEGIN IMMEDIATE) already run one at a time.
   */
  serializeOn?: number;
}

export interface StoreOptions {
  /** PostgreSQL connection string; when absent the embedded SQLite engine is used. */
  databaseUrl?: string;
  /** Directory of the SQLite file (`tickerbase.db`). */
  dataDir?: string;
  /** SQLite file path; overrides dataDir (`:memory:` for tests). */
  sqliteFile?: string;
  /** PostgreSQL schema (search_path), created if missing; lets tests and tenants share one database. */
  schema?: string;
  /** Apply pending migrations on open (default true). */
  migrate?: boolean;
  poolSize?: number;
  /** PostgreSQL: the deadline of each statement and of connecting (none by default). */
  deadlines?: PgDeadlines;
  /**
   * SQLite: how long a write waits for another connection's write lock (an import's) before it
   * fails with StoreBusyError; the wait blocks the whole process. Default 10 s (commands); the
   * server uses SERVING_BUSY_TIMEOUT_MS. PostgreSQL takes row locks and ignores it.
   */
  busyTimeoutMs?: number;
  /**
   * SQLite: the page cache of the connection, in MiB. Default 64 (imports and commands: index
   * pages of bulk writes); the server uses SERVING_CACHE_MIB.
   */
  sqliteCacheMiB?: number;
}

/** The store over one driver (or one transaction of it); the driver stays out of the Store type. */
function storeOver(db: SqlDriver, inTransaction: boolean, partitions?: DayPartitions): Store {
  let live: LiveWriter | undefined;
  const store: Store & { [STORE_DRIVER]: SqlDriver } = {
    [STORE_DRIVER]: db,
    engine: db.engine,
    meta: new MetaRepository(db),
    keys: new KeyRepository(db),
    reference: new ReferenceRepository(db),
    market: new MarketDataRepository(db, partitions),
    options: new OptionsRepository(db),
    futures: new FuturesMarketRepository(db),
    snapshotReads: new SnapshotReadRepository(db),
    news: new NewsRepository(db),
    social: new SocialRepository(db),
    datasets: new DatasetRepository(db),
    corporateActions: new CorporateActionsRepository(db),
    usage: new UsageRepository(db),
    cryptoBooks: new CryptoBookRepository(db),
    flatFileManifest: new FlatFileManifestRepository(db),
    upstreamLedger: new UpstreamLedgerRepository(db),
    transaction: (fn, opts) =>
      db.transaction(async (tx) => {
        if (opts?.serializeOn !== undefined && tx.engine === 'postgres') {
          await tx.get('SELECT pg_advisory_xact_lock(?) AS locked', [opts.serializeOn]);
        }
        return fn(storeOver(tx, true, partitions));
      }, opts?.live ? LIVE_WRITE : undefined),
    migrate: () => migrate(db),
    accounts: new AccountRepository(db),
    sessions: new SessionRepository(db),
    status: () => readStoreStatus(db),
    async refreshStatistics() {
      if (db.engine !== 'postgres') return;
      // Plain tables and partitioned parents (ANALYZE of a parent covers its partitions), of this
      // schema only: a bare ANALYZE would visit every schema of the database.
      const tables = await db.all(
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY c.relname`,
      );
      if (tables.length > 0) await db.exec(`ANALYZE ${tables.map((t) => `"${String(t.name).replace(/"/g, '""')}"`).join(', ')}`);
    },
    async ping() {
      await db.get('SELECT 1 AS ok');
    },
    dataVersion: () => db.dataVersion(),
    importVersion: () => db.importVersion(),
    get live() {
      return (live ??= (!inTransaction && db instanceof SqliteDriver ? db.writeThread : undefined) ?? writerOver(store));
    },
    prepareLive() {
      if (!inTransaction && db instanceof SqliteDriver) db.writeThread?.prepare();
    },
    close: inTransaction
      ? () => Promise.reject(new Error('the store of a transaction cannot be closed; close the store that began it'))
      : () => db.close(),
  };
  return store;
}

/** A store over a driver opened by the caller (the SQLite write thread's connection). */
export function storeOnDriver(db: SqlDriver): Store {
  return storeOver(db, false);
}

/** The embedded store's file in a data directory. */
export function sqliteFileOf(dataDir: string): string {
  return join(dataDir, 'tickerbase.db');
}

export async function openStore(opts: StoreOptions): Promise<Store> {
  let db: SqlDriver;
  if (opts.databaseUrl) {
    if (opts.schema) {
      if (!/^[a-z_][a-z0-9_]*$/.test(opts.schema)) throw new Error(`invalid schema name: ${opts.schema}`);
      const admin = PostgresDriver.open(opts.databaseUrl, { max: 1, ...opts.deadlines });
      try {
        await admin.exec(`CREATE SCHEMA IF NOT EXISTS ${opts.schema}`);
      } finally {
        await admin.close();
      }
    }
    db = PostgresDriver.open(opts.databaseUrl, { schema: opts.schema, max: opts.poolSize, ...opts.deadlines });
  } else {
    let file = opts.sqliteFile;
    if (!file) {
      const dir = opts.dataDir ?? './data';
      mkdirSync(dir, { recursive: true });
      file = sqliteFileOf(dir);
    }
    db = SqliteDriver.open(file, { busyTimeoutMs: opts.busyTimeoutMs, cacheMiB: opts.sqliteCacheMiB });
  }
  if (opts.migrate !== false) {
    await migrate(db);
    // rows stored before a derived column existed get it (a read finds none to fill otherwise)
    await new ReferenceRepository(db).backfillTickerItems();
  }
  // One record of known day partitions per store, shared by its transactions.
  return storeOver(db, false, db instanceof PostgresDriver ? new DayPartitions(db.pool.options) : undefined);
}
