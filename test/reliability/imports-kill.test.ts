// `tickerbase import` killed with SIGKILL in the middle of a file: the store holds none of that
// file's rows (the file's transaction never committed), what was there before is intact, the
// store reopens cleanly and the same file imports afterwards.
import { sqlOf } from '../../src/store/inspect.js';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import Database from 'better-sqlite3';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { importFile } from '../../src/ingest/load.js';
import { openPostgresStore } from '../helpers/engines.js';
import { MINUTE_HEADER, TempDir, minuteLines } from '../ingest/import-files.js';

const ENTRY = fileURLToPath(new URL('../helpers/cli-entry.ts', import.meta.url));
const DATABASE_URL = process.env.DATABASE_URL;
const ROWS = 400_000; // large enough that "mid-file" lasts seconds even on a loaded machine

async function count(store: Store, table: string): Promise<number> {
  return Number((await sqlOf(store).get(`SELECT COUNT(*) AS n FROM ${table}`))!.n);
}

/**
 * Runs `tickerbase import <file>` and SIGKILLs it once `midFile()` says rows of the file are being
 * written. Resolves with the signal that ended it (null if it exited by itself, i.e. too early or too late).
 */
async function importAndKill(args: string[], env: NodeJS.ProcessEnv, midFile: () => Promise<boolean>): Promise<NodeJS.Signals | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, 'import', ...args], {
    env: { ...process.env, TICKERBASE_DATA_DIR: '', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const ended = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  let exited = false;
  void ended.then(() => (exited = true));
  const deadline = Date.now() + 60_000;
  while (!exited && Date.now() < deadline) {
    if (await midFile()) {
      child.kill('SIGKILL');
      break;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return ended;
}

describe('kill -9 during an import (sqlite)', () => {
  let dir: TempDir;
  beforeAll(() => {
    dir = new TempDir();
  });
  afterAll(() => dir?.remove());

  it('keeps none of the file, reopens cleanly and imports the file afterwards', async () => {
    const dbFile = dir.path('data/tickerbase.db');
    const before = dir.write('before/2024-03-08.csv', MINUTE_HEADER, minuteLines(100, ['KEEP']));
    const big = dir.write('minute_aggs_v1/big.csv', MINUTE_HEADER, minuteLines(ROWS, ['AAPL', 'MSFT', 'IBM', 'ORCL']));
    mkdirSync(dir.path('data'));
    let store = await openStore({ sqliteFile: dbFile });
    await importFile(store, before);
    await store.close();

    // Mid-file: the importer has held SQLite's write lock for a while (its transaction for the file
    // is open, and lasts seconds for this many rows). The WAL's size is no sign of it: with a 64 MiB
    // page cache the transaction's pages may reach the WAL only as it commits.
    const probe = new Database(dbFile, { timeout: 0 });
    let heldSince: number | undefined;
    const midFile = async () => {
      try {
        probe.exec('BEGIN IMMEDIATE');
        probe.exec('ROLLBACK');
        heldSince = undefined;
      } catch (err) {
        if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
        heldSince ??= Date.now();
      }
      return heldSince !== undefined && Date.now() - heldSince >= 200;
    };
    let signal: NodeJS.Signals | null;
    try {
      signal = await importAndKill([big, '--data-dir', dir.path('data')], {}, midFile);
    } finally {
      probe.close();
    }
    expect(signal).toBe('SIGKILL');

    store = await openStore({ sqliteFile: dbFile });
    try {
      const db = sqlOf(store) as unknown as { db: { pragma(s: string, o: { simple: true }): unknown } };
      expect(db.db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(await count(store, 'minute_bars')).toBe(100);
      expect(await count(store, 'day_bars')).toBe(1);
      const again = await importFile(store, big);
      expect(again.written).toBe(ROWS);
      expect(await count(store, 'minute_bars')).toBe(ROWS + 100);
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(!DATABASE_URL)('kill -9 during an import (postgres)', () => {
  let dir: TempDir;
  let store: Store;
  let schema: string;
  let watcher: pg.Client;
  beforeAll(async () => {
    dir = new TempDir();
    schema = `tb_kill_${Math.random().toString(16).slice(2, 10)}`;
    store = await openPostgresStore(DATABASE_URL!, schema); // the schema, migrated
    watcher = new pg.Client({ connectionString: DATABASE_URL });
    await watcher.connect();
  });
  afterAll(async () => {
    await watcher?.end();
    await store?.close();
    dir?.remove();
  });

  it('keeps none of the file, leaves no lock behind, and the file imports afterwards', async () => {
    await importFile(store, dir.write('before/2024-03-08.csv', MINUTE_HEADER, minuteLines(100, ['KEEP'])));
    const big = dir.write('minute_aggs_v1/big.csv', MINUTE_HEADER, minuteLines(ROWS, ['AAPL', 'MSFT', 'IBM', 'ORCL']));
    const url = new URL(DATABASE_URL!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    url.searchParams.set('application_name', `tb-kill-${schema}`);
    // Mid-file: the importer's connection is in a transaction that has already moved a batch into minute_bars.
    const midFile = async () => {
      const r = await watcher.query(
        `SELECT 1 FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid
          WHERE a.application_name = $1 AND a.xact_start IS NOT NULL AND l.relation = to_regclass($2) AND l.mode = 'RowExclusiveLock'`,
        [`tb-kill-${schema}`, `${schema}.minute_bars`],
      );
      return r.rowCount! > 0;
    };
    const signal = await importAndKill([big, '--database-url', url.toString()], {}, midFile);
    expect(signal).toBe('SIGKILL');

    expect(await count(store, 'minute_bars')).toBe(100);
    expect(await count(store, 'day_bars')).toBe(1);
    // The server notices the dead client and ends its transaction; the rows can be written again.
    const again = await importFile(store, big);
    expect(again.written).toBe(ROWS);
    expect(await count(store, 'minute_bars')).toBe(ROWS + 100);
  }, 90_000); // 20 s alone on a 2-core VM; the whole suite beside it made it pass 30 s
});
