import { AverageGain, AverageLoss, EMA, MACD, SMA } from 'technicalindicators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nyMidnight, tradingDaysBetween } from '../../src/domain/calendar.js';
import { createRng } from '../../src/demo/random.js';
import type { BarRow } from '../../src/domain/market-records.js';
import type { Store } from '../../src/store/index.js';
import { startTestApp, walkPages, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';

// technicalindicators is the oracle: an independent implementation run on the bars the endpoint
// reports it used (expand_underlying) or on the aggregates endpoint's own bars.
const CLOCK = Date.parse('2026-11-20T17:00:00Z');
const DAYS = tradingDaysBetween('2025-04-01', '2026-11-19');

function walk(ticker: string, start: number, seed: string, t: (i: number) => number, n: number, volume = true): BarRow[] {
  const rng = createRng(seed);
  let c = start;
  return Array.from({ length: n }, (_, i) => {
    const o = c;
    c = Math.max(1, c * (1 + rng.normal(0, 0.015)));
    const h = Math.max(o, c) * (1 + rng.float(0, 0.01));
    const l = Math.min(o, c) * (1 - rng.float(0, 0.01));
    return { ticker, t: t(i), o, h, l, c, ...(volume ? { v: rng.int(1e5, 1e6), vw: (o + c) / 2, n: rng.int(100, 900) } : {}) };
  });
}

const close = (xs: any[]) => xs.map((b) => b.c);
const byTs = (values: any[]) => new Map(values.map((v) => [v.timestamp, v]));

for (const engine of engines()) {
  describe(`technical indicators (${engine.name})`, () => {
    let store: Store;
    let t: TestApp;
    let all: any[]; // every IND day bar from the aggregates endpoint
    beforeAll(async () => {
      store = await engine.open();
      const day = (i: number) => nyMidnight(DAYS[i]!);
      await store.market.insertBars('day', [
        ...walk('IND', 100, 'ind', day, DAYS.length),
        ...walk('I:SPX', 5000, 'spx', day, DAYS.length, false),
        ...walk('O:IND261218C00100000', 8, 'opt', day, 120).map((b, i) => ({ ...b, t: day(DAYS.length - 120 + i) })),
        ...walk('C:EURUSD', 1.1, 'fx', (i) => Date.parse('2026-01-01T00:00:00Z') + i * 86_400_000, 300),
        ...walk('X:BTCUSD', 60_000, 'btc', (i) => nyMidnight('2026-01-01') + i * 86_400_000 + (i > 66 ? 3_600_000 : 0), 300),
      ]);
      // minute bars of one session for minute/hour indicators
      await store.market.insertBars('minute', walk('IND', 100, 'indm', (i) => nyMidnight('2026-11-19') + 4 * 3_600_000 + i * 60_000, 960));
      t = await startTestApp(store, { envelope: 'native', now: () => CLOCK });
      all = (await t.get(`/v2/aggs/ticker/IND/range/1/day/2025-01-01/2026-11-20?limit=50000`)).body.results;
      expect(all).toHaveLength(DAYS.length);
    });
    afterAll(async () => {
      await t.close();
      await store.close();
    });

    async function ok(url: string) {
      const res = await t.get(url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    }

    it('SMA: the latest 10 values by default, newest first, equal to the oracle on the full history', async () => {
      const b = await ok('/v1/indicators/sma/IND?window=20');
      expect(b.status).toBe('OK');
      const values = b.results.values;
      expect(values).toHaveLength(10);
      expect(values.map((v: any) => v.timestamp)).toEqual(all.slice(-10).map((x) => x.t).reverse());
      const oracle = SMA.calculate({ period: 20, values: close(all) });
      const expected = oracle.slice(-10).reverse();
      values.forEach((v: any, i: number) => expect(v.value).toBeCloseTo(expected[i]!, 9));
      expect(b.next_url).toMatch(/^http:\/\/localhost(:\d+)?\/v1\/indicators\/sma\/IND\?cursor=/);
    });

    it('SMA on open/high/low and on weekly bars', async () => {
      for (const [series, field] of [['open', 'o'], ['high', 'h'], ['low', 'l']] as const) {
        const b = await ok(`/v1/indicators/sma/IND?window=5&series_type=${series}&limit=3`);
        const oracle = SMA.calculate({ period: 5, values: all.map((x) => x[field]) }).slice(-3).reverse();
        b.results.values.forEach((v: any, i: number) => expect(v.value).toBeCloseTo(oracle[i]!, 9));
      }
      const weeks = (await ok('/v2/aggs/ticker/IND/range/1/week/2025-01-01/2026-11-20?limit=50000')).results;
      const b = await ok('/v1/indicators/sma/IND?window=4&timespan=week&limit=5');
      const oracle = SMA.calculate({ period: 4, values: close(weeks) }).slice(-5).reverse();
      expect(b.results.values.map((v: any) => v.timestamp)).toEqual(weeks.slice(-5).map((w: any) => w.t).reverse());
      b.results.values.forEach((v: any, i: number) => expect(v.value).toBeCloseTo(oracle[i]!, 9));
    });

    it('EMA: equals the oracle on the bars it reports using, and the full-history oracle once settled', async () => {
      const b = await ok('/v1/indicators/ema/IND?window=10&limit=20&expand_underlying=true');
      const used = b.results.underlying.aggregates;
      expect(used.length).toBe(20 + (6 * 10 - 1)); // the page plus the documented lookback
      const onUsed = EMA.calculate({ period: 10, values: close(used) });
      const usedTs = used.slice(9).map((x: any) => x.t);
      const oracleByTs = new Map<number, number>(usedTs.map((ts: number, i: number) => [ts, onUsed[i]!]));
      for (const v of b.results.values) expect(v.value).toBeCloseTo(oracleByTs.get(v.timestamp)!, 9);
      const full = EMA.calculate({ period: 10, values: close(all) });
      const fullByTs = new Map(all.slice(9).map((x, i) => [x.t, full[i]!]));
      for (const v of b.results.values) expect(Math.abs(v.value - fullByTs.get(v.timestamp)!) / v.value).toBeLessThan(1e-4);
    });

    it('RSI: Wilder averages of the oracle, to full precision', async () => {
      const b = await ok('/v1/indicators/rsi/IND?limit=15&expand_underlying=true');
      const used = b.results.underlying.aggregates;
      const gains = AverageGain.calculate({ period: 14, values: close(used) });
      const losses = AverageLoss.calculate({ period: 14, values: close(used) });
      const ts = used.slice(14).map((x: any) => x.t);
      const oracle = new Map<number, number>(ts.map((x: number, i: number) => [x, 100 - 100 / (1 + gains[i]! / losses[i]!)]));
      expect(b.results.values).toHaveLength(15);
      for (const v of b.results.values) {
        expect(v.value).toBeGreaterThan(0);
        expect(v.value).toBeLessThan(100);
        expect(v.value).toBeCloseTo(oracle.get(v.timestamp)!, 9);
      }
    });

    it('MACD: value, signal and histogram of the oracle (12/26/9 by default, and custom windows)', async () => {
      for (const [s, l, g, url] of [
        [12, 26, 9, '/v1/indicators/macd/IND?limit=12&expand_underlying=true'],
        [5, 20, 10, '/v1/indicators/macd/IND?short_window=5&long_window=20&signal_window=10&limit=7&expand_underlying=true'],
      ] as const) {
        const b = await ok(url);
        const used = b.results.underlying.aggregates;
        const rows = MACD.calculate({ values: close(used), fastPeriod: s, slowPeriod: l, signalPeriod: g, SimpleMAOscillator: false, SimpleMASignal: false });
        // the oracle's rows start at the slow EMA's first bar
        const ts = used.slice(l - 1).map((x: any) => x.t);
        const oracle = new Map<number, (typeof rows)[number]>(ts.map((x: number, i: number) => [x, rows[i]!]));
        for (const v of b.results.values) {
          const o = oracle.get(v.timestamp)!;
          expect(v.value).toBeCloseTo(o.MACD!, 9);
          expect(v.signal).toBeCloseTo(o.signal!, 9);
          expect(v.histogram).toBeCloseTo(o.histogram!, 9);
        }
      }
    });

    it('timestamp filters: dates and integers read by size (s, ms, µs, ns) select the same values', async () => {
      const from = '2026-06-01';
      const to = '2026-06-30';
      const byDate = await ok(`/v1/indicators/sma/IND?window=5&timestamp.gte=${from}&timestamp.lte=${to}&limit=100`);
      const inJune = all.filter((x) => x.t >= nyMidnight(from) && x.t < nyMidnight('2026-07-01'));
      expect(byDate.results.values.map((v: any) => v.timestamp)).toEqual(inJune.map((x) => x.t).reverse());
      const lo = nyMidnight(from);
      const hi = nyMidnight('2026-07-01') - 1;
      for (const [a, b] of [[lo, hi], [lo / 1000, Math.floor(hi / 1000)], [lo * 1000, hi * 1000], [`${lo}000000`, `${hi}000000`]]) {
        const r = await ok(`/v1/indicators/sma/IND?window=5&timestamp.gte=${a}&timestamp.lte=${b}&limit=100`);
        expect(r.results.values).toEqual(byDate.results.values);
      }
      const gt = await ok(`/v1/indicators/sma/IND?window=5&timestamp.gt=${from}&timestamp.lt=2026-06-05&limit=100`);
      expect(gt.results.values.map((v: any) => v.timestamp)).toEqual([nyMidnight('2026-06-04'), nyMidnight('2026-06-03'), nyMidnight('2026-06-02')]);
      const one = await ok('/v1/indicators/sma/IND?window=5&timestamp=2026-06-03');
      expect(one.results.values.map((v: any) => v.timestamp)).toEqual([nyMidnight('2026-06-03')]);
      // values filtered to June still use May's bars as lookback: equal to the full-history values
      const full = byTs((await ok('/v1/indicators/sma/IND?window=5&limit=5000')).results.values);
      for (const v of byDate.results.values) expect(v.value).toBeCloseTo(full.get(v.timestamp).value, 9);
    });

    it('order=asc starts at the lower bound; without a bound, at the first complete window', async () => {
      const b = await ok('/v1/indicators/sma/IND?window=5&order=asc&timestamp.gte=2026-06-01&limit=3');
      expect(b.results.values.map((v: any) => v.timestamp)).toEqual(['2026-06-01', '2026-06-02', '2026-06-03'].map(nyMidnight));
      const first = await ok('/v1/indicators/sma/IND?window=5&order=asc&limit=2');
      expect(first.results.values.map((v: any) => v.timestamp)).toEqual([all[4].t, all[5].t]);
      const oracle = SMA.calculate({ period: 5, values: close(all) });
      expect(first.results.values[0].value).toBeCloseTo(oracle[0]!, 9);
    });

    it('next_url pages through every value once, in both orders', async () => {
      for (const order of ['desc', 'asc']) {
        const pages = await walkPages(t, `/v1/indicators/ema/IND?window=8&order=${order}&timestamp.gte=2026-01-01&limit=40`);
        const got = pages.flatMap((p) => p.results.values);
        const single = (await ok(`/v1/indicators/ema/IND?window=8&order=${order}&timestamp.gte=2026-01-01&limit=5000`)).results.values;
        expect(got.map((v: any) => v.timestamp)).toEqual(single.map((v: any) => v.timestamp));
        // EMA values depend (by less than e^-10 of the seed's error) on where the lookback starts
        got.forEach((v: any, i: number) => expect(Math.abs(v.value - single[i].value) / single[i].value).toBeLessThan(1e-4));
        expect(pages.length).toBe(Math.ceil(single.length / 40));
        expect(pages[pages.length - 1].next_url).toBeUndefined();
        for (const p of pages) expect(p.results.underlying.url).toBeDefined();
      }
    });

    it('underlying.url is the absolute aggregates URL of the bars used, without the key; aggregates only when expanded', async () => {
      const b = await ok('/v1/indicators/sma/IND?window=3&limit=4');
      expect(b.results.underlying.aggregates).toBeUndefined();
      const url = new URL(b.results.underlying.url);
      expect(url.origin).toMatch(/^http:\/\/localhost/);
      expect(url.pathname).toBe(`/v2/aggs/ticker/IND/range/1/day/${all[all.length - 6].t}/${CLOCK}`);
      expect(url.search).not.toMatch(/apiKey|api_key/i);
      expect(url.searchParams.get('adjusted')).toBe('true');
      const bars = (await ok(url.pathname + url.search)).results;
      expect(bars.map((x: any) => x.t)).toEqual(all.slice(-6).map((x) => x.t).reverse());
      const expanded = await ok('/v1/indicators/sma/IND?window=3&limit=4&expand_underlying=true');
      expect(expanded.results.underlying.aggregates.map((x: any) => x.t)).toEqual(all.slice(-6).map((x) => x.t));
    });

    it('serves every asset class through the ticker prefix', async () => {
      for (const ticker of ['I:SPX', 'O:IND261218C00100000', 'C:EURUSD', 'X:BTCUSD', 'C:EUR-USD']) {
        const b = await ok(`/v1/indicators/sma/${encodeURIComponent(ticker)}?window=10&limit=5&expand_underlying=true`);
        expect(b.results.values, ticker).toHaveLength(5);
        const bars = b.results.underlying.aggregates;
        const oracle = SMA.calculate({ period: 10, values: close(bars) }).slice(-5).reverse();
        b.results.values.forEach((v: any, i: number) => expect(v.value).toBeCloseTo(oracle[i]!, 9));
      }
    });

    it('minute and hour timespans use minute bars', async () => {
      const m = await ok('/v1/indicators/sma/IND?timespan=minute&window=30&limit=3');
      expect(m.results.values[0].timestamp).toBe(nyMidnight('2026-11-19') + 4 * 3_600_000 + 959 * 60_000);
      const h = await ok('/v1/indicators/rsi/IND?timespan=hour&window=5&limit=100');
      expect(h.results.values).toHaveLength(16 - 5);
    });

    it('a ticker without bars answers an empty list', async () => {
      const b = await ok('/v1/indicators/sma/NOPE?window=5');
      expect(b.results.values).toEqual([]);
      expect(b.results.underlying.url).toContain('/v2/aggs/ticker/NOPE/range/1/day/');
      expect(b.next_url).toBeUndefined();
    });
  });
}
