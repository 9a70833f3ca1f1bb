// Two server processes over one PostgreSQL and one Redis, the same ticker's trades published
// through both within one minute: every subscriber, on either process, gets one AM for the
// minute and one A per second, and the stored minute bar is the aggregate of the stored trades.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_REDIS_SERVER, OwnRedis } from './own-redis.js';
import { ADMIN_TOKEN, afterMinute, drain, freshSchema, minuteWithRoom, publishTo, subscriber, type Schema } from './live-cluster.js';
import { spawnServe, type ServeProcess } from './serve-process.js';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) console.log('Cluster bar test skipped: DATABASE_URL is not set (CI sets it).');
if (!HAS_REDIS_SERVER) console.log('Cluster bar test skipped: redis-server is not installed (the test starts a Redis of its own).');

type Row = Record<string, number>;

describe.skipIf(!DATABASE_URL || !HAS_REDIS_SERVER)('live bars of one ticker published through two processes', () => {
  let redis: OwnRedis;
  let schema: Schema;
  let a: ServeProcess;
  let b: ServeProcess;

  beforeAll(async () => {
    redis = await OwnRedis.start();
    schema = await freshSchema(DATABASE_URL!);
    const args = ['--database-url', schema.url, '--redis-url', redis.url, '--admin-token', ADMIN_TOKEN];
    [a, b] = await Promise.all([spawnServe(args), spawnServe(args)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.kill();
    await schema?.drop();
  });

  it('one AM and one A per second on every subscriber, equal to the REST aggregate of the stored trades', async () => {
    const [ca, cb] = await Promise.all([subscriber(a.url, schema.keys[0]!, 'A.TWOP,AM.TWOP'), subscriber(b.url, schema.keys[1]!, 'A.TWOP,AM.TWOP')]);
    const M = await minuteWithRoom(20_000);
    // pairs of trades in one second, one of each pair through each process
    const trades = Array.from({ length: 16 }, (_, i) => ({
      ev: 'T', sym: 'TWOP', x: 4, i: `t${i}`, p: 100 + ((i * 37) % 11) / 4, s: 100 * (1 + (i % 5)), t: M + Math.floor(i / 2) * 3_100 + (i % 2) * 400, q: i,
    }));
    for (let i = 0; i < trades.length; i += 2) {
      const [ra, rb] = await Promise.all([publishTo(a.url, [trades[i]!]), publishTo(b.url, [trades[i + 1]!])]);
      expect([ra.status, rb.status]).toEqual([200, 200]);
      expect([ra.body.other_processes, rb.body.other_processes]).toEqual(['sent', 'sent']);
    }
    await afterMinute(M);
    const [ea, eb] = await Promise.all([drain(ca), drain(cb)]);
    ca.close();
    cb.close();

    const volume = trades.reduce((v, t) => v + t.s, 0);
    for (const events of [ea, eb]) {
      const minutes = events.filter((e) => e.ev === 'AM');
      expect(minutes.map((e) => [e.s, e.v])).toEqual([[M, volume]]);
      const seconds = events.filter((e) => e.ev === 'A').map((e) => e.s as number);
      expect(seconds).toEqual([...new Set(trades.map((t) => t.t - (t.t % 1000)))]);
    }
    expect(ea).toEqual(eb);

    const get = async (server: ServeProcess, path: string) => {
      const res = await fetch(`${server.url}${path}`, { headers: { 'x-api-key': schema.keys[0]! } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: { results: Row[] } }).data.results;
    };
    // the aggregate REST makes of the stored trades, and the stored minute bar, through either process
    const fromTrades = await get(a, `/v2/aggs/ticker/TWOP/range/60/second/${M}/${M + 59_999}`);
    expect(fromTrades).toHaveLength(1);
    for (const server of [a, b]) {
      const stored = await get(server, `/v2/aggs/ticker/TWOP/range/1/minute/${M}/${M + 59_999}`);
      expect(stored.map((r) => [r.t, r.o, r.h, r.l, r.c, r.v, r.n])).toEqual(fromTrades.map((r) => [r.t, r.o, r.h, r.l, r.c, r.v, trades.length]));
      expect(stored[0]!.vw).toBeCloseTo(fromTrades[0]!.vw!, 6);
    }
    const am = ea.find((e) => e.ev === 'AM')!;
    expect([am.o, am.h, am.l, am.c, am.v]).toEqual([fromTrades[0]!.o, fromTrades[0]!.h, fromTrades[0]!.l, fromTrades[0]!.c, fromTrades[0]!.v]);
  }, 150_000);
});
