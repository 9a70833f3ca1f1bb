// Candles read in chunks: the same candles whether the base rows come in one read or in many
// small ones whose edges fall inside candles, in either order, from minutes and from trades.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFuturesMarketDemo } from '../../src/demo/futures-market.js';
import { FuturesMarketService, type FuturesAggQuery } from '../../src/services/futures-market.js';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';

for (const engine of engines()) {
  describe(`futures candles across read chunks (${engine.name})`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
      const demo = buildFuturesMarketDemo('2026-11-20', 0.3);
      await store.futures.insertMinuteBars(demo.bars.filter((b) => b.ticker === 'GCZ6'));
      await store.futures.insertTrades(demo.trades.filter((t) => t.ticker === 'GCZ6'));
    });
    afterAll(() => store?.close());

    it('gives the same pages with 7-row reads as with one read', async () => {
      const whole = new FuturesMarketService(store);
      const chunked = new FuturesMarketService(store, 7);
      const page = async (s: FuturesMarketService, q: FuturesAggQuery) => (await s.candles(q, { limit: q.limit + 1 })).rows;
      for (const resolution of ['1min', '13min', '2hour', '7sec', '45sec']) {
        for (const order of ['asc', 'desc'] as const) {
          const q: FuturesAggQuery = { ticker: 'GCZ6', resolution, order, limit: 40 };
          const expected = await page(whole, q);
          expect(expected.length, `${resolution} ${order}`).toBeGreaterThan(20);
          expect(await page(chunked, q), `${resolution} ${order}`).toEqual(expected);
        }
      }
    });
  });
}
