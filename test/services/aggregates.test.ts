import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Timespan } from '../../src/domain/bars.js';
import { nyMidnight, nyTime } from '../../src/domain/calendar.js';
import { barZone, marketOfTicker } from '../../src/domain/ticker-market.js';
import { parseAggregateBound } from '../../src/routes/time-params.js';
import { rangeBars, type RangeRequest } from '../../src/services/aggregates.js';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { AAPL_SESSIONS, AAPL_TRADES, HOUR, MIN, aaplAdjusted, seedMarket, utc } from '../helpers/market-fixture.js';

// Bucketing, adjustment and the limit budget of rangeBars, with every expected bar worked out
// by hand from the fixture (see test/helpers/market-fixture.ts for its prices).

const iso = (t: number) => new Date(t).toISOString();
const nyHour = (t: number) => new Date(t).toLocaleString('en-US', { timeZone: 'America/New_York', hour: '2-digit', hourCycle: 'h23' });

/** Folds AAPL's adjusted session bars i ∈ idx the way a bucket must. */
function foldAdjusted(idx: number[]) {
  const bars = idx.map(aaplAdjusted);
  const v = bars.reduce((s, b) => s + b.v, 0);
  return {
    o: bars[0]!.o,
    h: Math.max(...bars.map((b) => b.h)),
    l: Math.min(...bars.map((b) => b.l)),
    c: bars[bars.length - 1]!.c,
    v,
    n: bars.reduce((s, b) => s + b.n, 0),
    vw: bars.reduce((s, b) => s + b.vw * b.v, 0) / v,
  };
}

const range = (i: number, j: number) => Array.from({ length: j - i + 1 }, (_, k) => i + k);

for (const engine of engines()) {
  describe(`rangeBars (${engine.name})`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
      await seedMarket(store);
    });
    afterAll(async () => store.close());

    async function bars(ticker: string, multiplier: number, timespan: Timespan, from: string | number, to: string | number, extra: Partial<RangeRequest> = {}) {
      const zone = barZone(marketOfTicker(ticker));
      return rangeBars(store, {
        ticker,
        multiplier,
        timespan,
        fromMs: typeof from === 'number' ? from : parseAggregateBound(from, 'from', zone),
        toMs: typeof to === 'number' ? to : parseAggregateBound(to, 'to', zone),
        adjusted: true,
        sort: 'asc',
        limit: 5000,
        ...extra,
      });
    }

    describe('daylight saving time', () => {
      it('1/hour over the spring-forward day gives 23 hourly bars, the 02:00 hour missing', async () => {
        const r = await bars('X:BTCUSD', 1, 'hour', '2024-03-10', '2024-03-10');
        expect(r.bars).toHaveLength(23);
        expect(r.bars.map((b) => nyHour(b.t))).toEqual(['00', '01', ...Array.from({ length: 21 }, (_, k) => String(k + 3).padStart(2, '0'))]);
        r.bars.forEach((b, j) => {
          const o = 50_000 + 1440 + 60 * j; // minute k since 03-09 00:00 EST has price 50000+k
          expect(b).toEqual({ t: utc('2024-03-10T05:00:00Z') + j * HOUR, o, h: o + 59, l: o, c: o + 59, v: 600, vw: o + 29.5, n: 60 });
        });
        expect(r.queryCount).toBe(23 * 60);
      });

      it('1/day buckets are New York days: 24 h before the change, 23 h on it', async () => {
        const r = await bars('X:BTCUSD', 1, 'day', '2024-03-09', '2024-03-10');
        expect(r.bars.map((b) => iso(b.t))).toEqual(['2024-03-09T05:00:00.000Z', '2024-03-10T05:00:00.000Z']);
        expect(r.bars.map((b) => [b.o, b.c, b.v, b.n])).toEqual([
          [50_000, 51_439, 14_400, 1440],
          [51_440, 52_819, 13_800, 1380],
        ]);
      });

      it('N/hour buckets are fixed lengths from the anchor, so their New York labels shift by an hour after the change', async () => {
        const r = await bars('X:BTCUSD', 4, 'hour', '2024-03-10', '2024-03-10');
        expect(r.bars.map((b) => iso(b.t))).toEqual([
          '2024-03-10T05:00:00.000Z', '2024-03-10T09:00:00.000Z', '2024-03-10T13:00:00.000Z',
          '2024-03-10T17:00:00.000Z', '2024-03-10T21:00:00.000Z', '2024-03-11T01:00:00.000Z',
        ]);
        expect(r.bars.map((b) => nyHour(b.t))).toEqual(['00', '05', '09', '13', '17', '21']);
        expect(r.bars[0]).toMatchObject({ o: 51_440, c: 51_440 + 239, v: 2400 });
        // the last bucket holds the day's last 3 hours only
        expect(r.bars[5]).toMatchObject({ o: 52_640, c: 52_819, v: 1800, n: 180 });
      });

      it('a week starting on the fall-back Sunday starts at 00:00 EDT', async () => {
        const r = await bars('BNDY', 1, 'week', '2024-10-28', '2024-11-08');
        expect(r.bars.map((b) => iso(b.t))).toEqual(['2024-10-27T04:00:00.000Z', '2024-11-03T04:00:00.000Z']);
      });
    });

    describe('calendar boundaries', () => {
      it('weeks run from Sunday 00:00 ET and fold o/h/l/c/v/vw/n', async () => {
        const r = await bars('AAPL', 1, 'week', '2024-02-26', '2024-03-15');
        expect(r.bars.map((b) => b.t)).toEqual([nyMidnight('2024-02-25'), nyMidnight('2024-03-03'), nyMidnight('2024-03-10')]);
        [range(0, 4), range(5, 9), range(10, 14)].forEach((idx, w) => {
          const { vw, ...rest } = foldAdjusted(idx);
          expect(r.bars[w]).toMatchObject(rest);
          expect(r.bars[w]!.vw).toBeCloseTo(vw, 9);
        });
        expect(r.queryCount).toBe(15);
      });

      it('years, quarters and months start on their first day at 00:00 ET (EST or EDT)', async () => {
        const year = await bars('BNDY', 1, 'year', '2023-12-01', '2024-12-31');
        expect(year.bars.map((b) => [iso(b.t), b.o, b.c, b.v])).toEqual([
          ['2023-01-01T05:00:00.000Z', 0, 0, 1],
          ['2024-01-01T05:00:00.000Z', 1, 7, 7],
        ]);
        const quarter = await bars('BNDY', 1, 'quarter', '2023-12-01', '2024-12-31');
        expect(quarter.bars.map((b) => [iso(b.t), b.o, b.c])).toEqual([
          ['2023-10-01T04:00:00.000Z', 0, 0],
          ['2024-01-01T05:00:00.000Z', 1, 2],
          ['2024-04-01T04:00:00.000Z', 3, 4],
          ['2024-07-01T04:00:00.000Z', 5, 5],
          ['2024-10-01T04:00:00.000Z', 6, 7],
        ]);
        const month = await bars('BNDY', 1, 'month', '2023-12-01', '2024-12-31');
        expect(month.bars.map((b) => iso(b.t))).toEqual([
          '2023-12-01T05:00:00.000Z', '2024-01-01T05:00:00.000Z', '2024-03-01T05:00:00.000Z', '2024-04-01T04:00:00.000Z',
          '2024-06-01T04:00:00.000Z', '2024-07-01T04:00:00.000Z', '2024-11-01T04:00:00.000Z',
        ]);
      });

      it('empty buckets give no bar: a holiday has no day bar, its week has one bar', async () => {
        const day = await bars('MSFT', 1, 'day', '2024-07-01', '2024-07-05');
        expect(day.bars.map((b) => b.t)).toEqual(['2024-07-01', '2024-07-02', '2024-07-03', '2024-07-05'].map(nyMidnight));
        const week = await bars('MSFT', 1, 'week', '2024-07-01', '2024-07-05');
        expect(week.bars).toHaveLength(1);
        expect(week.bars[0]).toMatchObject({ t: nyMidnight('2024-06-30'), o: 400, c: 403, v: 400, n: 20 });
      });

      it('an early close has no minute bars after 17:00, so its last hourly bar is 16:00', async () => {
        const r = await bars('MSFT', 1, 'hour', '2024-07-03', '2024-07-03');
        expect(r.bars).toHaveLength(13);
        expect(r.bars[12]).toMatchObject({ t: nyTime('2024-07-03', '16:00'), o: 500 + 720, c: 500 + 779 });
      });
    });

    describe('multipliers anchor at the snapped from', () => {
      it('5/minute from a date: buckets at :00, :05, … from local midnight', async () => {
        const r = await bars('AAPL', 5, 'minute', '2024-03-08', '2024-03-08', { adjusted: false });
        expect(r.bars).toHaveLength(192);
        r.bars.forEach((b, j) => expect(b.t).toBe(nyTime('2024-03-08', '04:00') + j * 5 * MIN));
        expect(r.bars[0]).toMatchObject({ o: 1000, c: 1004, v: 50, n: 5 });
      });

      it('5/minute from an unaligned ms instant: buckets at 04:02, 04:07, …', async () => {
        const r = await bars('AAPL', 5, 'minute', utc('2024-03-08T09:02:00Z'), utc('2024-03-08T09:20:00Z'), { adjusted: false });
        expect(r.bars.map((b) => iso(b.t))).toEqual(['2024-03-08T09:02:00.000Z', '2024-03-08T09:07:00.000Z', '2024-03-08T09:12:00.000Z', '2024-03-08T09:17:00.000Z']);
        expect(r.bars.map((b) => [b.o, b.c])).toEqual([[1002, 1006], [1007, 1011], [1012, 1016], [1017, 1021]]);
      });

      it('3/day counts calendar days (weekends included) from the from date', async () => {
        const r = await bars('AAPL', 3, 'day', '2024-03-01', '2024-03-15');
        expect(r.bars.map((b) => b.t)).toEqual(['2024-03-01', '2024-03-04', '2024-03-07', '2024-03-10', '2024-03-13'].map(nyMidnight));
        expect(r.bars[3]).toMatchObject({ o: 110, c: 111.5 }); // sessions 03-11 and 03-12
      });

      it('2/week and 2/month count whole units from the unit holding from', async () => {
        const w = await bars('AAPL', 2, 'week', '2024-02-26', '2024-03-15');
        expect(w.bars.map((b) => b.t)).toEqual([nyMidnight('2024-02-25'), nyMidnight('2024-03-10')]);
        expect(w.bars[0]).toMatchObject({ o: 100, c: 109.5 });
        const m = await bars('BNDY', 2, 'month', '2023-12-01', '2024-12-31');
        expect(m.bars.map((b) => b.t)).toEqual(['2023-12-01', '2024-02-01', '2024-04-01', '2024-06-01', '2024-10-01'].map(nyMidnight));
        expect(m.bars.map((b) => b.v)).toEqual([2, 1, 1, 2, 2]);
      });
    });

    describe('split adjustment', () => {
      it('adjusted: bars before the execution date get prices × 1/2 and volume × 2; n is unchanged', async () => {
        const r = await bars('AAPL', 1, 'day', '2024-02-26', '2024-03-15');
        expect(r.bars.map((b) => b.t)).toEqual(AAPL_SESSIONS.map(nyMidnight));
        r.bars.forEach((b, i) => expect(b).toEqual({ t: nyMidnight(AAPL_SESSIONS[i]!), ...aaplAdjusted(i) }));
      });

      it('adjusted=false returns the stored raw bars', async () => {
        const r = await bars('AAPL', 1, 'day', '2024-03-07', '2024-03-12', { adjusted: false });
        expect(r.bars.map((b) => [b.o, b.v])).toEqual([
          [2 * 108, 1000 * 9], // 03-07 (session 8), before the split
          [2 * 109, 1000 * 10],
          [110, 2000 * 11], // 03-11, the execution date: already post-split
          [111, 2000 * 12],
        ]);
      });

      it('a bucket spanning the split is built from adjusted base bars (or raw ones)', async () => {
        const adj = await bars('AAPL', 1, 'month', '2024-02-26', '2024-03-15');
        expect(adj.bars.map((b) => b.t)).toEqual([nyMidnight('2024-02-01'), nyMidnight('2024-03-01')]);
        expect(adj.bars[1]).toMatchObject({ o: 104, h: 115, l: 103, c: 114.5, v: 220_000 });
        const raw = await bars('AAPL', 1, 'month', '2024-02-26', '2024-03-15', { adjusted: false });
        expect(raw.bars[1]).toMatchObject({ o: 208, h: 220, l: 109, c: 114.5, v: 175_000 });
      });

      it('intraday bars before the split are adjusted too', async () => {
        const r = await bars('AAPL', 1, 'hour', '2024-03-08', '2024-03-08');
        expect(r.bars[0]).toMatchObject({ o: 500, c: 529.5, v: 1200 });
      });
    });

    describe('limit counts base bars', () => {
      it('asc: the partial last bucket is dropped and the next page starts there', async () => {
        const r = await bars('AAPL', 1, 'hour', '2024-03-08', '2024-03-08', { adjusted: false, limit: 100 });
        expect(r.queryCount).toBe(100);
        expect(r.bars.map((b) => b.t)).toEqual([nyTime('2024-03-08', '04:00')]);
        expect(r.next).toEqual({ fromMs: nyTime('2024-03-08', '05:00') });
      });

      it('desc: reads backward from to; the next page ends before the oldest bar returned', async () => {
        const r = await bars('AAPL', 1, 'hour', '2024-03-08', '2024-03-08', { adjusted: false, limit: 100, sort: 'desc' });
        expect(r.bars.map((b) => b.t)).toEqual([nyTime('2024-03-08', '19:00')]);
        expect(r.bars[0]).toMatchObject({ o: 1900, c: 1959 });
        expect(r.next).toEqual({ toMs: nyTime('2024-03-08', '19:00') - 1 });
      });

      it('desc with limit 1 gives the latest complete bar', async () => {
        const r = await bars('AAPL', 1, 'day', '2024-01-01', '2024-12-31', { sort: 'desc', limit: 1 });
        expect(r.bars).toEqual([{ t: nyMidnight('2024-03-15'), ...aaplAdjusted(14) }]);
        expect(r.next).toEqual({ toMs: nyMidnight('2024-03-15') - 1 });
      });

      it('a limit below one bucket still serves that bucket whole, so pages always progress', async () => {
        const r = await bars('AAPL', 1, 'hour', '2024-03-08', '2024-03-08', { adjusted: false, limit: 30 });
        expect(r.bars).toHaveLength(1);
        expect(r.bars[0]).toMatchObject({ t: nyTime('2024-03-08', '04:00'), v: 600, n: 60 });
        expect(r.queryCount).toBe(60);
        expect(r.next).toEqual({ fromMs: nyTime('2024-03-08', '05:00') });
      });

      it('no next page when the range fits', async () => {
        const r = await bars('AAPL', 1, 'hour', '2024-03-08', '2024-03-08', { limit: 960 });
        expect(r.bars).toHaveLength(16);
        expect(r.next).toBeUndefined();
      });
    });

    describe('second bars from trades', () => {
      const T0 = utc('2024-03-11T13:30:00Z');

      it('fold the trades of each second; ties keep their stored order', async () => {
        const r = await bars('AAPL', 1, 'second', T0, T0 + 5000);
        expect(r.bars.map((b) => b.t)).toEqual([T0, T0 + 1000, T0 + 3000]);
        const first = AAPL_TRADES.slice(0, 7);
        const v = first.reduce((s, t) => s + t.size, 0);
        expect(r.bars[0]).toMatchObject({ o: 170.01, h: 170.09, l: 170.01, c: 170.09, v, n: 7 });
        expect(r.bars[0]!.vw).toBeCloseTo(first.reduce((s, t) => s + t.price * t.size, 0) / v, 9);
        expect(r.bars[1]).toMatchObject({ o: 170.1, c: 170.1, v: 20, n: 1 });
      });

      it('limit counts second bars', async () => {
        const r = await bars('AAPL', 1, 'second', T0, T0 + 5000, { limit: 1 });
        expect(r.bars.map((b) => b.t)).toEqual([T0]);
        expect(r.next).toEqual({ fromMs: T0 + 1000 });
      });
    });

    it('an unknown ticker has no bars', async () => {
      const r = await bars('NOPE', 1, 'day', '2024-01-01', '2024-12-31');
      expect(r).toEqual({ bars: [], queryCount: 0 });
    });
  });
}
