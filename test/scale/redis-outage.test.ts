// Redis stopped for a few seconds under two server processes over one PostgreSQL: publishing
// goes on (stored, aggregated, delivered to the accepting process's subscribers, the others'
// later), /ready says the feed is not shared, a process started during the outage joins the
// shared feed once Redis is back, and the minute bar holds every stored trade.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawClient } from '../stream/feed-helpers.js';
import { HAS_REDIS_SERVER, OwnRedis } from './own-redis.js';
import { ADMIN_TOKEN, afterMinute, drain, freshSchema, minuteWithRoom, publishTo, readiness, subscriber, until, type Schema } from './live-cluster.js';
import { spawnServe, type ServeProcess } from './serve-process.js';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) console.log('Redis outage test skipped: DATABASE_URL is not set (CI sets it).');
if (!HAS_REDIS_SERVER) console.log('Redis outage test skipped: redis-server is not installed (the test starts a Redis of its own).');

type Row = Record<string, number>;

const trade = (i: number, t: number) => ({ ev: 'T', sym: 'OUTG', x: 4, i: `o${i}`, p: 50 + (i % 4) / 2, s: 10 * (i + 1), t, q: i });

describe.skipIf(!DATABASE_URL || !HAS_REDIS_SERVER)('a Redis outage under two server processes', () => {
  let redis: OwnRedis;
  let schema: Schema;
  let a: ServeProcess;
  let b: ServeProcess | undefined;
  const clients: RawClient[] = [];

  beforeAll(async () => {
    redis = await OwnRedis.start();
    schema = await freshSchema(DATABASE_URL!);
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.kill();
    await schema?.drop();
  });

  it('keeps publishing, reports the feed as not shared, and brings a process started meanwhile into the shared feed', async () => {
    const args = ['--database-url', schema.url, '--redis-url', redis.url, '--admin-token', ADMIN_TOKEN];
    a = await spawnServe(args);
    expect((await readiness(a.url)).body.checks.feed).toBe('shared');
    const ca = await subscriber(a.url, schema.keys[0]!, 'T.OUTG,AM.OUTG');
    clients.push(ca);

    await redis.kill();
    await until('A sees the outage', async () => (await readiness(a.url)).body.checks.feed !== 'shared');
    const ready = await readiness(a.url);
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('DEGRADED');
    expect(ready.body.checks.feed).toBe('this process only');
    expect(ready.body.degraded!.join(' ')).toMatch(/live feed is not shared: Redis is unreachable/);
    expect((await readiness(a.url, '?require=feed')).status).toBe(503);

    b = await spawnServe(args); // started while Redis is down
    expect((await readiness(b.url)).body.checks.feed).toBe('this process only');
    const cb = await subscriber(b.url, schema.keys[1]!, 'T.OUTG,AM.OUTG');
    clients.push(cb);

    const M = await minuteWithRoom(25_000);
    const onA = [0, 1, 2].map((i) => trade(i, M + 1000 * i));
    const onB = [3, 4, 5].map((i) => trade(i, M + 1000 * i));
    for (const [server, events] of [[a, onA], [b, onB]] as const) {
      const res = await publishTo(server.url, events);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ trades_stored: 3, other_processes: 'queued' });
    }
    // each process's own subscribers have its events at once
    expect((await ca.events(3)).map((e) => e.i)).toEqual(['o0', 'o1', 'o2']);
    expect((await cb.events(3)).map((e) => e.i)).toEqual(['o3', 'o4', 'o5']);

    await redis.start();
    for (const s of [a, b]) {
      await until('the feed is shared again', async () => (await readiness(s.url)).body.checks.feed === 'shared').catch(async (err: Error) => {
        throw new Error(`${err.message}: ${JSON.stringify((await readiness(s.url)).body)}\n${s.output()}`);
      });
    }
    expect((await readiness(b.url)).status).toBe(200);
    // what each accepted during the outage reaches the other's subscribers once Redis is back
    expect((await ca.events(3, 10_000)).map((e) => e.i)).toEqual(['o3', 'o4', 'o5']);
    expect((await cb.events(3, 10_000)).map((e) => e.i)).toEqual(['o0', 'o1', 'o2']);
    // and B, started during the outage, publishes to A's subscribers like any process
    const late = trade(6, M + 6000);
    expect((await publishTo(b.url, [late])).body.other_processes).toBe('sent');
    expect((await ca.events(1, 5000)).map((e) => e.i)).toEqual(['o6']);

    await afterMinute(M);
    const [ea, eb] = await Promise.all([drain(ca), drain(cb)]);
    const get = async (server: ServeProcess, path: string) => {
      const res = await fetch(`${server.url}${path}`, { headers: { 'x-api-key': schema.keys[2]! } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: { results: Row[] } }).data.results;
    };
    const all = [...onA, ...onB, late];
    const fromTrades = await get(a, `/v2/aggs/ticker/OUTG/range/60/second/${M}/${M + 59_999}`);
    expect(fromTrades.map((r) => r.v)).toEqual([all.reduce((v, t) => v + t.s, 0)]);
    const stored = await get(b, `/v2/aggs/ticker/OUTG/range/1/minute/${M}/${M + 59_999}`);
    expect(stored.map((r) => [r.t, r.o, r.h, r.l, r.c, r.v, r.n])).toEqual(fromTrades.map((r) => [r.t, r.o, r.h, r.l, r.c, r.v, all.length]));
    for (const events of [ea, eb]) {
      expect(events.filter((e) => e.ev === 'AM').map((e) => [e.s, e.o, e.h, e.l, e.c, e.v])).toEqual(fromTrades.map((r) => [r.t, r.o, r.h, r.l, r.c, r.v]));
    }
  }, 240_000);
});
