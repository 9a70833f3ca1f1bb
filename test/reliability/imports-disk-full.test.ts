// SQLite: a store that fills up mid-import (PRAGMA max_page_count stands in for a full disk)
// fails that file with a one-line message naming it, keeps nothing of it, and the server on the
// same store goes on answering from what was there before.
import { sqlOf } from '../../src/store/inspect.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import type { SqliteDriver } from '../../src/store/sqlite/driver.js';
import { resolveImportPaths } from '../../src/ingest/load.js';
import { runImport } from '../../src/cli/import.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { MINUTE_HEADER, PREMARKET_NS, TempDir, minuteLines } from '../ingest/import-files.js';

const T0 = Number(PREMARKET_NS / 1_000_000n);

async function count(store: Store, table: string): Promise<number> {
  return Number((await sqlOf(store).get(`SELECT COUNT(*) AS n FROM ${table}`))!.n);
}

describe('SQLite: the store fills up during an import', () => {
  let dir: TempDir;
  let store: Store;
  let t: TestApp;
  beforeAll(async () => {
    dir = new TempDir();
    store = await openStore({ sqliteFile: dir.path('tickerbase.db') });
    t = await startTestApp(store, { envelope: 'native' });
  });
  afterAll(async () => {
    await t?.close();
    await store?.close();
    dir?.remove();
  });

  it('fails the file with a clear message naming it, writes nothing of it, and the server keeps serving', async () => {
    const first = dir.write('minute_aggs_v1/2024-03-08.csv', MINUTE_HEADER, minuteLines(200));
    expect((await runImport(store, [first], { output: { write: () => true } })).failures).toEqual([]);
    const db = (sqlOf(store) as SqliteDriver).db;
    const used = Number(db.pragma('page_count', { simple: true }));
    // Room for a few hundred more rows, not for the 60,000 of the next file.
    db.pragma(`max_page_count = ${used + 20}`);

    const big = dir.write('minute_aggs_v1/big.csv', MINUTE_HEADER, minuteLines(60_000, ['IBM', 'ORCL', 'SAP']));
    const out: string[] = [];
    const summary = await runImport(store, resolveImportPaths([big]), { output: { write: (s: string) => out.push(s) > 0 } });
    expect(summary.failures).toEqual([`${big}: the store is full (database or disk is full); free disk space and import the file again`]);
    const printed = out.join('');
    expect(printed).toContain(`error: ${big}: the store is full`);
    expect(printed).toContain('(nothing of this file was imported)');
    expect(printed).not.toMatch(/\n\s+at /); // no stack trace
    expect(await count(store, 'minute_bars')).toBe(200);
    expect(await count(store, 'day_bars')).toBe(2);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');

    const health = await t.get('/health');
    expect(health.status).toBe(200);
    const bars = await t.get(`/v2/aggs/ticker/AAPL/range/1/minute/${T0}/${T0 + 300_000}`);
    expect(bars.status).toBe(200);
    expect(bars.body.resultsCount).toBe(6); // both ends inclusive

    // With room again, the same file imports.
    db.pragma('max_page_count = 4294967294');
    expect((await runImport(store, [big], { output: { write: () => true } })).failures).toEqual([]);
    expect(await count(store, 'minute_bars')).toBe(60_200);
  });
});
