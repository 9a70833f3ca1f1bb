// Ticker list pages are joined from list-item JSON stored with each ticker row. Every page must
// be what the list answered when it built objects from the rows and let the response schema
// serialize them: here the oracle is that older path (the versions from the store, tickerToWire,
// then only the schema's keys), compared after JSON.parse, on a sample of the demo's tickers, on
// both engines; and rows stored before the column existed are filled in when the store is opened.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AS_OF } from '../../src/demo/load.js';
import { demoTickers } from '../../src/demo/universe.js';
import { TickerItem } from '../../src/domain/ticker-schemas.js';
import { TickerService, tickerToWire, type TickerListParams } from '../../src/services/tickers.js';
import { openStore, type Store } from '../../src/store/index.js';
import { sqlOf } from '../../src/store/inspect.js';
import type { TickerRecord } from '../../src/store/records.js';
import { openPostgresStore } from '../helpers/engines.js';
import { startTestApp, walkPages, type TestApp } from '../helpers/app.js';

/** Every 15th demo ticker and the first 40 (the real ones): all markets, some inactive. */
const SAMPLE: TickerRecord[] = demoTickers(DEMO_AS_OF).filter((_t, i) => i < 40 || i % 15 === 0);

/** A store the test can open twice (the second open runs the backfill) and then remove. */
interface Reopenable {
  name: string;
  open(): Promise<Store>;
  /** Opens the last time; closing that store removes the data. */
  openLast(): Promise<Store>;
  cleanup(): void;
}

function reopenables(): Reopenable[] {
  const dir = mkdtempSync(join(tmpdir(), 'tb-ticker-json-'));
  const list: Reopenable[] = [
    { name: 'sqlite', open: () => openStore({ dataDir: dir }), openLast: () => openStore({ dataDir: dir }), cleanup: () => rmSync(dir, { recursive: true, force: true }) },
  ];
  const url = process.env.DATABASE_URL;
  if (url) {
    const schema = `tb_test_tjson_${Date.now().toString(36)}`;
    list.push({ name: 'postgres', open: () => openStore({ databaseUrl: url, schema, poolSize: 2 }), openLast: () => openPostgresStore(url, schema), cleanup: () => {} });
  } else console.log('PostgreSQL stored-JSON tests skipped: DATABASE_URL is not set (CI sets it).');
  return list;
}

/** The list parameters with the route's defaults, as the older path read them. */
function params(query: Record<string, string>): TickerListParams & { limit: number } {
  return { ...query, active: query.active !== 'false', sort: (query.sort ?? 'ticker') as TickerListParams['sort'], order: (query.order ?? 'asc') as 'asc' | 'desc', limit: Number(query.limit ?? 100) };
}

const QUERIES: Array<Record<string, string>> = [
  {},
  { limit: '1000' },
  { limit: '7' },
  { market: 'crypto', limit: '50' },
  { market: 'fx' },
  { sort: 'name', order: 'desc', limit: '250' },
  { sort: 'delisted_utc', limit: '30' },
  { active: 'false', limit: '20' },
  { date: '2010-06-01', limit: '300' },
  { date: '2026-11-20', active: 'false' },
  { search: 'corp', limit: '40' },
  { type: 'ETF' },
];

/** Every item of every page of a query (following next_url), as served. */
async function served(t: TestApp, query: Record<string, string>): Promise<unknown[]> {
  const pages = await walkPages(t, `/v3/reference/tickers?${new URLSearchParams(query)}`);
  return pages.flatMap((p) => p.results ?? []);
}

/** The same items by the older path: versions from the store, tickerToWire, the schema's keys only. */
async function expected(store: Store, query: Record<string, string>): Promise<unknown[]> {
  const p = params(query);
  const out: unknown[] = [];
  const tickers = new TickerService(store, Date.now);
  let after;
  for (;;) {
    const { rows, position } = await tickers.list(p, { limit: p.limit, after });
    out.push(...rows.map((r) => Value.Clean(TickerItem, structuredClone(tickerToWire(r.record, p.date)))));
    if (rows.length < p.limit) return out;
    after = position(rows[rows.length - 1]!);
  }
}

for (const engine of reopenables()) {
  describe(`ticker list from stored JSON (${engine.name})`, () => {
    let store: Store;
    let t: TestApp;
    beforeAll(async () => {
      store = await engine.open();
      for (let i = 0; i < SAMPLE.length; i += 500) await store.reference.upsertTickers(SAMPLE.slice(i, i + 500));
      t = await startTestApp(store, { envelope: 'wrapped' });
    }, 60_000);
    afterAll(async () => {
      await t?.close();
      await store?.close();
      engine.cleanup();
    });

    it('answers every page with the items the objects and the schema made', async () => {
      for (const q of QUERIES) {
        const want = await expected(store, q);
        expect(want.length, JSON.stringify(q)).toBeGreaterThan(0);
        expect(await served(t, q), JSON.stringify(q)).toEqual(want);
      }
    }, 60_000);

    it('fills in rows stored without their JSON when the store is opened, answering the same meanwhile', async () => {
      const before = await served(t, { limit: '1000' });
      await sqlOf(store).run("UPDATE tickers SET list_json = NULL WHERE ticker < 'M'");
      expect(await served(t, { limit: '1000' })).toEqual(before);
      await t.close();
      await store.close();
      store = await engine.openLast();
      const unfilled = await sqlOf(store).get('SELECT COUNT(*) AS n FROM tickers WHERE list_json IS NULL');
      expect(Number(unfilled?.n)).toBe(0);
      t = await startTestApp(store, { envelope: 'wrapped' });
      expect(await served(t, { limit: '1000' })).toEqual(before);
    }, 60_000);
  });
}
