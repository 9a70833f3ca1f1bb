import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { connectRedis, createRateLimiter, type FailMode } from '../../src/server/rate-limit.js';
import { openStore, type Store } from '../../src/store/index.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';

// /ready tells a load balancer whether to send this process traffic. Redis only holds the shared
// rate-limit counters: with rate limiting failing open the server serves without it, so /ready
// must stay 200 (naming Redis as degraded), or a Redis outage would pull every healthy server.

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.log('Readiness tests with Redis skipped: REDIS_URL is not set (CI sets it).');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const failMode of ['open', 'closed'] as FailMode[]) {
  describe.skipIf(!REDIS_URL)(`/ready while Redis is down, rate limits failing ${failMode}`, () => {
    let proxy: FaultProxy;
    let redis: Redis;
    let store: Store;
    let app: Awaited<ReturnType<typeof buildApp>>;

    beforeAll(async () => {
      const u = new URL(REDIS_URL!);
      proxy = await new FaultProxy(u.hostname, Number(u.port || 6379)).start();
      redis = await connectRedis(proxy.url(REDIS_URL!));
      for (let i = 0; i < 100 && redis.status !== 'ready'; i++) await sleep(50);
      store = await openStore({ sqliteFile: ':memory:' });
      await store.reference.upsertTickers(FIXTURE_TICKERS);
      // the limiter the serve command builds from --redis-url and --rate-limit-fail
      app = await buildApp({ store, config: { envelope: 'wrapped' }, production: { redis, rateLimiter: createRateLimiter({ redis, failMode }), usage: false } });
    });
    afterAll(async () => {
      await app?.close();
      redis?.disconnect();
      await store?.close();
      await proxy?.stop();
    });

    it(failMode === 'open' ? 'stays 200 and names Redis as degraded' : 'is 503 naming Redis', async () => {
      const before = await app.inject('/ready');
      expect(before.statusCode).toBe(200);
      expect(before.json().data).toMatchObject({ status: 'OK', checks: { store: 'ok', redis: 'ok' } });
      expect(before.json().data.degraded).toBeUndefined();

      proxy.reset();
      const during = await app.inject('/ready');
      const body = during.json().data;
      expect(body.checks.store).toBe('ok');
      expect(body.checks.redis).toMatch(/^unreachable/);
      if (failMode === 'open') {
        expect(during.statusCode).toBe(200);
        expect(body.status).toBe('DEGRADED');
        expect(body.degraded).toEqual(['Redis is unreachable: rate limits hold per process until it returns']);
      } else {
        expect(during.statusCode).toBe(503);
        expect(body.error).toBe('Not ready: Redis is unreachable');
      }

      proxy.pass();
      const readyAgain = async () => (await app.inject('/ready')).json().data.status === 'OK';
      for (let i = 0; i < 150 && !(await readyAgain()); i++) await sleep(100);
      expect(await readyAgain()).toBe(true);
    });
  });
}
