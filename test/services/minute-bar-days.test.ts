// Ascending pages of minute bars answered from days kept in memory. Each page must be the page the
// store writes for the same range (items byte for byte, count, whether all start on the minute,
// the last bar and the one after it) over ranges starting and ending inside days, across weekends
// without bars, on days of more bars than a read takes at once, OTC bars, and budgets too small to
// keep a ticker; a kept day is not read again, and a write is never answered from days read before
// it; 1/minute aggregates over the live edge after each new minute bar equal the store's; a read's
// days are parsed with the event loop let go between them. Both engines.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BarRow } from '../../src/domain/market-records.js';
import { AggregateService } from '../../src/services/market-data.js';
import { listenLiveWrites } from '../../src/services/live-events.js';
import { storeLiveMinuteBars } from '../../src/services/live-ticks.js';
import { MinuteBarDays, type MinuteBarDaySource } from '../../src/services/minute-bar-days.js';
import type { Store } from '../../src/store/index.js';
import type { BarJsonPage, BarRange } from '../../src/store/repos/market-port.js';
import { settledDataVersion } from '../helpers/data-version.js';
import { engines } from '../helpers/engines.js';

const DAY = 86_400_000;
const MIN = 60_000;
const START = Date.UTC(2026, 2, 6); // a Friday
const DAYS = 12;

/** Bars of `ticker` on some minutes of 12 days from a Friday (none on the weekend), prices with long decimals. */
function bars(ticker: string, perDay: number, step = MIN): BarRow[] {
  const out: BarRow[] = [];
  for (let d = 0; d < DAYS; d++) {
    const weekday = new Date(START + d * DAY).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    for (let i = 0; i < perDay; i++) {
      const k = d * perDay + i;
      out.push({ ticker, t: START + d * DAY + 8 * 3_600_000 + i * step, o: 100 + k / 7, h: 101 + k / 3, l: 99 - k / 11, c: 100.5 + 0.3 * k, v: 1000 + k * 0.25, vw: 100.25 + k / 13, n: 10 + k });
    }
  }
  return out;
}

function text(p: BarJsonPage | undefined) {
  if (!p) return undefined;
  const items = Buffer.isBuffer(p.items) ? p.items.toString() : p.items.map(String).join(',');
  return { items, count: p.count, aligned: p.aligned, lastT: p.lastT, nextT: p.nextT };
}

/** A source that counts the reads it passes to the store. */
function counting(store: Store): MinuteBarDaySource & { reads: number } {
  const source = {
    reads: 0,
    readMinuteBarDays: (...args: Parameters<MinuteBarDaySource['readMinuteBarDays']>) => {
      source.reads++;
      return store.market.readMinuteBarDays(...args);
    },
  };
  return source;
}

for (const engine of engines()) {
  describe(`minute bars kept by day (${engine.name})`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
      await store.market.insertBars('minute', [
        ...bars('AAPL', 90),
        ...bars('OTCX', 20),
        ...bars('DENSE', 3500, 20_000), // 3,500 bars a day, 20 s apart: more than one read takes past a page, and off the minute
        [{ ticker: 'MIX', t: START + 9 * 3_600_000 + 30_000, o: 1, h: 1, l: 1, c: 1 }, { ticker: 'MIX', t: START + 9 * 3_600_000 + 60_000, o: 1, h: 1, l: 1, c: 1, v: 5 }],
      ].flat());
    }, 120_000);
    afterAll(async () => store?.close());

    const ranges = fc.record({
      ticker: fc.constantFrom('AAPL', 'OTCX', 'DENSE', 'MIX', 'NONE'),
      from: fc.integer({ min: -DAY, max: (DAYS + 1) * DAY }),
      length: fc.integer({ min: 1, max: (DAYS + 2) * DAY }),
      limit: fc.constantFrom(1, 2, 7, 89, 90, 91, 500, 4000, 50_000),
      otc: fc.boolean(),
    });

    it('answers every ascending page as the store writes it', async () => {
      const days = new MinuteBarDays(store.market, () => store.dataVersion());
      await fc.assert(
        fc.asyncProperty(ranges, async (r) => {
          const range: BarRange = { ticker: r.ticker, fromMs: START + r.from, toMs: START + r.from + r.length, order: 'asc', limit: r.limit };
          const kept = await days.page(range, r.otc);
          expect(kept).toBeDefined();
          expect(text(kept)).toEqual(text(await store.market.readMinuteBarsJsonPage(range, r.otc)));
        }),
        { numRuns: 150 },
      );
    });

    it('walks a range page by page as the store does, and reads each day once', async () => {
      const source = counting(store);
      const days = new MinuteBarDays(source, () => store.dataVersion());
      for (const ticker of ['AAPL', 'DENSE']) {
        for (let pass = 0; pass < 2; pass++) {
          let range: BarRange = { ticker, fromMs: START + 3_600_000, toMs: START + DAYS * DAY, order: 'asc', limit: ticker === 'DENSE' ? 2000 : 100 };
          const readsBefore = source.reads;
          let pages = 0;
          for (;;) {
            const kept = await days.page(range, false);
            const stored = await store.market.readMinuteBarsJsonPage(range, false);
            expect(text(kept), `${ticker} page ${pages}`).toEqual(text(stored));
            pages++;
            if (stored.nextT === undefined) break;
            range = { ...range, fromMs: stored.lastT! + 1 };
          }
          expect(pages).toBeGreaterThan(5);
          if (pass === 1) expect(source.reads, `${ticker}: the second walk reads nothing`).toBe(readsBefore);
        }
      }
      expect(days.bytes).toBeGreaterThan(0);
    });

    it('reads again only the day of a minute bar the live feed stored, and answers with it', async () => {
      const source = counting(store);
      const days = new MinuteBarDays(source, () => store.importVersion());
      const stop = listenLiveWrites(store, (w) => days.forgetLiveBars(w.bars));
      try {
        // tickers of this test's own: the other tests count AAPL's and MIX's bars
        await store.market.insertBars('minute', bars('LIVEM', 2));
        await settledDataVersion(store, engine.name); // PostgreSQL hears its own commits a moment later
        const range: BarRange = { ticker: 'LIVEM', fromMs: START, toMs: START + DAYS * DAY, order: 'asc', limit: 50_000 };
        await days.page(range, false);
        const reads = source.reads;
        const spans: number[] = [];
        const read = source.readMinuteBarDays;
        source.readMinuteBarDays = (ticker, fromMs, toMs, ...rest) => {
          spans.push((toMs - fromMs) / DAY);
          return read(ticker, fromMs, toMs, ...rest);
        };
        // another ticker's bar: nothing read again
        await storeLiveMinuteBars(store, [{ ticker: 'LIVEO', t: START + 5 * DAY + 20 * 3_600_000, o: 1, h: 1, l: 1, c: 1, v: 1 }]);
        await days.page(range, false);
        expect(source.reads).toBe(reads);
        // its own bar on day 5: that day alone read again, and the page shows the bar
        await storeLiveMinuteBars(store, [{ ticker: 'LIVEM', t: START + 5 * DAY + 20 * 3_600_000, o: 7, h: 7, l: 7, c: 7, v: 3 }]);
        const kept = await days.page(range, false);
        expect(spans).toEqual([1]);
        expect(text(kept)).toEqual(text(await store.market.readMinuteBarsJsonPage(range, false)));
        expect(kept!.count).toBe(bars('LIVEM', 2).length + 1);
      } finally {
        stop();
      }
    });

    it('answers 1/minute aggregates over the live edge, after each new minute bar, as the store does', async () => {
      // many days of bars, so that the kept days' read is parsed in several slices
      await store.market.insertBars('minute', bars('EDGE', 700));
      await settledDataVersion(store, engine.name);
      const now = () => START + DAYS * DAY;
      const kept = new AggregateService(store, now);
      const stored = new AggregateService(store, now, 0); // no kept days: the store's full path
      const req = { ticker: 'EDGE', multiplier: 1, timespan: 'minute' as const, fromMs: START, toMs: START + DAYS * DAY - 1, adjusted: true, sort: 'asc' as const, limit: 50_000 };
      const answer = async (s: AggregateService) => {
        const r = await s.rangeJson(req);
        const results = 'joined' in r.results ? (Buffer.isBuffer(r.results.joined) || typeof r.results.joined === 'string' ? String(r.results.joined) : r.results.joined.map(String).join(',')) : r.results.json;
        return { results, count: r.count, queryCount: r.queryCount, next: r.next };
      };
      expect(await answer(kept)).toEqual(await answer(stored));
      const lastDay = START + (DAYS - 1) * DAY; // a weekday
      for (const [i, minuteOfDay] of [20 * 60, 20 * 60 + 1, 23 * 60 + 59].entries()) {
        await storeLiveMinuteBars(store, [{ ticker: 'EDGE', t: lastDay + minuteOfDay * MIN, o: 5 + i, h: 6 + i, l: 4 + i, c: 5.5 + i, v: 10 + i, vw: 5.25 + i, n: 2 + i }]);
        const live = await answer(kept);
        expect(live.count, `after live bar ${i + 1}`).toBe(bars('EDGE', 700).length + i + 1);
        expect(live, `after live bar ${i + 1}`).toEqual(await answer(stored));
      }
    });

    it('lets the event loop go between the days of a read once a slice is due', async () => {
      const read = await store.market.readMinuteBarDays('AAPL', START, START + DAYS * DAY, 100_000, false);
      expect(read.length).toBeGreaterThan(5);
      const days = new MinuteBarDays({ readMinuteBarDays: async () => read }, () => 'v');
      let clock = 0;
      vi.spyOn(performance, 'now').mockImplementation(() => (clock += 5)); // every day's parse outlasts a slice
      let turns = 0;
      let done = false;
      const turn = () => {
        if (done) return;
        turns++;
        setImmediate(turn);
      };
      setImmediate(turn);
      try {
        const page = await days.page({ ticker: 'AAPL', fromMs: START, toMs: START + DAYS * DAY, order: 'asc', limit: 50_000 }, false);
        expect(page?.count).toBe(90 * 8);
      } finally {
        done = true;
        vi.restoreAllMocks();
      }
      // other work (the feed's sends) ran between the days, not only once the whole read was parsed
      expect(turns).toBeGreaterThanOrEqual(read.length - 1);
    });

    it('keeps no more than its budget, and still answers right', async () => {
      const days = new MinuteBarDays(store.market, () => store.dataVersion(), 64 * 1024);
      for (const ticker of ['DENSE', 'AAPL', 'OTCX', 'DENSE']) {
        const range: BarRange = { ticker, fromMs: START, toMs: START + DAYS * DAY, order: 'asc', limit: 50_000 };
        expect(text(await days.page(range, false))).toEqual(text(await store.market.readMinuteBarsJsonPage(range, false)));
        expect(days.bytes).toBeLessThanOrEqual(64 * 1024);
      }
    });

    it('leaves descending pages and times before 1970 to the store', async () => {
      const days = new MinuteBarDays(store.market, () => store.dataVersion());
      expect(await days.page({ ticker: 'AAPL', fromMs: START, toMs: START + DAY, order: 'desc', limit: 10 }, false)).toBeUndefined();
      expect(await days.page({ ticker: 'AAPL', fromMs: -MIN, toMs: START + DAY, order: 'asc', limit: 10 }, false)).toBeUndefined();
    });

    it('serves 1/minute aggregates from the kept days unless the budget is 0 (--memory-bars-mb 0)', async () => {
      const req = { ticker: 'AAPL', multiplier: 1, timespan: 'minute' as const, fromMs: START, toMs: START + DAYS * DAY, adjusted: true, sort: 'asc' as const, limit: 50_000 };
      for (const budget of [undefined, 0]) {
        const kept = vi.spyOn(store.market, 'readMinuteBarDays');
        const read = vi.spyOn(store.market, 'readMinuteBarsJsonPage');
        const r = await new AggregateService(store, () => START + 30 * DAY, budget).rangeJson(req);
        expect(r.count).toBe(90 * 8); // 8 weekdays of 90 bars
        expect(r.fromMemory).toBe(budget === 0 ? undefined : true);
        expect(kept).toHaveBeenCalledTimes(budget === 0 ? 0 : 1);
        expect(read).toHaveBeenCalledTimes(budget === 0 ? 1 : 0);
        vi.restoreAllMocks();
      }
    });

    it('never answers from days read before a write', async () => {
      const days = new MinuteBarDays(store.market, () => store.dataVersion());
      const range: BarRange = { ticker: 'LATE', fromMs: START, toMs: START + DAYS * DAY, order: 'asc', limit: 50_000 };
      await store.market.insertBars('minute', bars('LATE', 3));
      const before = text(await days.page(range, false));
      expect(before?.count).toBeGreaterThan(0);
      await store.market.insertBars('minute', [{ ticker: 'LATE', t: START + 2 * DAY + 5 * MIN, o: 7, h: 8, l: 6, c: 7.5, v: 42 }]);
      const after = text(await days.page(range, false));
      expect(after?.count).toBe(before!.count + 1);
      expect(after).toEqual(text(await store.market.readMinuteBarsJsonPage(range, false)));
    });
  });
}
