import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_PLANS, PlanCatalog } from '../../src/server/plans.js';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { productionApp, type ProductionTestApp } from './production-app.js';
import { addWindowRoutes, type WindowRows } from './window-routes.js';

const NOW = Date.parse('2026-11-20T20:00:00Z'); // Friday 15:00 ET, market open
const MIN = 60_000;
const WINDOW_START = Date.parse('2024-11-20T05:00:00Z'); // 00:00 ET two years back
// Rates off, so that one key can make every request here; limits have their own tests.
const plans = new PlanCatalog({
  ...BUILTIN_PLANS,
  free: { ...BUILTIN_PLANS.free!, rate_limit: null },
  eod: { ...BUILTIN_PLANS.free!, timeframe: 'end_of_day', rate_limit: null },
});

for (const engine of engines()) {
  for (const envelope of ['wrapped', 'native'] as const) {
    describe(`plan windows (${engine.name}, ${envelope})`, () => {
      let store: Store;
      let t: ProductionTestApp;
      let free: string;
      let demo: string;
      const rows: WindowRows = { bars: [], ticks: [], values: [] };

      beforeAll(async () => {
        store = await engine.open();
        t = await productionApp(store, { envelope, now: () => NOW, production: { plans, usage: false } });
        addWindowRoutes(t.app, rows);
        free = await t.key('free');
        demo = await t.key('demo');
      });
      afterAll(async () => {
        await t.close();
        await store.close();
      });

      it('cuts bars older than the history and newer than the delay, says so, and marks the body DELAYED', async () => {
        rows.bars = [
          { t: WINDOW_START - 86_400_000, c: 1 },
          { t: WINDOW_START, c: 2 },
          { t: NOW - 20 * MIN, c: 3 },
          { t: NOW - 10 * MIN, c: 4 },
        ];
        const res = await t.get('/test/bars/AAPL/2020-01-01/2026-11-20', free);
        expect(res.status).toBe(200);
        const body = t.data(res);
        expect(body.results.map((r: { c: number }) => r.c)).toEqual([2, 3]);
        expect(body.resultsCount).toBe(2);
        expect(body.status).toBe('DELAYED');
        expect(body.notice).toMatch(/data before 2024-11-20 is outside the free plan's 2 years of history/);
        expect(body.notice).toMatch(/15 minutes delayed/);
        if (envelope === 'wrapped') expect(res.body.ok).toBe(true);
      });

      it('leaves the body alone for a plan without limits', async () => {
        const res = await t.get('/test/bars/AAPL/2020-01-01/2026-11-20', demo);
        const body = t.data(res);
        expect(body.results).toHaveLength(4);
        expect(body.status).toBe('OK');
        expect(body.notice).toBeUndefined();
      });

      it('leaves out rows stamped after now for a real-time plan without calling it delayed', async () => {
        // e.g. ticks the live feed stored between the request's start and its read
        rows.bars = [{ t: NOW - 10 * MIN, c: 1 }, { t: NOW + 5, c: 2 }];
        const body = t.data(await t.get('/test/bars/AAPL/2026-11-20/2026-11-20', demo));
        expect(body.results.map((r: { c: number }) => r.c)).toEqual([1]);
        expect(body.status).toBe('OK');
        expect(body.notice).toBeUndefined();
      });

      it('says OK and adds no notice when nothing had to be cut', async () => {
        rows.bars = [{ t: NOW - 86_400_000, c: 9 }];
        const body = t.data(await t.get('/test/bars/AAPL/2026-11-01/2026-11-19', free));
        expect(body.status).toBe('OK');
        expect(body.notice).toBeUndefined();
        expect(body.results).toHaveLength(1);
      });

      it('cuts nanosecond tick rows and drops next_url when the far end of the page was cut', async () => {
        const ns = (ms: number) => BigInt(ms) * 1_000_000n + 123n;
        rows.ticks = [
          { sip_timestamp: ns(NOW - 60 * MIN), price: 1 },
          { sip_timestamp: ns(NOW - 5 * MIN), price: 2 },
        ];
        rows.nextUrl = 'http://localhost/test/ticks/AAPL?cursor=abc';
        const developer = await t.key('developer');
        const body = t.data(await t.get('/test/ticks/AAPL', developer));
        expect(body.results).toEqual([{ sip_timestamp: Number(ns(NOW - 60 * MIN)), price: 1 }]);
        expect(body.next_url).toBeUndefined();
        expect(body.status).toBe('DELAYED');
        // a page whose far end is inside the window keeps its link
        rows.ticks = [
          { sip_timestamp: ns(WINDOW_START - 1), price: 0 },
          { sip_timestamp: ns(NOW - 60 * MIN), price: 1 },
        ];
        expect(t.data(await t.get('/test/ticks/AAPL', developer)).next_url).toBe(rows.nextUrl);
        rows.nextUrl = undefined;
      });

      it('keeps exact nanoseconds in the rows it keeps', async () => {
        rows.ticks = [{ sip_timestamp: 1_763_654_400_123_456_789n, price: 5 }];
        const res = await t.get('/test/ticks/AAPL', await t.key('advanced'));
        expect(res.raw).toContain('"sip_timestamp":1763654400123456789');
      });

      it('cuts indicator values inside results.values', async () => {
        rows.values = [
          { timestamp: NOW - MIN, value: 3 },
          { timestamp: NOW - 60 * MIN, value: 2 },
        ];
        const body = t.data(await t.get('/test/indicator/AAPL', await t.key('starter')));
        expect(body.results.values).toEqual([{ timestamp: NOW - 60 * MIN, value: 2 }]);
        expect(body.status).toBe('DELAYED');
      });

      it('lets a handler bound the data itself (applyDataWindow) and still marks the body', async () => {
        rows.bars = [{ t: NOW - MIN, c: 1 }];
        const body = t.data(await t.get('/test/snapshot/AAPL', await t.key('starter')));
        expect(body.asOf).toBe(NOW - 15 * MIN);
        expect(body.results).toHaveLength(1); // not cut by the generic hook
        expect(body.status).toBe('DELAYED');
        expect(body.hasQuote).toBe(false); // starter has no nbbo
        const adv = t.data(await t.get('/test/snapshot/AAPL', await t.key('advanced')));
        expect(adv).toMatchObject({ asOf: NOW, hasQuote: true, status: 'OK' });
      });

      it('end-of-day plans see nothing of today before 20:00 ET', async () => {
        rows.bars = [
          { t: Date.parse('2026-11-19T15:00:00Z'), c: 1 },
          { t: Date.parse('2026-11-20T15:00:00Z'), c: 2 },
        ];
        const body = t.data(await t.get('/test/bars/AAPL/2026-11-19/2026-11-20', await t.key('eod')));
        expect(body.results.map((r: { c: number }) => r.c)).toEqual([1]);
        expect(body.notice).toMatch(/today's data is available to the eod plan after the end of the day/);
      });
    });
  }
}
