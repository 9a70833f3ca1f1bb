// Large answers go out as their pieces instead of one copy per request: a cached answer (the
// bytes before the request id, the id, the bytes after it), a page of the ticker list sliced from
// the list kept in memory (the text around the items, and the slice), and a page of minute bars
// sliced from the days kept in memory (the text around, and a slice per day), which the response
// cache keeps as the same pieces, without a copy. Over a real socket, a
// client must get what the store's answer gives: a Content-Length (no chunked encoding), its own
// request id, the same ETag and 304, the same bytes behind every Content-Encoding, and a HEAD
// without a body.
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BodyPieces } from '../../src/server/body-pieces.js';
import { CachedBodyStream, PIECES_FROM_BYTES } from '../../src/server/response-cache.js';
import type { BarRow } from '../../src/domain/market-records.js';
import type { Store } from '../../src/store/index.js';
import type { TickerRecord } from '../../src/store/records.js';
import { engines } from '../helpers/engines.js';
import { rawGet } from '../helpers/raw-get.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { settledDataVersion } from '../helpers/data-version.js';

const base = { locale: 'us' as const, market: 'stocks' as const, active: true, type: 'CS', last_updated_utc: '2024-01-02T00:00:00Z', valid_from: '2020-01-02', list_date: '2020-01-02' };
// 600 tickers: a page of all of them is well over PIECES_FROM_BYTES
const TICKERS: TickerRecord[] = Array.from({ length: 600 }, (_, i) => ({ ...base, ticker: `T${String(i).padStart(4, '0')}`, name: `Ticker number ${i} Holdings — Société Anonyme`, cik: String(1_000_000 + i) }));
// all 600 either way: filtered by type, the store reads the page (and the cache keeps it); sorted
// by ticker with no filter, the page is a slice of the kept list
const CACHED_PAGE = '/v3/reference/tickers?limit=1000&type=CS';
const KEPT_PAGE = '/v3/reference/tickers?limit=1000';
// 3 days of 600 minute bars (~180 KB): ascending, slices of the kept days; descending, read by the store
const BARS_PAGE = '/v2/aggs/ticker/BARS/range/1/minute/2024-03-04/2024-03-08?limit=50000';
const BARS: BarRow[] = Array.from({ length: 1800 }, (_, i) => {
  const t = Date.UTC(2024, 2, 4 + Math.floor(i / 600), 8) + (i % 600) * 60_000;
  return { ticker: 'BARS', t, o: 10 + i / 7, h: 11 + i / 3, l: 9 - i / 11, c: 10.5 + i / 13, v: 100 + i, vw: 10.25 + i / 17, n: 1 + i };
});

const get = rawGet;

const withoutId = (text: string) => ({ ...JSON.parse(text), request_id: 'x' });

for (const engine of engines()) {
  describe(`large answers sent as pieces (${engine.name})`, () => {
    let store: Store;
    let t: TestApp;
    let url: string;
    let key: Record<string, string>;
    beforeAll(async () => {
      store = await engine.open();
      await store.reference.upsertTickers(TICKERS);
      await store.market.insertBars('minute', BARS);
      t = await startTestApp(store, { envelope: 'native' });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      key = { 'x-api-key': t.key };
      // the full path's pieces are under test here: repeats would otherwise be answered before
      // it (cached-hits.test.ts covers that path)
      t.app.ctx.hits?.close();
    });
    afterAll(async () => {
      await t.close();
      await store.close();
    });
    afterEach(() => vi.restoreAllMocks());

    it('answers a cached repeat with a Content-Length, its own request id and the first answer otherwise', async () => {
      await settledDataVersion(store, engine.name);
      const first = await get(url + CACHED_PAGE, key);
      expect(first.status).toBe(200);
      expect(first.body.length).toBeGreaterThan(PIECES_FROM_BYTES);
      const pieces = vi.spyOn(CachedBodyStream.prototype, '_read');
      const reads = vi.spyOn(store.reference, 'tickerItemsPage');
      const second = await get(url + CACHED_PAGE, key);
      expect(reads).not.toHaveBeenCalled();
      expect(pieces).toHaveBeenCalled(); // this answer took the path under test (read a piece at a time as the socket drains)
      expect(second.status).toBe(200);
      expect(second.headers['transfer-encoding']).toBeUndefined();
      expect(Number(second.headers['content-length'])).toBe(second.body.length);
      expect(second.headers['content-type']).toBe(first.headers['content-type']);
      expect(second.headers.etag).toBe(first.headers.etag);
      const body = JSON.parse(second.body.toString());
      expect(body.request_id).toBe(second.headers['x-request-id']);
      expect(body.request_id).not.toBe(JSON.parse(first.body.toString()).request_id);
      expect(body.results).toHaveLength(600);
      expect(withoutId(second.body.toString())).toEqual(withoutId(first.body.toString()));
    });

    it('answers a page of the kept list from the list, as pieces with a Content-Length, and keeps the pieces for its repeat', async () => {
      await settledDataVersion(store, engine.name);
      const stored = await get(url + CACHED_PAGE, key); // the same 600 items, read by the store
      await get(url + `${KEPT_PAGE}&ticker.gte=T`, key); // another page of the list starts its read
      await t.app.ctx.services.tickers.listIndex.settled();
      const cached = t.app.ctx.responseCache!.size;
      const pieces = vi.spyOn(BodyPieces.prototype, '_read');
      const reads = vi.spyOn(store.reference, 'tickerItemsPage');
      const kept = await get(url + KEPT_PAGE, key);
      expect(reads).not.toHaveBeenCalled();
      expect(pieces).toHaveBeenCalled();
      expect(t.app.ctx.responseCache!.size).toBe(cached + 1);
      expect(kept.status).toBe(200);
      expect(kept.headers['transfer-encoding']).toBeUndefined();
      expect(Number(kept.headers['content-length'])).toBe(kept.body.length);
      expect(kept.headers['content-type']).toBe(stored.headers['content-type']);
      const body = JSON.parse(kept.body.toString());
      expect(body.request_id).toBe(kept.headers['x-request-id']);
      expect(body.results).toHaveLength(600);
      expect(withoutId(kept.body.toString())).toEqual(withoutId(stored.body.toString()));
      // the repeat is the cache's, from the same pieces
      const page = vi.spyOn(t.app.ctx.services.tickers.listIndex, 'page');
      const fromCache = vi.spyOn(CachedBodyStream.prototype, '_read');
      const again = await get(url + KEPT_PAGE, key);
      expect(page).not.toHaveBeenCalled();
      expect(fromCache).toHaveBeenCalled();
      expect(Number(again.headers['content-length'])).toBe(again.body.length);
      expect(JSON.parse(again.body.toString()).request_id).toBe(again.headers['x-request-id']);
      expect(withoutId(again.body.toString())).toEqual(withoutId(kept.body.toString()));
    });

    it('answers an ascending page of minute bars from the kept days, as pieces with a Content-Length, and keeps the pieces for its repeat', async () => {
      await settledDataVersion(store, engine.name);
      const stored = await get(url + `${BARS_PAGE}&sort=desc`, key); // the same bars, read by the store
      const cached = t.app.ctx.responseCache!.size;
      const pieces = vi.spyOn(BodyPieces.prototype, '_read');
      const kept = await get(url + BARS_PAGE, key);
      expect(pieces).toHaveBeenCalled();
      expect(t.app.ctx.responseCache!.size).toBe(cached + 1);
      expect(kept.status).toBe(200);
      expect(kept.headers['transfer-encoding']).toBeUndefined();
      expect(Number(kept.headers['content-length'])).toBe(kept.body.length);
      expect(kept.body.length).toBeGreaterThan(PIECES_FROM_BYTES);
      const made = vi.spyOn(t.app.ctx.services.aggregates, 'rangeJson');
      const fromCache = vi.spyOn(CachedBodyStream.prototype, '_read');
      const again = await get(url + BARS_PAGE, key);
      expect(made).not.toHaveBeenCalled();
      expect(fromCache).toHaveBeenCalled();
      expect(Number(again.headers['content-length'])).toBe(again.body.length);
      expect(withoutId(again.body.toString())).toEqual(withoutId(kept.body.toString()));
      const body = JSON.parse(kept.body.toString());
      expect(body.request_id).toBe(kept.headers['x-request-id']);
      expect(body.results).toHaveLength(1800);
      expect(body.results).toEqual(JSON.parse(stored.body.toString()).results.reverse());
      expect(body.results.map((b: BarRow) => b.t)).toEqual(BARS.map((b) => b.t));
      const head = await get(url + BARS_PAGE, key, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(Number(head.headers['content-length'])).toBe(kept.body.length);
    });

    for (const page of [CACHED_PAGE, KEPT_PAGE, BARS_PAGE]) {
      it(`sends the same answer behind gzip, br and deflate (${page})`, async () => {
        await get(url + page, key); // cached, or the list read
        await t.app.ctx.services.tickers.listIndex.settled();
        const identity = await get(url + page, key);
        for (const [encoding, decode] of [['gzip', gunzipSync], ['br', brotliDecompressSync], ['deflate', inflateSync]] as const) {
          const res = await get(url + page, { ...key, 'accept-encoding': encoding });
          expect(res.status).toBe(200);
          expect(res.headers['content-encoding']).toBe(encoding);
          expect(Number(res.headers['content-length'])).toBe(res.body.length);
          const text = decode(res.body).toString();
          expect(JSON.parse(text).request_id).toBe(res.headers['x-request-id']);
          expect(withoutId(text)).toEqual(withoutId(identity.body.toString()));
        }
      });

      // reference answers have ETags; aggregates have none
      if (page === BARS_PAGE) continue;
      it(`answers 304 to its ETag and HEAD with the length and no body (${page})`, async () => {
        await get(url + page, key);
        await t.app.ctx.services.tickers.listIndex.settled();
        const first = await get(url + page, key);
        const etag = String(first.headers.etag);
        const again = await get(url + page, { ...key, 'if-none-match': etag });
        expect(again.status).toBe(304);
        expect(again.body.length).toBe(0);
        const head = await get(url + page, key, 'HEAD');
        expect(head.status).toBe(200);
        expect(head.body.length).toBe(0);
        expect(Number(head.headers['content-length'])).toBe(first.body.length);
      });
    }
  });
}
