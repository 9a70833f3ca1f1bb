import { connect } from 'node:net';
import { restClient } from '@massive.com/client-js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { nyMidnight, nyTime } from '../../src/domain/calendar.js';
import type { ServerContext } from '../../src/server/context.js';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { aaplAdjusted, FIXTURE_NOW, seedMarket } from '../helpers/market-fixture.js';

// The REST API at the root (in the configured envelope) and under two fixed prefixes at once:
// /upstream answers in upstream's bare bodies, so the official clients work on a server started
// with the defaults; /envelope answers in {ok, data}. Errors, next_url, cached answers, rate
// limits and usage follow the prefix a request was made under.

type App = FastifyInstance & { ctx: ServerContext };

async function get(app: App, url: string, key?: string, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'GET', url, headers: { ...(key ? { 'x-api-key': key } : {}), ...headers } });
  return { status: res.statusCode, body: res.body === '' ? undefined : res.json(), headers: res.headers };
}

/** The request's raw answer over a socket (for errors Node's parser raises before Fastify). */
function rawRequest(base: string, text: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(text));
    let out = '';
    socket.on('data', (d) => (out += d.toString()));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

for (const engine of engines()) {
  describe(`the API under /upstream and /envelope beside the root (${engine.name})`, () => {
    let store: Store;
    let app: App; // the defaults: {ok, data} at the root
    let nativeApp: App; // --envelope native at the root
    let base: string;
    let key: string;
    let keyId: string;

    beforeAll(async () => {
      store = await engine.open();
      await seedMarket(store);
      ({ key, record: { id: keyId } } = await store.keys.create({ plan: 'demo' }));
      app = await buildApp({ store, config: { envelope: 'wrapped' }, now: () => FIXTURE_NOW });
      nativeApp = await buildApp({ store, config: { envelope: 'native' }, now: () => FIXTURE_NOW, production: { usage: false } });
      base = await app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await app?.close();
      await nativeApp?.close();
      await store?.close();
    });

    it('the official JS client on <server>/upstream of a default server gets aggregates, tickers and every page of a paged call', async () => {
      const rest = restClient(key, `${base}/upstream`);
      const aggs = await rest.getStocksAggregates({ stocksTicker: 'AAPL', multiplier: 1, timespan: 'day' as never, from: '2024-03-07', to: '2024-03-12' });
      expect(aggs).toMatchObject({ ticker: 'AAPL', status: 'OK', resultsCount: 4 });
      expect(aggs.results?.[0]).toMatchObject({ ...aaplAdjusted(8), t: nyMidnight('2024-03-07') });
      const tickers = await rest.listTickers({ market: 'stocks' as never, limit: 3 });
      expect(tickers.results?.map((t) => t.ticker)).toEqual(['AAPL', 'AAPL.WS', 'AAPW']);
      expect(tickers.next_url?.startsWith(`${base}/upstream/v3/reference/tickers?cursor=`)).toBe(true);
      const aapl = await rest.getTicker({ ticker: 'AAPL' });
      expect(aapl.results).toMatchObject({ ticker: 'AAPL', name: 'Apple Inc.' });

      // limit 100 minute bars a page: 32 hourly bars over several pages, joined by the client
      const paged = await restClient(key, `${base}/upstream`, { pagination: true }).getStocksAggregates({ stocksTicker: 'AAPL', multiplier: 1, timespan: 'hour' as never, from: '2024-03-08', to: '2024-03-11', limit: 100, adjusted: false });
      const hours = [...(paged.results ?? [])].sort((a, b) => a.t - b.t);
      expect(hours).toHaveLength(32);
      expect(hours[0]).toMatchObject({ t: nyTime('2024-03-08', '04:00'), o: 1000 });

      // the same client on the root of a default server finds no data in {ok, data}
      const wrapped = await restClient(key, base).getStocksAggregates({ stocksTicker: 'AAPL', multiplier: 1, timespan: 'day' as never, from: '2024-03-07', to: '2024-03-12' });
      expect(wrapped.results).toBeUndefined();
    });

    it('each prefix answers in its own form whatever the root is configured with', async () => {
      for (const a of [app, nativeApp]) {
        const up = await get(a, '/upstream/v3/reference/tickers/AAPL', key);
        expect(up.status).toBe(200);
        expect(up.body).toMatchObject({ status: 'OK', results: { ticker: 'AAPL' } });
        expect(up.body.ok).toBeUndefined();
        const env = await get(a, '/envelope/v3/reference/tickers/AAPL', key);
        expect(env.status).toBe(200);
        expect(env.body).toMatchObject({ ok: true, data: { status: 'OK', results: { ticker: 'AAPL' } } });
      }
      expect((await get(app, '/v3/reference/tickers/AAPL', key)).body.ok).toBe(true);
      expect((await get(nativeApp, '/v3/reference/tickers/AAPL', key)).body.ok).toBeUndefined();
    });

    it('errors under each prefix come in its form: 400, 401, 403, 404, 405, an undecodable path', async () => {
      const { key: free } = await store.keys.create({ plan: 'free' });
      const cases: [string, string | undefined, number, string][] = [
        ['/v3/reference/tickers?limit=abc', key, 400, 'BAD_PARAMETER'],
        ['/v3/reference/tickers/AAPL', undefined, 401, 'MISSING_KEY'],
        ['/v3/trades/AAPL', free, 403, 'NOT_AUTHORIZED'],
        ['/v3/reference/tickers/NOSUCH', key, 404, 'NOT_FOUND'],
        ['/v9/no/such/endpoint', key, 404, 'ROUTE_NOT_FOUND'],
        ['/v2/aggs/ticker/%E0%A4%A/range/1/day/2024-01-01/2024-01-02', key, 400, 'BAD_PARAMETER'],
      ];
      for (const a of [app, nativeApp]) {
        for (const [path, k, status, code] of cases) {
          const up = await get(a, `/upstream${path}`, k);
          expect([path, up.status]).toEqual([path, status]);
          expect(up.body.ok).toBeUndefined();
          expect(up.body.status === code || up.body.code === code).toBe(true);
          const env = await get(a, `/envelope${path}`, k);
          expect([path, env.status]).toEqual([path, status]);
          expect(env.body.ok).toBe(false);
          expect(env.body.data.status === code || env.body.data.code === code).toBe(true);
        }
        const post = await a.inject({ method: 'POST', url: '/upstream/v3/reference/tickers', headers: { 'x-api-key': key } });
        expect(post.statusCode).toBe(405);
        expect(post.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
        expect((await a.inject({ method: 'POST', url: '/envelope/v3/reference/tickers' })).json()).toMatchObject({ ok: false, data: { code: 'METHOD_NOT_ALLOWED' } });
        // the bare prefix and an unknown path under it
        expect((await get(a, '/upstream', key)).body).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
        expect((await get(a, '/envelope/', key)).body).toMatchObject({ ok: false, data: { code: 'ROUTE_NOT_FOUND' } });
      }
    });

    it("a request line and headers too large for Node's parser: 431 in the prefix's form", async () => {
      const big = 'x'.repeat(20_000);
      for (const [prefix, wrapped] of [['/upstream', false], ['/envelope', true]] as const) {
        const raw = await rawRequest(base, `GET ${prefix}/v3/reference/tickers HTTP/1.1\r\nHost: localhost\r\nX-Big: ${big}\r\n\r\n`);
        expect(raw.startsWith('HTTP/1.1 431')).toBe(true);
        const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
        expect(wrapped ? body.data.code : body.code).toBe('HEADERS_TOO_LARGE');
      }
    });

    it('next_url keeps the prefix, never holds the key, and leads to the next page in the same form', async () => {
      for (const [prefix, wrapped] of [['/upstream', false], ['/envelope', true]] as const) {
        const first = await get(app, `${prefix}/v3/reference/tickers?market=stocks&limit=2&apiKey=${key}`);
        const page = wrapped ? first.body.data : first.body;
        expect(page.results.map((t: { ticker: string }) => t.ticker)).toEqual(['AAPL', 'AAPL.WS']);
        expect(page.next_url.startsWith(`http://localhost${prefix}/v3/reference/tickers?cursor=`)).toBe(true);
        expect(page.next_url).not.toContain(key);
        const next = new URL(page.next_url);
        const second = await get(app, next.pathname + next.search, key);
        expect(second.status).toBe(200);
        expect(wrapped ? second.body.data.results[0].ticker : second.body.results[0].ticker).toBe('AAPW');
        expect(second.body.ok).toBe(wrapped ? true : undefined);
        // aggregates write their next_url from the path of the next range
        const aggs = await get(app, `${prefix}/v2/aggs/ticker/AAPL/range/1/minute/2024-03-08/2024-03-11?limit=10&adjusted=false`, key);
        const link = (wrapped ? aggs.body.data : aggs.body).next_url as string;
        expect(link.startsWith(`http://localhost${prefix}/v2/aggs/ticker/AAPL/range/1/minute/`)).toBe(true);
      }
      // the root keeps its links unprefixed
      const root = await get(app, '/v3/reference/tickers?market=stocks&limit=2', key);
      expect(root.body.data.next_url.startsWith('http://localhost/v3/reference/tickers?cursor=')).toBe(true);
    });

    it('cached answers and their ETags are kept per form', async () => {
      const url = '/v3/reference/tickers/MSFT';
      const up1 = await get(app, `/upstream${url}`, key);
      const env1 = await get(app, `/envelope${url}`, key);
      const root1 = await get(app, url, key);
      const up2 = await get(app, `/upstream${url}`, key);
      const env2 = await get(app, `/envelope${url}`, key);
      expect(up1.body.ok).toBeUndefined();
      expect(up2.body.ok).toBeUndefined();
      expect(up2.body.results).toEqual(up1.body.results);
      expect(env1.body.ok).toBe(true);
      expect(env2.body.ok).toBe(true);
      expect(root1.body.ok).toBe(true);
      expect(up2.headers.etag).toBe(up1.headers.etag);
      expect(env2.headers.etag).toBe(env1.headers.etag);
      expect(up1.headers.etag).not.toBe(env1.headers.etag);
      // an ETag of one form does not answer 304 for the other
      expect((await get(app, `/envelope${url}`, key, { 'if-none-match': String(up1.headers.etag) })).status).toBe(200);
      expect((await get(app, `/upstream${url}`, key, { 'if-none-match': String(up1.headers.etag) })).status).toBe(304);
    });

    it('rate limits count a key once across the bases, and usage is counted per endpoint whatever the base', async () => {
      const { key: free } = await store.keys.create({ plan: 'free' });
      const paths = ['/v3/reference/tickers/AAPL', '/upstream/v3/reference/tickers/AAPL', '/envelope/v3/reference/tickers/AAPL', '/upstream/v3/reference/tickers/MSFT', '/v3/reference/tickers/MSFT'];
      for (const [i, p] of paths.entries()) {
        const res = await get(app, p, free);
        expect(res.status).toBe(200);
        expect(res.headers['x-ratelimit-remaining']).toBe(String(4 - i));
      }
      const refused = await get(app, '/upstream/v3/reference/tickers/AAPL', free);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ status: 'ERROR', code: 'RATE_LIMITED' });

      const before = await store.usage.forKey(keyId);
      const count = (rows: { family: string; requests: number }[]) => rows.find((r) => r.family === '/v2/aggs/ticker/:ticker/prev')?.requests ?? 0;
      for (const p of ['/v2/aggs/ticker/AAPL/prev', '/upstream/v2/aggs/ticker/AAPL/prev', '/envelope/v2/aggs/ticker/AAPL/prev']) expect((await get(app, p, key)).status).toBe(200);
      await app.production!.usage!.flush();
      const after = await store.usage.forKey(keyId);
      expect(count(after) - count(before)).toBe(3);
      expect(after.every((r) => !r.family.startsWith('/upstream') && !r.family.startsWith('/envelope'))).toBe(true);
    });

    it('the OpenAPI document has one entry per upstream path and none under the prefixes', async () => {
      const doc = (await get(app, '/openapi.json')).body as { paths: Record<string, unknown> };
      const paths = Object.keys(doc.paths);
      expect(paths).toContain('/v3/reference/tickers/{ticker}');
      expect(paths.filter((p) => p.startsWith('/upstream') || p.startsWith('/envelope'))).toEqual([]);
    });
  });
}
