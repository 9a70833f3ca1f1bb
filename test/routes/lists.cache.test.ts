// Reference lists other than the tickers' (news, dividends, splits, exchanges, conditions and the
// declared data-set lists: economy, fundamentals, futures reference, filings, partner data) are
// kept by the response cache: a repeated page reads nothing from the store and is the first
// answer with its own request id; a write of the stored rows shows on the next request.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { filingsEconomyDemoStep } from '../../src/demo/filings-economy.js';
import { loadFundamentals } from '../../src/demo/fundamentals.js';
import { futuresDemoStep } from '../../src/demo/futures.js';
import { ensureReferenceFacts } from '../../src/demo/load.js';
import { newsStep } from '../../src/demo/news.js';
import { STORE_DRIVER, type SqlDriver } from '../../src/store/driver.js';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { settledDataVersion } from '../helpers/data-version.js';
import { NEWS_FIXTURE } from '../helpers/news-fixture.js';

const AS_OF = '2026-11-20';
const LISTS = [
  '/v2/reference/news?limit=50',
  '/v3/reference/dividends?limit=100',
  '/v3/reference/splits',
  '/stocks/v1/dividends?ticker=AAPL',
  '/v3/reference/exchanges',
  '/stocks/v1/exchanges',
  '/v3/reference/conditions?limit=100',
  '/fed/v1/treasury-yields?limit=100',
  '/stocks/financials/v1/ratios',
  '/futures/vX/products',
];

/** Store reads through the driver, leaving out key lookups (the key cache expires every 500 ms). */
function countReads(store: Store): () => number {
  const driver = (store as unknown as Record<symbol, SqlDriver>)[STORE_DRIVER]!;
  const calls: string[] = [];
  for (const method of ['all', 'get', 'rawRows'] as const) {
    const original = driver[method].bind(driver) as (sql: string, ...rest: unknown[]) => Promise<unknown>;
    vi.spyOn(driver, method).mockImplementation(((sql: string, ...rest: unknown[]) => {
      if (!sql.includes('api_keys')) calls.push(sql);
      return original(sql, ...rest);
    }) as never);
  }
  return () => calls.length;
}

for (const engine of engines()) {
  describe(`reference lists in the response cache (${engine.name})`, () => {
    let store: Store;
    let t: TestApp;
    beforeAll(async () => {
      store = await engine.open();
      const opts = { asOf: AS_OF, scale: 0.1, log: () => {} };
      await ensureReferenceFacts(store);
      await newsStep.run(store, opts);
      await loadFundamentals(store, { asOf: AS_OF, shortVolumeDays: 5 });
      await filingsEconomyDemoStep.run(store, opts);
      await futuresDemoStep.run(store, opts);
      t = await startTestApp(store, { envelope: 'native' });
    }, 120_000);
    afterAll(async () => {
      await t.close();
      await store.close();
    });
    afterEach(() => vi.restoreAllMocks());

    it.each(LISTS)('answers a repeated %s without reading the store', async (url) => {
      await settledDataVersion(store, engine.name);
      const first = await t.get(url);
      expect(first.status).toBe(200);
      expect(first.body.results.length).toBeGreaterThan(0);
      const reads = countReads(store);
      const second = await t.get(url);
      expect(second.status).toBe(200);
      expect(reads()).toBe(0);
      expect(second.body.request_id).toBe(second.headers['x-request-id']);
      expect(second.body.request_id).not.toBe(first.body.request_id);
      expect({ ...second.body, request_id: 'x' }).toEqual({ ...first.body, request_id: 'x' });
    });

    it('shows a write of the stored rows on the next request', async () => {
      const url = '/v2/reference/news?limit=1000';
      await settledDataVersion(store, engine.name);
      const before = await t.get(url);
      const added = { ...NEWS_FIXTURE[0]!, id: 'cache-test-article', published_utc: '2099-01-01T00:00:00Z', title: 'Written after the first answer' };
      await store.news.upsertArticles([{ article: added, publishedMs: Date.parse(added.published_utc) }]);
      const after = await t.get(url);
      expect(after.body.results[0].id).toBe('cache-test-article');
      expect(after.body.results.length).toBe(before.body.results.length + 1);
    });
  });
}
