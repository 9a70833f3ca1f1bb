// The snapshot-read repository contract: per-ticker latest bars, trades and quotes read in
// batches, the minute bars of a window folded into one bar, the tickers of a market, and OTC
// tickers; nanosecond times above 2^53 exact.
import { describe, expect, it } from 'vitest';
import { bar, quote, trade } from './market-rows.js';
import { BIG, useStore, type MakeStore } from './store-fixture.js';

const D1 = Date.UTC(2026, 10, 19, 5);
const D2 = Date.UTC(2026, 10, 20, 5);
const M = 60_000;

export function runSnapshotReadsRepoContract(makeStore: MakeStore): void {
  describe('snapshot-read repository', () => {
    const store = useStore(makeStore);
    const seeded = async () => {
      if ((await store().market.tickersWithBars('day')).length > 0) return;
      await store().market.insertBars('day', [
        bar('AAPL', D1, 100), bar('AAPL', D2, 101), bar('MSFT', D1, 400), bar('C:EURUSD', D2, 1.08), bar('X:BTCUSD', D2, 90_000),
        bar('O:AAPL261218C00150000', D2, 5), bar('I:SPX', D2, 6000),
      ]);
      await store().market.insertBars('minute', [
        bar('AAPL', D2 + 10 * M, 10, { h: 12, l: 9, c: 11, v: 100, vw: 10, n: 1 }),
        bar('AAPL', D2 + 11 * M, 11, { h: 15, l: 10, c: 14, v: 300, vw: 14, n: 2 }),
        bar('AAPL', D2 + 12 * M, 14, { h: 14, l: 8, c: 9, v: 0, n: 0 }),
        bar('MSFT', D2 + 30 * M, 400),
      ]);
    };

    it('lists the tickers of each market that have a day bar in a window, ascending', async () => {
      await seeded();
      expect(await store().snapshotReads.tickersWithDayBars('stocks', D1, D2 + 1)).toEqual(['AAPL', 'MSFT']);
      expect(await store().snapshotReads.tickersWithDayBars('stocks', D2, D2 + 1)).toEqual(['AAPL']);
      expect(await store().snapshotReads.tickersWithDayBars('fx', D1, D2 + 1)).toEqual(['C:EURUSD']);
      expect(await store().snapshotReads.tickersWithDayBars('crypto', D1, D2 + 1)).toEqual(['X:BTCUSD']);
    });

    it('reads day bars at an instant and the latest before it, for many tickers at once', async () => {
      await seeded();
      const many = ['AAPL', 'MSFT', 'NOPE', ...Array.from({ length: 700 }, (_, i) => `T${i}`)];
      const at = await store().snapshotReads.dayBarsAt(many, D2);
      expect([...at.keys()]).toEqual(['AAPL']);
      expect(at.get('AAPL')).toEqual(bar('AAPL', D2, 101));
      const before = await store().snapshotReads.lastDayBarsBefore(many, D2);
      expect(Object.fromEntries([...before].map(([k, b]) => [k, b.t]))).toEqual({ AAPL: D1, MSFT: D1 });
    });

    it('reads the latest minute bar in a window, and folds the window into one bar', async () => {
      await seeded();
      const last = await store().snapshotReads.lastMinuteBars(['AAPL', 'MSFT'], D2, D2 + 12 * M);
      expect(last.get('AAPL')!.t).toBe(D2 + 11 * M);
      expect(last.has('MSFT')).toBe(false);
      const agg = await store().snapshotReads.minuteAggregates(['AAPL', 'MSFT'], D2, D2 + 13 * M);
      // vw weights only bars that carry one and have volume: (10·100 + 14·300) / 400.
      expect(agg.get('AAPL')).toEqual({ ticker: 'AAPL', t: D2 + 10 * M, o: 10, h: 15, l: 8, c: 9, v: 400, vw: 13, n: 3 });
      expect(agg.has('MSFT')).toBe(false);
    });

    it('reads each ticker’s latest trade and quote at or before an instant, ns exact above 2^53', async () => {
      const ts = BIG * 180n + 1n;
      await store().market.insertTrades([
        trade('AAPL', ts, 1n), trade('AAPL', ts, 2n, { price: 11 }), trade('AAPL', ts + 1n, 3n, { price: 12 }), trade('MSFT', ts - 5n, 9n),
      ]);
      await store().market.insertQuotes([quote('AAPL', ts, 1n), quote('AAPL', ts + 7n, 2n, { bid_price: 9 })]);
      const trades = await store().snapshotReads.lastTrades(['AAPL', 'MSFT', 'NOPE'], ts);
      expect(trades.get('AAPL')).toEqual(trade('AAPL', ts, 2n, { price: 11 }));
      expect(trades.get('MSFT')!.sip_timestamp).toBe(ts - 5n);
      expect(trades.has('NOPE')).toBe(false);
      expect((await store().snapshotReads.lastTrades(['AAPL'], ts + 1n)).get('AAPL')!.price).toBe(12);
      const quotes = await store().snapshotReads.lastQuotes(['AAPL'], ts + 6n);
      expect(quotes.get('AAPL')).toEqual(quote('AAPL', ts, 1n));
      expect((await store().snapshotReads.lastQuotes(['AAPL'], ts + 7n)).get('AAPL')!.sip_timestamp).toBe(ts + 7n);
    });

    it('lists the current OTC tickers', async () => {
      const t = { name: 'x', locale: 'us' as const, active: true, last_updated_utc: '2026-11-20T00:00:00Z', valid_from: '2000-01-01' };
      await store().reference.upsertTickers([
        { ...t, ticker: 'OTCA', market: 'otc' },
        { ...t, ticker: 'OTCB', market: 'otc', valid_to: '2010-01-01' },
        { ...t, ticker: 'OTCB', market: 'stocks', valid_from: '2010-01-01' },
        { ...t, ticker: 'LIST', market: 'stocks' },
      ]);
      expect([...(await store().snapshotReads.otcTickers())]).toEqual(['OTCA']);
    });
  });
}
