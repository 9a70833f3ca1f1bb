// The ticker list's ETag is made from the tickers' data version and the request, not from the
// body: an unchanged list keeps its ETag and If-None-Match gets 304 without reading the rows; a
// write of a changed row (here by another connection, as an import process writes) renews it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DATA_VERSION_TTL_MS } from '../../src/store/driver.js';
import type { Store } from '../../src/store/index.js';
import type { TickerRecord } from '../../src/store/records.js';
import { storePairs } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const base = { locale: 'us' as const, market: 'stocks' as const, active: true, type: 'CS', last_updated_utc: '2024-01-02T00:00:00Z', valid_from: '2020-01-02' };
const TICKERS: TickerRecord[] = ['AAA', 'BBB', 'CCC'].map((ticker) => ({ ...base, ticker, name: `${ticker} Inc.` }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const engine of storePairs('etag')) {
  describe(`ticker list ETag from the data version (${engine.name})`, () => {
    let store: Store;
    let other: Store;
    let close: () => Promise<void>;
    let t: TestApp;
    beforeAll(async () => {
      ({ store, other, close } = await engine.open());
      await store.reference.upsertTickers(TICKERS);
      t = await startTestApp(store, { envelope: 'wrapped' });
    });
    afterAll(async () => {
      await t.close();
      await close();
    });

    it('keeps the ETag of an unchanged list and answers If-None-Match with 304, reading no rows', async () => {
      const first = await t.get('/v3/reference/tickers?limit=2');
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^W\/"[\w-]+"$/);
      const again = await t.get('/v3/reference/tickers?limit=2');
      expect(again.headers.etag).toBe(etag);
      // the key is not part of it: the same list through the query's apiKey
      expect((await t.get(`/v3/reference/tickers?apiKey=${t.key}&limit=2`, { 'x-api-key': '' })).headers.etag).toBe(etag);
      const reads = vi.spyOn(store.reference, 'listTickerItems');
      const cached = await t.get('/v3/reference/tickers?limit=2', { 'if-none-match': etag });
      expect(cached.status).toBe(304);
      expect(cached.body).toBe('');
      expect(cached.headers.etag).toBe(etag);
      expect(reads).not.toHaveBeenCalled();
      reads.mockRestore();
    });

    it('differs between different answers', async () => {
      const a = await t.get('/v3/reference/tickers?limit=2');
      const b = await t.get('/v3/reference/tickers?limit=3');
      const c = await t.get('/v3/reference/tickers?limit=2&order=desc');
      expect(new Set([a.headers.etag, b.headers.etag, c.headers.etag]).size).toBe(3);
      // a default written out is the same answer
      expect((await t.get('/v3/reference/tickers?limit=2&order=asc')).headers.etag).toBe(a.headers.etag);
      // the next page is another answer
      const next = new URL(t.data(a).next_url);
      expect((await t.get(`${next.pathname}${next.search}`)).headers.etag).not.toBe(a.headers.etag);
    });

    it("renews it when another process writes a changed row, within the data version's delay", async () => {
      const before = await t.get('/v3/reference/tickers?limit=2');
      await other.reference.upsertTickers([{ ...TICKERS[0]!, name: 'AAA Renamed Inc.' }]);
      await sleep(DATA_VERSION_TTL_MS[engine.name] + 20);
      const after = await t.get('/v3/reference/tickers?limit=2', { 'if-none-match': String(before.headers.etag) });
      expect(after.status).toBe(200);
      expect(t.data(after).results[0].name).toBe('AAA Renamed Inc.');
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect((await t.get('/v3/reference/tickers?limit=2', { 'if-none-match': String(after.headers.etag) })).status).toBe(304);
    });
  });
}
