import { describe, expect, it } from 'vitest';
import { nyMidnight, nyTime } from '../../src/domain/calendar.js';
import { walkPages } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';
import { useSeededApps } from '../helpers/app-fixture.js';

// Opt-in dividend adjustment of range aggregates (`dividends=true`), by hand-worked example.
//
// DIVCO, week of 2025-03-03. Raw day closes: Mon 200, Tue 204 (before a 1→2 split executed Wed),
// Wed 98, Thu 97, Fri 99; o = c, h = c + 1, l = c − 1 (raw), v = 1000.
// Dividend A: ex Tue 03-04, $4.00 declared on the pre-split share; the close before is Mon 200
//   → factor 1 − 4/200 = 0.98 for Mon.
// Dividend B: ex Thu 03-06, $0.98; the close before is Wed's day close 98 (not the last minute bar,
//   an after-hours print at 90) → factor 1 − 0.98/98 = 0.99 for Mon, Tue, Wed.
// Split-adjusted (adjusted=true) closes 100, 102, 98, 97, 99; with dividends:
//   Mon 100 × 0.98 × 0.99 = 97.02, Tue 102 × 0.99 = 100.98, Wed 98 × 0.99 = 97.02, Thu 97, Fri 99.
// Unadjusted for splits (adjusted=false) with dividends: Mon 200 × 0.9702 = 194.04, Tue 204 × 0.99 = 201.96.

const DAYS = ['2025-03-03', '2025-03-04', '2025-03-05', '2025-03-06', '2025-03-07'];
const RAW = [200, 204, 98, 97, 99];
const RANGE = '/v2/aggs/ticker/DIVCO/range/1/day/2025-03-03/2025-03-07';

const close = (data: any) => data.results.map((b: any) => b.c);

for (const engine of engines()) {
  describe(`aggregates with dividends=true (${engine.name})`, () => {
    const now = () => Date.parse('2026-01-01T00:00:00Z');
    const { apps: [t, native] } = useSeededApps(engine, async (store) => {
      await store.market.insertBars('day', DAYS.map((d, i) => ({ ticker: 'DIVCO', t: nyMidnight(d), o: RAW[i]!, h: RAW[i]! + 1, l: RAW[i]! - 1, c: RAW[i]!, v: 1000, vw: RAW[i]!, n: 10 })));
      await store.market.insertBars('minute', [
        { ticker: 'DIVCO', t: nyTime('2025-03-05', '10:00'), o: 98.5, h: 98.5, l: 98.5, c: 98.5, v: 10, vw: 98.5, n: 1 },
        { ticker: 'DIVCO', t: nyTime('2025-03-05', '19:59'), o: 90, h: 90, l: 90, c: 90, v: 10, vw: 90, n: 1 },
        { ticker: 'DIVCO', t: nyTime('2025-03-06', '10:00'), o: 97.5, h: 97.5, l: 97.5, c: 97.5, v: 10, vw: 97.5, n: 1 },
      ]);
      await store.corporateActions.upsertSplits([{ ticker: 'DIVCO', execution_date: '2025-03-05', split_from: 1, split_to: 2, adjustment_type: 'forward_split' }]);
      const dividend = (ex: string, cash: number) => ({ ticker: 'DIVCO', cash_amount: cash, ex_dividend_date: ex, frequency: 4, distribution_type: 'recurring', dividend_type: 'CD' });
      await store.corporateActions.upsertDividends([dividend('2025-03-04', 4), dividend('2025-03-06', 0.98)]);
    }, { now }, { envelope: 'native', now });

    const get = async (url: string) => {
      const res = await t.get(url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    };

    it('leaves upstream behaviour alone by default: splits only', async () => {
      expect(close(await get(RANGE))).toEqual([100, 102, 98, 97, 99]);
      expect(close(await get(`${RANGE}?dividends=false`))).toEqual([100, 102, 98, 97, 99]);
      expect(close(await get(`${RANGE}?adjusted=false`))).toEqual(RAW);
    });

    it('back-adjusts every price before each ex-date by 1 − cash / previous close, volumes untouched', async () => {
      const data = await get(`${RANGE}?dividends=true`);
      const expected = [97.02, 100.98, 97.02, 97, 99];
      data.results.forEach((b: any, i: number) => {
        expect(b.c).toBeCloseTo(expected[i]!, 10);
        expect(b.o).toBeCloseTo(expected[i]!, 10);
        expect(b.vw).toBeCloseTo(expected[i]!, 10);
      });
      // highs and lows: Mon (201, 199 raw) × 0.5 × 0.9702; Tue (205, 203 raw) × 0.5 × 0.99
      expect(data.results[0].h).toBeCloseTo(97.5051, 10);
      expect(data.results[0].l).toBeCloseTo(96.5349, 10);
      expect(data.results[1].h).toBeCloseTo(101.475, 10);
      expect(data.results[1].l).toBeCloseTo(100.485, 10);
      expect(data.results.map((b: any) => b.v)).toEqual([2000, 2000, 1000, 1000, 1000]);
      expect(data.results.map((b: any) => b.n)).toEqual([10, 10, 10, 10, 10]);
      expect(data.adjusted).toBe(true);
    });

    it('works without split adjustment too (dividends are independent of adjusted)', async () => {
      const c = close(await get(`${RANGE}?dividends=true&adjusted=false`));
      [194.04, 201.96, 97.02, 97, 99].forEach((x, i) => expect(c[i]).toBeCloseTo(x, 10));
    });

    it('adjusts base bars before bucketing: a weekly bar over the ex-dates', async () => {
      const [week] = (await get('/v2/aggs/ticker/DIVCO/range/1/week/2025-03-03/2025-03-07?dividends=true')).results;
      expect(week.o).toBeCloseTo(97.02, 10);
      expect(week.c).toBe(99);
      expect(week.h).toBeCloseTo(101.475, 10); // Tue's 205 × 0.5 × 0.99
      expect(week.l).toBe(96); // Thu's raw low, after both ex-dates
      expect(week.v).toBe(7000);
    });

    it('takes the close before the ex-date from the day bar, for minute bars as well', async () => {
      const data = await get('/v2/aggs/ticker/DIVCO/range/1/minute/2025-03-05/2025-03-06?dividends=true');
      // Wed 10:00 98.5 × 0.99 (factor from the 98 day close, not the 90 after-hours print); Thu unchanged.
      expect(data.results.map((b: any) => b.c)).toEqual([expect.closeTo(97.515, 10), expect.closeTo(89.1, 10), 97.5]);
    });

    it('keeps dividends=true across pages (the cursor carries it), both envelopes', async () => {
      const whole = close(await get(`${RANGE}?dividends=true`));
      const pages = await walkPages(native, `${RANGE}?dividends=true&limit=2`);
      expect(pages.length).toBe(3);
      expect(pages.flatMap((p) => p.results.map((b: any) => b.c))).toEqual(whole);
      const desc = await walkPages(native, `${RANGE}?dividends=true&limit=2&sort=desc`);
      expect(desc.flatMap((p) => p.results.map((b: any) => b.c))).toEqual([...whole].reverse());
    });

    it('rejects a value that is not a boolean, naming the parameter', async () => {
      const res = await t.get(`${RANGE}?dividends=maybe`);
      expect(res.status).toBe(400);
      expect(res.body.data.error).toBe('dividends must be true or false');
    });
  });
}
