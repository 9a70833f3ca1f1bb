// Ticker overview market_cap: shares outstanding × the raw close of the latest day bar at or
// before the requested date (else the server clock's day); otherwise the stored value, or omitted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nyMidnight, nyTime } from '../../src/domain/calendar.js';
import type { BarRow } from '../../src/domain/market-records.js';
import type { TickerRecord } from '../../src/store/records.js';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const base = { locale: 'us' as const, market: 'stocks' as const, active: true, type: 'CS', last_updated_utc: '2024-01-02T00:00:00Z', valid_from: '2020-01-02', list_date: '2020-01-02' };

const TICKERS: TickerRecord[] = [
  // both share counts: weighted (whole company) wins; the stale stored value is replaced
  { ...base, ticker: 'MCAP', name: 'Market Cap Inc.', weighted_shares_outstanding: 1_000_000, share_class_shares_outstanding: 800_000, market_cap: 1 },
  // only the share-class count
  { ...base, ticker: 'MCSC', name: 'Share Class Only', share_class_shares_outstanding: 500 },
  // shares but no bars: stored value kept, or nothing
  { ...base, ticker: 'NOBR', name: 'No Bars Stored', weighted_shares_outstanding: 2_000, market_cap: 777 },
  { ...base, ticker: 'NOBX', name: 'No Bars Nothing', weighted_shares_outstanding: 2_000 },
  // bars but no shares: stored value kept, or nothing
  { ...base, ticker: 'NOSH', name: 'No Shares Stored', market_cap: 999 },
  { ...base, ticker: 'NOSX', name: 'No Shares Nothing' },
];

const bar = (ticker: string, date: string, c: number): BarRow => ({ ticker, t: nyMidnight(date), o: c, h: c, l: c, c, v: 100, vw: c, n: 1 });

const BARS: BarRow[] = [
  bar('MCAP', '2024-03-04', 10.25),
  bar('MCAP', '2024-03-06', 12.345),
  bar('MCSC', '2024-03-04', 3.3),
  bar('NOSH', '2024-03-04', 50),
  bar('NOSX', '2024-03-04', 50),
];

for (const engine of engines()) {
  describe(`ticker overview market_cap (${engine.name})`, () => {
    let store: Store;
    let t: TestApp; // clock after both MCAP bars
    let early: TestApp; // clock between the two MCAP bars
    beforeAll(async () => {
      store = await engine.open();
      await store.reference.upsertTickers(TICKERS);
      await store.market.insertBars('day', BARS);
      t = await startTestApp(store, { envelope: 'native', now: () => nyTime('2024-03-08', '12:00') });
      early = await startTestApp(store, { envelope: 'native', now: () => nyTime('2024-03-05', '23:30') });
    });
    afterAll(async () => {
      await t.close();
      await early.close();
      await store.close();
    });

    const overview = async (app: TestApp, path: string) => {
      const res = await app.get(`/v3/reference/tickers/${path}`);
      expect(res.status).toBe(200);
      return res.body.results;
    };

    it('is weighted shares × the latest close, rounded to an integer', async () => {
      const r = await overview(t, 'MCAP');
      expect(r.market_cap).toBe(12_345_000);
      expect(Number.isInteger(r.market_cap)).toBe(true);
      expect(r.weighted_shares_outstanding).toBe(1_000_000);
      expect(r.share_class_shares_outstanding).toBe(800_000);
    });

    it('uses the latest close at or before `date`', async () => {
      expect((await overview(t, 'MCAP?date=2024-03-05')).market_cap).toBe(10_250_000);
      expect((await overview(t, 'MCAP?date=2024-03-06')).market_cap).toBe(12_345_000);
      expect((await overview(t, 'MCAP?date=2024-03-07')).market_cap).toBe(12_345_000);
    });

    it('keeps the stored value when no bar is at or before `date`', async () => {
      expect((await overview(t, 'MCAP?date=2024-03-01')).market_cap).toBe(1);
    });

    it('uses the server clock when no `date` is given', async () => {
      expect((await overview(early, 'MCAP')).market_cap).toBe(10_250_000);
    });

    it('falls back to share-class shares when weighted shares are absent', async () => {
      expect((await overview(t, 'MCSC')).market_cap).toBe(1650);
    });

    it('without bars keeps the stored market_cap, or omits it', async () => {
      expect((await overview(t, 'NOBR')).market_cap).toBe(777);
      const r = await overview(t, 'NOBX');
      expect(r).not.toHaveProperty('market_cap');
    });

    it('without shares keeps the stored market_cap, or omits it', async () => {
      expect((await overview(t, 'NOSH')).market_cap).toBe(999);
      const r = await overview(t, 'NOSX');
      expect(r).not.toHaveProperty('market_cap');
    });
  });
}
