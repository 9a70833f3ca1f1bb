// A key's plan limits history and, for delayed plans, the newest minutes. Aggregates, trades and
// quotes pages are written as JSON by the store, so the window must bound their reads: no row
// outside it on any page (next_url included), the body marked DELAYED with a notice when the
// window cut it, and nothing cut for a plan without limits. Both engines, both envelopes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BarRow } from '../../src/domain/market-records.js';
import { BUILTIN_PLANS, PlanCatalog } from '../../src/server/plans.js';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { quote, trade } from '../store/contracts/market-rows.js';
import { productionApp, type ProductionTestApp } from './production-app.js';

const NOW = Date.parse('2026-11-20T20:00:00Z'); // Friday 15:00 ET
const MIN = 60_000;
const ns = (ms: number) => BigInt(ms) * 1_000_000n + 789n;
const OLD = Date.parse('2005-03-01T15:00:00Z'); // outside every limited plan's history
const plans = new PlanCatalog(Object.fromEntries(Object.entries(BUILTIN_PLANS).map(([name, p]) => [name, { ...p, rate_limit: null }])));

function bar(t: number, c: number): BarRow {
  return { ticker: 'AAPL', t, o: c, h: c, l: c, c, v: 10, vw: c, n: 1 };
}

for (const engine of engines()) {
  for (const envelope of ['wrapped', 'native'] as const) {
    describe(`plan windows on store-written pages (${engine.name}, ${envelope})`, () => {
      let store: Store;
      let t: ProductionTestApp;
      beforeAll(async () => {
        store = await engine.open();
        t = await productionApp(store, { envelope, now: () => NOW, production: { plans, usage: false } });
        await store.market.insertBars('minute', [bar(OLD, 1), bar(NOW - 60 * MIN, 2), bar(NOW - 30 * MIN, 3), bar(NOW - 5 * MIN, 4)]);
        await store.market.insertTrades([trade('AAPL', ns(OLD), 1n, { price: 1 }), trade('AAPL', ns(NOW - 60 * MIN), 2n, { price: 2 }), trade('AAPL', ns(NOW - 30 * MIN), 3n, { price: 3 }), trade('AAPL', ns(NOW - 5 * MIN), 4n, { price: 4 })]);
        await store.market.insertQuotes([quote('AAPL', ns(OLD), 1n, { bid_price: 1 }), quote('AAPL', ns(NOW - 5 * MIN), 2n, { bid_price: 2 }), quote('AAPL', ns(NOW + 5 * MIN), 3n, { bid_price: 3 })]);
      });
      afterAll(async () => {
        await t?.close();
        await store?.close();
      });

      /** Every row of every page (following next_url), and the first page's body. */
      async function walk(url: string, key: string, field: string): Promise<{ values: number[]; first: Record<string, unknown> }> {
        const values: number[] = [];
        let first: Record<string, unknown> | undefined;
        let next: string | undefined = url;
        for (let pages = 0; next && pages < 10; pages++) {
          const res = await t.get(next.replace(/^https?:\/\/[^/]+/, ''), key);
          expect(res.status).toBe(200);
          const body = t.data(res);
          first ??= body;
          values.push(...(body.results as Record<string, number>[]).map((r) => r[field]!));
          next = body.next_url;
        }
        return { values, first: first! };
      }

      it('aggregates: the free plan sees neither bars older than its history nor the last 15 minutes', async () => {
        const { values, first } = await walk('/v2/aggs/ticker/AAPL/range/1/minute/2000-01-01/2026-11-21?limit=1', await t.key('free'), 'c');
        expect(values).toEqual([2, 3]);
        expect(first.status).toBe('DELAYED');
        expect(first.notice).toMatch(/history/);
        expect(first.notice).toMatch(/15 minutes delayed/);
        const demo = await walk('/v2/aggs/ticker/AAPL/range/1/minute/2000-01-01/2026-11-21?limit=2', await t.key('demo'), 'c');
        expect(demo.values).toEqual([1, 2, 3, 4]);
        expect(demo.first.status).toBe('OK');
        expect(demo.first.notice).toBeUndefined();
      });

      it('v3 trades: the developer plan sees neither trades older than its history nor the last 15 minutes, on any page', async () => {
        for (const order of ['desc', 'asc']) {
          const { values, first } = await walk(`/v3/trades/AAPL?limit=1&order=${order}`, await t.key('developer'), 'price');
          expect(values.sort()).toEqual([2, 3]);
          expect(first.status).toBe('DELAYED');
        }
        expect((await walk('/v3/trades/AAPL?limit=50000', await t.key('demo'), 'price')).values.sort()).toEqual([1, 2, 3, 4]);
      });

      it('v3 quotes: a real-time plan sees up to now, not its history\'s far side, and is not called delayed', async () => {
        const { values, first } = await walk('/v3/quotes/AAPL?limit=1', await t.key('advanced'), 'bid_price');
        expect(values).toEqual([2]);
        expect(first.status).toBe('OK');
        expect(first.notice).toMatch(/history/);
      });

      it('a range wholly in the future is an empty answer for every plan, not a refusal', async () => {
        for (const plan of ['demo', 'free']) {
          const res = await t.get('/v2/aggs/ticker/AAPL/range/1/day/2030-01-01/2030-02-01', await t.key(plan));
          expect(res.status, plan).toBe(200);
          expect(t.data(res).resultsCount).toBe(0);
          expect(t.data(res).results ?? []).toEqual([]);
        }
        const trades = await t.get(`/v3/trades/AAPL?timestamp.gte=2030-01-01`, await t.key('demo'));
        expect(trades.status).toBe(200);
        expect(t.data(trades).results).toEqual([]);
      });

      it('a reversed range is a 400 naming from and to, before any plan check', async () => {
        for (const [plan, from, to] of [['demo', '2030-02-01', '2030-01-01'], ['free', '2005-02-01', '2005-01-01']] as const) {
          const res = await t.get(`/v2/aggs/ticker/AAPL/range/1/day/${from}/${to}`, await t.key(plan));
          expect(res.status, plan).toBe(400);
          expect(t.data(res).message).toBe("The parameter 'to' cannot be a time that occurs before 'from'");
        }
      });
    });
  }
}
