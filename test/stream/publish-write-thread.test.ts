// Publishing on stores whose writes do not run in the request's own turn: a SQLite file (its
// writes on a thread of their own) and PostgreSQL (a pool of write connections). Publishes that
// overlap reach subscribers whole, one after another; every acknowledged trade is readable over
// REST when the acknowledgement arrives; and a write that fails, or a write thread that ends,
// is a 503 STORE_UNAVAILABLE with nothing of the publish kept in memory or sent.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { sqlOf } from '../../src/store/inspect.js';
import type { SqliteDriver } from '../../src/store/sqlite/driver.js';
import { openPostgresStore } from '../helpers/engines.js';
import { RawClient, startFeedServer, type FeedServer } from './feed-helpers.js';

const TOKEN = 'admin-token-for-the-write-thread-tests-0123456789';
const T0 = 1749825065000; // 2025-06-13 14:31:05 UTC

interface Engine {
  name: string;
  open(): Promise<{ store: Store; cleanup(): void }>;
}

const list: Engine[] = [
  {
    name: 'sqlite file',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'tb-write-thread-'));
      return { store: await openStore({ dataDir: dir }), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
];
if (process.env.DATABASE_URL) {
  const url = process.env.DATABASE_URL;
  list.push({ name: 'postgres', open: async () => ({ store: await openPostgresStore(url), cleanup: () => {} }) });
}

for (const engine of list) {
  describe(`publishing through a store that writes apart from the loop (${engine.name})`, () => {
    let server: FeedServer;
    let key: string;
    let cleanup: () => void;

    beforeAll(async () => {
      const opened = await engine.open();
      cleanup = opened.cleanup;
      server = await startFeedServer({ store: opened.store, adminToken: TOKEN, connectionLimit: 50, aggregation: { graceMs: 50 } });
      key = await server.keyFor('demo');
    });
    afterAll(async () => {
      await server.close();
      cleanup();
    });

    const post = (body: string) =>
      fetch(`http://127.0.0.1:${server.port}/admin/publish`, { method: 'POST', body, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson' } });
    const get = async (url: string) => {
      const res = await server.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
      return { status: res.statusCode, body: res.json() as Record<string, any> };
    };
    const trade = (sym: string, n: number) => ({ ev: 'T', sym, x: 4, i: `${sym}-${n}`, p: 100 + n / 100, s: 1 + n, t: T0 + n, q: n });
    const ndjson = (events: object[]) => events.map((e) => JSON.stringify(e)).join('\n');

    it('sends overlapping publishes whole and in turn, and each acknowledged trade is readable at once', async () => {
      const c = await RawClient.ready(`${server.base}/stocks`, key);
      c.send({ action: 'subscribe', params: 'T.*' });
      await c.next();
      const publishes = Array.from({ length: 12 }, (_, p) => Array.from({ length: 40 }, (_, n) => trade(`ORD${p}`, p * 100 + n)));
      // all sent at once: their writes overlap
      const answers = await Promise.all(
        publishes.map(async (events, p) => {
          const res = await post(ndjson(events));
          const body = (await res.json()) as Record<string, unknown>;
          // read as the acknowledgement arrives, before the other publishes are done
          const stored = await get(`/v3/trades/ORD${p}?limit=1000`);
          return { status: res.status, body, stored: stored.body.results?.length };
        }),
      );
      for (const a of answers) {
        expect(a.status, JSON.stringify(a.body)).toBe(200);
        expect(a.body).toMatchObject({ events: 40, trades_stored: 40 });
        expect(a.stored).toBe(40);
      }
      const received = await c.events(12 * 40);
      // each publish arrives whole (its 40 trades together, in their order), none interleaved
      const order: string[] = [];
      for (let i = 0; i < received.length; i += 40) {
        const block = received.slice(i, i + 40);
        const sym = block[0]!.sym as string;
        expect(block.map((e) => e.sym)).toEqual(Array(40).fill(sym));
        expect(block).toEqual(publishes[Number(sym.slice(3))]);
        order.push(sym);
      }
      expect(new Set(order).size).toBe(12);
      c.close();
    });
  });
}

describe('publishing on a SQLite file whose write fails or whose write thread ends', () => {
  let server: FeedServer;
  let key: string;
  let dir: string;
  let other: Store;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tb-write-fault-'));
    server = await startFeedServer({ store: await openStore({ dataDir: dir }), adminToken: TOKEN, connectionLimit: 50, aggregation: { graceMs: 50 } });
    other = await openStore({ dataDir: dir });
    key = await server.keyFor('demo');
  });
  afterAll(async () => {
    await server.close();
    await other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (body: string) =>
    server.app.inject({ method: 'POST', url: '/admin/publish', payload: body, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson' } });
  const get = async (url: string) => {
    const res = await server.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
    return { status: res.statusCode, body: res.json() as Record<string, any> };
  };
  const one = (sym: string, n: number) => JSON.stringify({ ev: 'T', sym, x: 4, i: `${sym}-${n}`, p: 50 + n, s: 10, t: T0 + n, q: n });

  /** Nothing of `sym` anywhere: not stored, not in the live snapshot state, no bar. */
  async function expectNothingOf(sym: string): Promise<void> {
    expect((await get(`/v2/last/trade/${sym}`)).status).toBe(404);
    expect((await get(`/v3/trades/${sym}`)).body.results ?? []).toEqual([]);
    expect((await get(`/v2/snapshot/locale/us/markets/stocks/tickers/${sym}`)).status).toBe(404);
  }

  it('answers a write that fails with 503 STORE_UNAVAILABLE, keeps nothing of it and sends nothing', async () => {
    const c = await RawClient.ready(`${server.base}/stocks`, key);
    c.send({ action: 'subscribe', params: 'T.*' });
    await c.next();
    await sqlOf(other).exec(`CREATE TRIGGER refuse_trades BEFORE INSERT ON trades BEGIN SELECT RAISE(ABORT, 'the disk is full'); END`);
    const res = await post(one('FAILW', 1));
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'STORE_UNAVAILABLE' });
    await sqlOf(other).exec('DROP TRIGGER refuse_trades');
    await expectNothingOf('FAILW');
    // the next publish is stored and is the first event the subscriber sees
    const ok = await post(one('OKW', 2));
    expect(ok.statusCode).toBe(200);
    expect(await c.events(1)).toEqual([JSON.parse(one('OKW', 2))]);
    expect((await get('/v2/last/trade/OKW')).status).toBe(200);
    c.close();
  });

  it('answers a publish whose write thread ends with 503 STORE_UNAVAILABLE, and the next publish starts another', async () => {
    const thread = (sqlOf(server.store) as SqliteDriver).writeThread!;
    const internals = thread as unknown as { worker: Worker | undefined };
    await internals.worker?.terminate();
    const c = await RawClient.ready(`${server.base}/stocks`, key);
    c.send({ action: 'subscribe', params: 'T.*' });
    await c.next();
    // a thread starting takes far longer than posting the job: it ends before running it
    const answer = post(one('DIEW', 3));
    while (!thread.mark().waiting) await new Promise((r) => setImmediate(r));
    await internals.worker!.terminate();
    const res = await answer;
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'STORE_UNAVAILABLE' });
    await expectNothingOf('DIEW');
    const ok = await post(one('LIVEW', 4));
    expect(ok.statusCode).toBe(200);
    expect(await c.events(1)).toEqual([JSON.parse(one('LIVEW', 4))]);
    expect((await get('/v2/last/trade/LIVEW')).status).toBe(200);
    c.close();
  });
});
