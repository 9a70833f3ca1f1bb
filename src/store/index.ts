import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SqlDriver } from './driver.js';
import { migrate } from './migrations/index.js';
import { PostgresDriver, type PgDeadlines } from './postgres/driver.js';
import { CorporateActionsRepository } from './repos/corporate-actions.js';
import { DatasetRepository } from './repos/datasets.js';
import { KeyRepository } from './repos/keys.js';
import { MarketDataRepository } from './repos/market.js';
import type { MarketDataPort } from './repos/market-port.js';
import { MetaRepository } from './repos/meta.js';
import { OptionsRepository } from './repos/options.js';
import { ReferenceRepository } from './repos/reference.js';
import { SnapshotReadRepository } from './repos/snapshot-reads.js';
import { NewsRepository } from './repos/news.js';
import { SocialRepository } from './repos/social.js';
import { UsageRepository } from './repos/usage.js';
import { SqliteDriver } from './sqlite/driver.js';

/** The port every service talks to: one repository per data area over one engine. */
export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  readonly db: SqlDriver;
  readonly meta: MetaRepository;
  readonly keys: KeyRepository;
  readonly reference: ReferenceRepository;
  readonly market: MarketDataPort;
  readonly options: OptionsRepository;
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
  /** Throws StoreUnavailableError (or the engine's error) when the store cannot answer. */
  ping(): Promise<void>;
  /** Changes whenever stored data may have changed (SqlDriver.dataVersion): keys caches of answers. */
  dataVersion(): string;
  close(): Promise<void>;
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
}

export function storeFromDriver(db: SqlDriver): Store {
  return {
    engine: db.engine,
    db,
    meta: new MetaRepository(db),
    keys: new KeyRepository(db),
    reference: new ReferenceRepository(db),
    market: new MarketDataRepository(db),
    options: new OptionsRepository(db),
    snapshotReads: new SnapshotReadRepository(db),
    news: new NewsRepository(db),
    social: new SocialRepository(db),
    datasets: new DatasetRepository(db),
    corporateActions: new CorporateActionsRepository(db),
    usage: new UsageRepository(db),
    async ping() {
      await db.get('SELECT 1 AS ok');
    },
    dataVersion: () => db.dataVersion(),
    close: () => db.close(),
  };
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
      file = join(dir, 'tickerbase.db');
    }
    db = SqliteDriver.open(file);
  }
  if (opts.migrate !== false) await migrate(db);
  return storeFromDriver(db);
}
