import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCryptoBook } from '../../src/demo/crypto-book.js';
import { BUILTIN_PLANS, PlanCatalog } from '../../src/server/plans.js';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';
import { productionApp, type ProductionTestApp } from './production-app.js';

// Which plans sell the new endpoints: IPOs, related companies and futures market status are
// reference data (upstream's entitlement type for them), so every built-in plan has them; the
// crypto book is sold with the crypto snapshots, which the free plan lacks.
const plans = new PlanCatalog({ ...BUILTIN_PLANS, free: { ...BUILTIN_PLANS.free!, rate_limit: null } });

for (const engine of engines()) {
  describe(`entitlements of IPOs, related companies, futures market status and the crypto book (${engine.name})`, () => {
    let store: Store;
    let t: ProductionTestApp;
    beforeAll(async () => {
      store = await engine.open();
      await store.reference.upsertTickers(FIXTURE_TICKERS);
      await store.cryptoBooks.replaceBooks(buildCryptoBook('X:BTCUSD', 57_000, 1n));
      t = await productionApp(store, { production: { plans, usage: false } });
    });
    afterAll(async () => {
      await t?.close();
      await store?.close();
    });

    it('a free key reads the reference endpoints and is refused the book, naming the snapshots data set', async () => {
      const free = await t.key('free');
      for (const url of ['/vX/reference/ipos', '/v1/reference/ipos', '/v1/related-companies/AAPL', '/futures/vX/market-status', '/futures/v1/market-status']) {
        expect((await t.get(url, free)).status, url).toBe(200);
      }
      const book = await t.get('/v2/snapshot/locale/global/markets/crypto/tickers/X:BTCUSD/book', free);
      expect(book.status).toBe(403);
      expect(book.body.data.message).toMatch(/the free plan does not include snapshots data for crypto\. Plans that include it: starter, /);
      const starter = await t.key('starter');
      expect((await t.get('/v2/snapshot/locale/global/markets/crypto/tickers/X:BTCUSD/book', starter)).status).toBe(200);
    });
  });
}
