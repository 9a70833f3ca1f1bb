// `serve --workers 2` on SQLite without Redis: the workers share the feed through the primary,
// so a subscriber gets every published event whichever worker took the publish and whichever
// holds the subscriber's connection, and one AM per minute made of both workers' trades.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { RawClient } from '../stream/feed-helpers.js';
import { ADMIN_TOKEN, afterMinute, drain, minuteWithRoom, publishTo, readiness, subscriber } from './live-cluster.js';
import { spawnServe, type ServeProcess } from './serve-process.js';

describe('the feed of serve --workers 2 without Redis', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tb-workers-feed-'));
  let server: ServeProcess;
  const keys: string[] = [];
  const clients: RawClient[] = [];

  beforeAll(async () => {
    const store = await openStore({ dataDir: dir });
    try {
      for (let i = 0; i < 10; i++) keys.push((await store.keys.create({ plan: 'demo', label: `workers feed ${i}` })).key);
    } finally {
      await store.close();
    }
    server = await spawnServe(['--data-dir', dir, '--workers', '2', '--admin-token', ADMIN_TOKEN]);
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) c.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every subscriber gets every event, whichever worker took it', async () => {
    // new connections are spread over the workers in turn; each says its feed is shared
    for (let i = 0; i < 4; i++) expect((await readiness(server.url)).body.checks.feed).toBe('shared');
    for (const key of keys.slice(0, 6)) clients.push(await subscriber(server.url, key, 'T.WRKF'));
    const events = Array.from({ length: 8 }, (_, i) => ({ ev: 'T', sym: 'WRKF', x: 4, i: `w${i}`, p: 20 + i, s: 100, t: 1_749_825_000_000 + i, q: i }));
    for (const e of events) {
      const res = await publishTo(server.url, [e]); // fetch opens new connections: the workers take turns
      expect(res.status).toBe(200);
      expect(res.body.other_processes).toBe('sent');
    }
    for (const c of clients) {
      const got = await c.events(events.length, 5000);
      expect(got.map((e) => e.i).sort()).toEqual(events.map((e) => e.i).sort());
    }
    expect((await readiness(server.url)).status).toBe(200);
  }, 60_000);

  it('one AM for a minute whose trades both workers took, equal to the REST aggregate of the stored trades', async () => {
    const watchers: RawClient[] = [];
    for (const key of keys.slice(6)) watchers.push(await subscriber(server.url, key, 'AM.WRKB')); // spread over the workers
    clients.push(...watchers);
    const M = await minuteWithRoom(15_000);
    const trades = Array.from({ length: 6 }, (_, i) => ({ ev: 'T', sym: 'WRKB', x: 4, i: `b${i}`, p: 30 + i / 4, s: 10 * (i + 1), t: M + 1000 * i, q: i }));
    for (const t of trades) expect((await publishTo(server.url, [t])).status).toBe(200); // taken in turn by the workers
    await afterMinute(M);
    const res = await fetch(`${server.url}/v2/aggs/ticker/WRKB/range/60/second/${M}/${M + 59_999}`, { headers: { 'x-api-key': keys[0]! } });
    const fromTrades = ((await res.json()) as { data: { results: Record<string, number>[] } }).data.results;
    expect(fromTrades.map((r) => r.v)).toEqual([trades.reduce((v, t) => v + t.s, 0)]);
    for (const w of watchers) {
      const minutes = (await drain(w, 1000)).filter((e) => e.ev === 'AM');
      expect(minutes.map((e) => [e.s, e.o, e.h, e.l, e.c, e.v])).toEqual(fromTrades.map((r) => [r.t, r.o, r.h, r.l, r.c, r.v]));
    }
  }, 120_000);
});
