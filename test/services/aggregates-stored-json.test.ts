// `1/minute` ranges over minute bars that no split adjusts are written as JSON by the store. Each
// page must be what the bar-object path (rangeBars, its bars through JSON.stringify) answers: the
// same bars after JSON.parse, the same counts and the same next page, page after page, in both
// orders, for stocks, OTC stocks, index bars without volume, bars off the minute (which fall back
// to buckets) and splits inside or before the range, on both engines; and the same page again
// from the minute bars kept in memory by day, byte for byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BarRow } from '../../src/domain/market-records.js';
import { rangeBars, rangeBarsJson, type RangeRequest } from '../../src/services/aggregates.js';
import { MinuteBarDays } from '../../src/services/minute-bar-days.js';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';

const DAY = Date.UTC(2026, 2, 10, 14, 30); // a Tuesday, 09:30 ET
const MIN = 60_000;

function minutes(ticker: string, n: number, extra: (i: number) => Partial<BarRow> = () => ({})): BarRow[] {
  return Array.from({ length: n }, (_v, i) => ({
    ticker, t: DAY + i * MIN, o: 100 + i / 7, h: 101 + i / 3, l: 99 - i / 11, c: 100.5 + (0.1 + 0.2) * i, v: 1000 + i * 0.25, vw: 100.25 + i / 13, n: 10 + i, ...extra(i),
  }));
}

const CASES: Array<{ ticker: string; from: number; note: string }> = [
  { ticker: 'AAPL', from: DAY - 3 * MIN, note: 'stock' },
  { ticker: 'OTCX', from: DAY, note: 'OTC stock (otc on each bar)' },
  { ticker: 'I:SPX', from: DAY, note: 'index bars without v, vw, n' },
  { ticker: 'MIX', from: DAY, note: 'one bar 30 s off the minute' },
  { ticker: 'SPLT', from: DAY - 86_400_000, note: 'a split inside the range' },
  { ticker: 'OLD', from: DAY, note: 'a split before the range' },
];

for (const engine of engines()) {
  describe(`1/minute ranges written as JSON by the store (${engine.name})`, () => {
    let store: Store;
    let days: MinuteBarDays;
    beforeAll(async () => {
      store = await engine.open();
      days = new MinuteBarDays(store.market, () => store.dataVersion());
      await store.market.insertBars('minute', [
        ...minutes('AAPL', 260), // more than PostgreSQL's 100-row chunks on one page
        ...minutes('OTCX', 25),
        ...minutes('I:SPX', 25, () => ({ v: undefined, vw: undefined, n: undefined })),
        ...minutes('MIX', 25, (i) => (i === 13 ? { t: DAY + i * MIN + 30_000 } : {})),
        ...minutes('SPLT', 25, (i) => ({ t: DAY - 86_400_000 + i * 3_600_000 })),
        ...minutes('OLD', 25),
      ]);
      await store.reference.upsertTickers([{ ticker: 'OTCX', name: 'OTC X', market: 'otc', locale: 'us', active: true, last_updated_utc: '2026-03-01T00:00:00Z', valid_from: '2000-01-01' }]);
      await store.corporateActions.upsertSplits([
        { ticker: 'SPLT', execution_date: '2026-03-10', split_from: 1, split_to: 4, adjustment_type: 'forward_split' },
        { ticker: 'OLD', execution_date: '2026-03-02', split_from: 1, split_to: 2, adjustment_type: 'forward_split' },
      ]);
    }, 60_000);
    afterAll(async () => store?.close());

    for (const c of CASES) {
      for (const sort of ['asc', 'desc'] as const) {
        it(`${c.note}, ${sort}: every page as the bar objects give it`, async () => {
          for (const limit of [7, 50_000]) {
            let req: RangeRequest = { ticker: c.ticker, multiplier: 1, timespan: 'minute', fromMs: c.from, toMs: DAY + 2 * 86_400_000, adjusted: true, sort, limit };
            let bars = 0;
            for (let pages = 0; pages < 30; pages++) {
              const fast = await rangeBarsJson(store, req);
              const want = await rangeBars(store, req);
              const served = 'json' in fast.results ? fast.results.json : `[${fast.results.joined.toString()}]`; // an array's toString joins with commas
              expect(JSON.parse(served), `${c.ticker} page ${pages}`).toEqual(JSON.parse(JSON.stringify(want.bars)));
              expect({ count: fast.count, queryCount: fast.queryCount, next: fast.next }).toEqual({ count: want.bars.length, queryCount: want.queryCount, next: want.next });
              // the same from the minute bars kept by day, byte for byte
              const kept = await rangeBarsJson(store, req, days);
              const keptText = 'json' in kept.results ? kept.results.json : `[${kept.results.joined.toString()}]`;
              expect({ text: keptText, count: kept.count, queryCount: kept.queryCount, next: kept.next }).toEqual({ text: served, count: fast.count, queryCount: fast.queryCount, next: fast.next });
              // the store wrote the page where no bucket needs building
              if (c.ticker !== 'MIX' && c.ticker !== 'SPLT') expect('joined' in fast.results).toBe(true);
              bars += fast.count;
              if (!fast.next) break;
              req = { ...req, ...fast.next };
            }
            expect(bars).toBeGreaterThan(0);
          }
        });
      }
    }
  });
}
