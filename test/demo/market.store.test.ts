// The demo market step through the store: what is generated is what reads back, and loading
// it again changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { DEMO_AS_OF } from '../../src/demo/load.js';
import { DEMO_SPLITS, demoMarketPlan, forexRows, loadDemoMarket, stockRows } from '../../src/demo/market.js';
import { engines } from '../helpers/engines.js';
import { sqlOf } from '../../src/store/inspect.js';

const SOME = ['AAPL', 'I:SPX', 'C:EURUSD', 'X:BTCUSD'];

async function count(store: Store, table: string): Promise<number> {
  return Number((await sqlOf(store).get(`SELECT COUNT(*) AS n FROM ${table}`))!.n);
}

for (const engine of engines()) {
  describe(`demo market step (${engine.name})`, () => {
    let store: Store;
    let first: Awaited<ReturnType<typeof loadDemoMarket>>;
    beforeAll(async () => {
      store = await engine.open();
      first = await loadDemoMarket(store, { asOf: DEMO_AS_OF, scale: 1 }, SOME);
    }, 120_000);
    afterAll(async () => {
      await store.close();
    });

    it('stores every generated row', async () => {
      expect(await count(store, 'day_bars')).toBe(first.day);
      expect(await count(store, 'minute_bars')).toBe(first.minute);
      expect(await count(store, 'trades')).toBe(first.trades);
      expect(await count(store, 'quotes')).toBe(first.quotes);
      expect(first.trades).toBeGreaterThan(10_000);
    });

    it('reads back exactly what was generated (ticks with their nanoseconds, bars with their values)', async () => {
      const plan = demoMarketPlan(DEMO_AS_OF, 1);
      const aapl = stockRows('AAPL', plan, { primaryExchange: 'XNAS' });
      const lastTrade = aapl.trades.at(-1)!;
      expect(await store.market.lastTrade('AAPL')).toEqual(lastTrade);
      const days = await store.market.readBars('day', { ticker: 'AAPL', fromMs: 0, toMs: Date.UTC(2030, 0), order: 'asc', limit: 5000 });
      expect(days).toEqual(aapl.day);
      const fx = forexRows('C:EURUSD', plan);
      expect(await store.market.lastQuote('C:EURUSD')).toEqual(fx.quotes.at(-1));
    });

    it('is idempotent: loading it again leaves the same rows', async () => {
      const before = await Promise.all(['day_bars', 'minute_bars', 'trades', 'quotes'].map((t) => count(store, t)));
      await loadDemoMarket(store, { asOf: DEMO_AS_OF, scale: 1 }, ['AAPL']);
      expect(await Promise.all(['day_bars', 'minute_bars', 'trades', 'quotes'].map((t) => count(store, t)))).toEqual(before);
    });

    it('exports the splits the corporate-actions step stores', () => {
      expect(DEMO_SPLITS).toContainEqual({ ticker: 'NVDA', execution_date: '2024-06-10', split_from: 1, split_to: 10 });
    });
  });
}
