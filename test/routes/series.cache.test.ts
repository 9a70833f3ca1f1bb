// Aggregates, trades and quotes in the response cache: a range the key's plan sees whole is
// answered again without reading the store, while an answer the plan's window narrowed (history,
// delay, or a real-time window ending now with rows stored after now) is read on every request: it
// may change with the clock.
// Cached answers are kept per plan, so a key never gets another plan's view.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { nyTime } from '../../src/domain/calendar.js';
import type { BarRow, TradeRow } from '../../src/domain/market-records.js';
import type { Store } from '../../src/store/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { settledDataVersion } from '../helpers/data-version.js';
import { storePairs } from '../helpers/engines.js';

const minute = (ticker: string, t: number, c: number): BarRow => ({ ticker, t, o: c, h: c, l: c, c, v: 100, vw: c, n: 1 });
const trade = (t: number, price: number): TradeRow => ({ ticker: 'AAA', sip_timestamp: BigInt(t) * 1_000_000n, price, size: 10, exchange: 4 });

// Bars three years back (outside the free plan's two years of history) and last week.
const OLD = nyTime('2021-03-01', '10:00');
const RECENT = nyTime('2024-03-05', '10:00');
const RANGE = '/v2/aggs/ticker/AAA/range/1/minute/2021-01-01/2024-03-07';

for (const engine of storePairs('seriescache')) {
  describe(`time series in the response cache (${engine.name})`, () => {
    let store: Store;
    let close: () => Promise<void>;
    let demo: TestApp;
    let now = nyTime('2024-03-08', '12:00');
    beforeAll(async () => {
      ({ store, close } = await engine.open());
      await store.market.insertBars('minute', [minute('AAA', OLD, 1), minute('AAA', OLD + 60_000, 2), minute('AAA', RECENT, 3)]);
      // one trade before the clock's time, one after it (a feed published ahead, or a clock behind)
      await store.market.insertTrades([trade(nyTime('2024-03-07', '11:00'), 5), trade(nyTime('2024-03-08', '11:00'), 6), trade(nyTime('2024-03-08', '13:00'), 7)]);
      demo = await startTestApp(store, { envelope: 'native', now: () => now });
    });
    afterAll(async () => {
      await demo.close();
      await close();
    });
    afterEach(() => {
      vi.restoreAllMocks();
      now = nyTime('2024-03-08', '12:00');
    });

    it('answers a range in the past again without reading the store', async () => {
      await settledDataVersion(store, engine.name);
      // the bars themselves may come from the minute bars kept in memory: count the answers made
      const bars = vi.spyOn(demo.app.ctx.services.aggregates, 'rangeJson');
      const first = await demo.get(RANGE);
      const second = await demo.get(RANGE);
      expect(first.body.results.map((b: { c: number }) => b.c)).toEqual([1, 2, 3]);
      expect(bars).toHaveBeenCalledTimes(1);
      expect(second.body.request_id).not.toBe(first.body.request_id);
      expect({ ...second.body, request_id: 'x' }).toEqual({ ...first.body, request_id: 'x' });

      const trades = vi.spyOn(store.market, 'readTradesJsonPage');
      const url = '/v3/trades/AAA?timestamp.lt=2024-03-08';
      expect((await demo.get(url)).body.results.map((r: { price: number }) => r.price)).toEqual([5]);
      expect((await demo.get(url)).body.results.map((r: { price: number }) => r.price)).toEqual([5]);
      expect(trades).toHaveBeenCalledTimes(1);
    });

    it('reads a range reaching the clock on every request: trades after it show once their time has come', async () => {
      const prices = async () => (await demo.get('/v3/trades/AAA')).body.results.map((r: { price: number }) => r.price);
      expect(await prices()).toEqual([6, 5]);
      expect(await prices()).toEqual([6, 5]);
      now = nyTime('2024-03-08', '14:00'); // no write: only the clock moved
      expect(await prices()).toEqual([7, 6, 5]);
    });

    it('keeps an answer reaching the clock while nothing is stored after the clock, until the next write', async () => {
      const at = (date: string, time: string) => BigInt(nyTime(date, time)) * 1_000_000n;
      await store.market.insertTrades([{ ...trade(0, 8), ticker: 'BBB', sip_timestamp: at('2024-03-08', '10:00') }]);
      await store.market.insertQuotes([{ ticker: 'BBB', sip_timestamp: at('2024-03-08', '10:00'), ask_price: 9, bid_price: 8 }]);
      await store.market.insertBars('minute', [minute('BBB', nyTime('2024-03-08', '10:00'), 8)]);
      await settledDataVersion(store, engine.name);
      const trades = vi.spyOn(store.market, 'readTradesJsonPage');
      const quotes = vi.spyOn(store.market, 'readQuotesJsonPage');
      const bars = vi.spyOn(demo.app.ctx.services.aggregates, 'rangeJson');
      const prices = async () => (await demo.get('/v3/trades/BBB')).body.results.map((r: { price: number }) => r.price);
      const asks = async () => (await demo.get('/v3/quotes/BBB')).body.results.map((r: { ask_price: number }) => r.ask_price);
      const closes = async () => (await demo.get('/v2/aggs/ticker/BBB/range/1/minute/2024-03-01/2024-03-08')).body.results.map((b: { c: number }) => b.c);
      for (let i = 0; i < 2; i++) {
        expect(await prices()).toEqual([8]);
        expect(await asks()).toEqual([9]);
        expect(await closes()).toEqual([8]);
      }
      now = nyTime('2024-03-08', '15:00'); // the clock alone moved: still nothing after it
      expect(await prices()).toEqual([8]);
      expect(await closes()).toEqual([8]);
      expect(trades).toHaveBeenCalledTimes(1);
      expect(quotes).toHaveBeenCalledTimes(1);
      expect(bars).toHaveBeenCalledTimes(1);

      await store.market.insertTrades([{ ...trade(0, 9), ticker: 'BBB', sip_timestamp: at('2024-03-08', '14:00') }]);
      await store.market.insertBars('minute', [minute('BBB', nyTime('2024-03-08', '14:00'), 9)]);
      expect(await prices()).toEqual([9, 8]);
      expect(await closes()).toEqual([8, 9]);
      // a bar stamped after the clock (published ahead) keeps the range read on every request
      await store.market.insertBars('minute', [minute('BBB', nyTime('2024-03-08', '16:00'), 10)]);
      await settledDataVersion(store, engine.name);
      const before = bars.mock.calls.length;
      expect(await closes()).toEqual([8, 9]);
      expect(await closes()).toEqual([8, 9]);
      expect(bars.mock.calls.length).toBe(before + 2);
    });

    it("keeps each plan's view apart: a key never gets the answer another plan's window made", async () => {
      const free = { 'x-api-key': (await store.keys.create({ plan: 'free' })).key }; // a write: before the requests
      expect((await demo.get(RANGE)).body.results).toHaveLength(3);
      const cut = await demo.get(RANGE, free);
      expect(cut.status).toBe(200);
      expect(cut.body.results.map((b: { c: number }) => b.c)).toEqual([3]); // two years of history
      expect((await demo.get(RANGE, free)).body.results).toHaveLength(1);
      expect((await demo.get(RANGE)).body.results).toHaveLength(3);
      // a range inside both windows is kept for each plan: the free plan's is its own answer
      const recent = '/v2/aggs/ticker/AAA/range/1/minute/2024-03-01/2024-03-07';
      await settledDataVersion(store, engine.name);
      const bars = vi.spyOn(demo.app.ctx.services.aggregates, 'rangeJson');
      expect((await demo.get(recent)).body.status).toBe('OK');
      expect((await demo.get(recent, free)).body.status).toBe('OK');
      expect((await demo.get(recent, free)).body.results).toHaveLength(1);
      expect(bars).toHaveBeenCalledTimes(2);
    });

    it('shows bars written through the server on the next request', async () => {
      expect((await demo.get(RANGE)).body.results).toHaveLength(3);
      await store.market.insertBars('minute', [minute('AAA', RECENT + 60_000, 4)]);
      expect((await demo.get(RANGE)).body.results.map((b: { c: number }) => b.c)).toEqual([1, 2, 3, 4]);
    });
  });
}
