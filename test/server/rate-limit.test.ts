import { describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';
import { productionApp } from './production-app.js';
import { useStoreAndApps } from '../helpers/app-fixture.js';

for (const engine of engines()) {
  describe(`rate limits per key, in process (${engine.name})`, () => {
    const { apps: [t] } = useStoreAndApps(
      engine,
      (store) => store.reference.upsertTickers(FIXTURE_TICKERS),
      (store) => productionApp(store, { production: { usage: false } }),
    );

    it('free: five requests a minute with X-RateLimit-* on each, then 429 with Retry-After', async () => {
      const key = await t.key('free');
      const before = Math.floor(Date.now() / 1000);
      for (let i = 0; i < 5; i++) {
        const res = await t.get('/v3/reference/tickers/AAPL', key);
        expect(res.status).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBe('5');
        expect(res.headers['x-ratelimit-remaining']).toBe(String(4 - i));
        const reset = Number(res.headers['x-ratelimit-reset']); // epoch seconds of the window's end
        expect(reset).toBeGreaterThanOrEqual(before + 59);
        expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
      }
      const res = await t.get('/v3/reference/tickers/AAPL', key);
      expect(res.status).toBe(429);
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
      const retry = Number(res.headers['retry-after']);
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      expect(res.body).toMatchObject({ ok: false, data: { status: 'ERROR', code: 'RATE_LIMITED' } });
      expect(res.body.data.error).toMatch(/exceeded the maximum of 5 requests per minute of the free plan; retry in \d+ s/);
    });

    it('counts per key: another key of the same plan is unaffected', async () => {
      const a = await t.key('free');
      const b = await t.key('free');
      for (let i = 0; i < 5; i++) await t.get('/v3/reference/tickers/AAPL', a);
      expect((await t.get('/v3/reference/tickers/AAPL', a)).status).toBe(429);
      const res = await t.get('/v3/reference/tickers/AAPL', b);
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe('4');
    });

    it('sends the headers on keyed errors too, and counts refused requests', async () => {
      const key = await t.key('free');
      const notFound = await t.get('/v3/reference/tickers/NOSUCHTICKER', key);
      expect(notFound.status).toBe(404);
      expect(notFound.headers['x-ratelimit-remaining']).toBe('4');
      const bad = await t.get('/v3/reference/tickers?limit=0', key);
      expect(bad.status).toBe(400);
      expect(bad.headers['x-ratelimit-remaining']).toBe('3');
    });

    it('sends no rate headers for unlimited plans or requests without a valid key', async () => {
      const demo = await t.key('demo');
      const res = await t.get('/v3/reference/tickers/AAPL', demo);
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      const anon = await t.get('/v3/reference/tickers/AAPL');
      expect(anon.status).toBe(401);
      expect(anon.headers['x-ratelimit-limit']).toBeUndefined();
    });
  });
}
