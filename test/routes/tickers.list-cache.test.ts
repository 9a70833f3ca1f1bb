// Pages of the ticker list kept by the response cache: a repeated page is answered without
// reading the store, with its own request id and the same next_url and ETag as the first answer;
// every parameter, the cursor and the base URL of next_url name their own page, and a write of
// tickers shows on the next request.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Store } from '../../src/store/index.js';
import type { TickerRecord } from '../../src/store/records.js';
import { TickerListIndex } from '../../src/services/ticker-list-index.js';
import { storePairs } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { settledDataVersion } from '../helpers/data-version.js';

const base = { locale: 'us' as const, market: 'stocks' as const, active: true, type: 'CS', last_updated_utc: '2024-01-02T00:00:00Z', valid_from: '2020-01-02', list_date: '2020-01-02' };
const TICKERS: TickerRecord[] = ['AAA', 'BBB', 'CCC', 'DDD', 'EEE'].map((ticker) => ({ ...base, ticker, name: `${ticker} Corp.` }));
// Filtered by type (every ticker here is CS), pages are read by the store and kept by the cache;
// without a filter, a page may be a slice of the ticker list kept in memory, which is cached only
// when small (its first answer may come from either).
const LIST = '/v3/reference/tickers?type=CS';

/** Pages of the list made anew: read from the store, or sliced from the list kept in memory. */
function spyOnListReads(store: Store) {
  const page = vi.spyOn(store.reference, 'tickerItemsPage');
  const items = vi.spyOn(store.reference, 'listTickerItems');
  const kept = vi.spyOn(TickerListIndex.prototype, 'page');
  return () => page.mock.calls.length + items.mock.calls.length + kept.mock.results.filter((r) => r.value !== undefined).length;
}

for (const engine of storePairs('listcache')) {
  describe(`ticker list pages in the response cache (${engine.name})`, () => {
    let store: Store;
    let close: () => Promise<void>;
    let t: TestApp;
    beforeAll(async () => {
      ({ store, close } = await engine.open());
      await store.reference.upsertTickers(TICKERS);
      t = await startTestApp(store, { envelope: 'native' });
    });
    afterAll(async () => {
      await t.close();
      await close();
    });
    afterEach(() => vi.restoreAllMocks());

    it('answers a repeated page without reading the store, with its own request id and the same next_url', async () => {
      await settledDataVersion(store, engine.name);
      const reads = spyOnListReads(store);
      const first = await t.get(`${LIST}&limit=2`);
      const second = await t.get(`${LIST}&limit=2`);
      expect(first.status).toBe(200);
      expect(reads()).toBe(1);
      expect(first.body.results.map((r: { ticker: string }) => r.ticker)).toEqual(['AAA', 'BBB']);
      expect(second.body.request_id).toBe(second.headers['x-request-id']);
      expect(second.body.request_id).not.toBe(first.body.request_id);
      expect({ ...second.body, request_id: 'x' }).toEqual({ ...first.body, request_id: 'x' });
      expect(second.headers['content-type']).toBe(first.headers['content-type']);
      // the next page is a request of its own, cached in turn
      const next = new URL(first.body.next_url);
      const page2 = await t.get(next.pathname + next.search);
      const again = await t.get(next.pathname + next.search);
      expect(page2.body.results.map((r: { ticker: string }) => r.ticker)).toEqual(['CCC', 'DDD']);
      expect(again.body.results).toEqual(page2.body.results);
      expect(reads()).toBe(2);
    });

    it('keys pages by every parameter', async () => {
      const other = (await store.keys.create({ plan: 'demo' })).key; // a write: made before the pages
      const tickers = async (q: string) => (await t.get(`/v3/reference/tickers?${q}`)).body.results.map((r: { ticker: string }) => r.ticker);
      expect(await tickers('limit=2')).toEqual(['AAA', 'BBB']);
      expect(await tickers('limit=3')).toEqual(['AAA', 'BBB', 'CCC']);
      expect(await tickers('limit=2&order=desc')).toEqual(['EEE', 'DDD']);
      expect(await tickers('limit=2&ticker.gte=CCC')).toEqual(['CCC', 'DDD']);
      // the key is not part of the answer: another key's request is the same page
      await settledDataVersion(store, engine.name);
      expect(await tickers('limit=2')).toEqual(['AAA', 'BBB']);
      const reads = spyOnListReads(store);
      const res = await t.get('/v3/reference/tickers?limit=2', { 'x-api-key': other });
      expect(res.body.results.map((r: { ticker: string }) => r.ticker)).toEqual(['AAA', 'BBB']);
      expect(reads()).toBe(0);
    });

    it('shows tickers written through the server on the next request', async () => {
      expect((await t.get('/v3/reference/tickers?limit=10')).body.count).toBe(5);
      await store.reference.upsertTickers([{ ...base, ticker: 'ABC', name: 'Newly Listed' }]);
      const after = await t.get('/v3/reference/tickers?limit=10');
      expect(after.body.count).toBe(6);
      expect(after.body.results[1]).toMatchObject({ ticker: 'ABC', name: 'Newly Listed' });
    });

    it('keeps a small page sliced from the kept list, as any other', async () => {
      await settledDataVersion(store, engine.name);
      await t.get('/v3/reference/tickers?limit=3&ticker.gte=A'); // the list is read on its first use
      await t.app.ctx.services.tickers.listIndex.settled();
      const reads = spyOnListReads(store);
      const first = await t.get('/v3/reference/tickers?limit=2&ticker.gte=B');
      expect(reads()).toBe(1); // a slice of the kept list
      const second = await t.get('/v3/reference/tickers?limit=2&ticker.gte=B');
      expect(reads()).toBe(1); // the cache's
      expect(second.body.results.map((r: { ticker: string }) => r.ticker)).toEqual(['BBB', 'CCC']);
      expect({ ...second.body, request_id: 'x' }).toEqual({ ...first.body, request_id: 'x' });
    });

    it('gives a cached page the ETag of its first answer, and 304 to a client holding it', async () => {
      await settledDataVersion(store, engine.name);
      const first = await t.get(`${LIST}&limit=4`);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^W\/"/);
      const reads = spyOnListReads(store);
      const hit = await t.get(`${LIST}&limit=4`);
      expect(hit.headers.etag).toBe(etag);
      expect((await t.get(`${LIST}&limit=4`, { 'if-none-match': etag })).status).toBe(304);
      expect(reads()).toBe(0);
    });

    it('sends cached pages gzipped to clients that take gzip among other encodings, each with its own request id', async () => {
      await store.reference.upsertTickers(['MMA', 'MMB', 'MMC', 'MMD', 'MME', 'MMF'].map((ticker) => ({ ...base, ticker, name: `${ticker} Manufacturing and Mining Holdings Corp.` })));
      const url = `${LIST}&limit=10`;
      const plain = await t.get(url);
      expect(Buffer.byteLength(JSON.stringify(plain.body))).toBeGreaterThan(1024); // over the compression threshold
      for (const accept of ['gzip', 'gzip, deflate, br', 'br;q=1, gzip;q=1']) {
        for (let i = 0; i < 2; i++) {
          const res = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.key, 'accept-encoding': accept } });
          expect(res.headers['content-encoding']).toBe('gzip');
          expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
          const body = JSON.parse(gunzipSync(res.rawPayload).toString('utf8'));
          expect(body.request_id).toBe(res.headers['x-request-id']);
          expect({ ...body, request_id: 'x' }).toEqual({ ...plain.body, request_id: 'x' });
        }
      }
      // a client that prefers brotli, or takes nothing else, still gets it
      for (const accept of ['br', 'br;q=1, gzip;q=0.5']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.key, 'accept-encoding': accept } });
        expect(res.headers['content-encoding']).toBe('br');
        expect({ ...JSON.parse(brotliDecompressSync(res.rawPayload).toString('utf8')), request_id: 'x' }).toEqual({ ...plain.body, request_id: 'x' });
      }
    });

    it('builds next_url on the base of each request behind a proxy', async () => {
      const app = await buildApp({ store, config: { envelope: 'native', trustProxy: true }, production: { usage: false } });
      try {
        const key = (await store.keys.create({ plan: 'demo' })).key;
        const nextUrl = async (host: string) => {
          const res = await app.inject({ method: 'GET', url: '/v3/reference/tickers?limit=2', headers: { 'x-api-key': key, 'x-forwarded-proto': 'https', 'x-forwarded-host': host } });
          return new URL(JSON.parse(res.body).next_url).host;
        };
        expect(await nextUrl('a.example')).toBe('a.example');
        expect(await nextUrl('b.example')).toBe('b.example');
        expect(await nextUrl('a.example')).toBe('a.example');
      } finally {
        await app.close();
      }
    });
  });
}
