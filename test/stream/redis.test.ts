// Two app instances, each with its own Redis connections, on the real Redis: an event published
// on one reaches a client of the other, and the connection limit holds across them.
import { sqlOf } from '../../src/store/inspect.js';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../src/server/rate-limit.js';
import type { SqlValue } from '../../src/store/driver.js';
import { openStore } from '../../src/store/index.js';
import { RawClient, startFeedServer, type FeedServer } from './feed-helpers.js';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.log('Redis feed tests skipped: REDIS_URL is not set (CI sets it).');
const TOKEN = 'admin-token-for-the-redis-feed-tests-0123456789';

describe.skipIf(!REDIS_URL)('the feed across processes (Redis)', () => {
  let a: FeedServer;
  let b: FeedServer;
  let redisA: Redis;
  let redisB: Redis;

  beforeAll(async () => {
    const prefix = `tbtest:${randomBytes(6).toString('hex')}:`;
    redisA = await connectRedis(REDIS_URL!);
    redisB = await connectRedis(REDIS_URL!);
    await Promise.all([redisA, redisB].map((r) => new Promise((res) => (r.status === 'ready' ? res(null) : r.once('ready', res)))));
    // each instance has its own store, as two hosts with a shared PostgreSQL would have their own pools
    const storeA = await openStore({ sqliteFile: ':memory:' });
    const storeB = await openStore({ sqliteFile: ':memory:' });
    a = await startFeedServer({ store: storeA, redis: redisA, redisPrefix: prefix, adminToken: TOKEN });
    b = await startFeedServer({ store: storeB, redis: redisB, redisPrefix: prefix });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redisA?.quit();
    await redisB?.quit();
  });

  it('delivers an event published on one instance to a client of the other', async () => {
    const keyB = await b.keyFor('demo');
    const c = await RawClient.ready(`${b.base}/stocks`, keyB);
    c.send({ action: 'subscribe', params: 'T.XPROC' });
    await c.next();
    const trade = { ev: 'T', sym: 'XPROC', x: 1, i: '1', p: 5.5, s: 10, t: 1749825065000 };
    const res = await a.app.inject({ method: 'POST', url: '/admin/publish', payload: JSON.stringify(trade), headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson' } });
    expect(res.statusCode).toBe(200);
    expect(await c.events(1)).toEqual([trade]);
    c.close();
  });

  it('holds the connection limit across instances: the older connection is evicted', async () => {
    // the same key id on both instances: one key row copied into the other's store
    const { key: k, record } = await a.store.keys.create({ plan: 'business' });
    const row = await sqlOf(a.store).get('SELECT * FROM api_keys WHERE id = ?', [record.id]);
    const cols = Object.keys(row!);
    await sqlOf(b.store).run(`INSERT INTO api_keys (${cols.join(',')}) VALUES (${cols.map(() => '?').join(',')})`, cols.map((c) => row![c] as SqlValue));
    const first = await RawClient.ready(`${a.base}/stocks`, k);
    const second = await RawClient.ready(`${b.base}/stocks`, k);
    // the eviction crosses Redis pub/sub to the other instance: give it more than a local frame under a loaded suite
    expect((await first.next(10_000))[0]!.status).toBe('max_connections');
    expect(await first.closed).toBe(1008);
    second.send({ action: 'subscribe', params: 'T.X' });
    expect(await second.nextStatus()).toBe('success: subscribed to: T.X');
    second.close();
  });
});

describe('the feed when Redis does not answer', () => {
  it('starts within its deadline and serves this process alone', async () => {
    // a port nothing listens on: SUBSCRIBE never completes
    const dead = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => 1000, maxRetriesPerRequest: 1 });
    dead.on('error', () => undefined);
    const started = Date.now();
    const server = await startFeedServer({ redis: dead });
    try {
      expect(Date.now() - started).toBeLessThan(8000);
      const c = await RawClient.ready(`${server.base}/stocks`, await server.keyFor('demo'));
      c.send({ action: 'subscribe', params: 'T.LOCAL' });
      await c.next();
      const trade = { ev: 'T', sym: 'LOCAL', p: 1, s: 1, t: 1749825065000 };
      await server.streaming.publish([trade]);
      expect(await c.events(1)).toEqual([trade]);
      c.close();
    } finally {
      await server.close();
      dead.disconnect();
    }
  }, 15_000);
});
