import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresDriver } from '../../src/store/postgres/driver.js';
import { openStore, type Store } from '../../src/store/index.js';

export interface EngineUnderTest {
  name: 'sqlite' | 'postgres';
  open(): Promise<Store>;
}

const DATABASE_URL = process.env.DATABASE_URL;
let warned = false;

/** Every engine the suite runs against: SQLite always, PostgreSQL when DATABASE_URL is set. */
export function engines(): EngineUnderTest[] {
  const list: EngineUnderTest[] = [{ name: 'sqlite', open: () => openStore({ sqliteFile: ':memory:' }) }];
  if (DATABASE_URL) {
    list.push({ name: 'postgres', open: () => openPostgresStore(DATABASE_URL) });
  } else if (!warned) {
    warned = true;
    console.log('PostgreSQL tests skipped: DATABASE_URL is not set (CI sets it).');
  }
  return list;
}

/** A store in a fresh schema of its own, dropped when the store closes. */
export async function openPostgresStore(url: string, schema = `tb_test_${randomBytes(6).toString('hex')}`): Promise<Store> {
  const store = await openStore({ databaseUrl: url, schema, poolSize: 4 });
  const close = store.close;
  return {
    ...store,
    async close() {
      await close();
      const admin = PostgresDriver.open(url, { max: 1 });
      try {
        await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await admin.close();
      }
    },
  };
}

/** Two stores on the same data, each with its own connection: a server's, and another process's. */
export interface StorePair {
  name: 'sqlite' | 'postgres';
  open(): Promise<{ store: Store; other: Store; close(): Promise<void> }>;
}

/** A StorePair per engine (PostgreSQL when DATABASE_URL is set); `label` names temporary data. */
export function storePairs(label: string): StorePair[] {
  const list: StorePair[] = [
    {
      name: 'sqlite',
      async open() {
        const dir = mkdtempSync(join(tmpdir(), `tb-${label}-`));
        const store = await openStore({ dataDir: dir });
        const other = await openStore({ dataDir: dir });
        return {
          store,
          other,
          async close() {
            await other.close();
            await store.close();
            rmSync(dir, { recursive: true, force: true });
          },
        };
      },
    },
  ];
  if (DATABASE_URL) {
    list.push({
      name: 'postgres',
      async open() {
        const schema = `tb_test_${label}_${Date.now().toString(36)}`;
        const store = await openPostgresStore(DATABASE_URL, schema);
        const other = await openStore({ databaseUrl: DATABASE_URL, schema, poolSize: 2 });
        return {
          store,
          other,
          async close() {
            await other.close();
            await store.close();
          },
        };
      },
    });
  } else console.log(`PostgreSQL ${label} tests skipped: DATABASE_URL is not set (CI sets it).`);
  return list;
}
