import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { bulkTickers, FIXTURE_TICKERS } from '../helpers/reference-fixture.js';
import { productionApp } from './production-app.js';
import { addWindowRoutes } from './window-routes.js';
import { useStoreAndApps } from '../helpers/app-fixture.js';

for (const engine of engines()) {
  describe(`HTTP hardening (${engine.name})`, () => {
    const { apps: [t, cors] } = useStoreAndApps(
      engine,
      (store) => store.reference.upsertTickers([...FIXTURE_TICKERS, ...bulkTickers(300)]),
      async (store) => {
        const started = await productionApp(store, { production: { usage: false } });
        addWindowRoutes(started.app, { bars: [{ t: 1_700_000_000_000, c: 1 }], ticks: [], values: [] });
        return started;
      },
      (store) => productionApp(store, { production: { usage: false, hardening: { corsOrigin: ['https://app.example.com'] } } }),
    );
    let key: string;
    beforeAll(async () => {
      key = await t.key('demo');
    });

    it('compresses large bodies with brotli or gzip as the client asks, and leaves small ones alone', async () => {
      const url = '/v3/reference/tickers?limit=300';
      const plain = await t.app.inject({ url, headers: { 'x-api-key': key } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      // (a client taking both alike may get gzip: cached answers are kept gzipped)
      const br = await t.app.inject({ url, headers: { 'x-api-key': key, 'accept-encoding': 'br;q=1, gzip;q=0.8' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
      expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString()).data.count).toBe(300);
      const gz = await t.app.inject({ url, headers: { 'x-api-key': key, 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(gz.rawPayload).toString()).data.count).toBe(300);
      const small = await t.app.inject({ url: '/health', headers: { 'accept-encoding': 'gzip' } });
      expect(small.headers['content-encoding']).toBeUndefined();
    });

    it('reference data carries an ETag that ignores request_id, Cache-Control, and a 304 on If-None-Match', async () => {
      const a = await t.get('/v3/reference/tickers/AAPL', key);
      const b = await t.get('/v3/reference/tickers/AAPL', key);
      expect(a.body.data.request_id).not.toBe(b.body.data.request_id);
      expect(a.headers.etag).toMatch(/^W\/"[\w-]+"$/);
      expect(b.headers.etag).toBe(a.headers.etag);
      expect(a.headers['cache-control']).toBe('private, max-age=300');
      expect((await t.get('/v3/reference/tickers/MSFT', key)).headers.etag).not.toBe(a.headers.etag);
      const again = await t.app.inject({ url: '/v3/reference/tickers/AAPL', headers: { 'x-api-key': key, 'if-none-match': String(a.headers.etag) } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      const changed = await t.app.inject({ url: '/v3/reference/tickers/AAPL', headers: { 'x-api-key': key, 'if-none-match': '"stale"' } });
      expect(changed.statusCode).toBe(200);
    });

    it('no ETag on market data or errors', async () => {
      expect((await t.get('/test/bars/AAPL/2023-01-01/2023-12-31', key)).headers.etag).toBeUndefined();
      expect((await t.get('/v3/reference/tickers/NOPE', key)).headers.etag).toBeUndefined();
    });

    it('security headers on answers and errors alike; no CSP on the docs page', async () => {
      for (const res of [await t.get('/v3/reference/tickers/AAPL', key), await t.get('/v3/reference/tickers/AAPL'), await t.get('/nope')]) {
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['x-frame-options']).toBe('DENY');
        expect(res.headers['referrer-policy']).toBe('no-referrer');
        expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      }
      const docs = await t.app.inject({ url: '/docs/' });
      expect(docs.statusCode).toBe(200);
      expect(docs.headers['content-type']).toMatch(/^text\/html/);
      expect(docs.body).toContain('swagger');
      expect(docs.headers['content-security-policy']).toBeUndefined();
      const spec = await t.app.inject({ url: '/docs/json' });
      expect(spec.statusCode).toBe(200);
      expect(Object.keys(spec.json().paths)).toContain('/v3/reference/tickers/{ticker}');
    });

    it('CORS is off by default and, when configured, allows only the listed origins and exposes the rate headers', async () => {
      const origin = 'https://app.example.com';
      const off = await t.app.inject({ url: '/v3/reference/tickers/AAPL', headers: { 'x-api-key': key, origin } });
      expect(off.headers['access-control-allow-origin']).toBeUndefined();
      const on = await cors.app.inject({ url: '/v3/reference/tickers/AAPL', headers: { 'x-api-key': key, origin } });
      expect(on.headers['access-control-allow-origin']).toBe(origin);
      expect(String(on.headers['access-control-expose-headers'])).toContain('X-RateLimit-Remaining');
      const other = await cors.app.inject({ url: '/v3/reference/tickers/AAPL', headers: { 'x-api-key': key, origin: 'https://evil.example' } });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await cors.app.inject({
        method: 'OPTIONS',
        url: '/v3/reference/tickers/AAPL',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
      });
      expect(preflight.statusCode).toBe(204);
      expect(String(preflight.headers['access-control-allow-headers'])).toContain('X-API-Key');
    });

    it('answers malformed input the router or the validator would let through with a 400 naming the parameter', async () => {
      const infinite = await t.get('/v3/reference/tickers?limit=1e400', key);
      expect(infinite.status).toBe(400);
      expect(infinite.body.data.error).toBe('limit must be an integer from 1 to 1000');
      const badPercent = await t.get('/v3/reference/tickers/%E0%A4%A', key);
      expect(badPercent.status).toBe(400);
      expect(badPercent.body).toMatchObject({ ok: false, data: { code: 'BAD_PARAMETER', error: 'ticker must be valid percent-encoded UTF-8' } });
      expect(badPercent.body.data.request_id).toBe(badPercent.headers['x-request-id']);
      const long = await t.get(`/v3/reference/tickers/${'A'.repeat(5000)}`, key);
      expect(long.status).toBe(400);
      expect(long.body.data.error).toMatch(/^ticker /);
    });

    it('refuses oversized request headers with 431', async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (t.app.server.address() as AddressInfo).port;
      const status = await new Promise<number>((resolve, reject) => {
        const req = request({ port, host: '127.0.0.1', path: '/health', headers: { 'x-big': 'a'.repeat(20_000) } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(431);
    });
  });
}
