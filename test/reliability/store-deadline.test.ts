import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { connectRedis, RedisRateLimiter, type FailMode } from '../../src/server/rate-limit.js';
import { openStore, type Store } from '../../src/store/index.js';
import { PostgresDriver } from '../../src/store/postgres/driver.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';

// A dependency that is reachable but silent (a partition, a hung server) must not hang a
// request: the store call hits its deadline and the client gets 503 STORE_UNAVAILABLE with
// Retry-After, and the server serves again as soon as the database answers, without a restart.
// The faults are real TCP behaviour from a proxy in front of the real PostgreSQL and Redis.

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
if (!DATABASE_URL) console.log('PostgreSQL fault tests skipped: DATABASE_URL is not set (CI sets it).');
if (!REDIS_URL) console.log('Redis fault tests skipped: REDIS_URL is not set (CI sets it).');

const DEADLINE_MS = 800;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

type App = Awaited<ReturnType<typeof buildApp>>;

async function get(app: App, url: string, key?: string) {
  const res = await app.inject({ method: 'GET', url, headers: key ? { 'x-api-key': key } : {} });
  return { status: res.statusCode, headers: res.headers, body: res.json() as { ok: boolean; data: Record<string, unknown> } };
}

function target(url: string): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port || (u.protocol.startsWith('redis') ? 6379 : 5432)) };
}

describe.skipIf(!DATABASE_URL)('PostgreSQL reachable but silent', () => {
  const schema = `tb_silent_${randomBytes(5).toString('hex')}`;
  let proxy: FaultProxy;
  let store: Store;
  let app: App;
  let key: string;

  beforeAll(async () => {
    const t = target(DATABASE_URL!);
    proxy = await new FaultProxy(t.host, t.port).start();
    // The schema is created and filled without the short deadline: on a loaded machine its
    // migrations can take longer than DEADLINE_MS, which is not what these tests are about.
    const setup = await openStore({ databaseUrl: DATABASE_URL!, schema });
    await setup.reference.upsertTickers(FIXTURE_TICKERS);
    await setup.close();
    store = await openStore({
      databaseUrl: proxy.url(DATABASE_URL!),
      schema,
      poolSize: 3,
      deadlines: { statementTimeoutMs: DEADLINE_MS, connectTimeoutMs: DEADLINE_MS },
    });
    app = await buildApp({ store, config: { envelope: 'wrapped', responseCacheEntries: 0 }, production: { usage: false } });
    key = (await store.keys.create({ plan: 'demo' })).key;
  });
  afterEach(() => proxy.pass());
  afterAll(async () => {
    proxy?.pass();
    await app?.close();
    await store?.close();
    await proxy?.stop();
    const admin = PostgresDriver.open(DATABASE_URL!, { max: 1 });
    await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => admin.close());
  });

  it('answers 503 STORE_UNAVAILABLE with Retry-After instead of hanging, then serves again without a restart', async () => {
    expect((await get(app, '/v3/reference/tickers/AAPL', key)).status).toBe(200);

    proxy.blackhole();
    const during = await get(app, '/v3/reference/tickers/MSFT', key);
    expect(during.status).toBe(503);
    expect(during.body.data).toMatchObject({ code: 'STORE_UNAVAILABLE', error: 'The data store is unavailable; try again shortly' });
    expect(Number(during.headers['retry-after'])).toBeGreaterThan(0);
    // the outage is known now: the next calls fail at once instead of each waiting out the deadline
    await expect(store.ping()).rejects.toThrow(/failing fast/);
    // several at once: none waits on another's stuck connection forever
    const many = await Promise.all(['AAPL', 'SPY', 'MSFT', 'AAPW', 'GONE'].map((s) => get(app, `/v3/reference/tickers/${s}`, key)));
    expect(many.map((r) => r.status)).toEqual([503, 503, 503, 503, 503]);

    const ready = await get(app, '/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.data.error).toBe('Not ready: store (postgres) is unreachable');

    proxy.pass();
    await until(async () => (await get(app, '/v3/reference/tickers/SPY', key)).status === 200, 'serving again');
    expect((await get(app, '/ready')).status).toBe(200);
    expect((await get(app, '/v3/reference/tickers?limit=3', key)).body.data.results).toHaveLength(3);
  });

  it('answers 503 at once when connections are reset, then serves again', async () => {
    proxy.reset();
    const during = await get(app, '/v3/reference/tickers/AAPL.WS', key);
    expect(during.status).toBe(503);
    expect(during.body.data.code).toBe('STORE_UNAVAILABLE');
    proxy.pass();
    await until(async () => (await get(app, '/v3/reference/tickers/BRK.A', key)).status === 200, 'serving again');
  });

  it('still answers when the database is slow but within the deadline', async () => {
    proxy.delay(DEADLINE_MS / 8);
    const slow = await get(app, '/v3/reference/tickers/ZZRN', key);
    expect(slow.status).toBe(200);
    expect(slow.body.data.results).toMatchObject({ ticker: 'ZZRN' });
  });

  it('a transaction cut by the deadline does not leave a stuck connection in the pool', async () => {
    proxy.blackhole();
    await expect(store.transaction(async (tx) => tx.ping())).rejects.toThrow(/PostgreSQL/);
    proxy.pass();
    // every pooled connection is usable again: as many transactions at once as the pool holds
    await until(async () => {
      const ok = await Promise.all([1, 2, 3].map(() => store.transaction((tx) => tx.ping()).then(() => true, () => false)));
      return ok.every(Boolean);
    }, 'the pool to heal');
  });
});

for (const failMode of ['open', 'closed'] as FailMode[]) {
  describe.skipIf(!REDIS_URL)(`Redis reachable but silent (rate limits fail ${failMode})`, () => {
    let proxy: FaultProxy;
    let redis: Redis;
    let store: Store;
    let app: App;
    let key: string;

    beforeAll(async () => {
      const t = target(REDIS_URL!);
      proxy = await new FaultProxy(t.host, t.port).start();
      redis = await connectRedis(proxy.url(REDIS_URL!), undefined, { commandTimeoutMs: 300 });
      await until(async () => redis.status === 'ready', 'redis ready');
      store = await openStore({ sqliteFile: ':memory:' });
      await store.reference.upsertTickers(FIXTURE_TICKERS);
      app = await buildApp({
        store,
        config: { envelope: 'wrapped', responseCacheEntries: 0 },
        production: { redis, rateLimiter: new RedisRateLimiter(redis, failMode), rateLimitFail: failMode, usage: false },
      });
      key = (await store.keys.create({ plan: 'free' })).key;
    });
    afterAll(async () => {
      proxy?.pass();
      await app?.close();
      redis?.disconnect();
      await store?.close();
      await proxy?.stop();
    });

    it(failMode === 'open' ? 'keeps serving on per-process limits, without waiting on Redis' : 'answers 503 DEPENDENCY_UNAVAILABLE instead of hanging', async () => {
      expect((await get(app, '/v3/reference/tickers/AAPL', key)).status).toBe(200);
      proxy.blackhole();
      const during = await get(app, '/v3/reference/tickers/MSFT', key);
      if (failMode === 'open') {
        expect(during.status).toBe(200);
        expect(during.headers['x-ratelimit-limit']).toBe('5');
      } else {
        expect(during.status).toBe(503);
        expect(during.body.data.code).toBe('DEPENDENCY_UNAVAILABLE');
      }
    });

    const answering = async () => redis.status === 'ready' && (await redis.ping().then(() => true, () => false));

    it('reconnects by itself once Redis answers again (the silent connection is dropped)', async () => {
      proxy.pass();
      await until(answering, 'redis answering again');
      const fresh = (await store.keys.create({ plan: 'free' })).key;
      const res = await get(app, '/v3/reference/tickers/AAPW', fresh);
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe('4');
      expect(await redis.keys('tb:rl:free:*')).not.toHaveLength(0);
    });

    it('a Redis slower than its command timeout counts as down; one within it is used', async () => {
      proxy.delay(600);
      const slow = await get(app, '/v3/reference/tickers/SPY', key);
      expect(slow.status).toBe(failMode === 'open' ? 200 : 503);
      proxy.pass();
      await until(answering, 'redis answering');
      proxy.delay(50);
      const fresh = (await store.keys.create({ plan: 'free' })).key;
      expect((await get(app, '/v3/reference/tickers/SPY', fresh)).status).toBe(200);
      proxy.pass();
      expect(await redis.keys('tb:rl:free:*')).not.toHaveLength(0); // counted in Redis
    });
  });
}
