// Upstream republishes corrected files. Re-importing rows whose keys are stored replaces their
// values (minute bars, day bars, trades, quotes), and everything derived from them follows: day
// bars derived from minutes, snapshots, the response cache and ETags.
import { sqlOf } from '../../src/store/inspect.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import type { TickerRecord } from '../../src/store/records.js';
import { importFile } from '../../src/ingest/load.js';
import { engines } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { MINUTE_HEADER, PREMARKET_NS, TRADES_HEADER, TempDir } from '../ingest/import-files.js';

const QUOTES_HEADER = 'ticker,ask_exchange,ask_price,ask_size,bid_exchange,bid_price,bid_size,conditions,indicators,participant_timestamp,sequence_number,sip_timestamp,tape,trf_timestamp';
const DAY_HEADER = 'ticker,volume,open,close,high,low,window_start,transactions';
const MINUTE_MS = Number(PREMARKET_NS / 1_000_000n); // 2024-03-08 04:00 ET
// 2024-03-08 00:00 ET, the day bar's window start, in ns.
const DAY_NS = PREMARKET_NS - 4n * 3_600_000_000_000n;

const OVERVIEW = '/v3/reference/tickers/AAPL?date=2024-03-08';
const AAPL: TickerRecord = {
  ticker: 'AAPL', name: 'Apple Inc.', locale: 'us', market: 'stocks', active: true, type: 'CS',
  last_updated_utc: '2024-01-02T00:00:00Z', valid_from: '2020-01-02', list_date: '2020-01-02', weighted_shares_outstanding: 1000,
};

/** Two AAPL minute bars at 04:00 and 04:01 ET; `close` is the second bar's close. */
function minutes(close: number): string[] {
  return [
    `AAPL,100,10,10.5,11,9.5,${PREMARKET_NS},5`,
    `AAPL,200,10.5,${close},${Math.max(12, close)},10,${PREMARKET_NS + 60_000_000_000n},7`,
  ];
}

for (const engine of engines()) {
  describe(`a re-import with corrected values replaces the stored rows (${engine.name})`, () => {
    let store: Store;
    let dir: TempDir;
    let t: TestApp;
    beforeAll(async () => {
      store = await engine.open();
      // 2024-03-08 16:30 ET: the snapshot's day is the imported one.
      t = await startTestApp(store, { envelope: 'native', now: () => MINUTE_MS + 12.5 * 3_600_000 });
    });
    afterAll(async () => {
      await t.close();
      await store.close();
      dir?.remove();
    });
    beforeEach(async () => {
      await store.reference.upsertTickers([AAPL]);
      dir?.remove();
      dir = new TempDir();
      for (const table of ['minute_bars', 'day_bars', 'trades', 'quotes']) await sqlOf(store).run(`DELETE FROM ${table}`);
    });

    /** Waits out the time another connection's commit may stay unseen by the response cache. */
    const settle = () => new Promise((r) => setTimeout(r, engine.name === 'postgres' ? 1100 : 150));

    it('minute bars: the new values are served, the derived day bar and the snapshot follow, the ETag changes', async () => {
      const minuteUrl = `/v2/aggs/ticker/AAPL/range/1/minute/${MINUTE_MS}/${MINUTE_MS + 120_000}`;
      const dayUrl = '/v2/aggs/ticker/AAPL/range/1/day/2024-03-08/2024-03-08';
      const file = dir.write('minute_aggs_v1/2024/03/2024-03-08.csv', MINUTE_HEADER, minutes(11));
      expect((await importFile(store, file)).written).toBe(2);
      const before = await t.get(minuteUrl);
      expect(before.body.results.map((b: { c: number }) => b.c)).toEqual([10.5, 11]);
      expect((await t.get(dayUrl)).body.results[0]).toMatchObject({ c: 11, h: 12, v: 300 });
      const snapBefore = await t.get('/v2/snapshot/locale/us/markets/stocks/tickers/AAPL');
      expect(snapBefore.status).toBe(200);
      // The ticker overview (cached per data version, with an ETag) has market_cap = shares × close.
      const overviewBefore = await t.get(OVERVIEW);
      expect(overviewBefore.body.results.market_cap).toBe(11_000);
      expect(overviewBefore.headers.etag).toBeDefined();

      const corrected = dir.write('minute_aggs_v1/2024/03/2024-03-08.csv', MINUTE_HEADER, minutes(13.25));
      const r = await importFile(store, corrected);
      expect(r.written).toBe(1); // the unchanged bar is not rewritten
      await settle();
      const after = await t.get(minuteUrl);
      expect(after.body.results.map((b: { c: number }) => b.c)).toEqual([10.5, 13.25]);
      expect((await t.get(dayUrl)).body.results[0]).toMatchObject({ c: 13.25, h: 13.25, v: 300 });
      const snapAfter = await t.get('/v2/snapshot/locale/us/markets/stocks/tickers/AAPL');
      expect(JSON.stringify(snapAfter.body)).not.toBe(JSON.stringify(snapBefore.body));
      expect(snapAfter.body.ticker.day.c).toBe(13.25);
      const overviewAfter = await t.get(OVERVIEW);
      expect(overviewAfter.body.results.market_cap).toBe(13_250);
      expect(overviewAfter.headers.etag).not.toBe(overviewBefore.headers.etag);
      // A client revalidating with the old ETag gets the corrected body, not 304.
      const revalidated = await t.get(OVERVIEW, { 'if-none-match': String(overviewBefore.headers.etag) });
      expect(revalidated.status).toBe(200);
      expect(revalidated.body.results.market_cap).toBe(13_250);
    });

    it('day bars: a corrected imported day bar replaces the imported one', async () => {
      const url = '/v2/aggs/ticker/AAPL/range/1/day/2024-03-08/2024-03-08';
      await importFile(store, dir.write('day_aggs_v1/2024-03-08.csv', DAY_HEADER, [`AAPL,1000,10,11,12,9,${DAY_NS},50`]));
      expect((await t.get(url)).body.results[0]).toMatchObject({ c: 11, v: 1000 });
      await importFile(store, dir.write('day_aggs_v1/2024-03-08.csv', DAY_HEADER, [`AAPL,1500,10,11.5,12,9,${DAY_NS},60`]));
      await settle();
      expect((await t.get(url)).body.results[0]).toMatchObject({ c: 11.5, v: 1500, n: 60 });
    });

    it('trades: the same trade with corrected conditions and correction code is replaced, not added', async () => {
      const sip = PREMARKET_NS + 5_000n;
      const trade = (conditions: string, correction: string) => `AAPL,"${conditions}",${correction},4,77,${sip - 10n},190.5,1001,${sip},100,3,,`;
      await importFile(store, dir.write('trades_v1/t.csv', TRADES_HEADER, [trade('12,37', '')]));
      const url = `/v3/trades/AAPL?timestamp=${sip}`;
      expect((await t.get(url)).body.results).toMatchObject([{ conditions: [12, 37] }]);
      const r = await importFile(store, dir.write('trades_v1/t.csv', TRADES_HEADER, [trade('41', '1')]));
      expect(r.written).toBe(1);
      await settle();
      const after = (await t.get(url)).body.results;
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ conditions: [41], correction: 1, price: 190.5, sip_timestamp: Number(sip) });
    });

    it('quotes: the same quote (ticker, time, sequence) with new prices is replaced', async () => {
      const sip = PREMARKET_NS + 9_000n;
      const quote = (ask: string, bid: string) => `AAPL,11,${ask},3,12,${bid},2,1,,${sip - 5n},4242,${sip},3,`;
      await importFile(store, dir.write('quotes_v1/q.csv', QUOTES_HEADER, [quote('190.10', '190.00')]));
      const url = `/v3/quotes/AAPL?timestamp=${sip}`;
      expect((await t.get(url)).body.results).toMatchObject([{ ask_price: 190.1, bid_price: 190 }]);
      await importFile(store, dir.write('quotes_v1/q.csv', QUOTES_HEADER, [quote('190.20', '190.05')]));
      await settle();
      const after = (await t.get(url)).body.results;
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ ask_price: 190.2, bid_price: 190.05, sequence_number: 4242 });
    });

    it('a file repeating a key keeps its last row (both engines agree)', async () => {
      const lines = [...minutes(11), `AAPL,999,10.5,11.75,12,10,${PREMARKET_NS + 60_000_000_000n},9`];
      const r = await importFile(store, dir.write('minute_aggs_v1/2024-03-08.csv', MINUTE_HEADER, lines));
      expect(r.rows).toBe(3);
      const bars = await store.market.readBars('minute', { ticker: 'AAPL', fromMs: 0, toMs: Number.MAX_SAFE_INTEGER, limit: 10, order: 'asc' });
      expect(bars.map((b) => [b.c, b.v])).toEqual([[10.5, 100], [11.75, 999]]);
    });

    it('an identical re-import writes nothing', async () => {
      const file = dir.write('minute_aggs_v1/2024-03-08.csv', MINUTE_HEADER, minutes(11));
      expect((await importFile(store, file)).written).toBe(2);
      expect((await importFile(store, file)).written).toBe(0);
    });
  });
}
