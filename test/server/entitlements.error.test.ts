import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASETS, MARKETS, normaliseDataset, normaliseMarket } from '../../src/domain/datasets.js';
import { BUILTIN_PLANS, PlanCatalog } from '../../src/server/plans.js';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { productionApp, type ProductionTestApp } from './production-app.js';
import { openApiSamples, routeMetas } from './route-metas.js';
import { addWindowRoutes } from './window-routes.js';

const NOW = Date.parse('2026-11-20T20:00:00Z');
const plans = new PlanCatalog({
  ...BUILTIN_PLANS,
  free: { ...BUILTIN_PLANS.free!, rate_limit: null },
  stocksonly: { ...BUILTIN_PLANS.advanced!, markets: ['stocks'], rate_limit: null },
});
const MARKETLESS = ['reference', 'news', 'fundamentals', 'filings', 'economy'];
/** Routes listing several markets at once check each item's market themselves (unless `type` names one). */
const MARKET_PER_ITEM = ['/v3/snapshot', '/v1/summaries'];

for (const engine of engines()) {
  describe(`entitlements refuse what the plan lacks (${engine.name})`, () => {
    let store: Store;
    let t: ProductionTestApp;
    let free: string;

    beforeAll(async () => {
      store = await engine.open();
      t = await productionApp(store, { now: () => NOW, production: { plans, usage: false } });
      addWindowRoutes(t.app, { bars: [], ticks: [], values: [] });
      free = await t.key('free');
    });
    afterAll(async () => {
      await t.close();
      await store.close();
    });

    it('403 NOT_AUTHORIZED naming the data set and the plans that include it', async () => {
      const res = await t.get('/test/ticks/AAPL', free);
      expect(res.status).toBe(403);
      expect(res.body.ok).toBe(false);
      expect(res.body.data.status).toBe('NOT_AUTHORIZED');
      expect(res.body.data.message).toBe(
        'You are not entitled to this data: the free plan does not include trades data for stocks. Plans that include it: developer, advanced, business, demo, stocksonly. Please upgrade your plan.',
      );
    });

    it('403 for a market outside the plan, decided per request from the ticker', async () => {
      const key = await t.key('stocksonly');
      expect((await t.get('/test/bars/AAPL/2026-11-01/2026-11-10', key)).status).toBe(200);
      const res = await t.get('/test/bars/X:BTCUSD/2026-11-01/2026-11-10', key);
      expect(res.status).toBe(403);
      expect(res.body.data.message).toMatch(/does not include aggregates data for crypto\. Plans that include it: free, starter, developer, advanced, business, demo/);
    });

    it('the universal snapshot checks each item against the plan: NOT_ENTITLED items, 403 for a type outside it', async () => {
      const key = await t.get('/v3/snapshot?type=options', await t.key('stocksonly'));
      expect(key.status).toBe(403);
      expect(key.body.data.message).toMatch(/does not include snapshots data for options/);
      const mixed = await t.get('/v3/snapshot?ticker.any_of=NOPE,O:AAPL261218C00200000,X:BTCUSD', await t.key('stocksonly'));
      expect(mixed.status).toBe(200);
      expect(mixed.body.data.results.map((r: any) => [r.ticker, r.error])).toEqual([
        ['NOPE', 'NOT_FOUND'],
        ['O:AAPL261218C00200000', 'NOT_ENTITLED'],
        ['X:BTCUSD', 'NOT_ENTITLED'],
      ]);
    });

    it('403 with the plan window when the whole request is outside the history', async () => {
      const res = await t.get('/test/bars/AAPL/2019-01-01/2019-12-31', free);
      expect(res.status).toBe(403);
      expect(res.body.data.message).toBe("Your plan doesn't include this data timeframe: the free plan covers from 2024-11-20, up to 15 minutes ago. Please upgrade your plan.");
      // ms bounds are read too
      expect((await t.get(`/test/bars/AAPL/${Date.parse('2019-01-01')}/${Date.parse('2019-02-01')}`, free)).status).toBe(403);
      // and a request that only starts inside the delay
      expect((await t.get(`/test/bars/AAPL/${NOW - 60_000}/${NOW}`, free)).status).toBe(403);
    });

    it('403 for a key whose plan is not configured, naming the plan', async () => {
      const key = await t.key('gold');
      const res = await t.get('/test/bars/AAPL/2026-11-01/2026-11-10', key);
      expect(res.status).toBe(403);
      expect(res.body.data.message).toMatch(/plan "gold" is not configured on this server \(plans: free, starter/);
    });

    it('applies to every registered route by its declared data set: a free key is refused exactly where free lacks the data', async () => {
      const metas = await routeMetas(store);
      const samples = await openApiSamples(t.app);
      let refused = 0;
      for (const s of samples) {
        const meta = metas.get(s.path);
        if (!meta) continue; // unkeyed route
        const res = await t.get(s.url, free);
        const allowed = plans.entitled(plans.get('free')!, meta.dataset ?? 'reference', meta.market);
        if (allowed) {
          expect(res.status, `${s.url}: ${JSON.stringify(res.body)}`).not.toBe(403);
        } else {
          refused++;
          expect(res.status, s.url).toBe(403);
          expect(res.body.data.message).toContain(`does not include ${normaliseDataset(meta.dataset)} data`);
        }
      }
      expect(refused).toBeGreaterThan(0);
    });

    it('every keyed route declares a known data set and market', async () => {
      const metas = await routeMetas(store);
      expect(metas.size).toBeGreaterThan(3);
      for (const [path, m] of metas) {
        const dataset = normaliseDataset(m.dataset);
        expect(DATASETS as readonly string[], `${path} declares dataset ${m.dataset}`).toContain(dataset);
        if (!MARKETLESS.includes(dataset) && !MARKET_PER_ITEM.includes(path)) expect(MARKETS as readonly string[], `${path} declares market ${m.market}`).toContain(normaliseMarket(m.market));
      }
    });
  });
}
