// Cached answers scoped to the tickers the live feed writes: a published trade of AAA renews AAA's
// cached trades and snapshot (its minute bars once the aggregator stores a bar), and leaves BBB's
// answers in the cache (they are sent again without being made anew); an import renews them all.
// Both engines.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { nyTime } from '../../src/domain/calendar.js';
import type { BarRow, TradeRow } from '../../src/domain/market-records.js';
import { storeLiveMinuteBars, storeTicks } from '../../src/services/live-ticks.js';
import type { Store } from '../../src/store/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { settledDataVersion } from '../helpers/data-version.js';
import { engines } from '../helpers/engines.js';

const NOW = nyTime('2024-03-08', '12:00');
const minute = (ticker: string, t: number, c: number): BarRow => ({ ticker, t, o: c, h: c, l: c, c, v: 100, vw: c, n: 1 });
const trade = (ticker: string, ms: number, price: number, seq: bigint): TradeRow => ({ ticker, sip_timestamp: BigInt(ms) * 1_000_000n, price, size: 10, exchange: 4, sequence_number: seq });
const range = (ticker: string) => `/v2/aggs/ticker/${ticker}/range/1/minute/2024-03-01/2024-03-08`;
const snapshot = (ticker: string) => `/v2/snapshot/locale/us/markets/stocks/tickers/${ticker}`;

for (const engine of engines()) {
  describe(`cached answers scoped to the traded tickers (${engine.name})`, () => {
    let store: Store;
    let demo: TestApp;
    beforeAll(async () => {
      store = await engine.open();
      const last = nyTime('2024-03-07', '10:00');
      await store.market.insertBars('minute', [minute('AAA', last, 10), minute('BBB', last, 20)]);
      await store.market.insertBars('day', [minute('AAA', nyTime('2024-03-07', '00:00'), 10), minute('BBB', nyTime('2024-03-07', '00:00'), 20)]);
      await store.market.insertTrades([trade('AAA', NOW - 60_000, 10, 1n), trade('BBB', NOW - 60_000, 20, 1n)]);
      demo = await startTestApp(store, { envelope: 'native', now: () => NOW });
    }, 120_000);
    afterAll(async () => {
      await demo?.close();
      await store?.close();
    });
    afterEach(() => vi.restoreAllMocks());

    it("keeps BBB's bars and snapshot cached while AAA trades, and renews AAA's", async () => {
      await settledDataVersion(store, engine.name);
      const bars = vi.spyOn(demo.app.ctx.services.aggregates, 'rangeJson');
      const snapshots = vi.spyOn(demo.app.ctx.services.snapshots, 'oneJson');
      const lastPrice = async (ticker: string) => (await demo.get(snapshot(ticker))).body.ticker.lastTrade.p;
      for (const ticker of ['AAA', 'BBB']) {
        expect((await demo.get(range(ticker))).status).toBe(200);
        await lastPrice(ticker);
      }
      expect([bars.mock.calls.length, snapshots.mock.calls.length]).toEqual([2, 2]);

      await storeTicks(store, [trade('AAA', NOW - 1000, 11, 2n)], []);
      // BBB: from the cache
      expect((await demo.get(range('BBB'))).body.results.map((b: { c: number }) => b.c)).toEqual([20]);
      expect(await lastPrice('BBB')).toBe(20);
      expect([bars.mock.calls.length, snapshots.mock.calls.length]).toEqual([2, 2]);
      // AAA: its snapshot and trades made anew, with the trade; its minute bars wait for a stored bar
      expect(await lastPrice('AAA')).toBe(11);
      expect((await demo.get(range('AAA'))).status).toBe(200);
      expect([bars.mock.calls.length, snapshots.mock.calls.length]).toEqual([2, 3]);
      expect((await demo.get('/v3/trades/AAA')).body.results.map((r: { price: number }) => r.price)).toEqual([11, 10]);
      await storeLiveMinuteBars(store, [minute('AAA', nyTime('2024-03-07', '10:02'), 12)]);
      expect((await demo.get(range('AAA'))).body.results.map((b: { c: number }) => b.c)).toEqual([10, 12]);
      expect(bars.mock.calls.length).toBe(3);
    });

    it("moves the data version, not the import version, for the feed's writes, and neither for reads", async () => {
      await settledDataVersion(store, engine.name);
      const [data, imports] = [store.dataVersion(), store.importVersion()];
      // the batched snapshot reads start with WITH: no write (PostgreSQL counted them as writes)
      await store.snapshotReads.lastTrades(['AAA', 'BBB'], BigInt(NOW) * 1_000_000n);
      await store.snapshotReads.minuteAggregates(['AAA'], NOW - 86_400_000, NOW);
      expect([store.dataVersion(), store.importVersion()]).toEqual([data, imports]);
      await storeTicks(store, [trade('BBB', NOW - 500, 21, 3n)], []); // this process's writes count at once
      expect(store.dataVersion()).not.toBe(data);
      expect(store.importVersion()).toBe(imports);
    });

    it('makes an answer once for identical requests arriving while it is being made', async () => {
      await settledDataVersion(store, engine.name);
      await storeLiveMinuteBars(store, [minute('AAA', nyTime('2024-03-07', '10:03'), 13)]); // AAA's cached bars renewed
      const bars = vi.spyOn(demo.app.ctx.services.aggregates, 'rangeJson');
      const answers = await Promise.all(Array.from({ length: 20 }, () => demo.get(range('AAA'))));
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      expect(new Set(answers.map((a) => JSON.stringify({ ...a.body, request_id: '' }))).size).toBe(1);
      expect(new Set(answers.map((a) => a.body.request_id)).size).toBe(20);
      expect(bars).toHaveBeenCalledTimes(1);
    });

    it('renews every cached answer after an import', async () => {
      await settledDataVersion(store, engine.name);
      await demo.get(range('BBB'));
      await store.market.insertBars('minute', [minute('BBB', nyTime('2024-03-07', '10:01'), 21)]); // not live: an import's write
      await settledDataVersion(store, engine.name);
      expect((await demo.get(range('BBB'))).body.results.map((b: { c: number }) => b.c)).toEqual([20, 21]);
    });
  });
}
