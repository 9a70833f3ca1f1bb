import { describe, expect, it } from 'vitest';
import { AverageGain, AverageLoss, EMA, MACD, RSI, SMA } from 'technicalindicators';
import { ema, lookbackBars, macd, rsi, sma, type SeriesPoint } from '../../src/domain/indicators.js';
import { mulberry32 } from '../helpers/mulberry32.js';

const DAY_MS = 86_400_000;
const T0 = 1_478_232_000_000; // 2016-11-04 00:00 ET, upstream's documented sample daily timestamp

/** A geometric random walk of daily closes around 100. */
function randomCloses(n: number, seed: number): SeriesPoint[] {
  const rand = mulberry32(seed);
  const out: SeriesPoint[] = [];
  let price = 100;
  for (let i = 0; i < n; i++) {
    price *= Math.exp((rand() - 0.5) * 0.06);
    out.push({ t: T0 + i * DAY_MS, value: price });
  }
  return out;
}

function fromValues(values: number[]): SeriesPoint[] {
  return values.map((value, i) => ({ t: T0 + i * DAY_MS, value }));
}

function expectClose(actual: number, expected: number, relTol = 1e-9, scale = Math.abs(expected)): void {
  const tol = relTol * Math.max(scale, 1e-300);
  if (!(Math.abs(actual - expected) <= tol)) {
    throw new Error(`expected ${actual} to be within ${tol} of ${expected}`);
  }
}

const closes = randomCloses(400, 42);
const values = closes.map((p) => p.value);

describe('sma', () => {
  it('matches hand-computed means, stamped with the bar that ends the window', () => {
    const series = fromValues([1, 2, 3, 4, 5]);
    expect(sma(series, 3)).toEqual([
      { t: series[2]!.t, value: 2 },
      { t: series[3]!.t, value: 3 },
      { t: series[4]!.t, value: 4 },
    ]);
  });

  it('window 1 is the series itself', () => {
    expect(sma(closes, 1)).toEqual(closes);
  });

  it('emits nothing until the window is full', () => {
    expect(sma(fromValues([1, 2]), 3)).toEqual([]);
    expect(sma(fromValues([1, 2, 3]), 3)).toHaveLength(1);
    expect(sma([], 5)).toEqual([]);
  });

  it.each([2, 5, 14, 50, 200])('agrees with technicalindicators SMA (window %i) to 1e-9', (window) => {
    const ours = sma(closes, window);
    const oracle = SMA.calculate({ period: window, values });
    expect(ours).toHaveLength(oracle.length);
    expect(ours).toHaveLength(closes.length - window + 1);
    ours.forEach((p, j) => {
      expect(p.t).toBe(closes[j + window - 1]!.t);
      expectClose(p.value, oracle[j]!);
    });
  });

  it('stays equal to a fresh sum over a long series (no running-sum drift)', () => {
    const long = randomCloses(20_000, 7).map((p) => ({ t: p.t, value: p.value * 1e6 }));
    const window = 37;
    const ours = sma(long, window);
    for (const j of [0, 1, 36, 37, 5_000, 12_345, ours.length - 1]) {
      let sum = 0;
      for (let k = j; k < j + window; k++) sum += long[k]!.value;
      expectClose(ours[j]!.value, sum / window, 1e-13);
    }
  });
});

describe('ema', () => {
  it('is seeded with the SMA of the first window values, then α = 2/(window+1)', () => {
    // window 3 → α = 0.5; seed mean(2,4,6) = 4; 4 + 0.5·(8−4) = 6; 6 + 0.5·(3−6) = 4.5
    const series = fromValues([2, 4, 6, 8, 3]);
    expect(ema(series, 3)).toEqual([
      { t: series[2]!.t, value: 4 },
      { t: series[3]!.t, value: 6 },
      { t: series[4]!.t, value: 4.5 },
    ]);
  });

  it('window 1 (α = 1) is the series itself', () => {
    expect(ema(closes, 1)).toEqual(closes);
  });

  it('emits nothing until the seed window is full', () => {
    expect(ema(fromValues([1, 2, 3, 4]), 5)).toEqual([]);
  });

  it.each([2, 5, 12, 26, 50, 200])('agrees with technicalindicators EMA (window %i) to 1e-9', (window) => {
    const ours = ema(closes, window);
    const oracle = EMA.calculate({ period: window, values });
    expect(ours).toHaveLength(oracle.length);
    expect(ours).toHaveLength(closes.length - window + 1);
    ours.forEach((p, j) => {
      expect(p.t).toBe(closes[j + window - 1]!.t);
      expectClose(p.value, oracle[j]!);
    });
  });
});

describe('rsi', () => {
  it('uses Wilder smoothing (hand-computed, window 2)', () => {
    // changes +1 −1 +2 0 −1
    // idx2: gain (1+0)/2 = .5, loss (0+1)/2 = .5 → 50
    // idx3: gain (.5+2)/2 = 1.25, loss .5/2 = .25 → 83.33…
    // idx4: gain .625, loss .125 → 83.33…
    // idx5: gain .3125, loss (.125+1)/2 = .5625 → 35.714…
    const series = fromValues([10, 11, 10, 12, 12, 11]);
    const out = rsi(series, 2);
    expect(out.map((p) => p.t)).toEqual([series[2]!.t, series[3]!.t, series[4]!.t, series[5]!.t]);
    const expected = [50, 250 / 3, 250 / 3, (100 * 0.3125) / 0.875];
    out.forEach((p, i) => expectClose(p.value, expected[i]!, 1e-12));
  });

  it('is 100 when prices only rise or stay flat, 0 when they only fall', () => {
    expect(rsi(fromValues([1, 2, 3, 4, 5, 6]), 3).map((p) => p.value)).toEqual([100, 100, 100]);
    expect(rsi(fromValues([5, 5, 5, 5, 5]), 3).map((p) => p.value)).toEqual([100, 100]);
    expect(rsi(fromValues([6, 5, 4, 3, 2, 1]), 3).map((p) => p.value)).toEqual([0, 0, 0]);
  });

  it('needs window + 1 bars for its first value', () => {
    expect(rsi(fromValues([1, 2, 3]), 3)).toEqual([]);
    expect(rsi(fromValues([1, 2, 3, 4]), 3)).toHaveLength(1);
  });

  it('stays within 0..100', () => {
    for (const p of rsi(closes, 14)) {
      expect(p.value).toBeGreaterThanOrEqual(0);
      expect(p.value).toBeLessThanOrEqual(100);
    }
  });

  it.each([2, 5, 14, 30])('agrees with technicalindicators Wilder averages (window %i) to 1e-9', (window) => {
    // The oracle's RSI is rounded to 2 decimals, its average gain/loss are not:
    // rebuild RSI from them for a full-precision comparison.
    const gains = AverageGain.calculate({ period: window, values });
    const losses = AverageLoss.calculate({ period: window, values });
    const ours = rsi(closes, window);
    expect(ours).toHaveLength(gains.length);
    expect(ours).toHaveLength(closes.length - window);
    ours.forEach((p, j) => {
      expect(p.t).toBe(closes[j + window]!.t);
      const g = gains[j]!;
      const l = losses[j]!;
      expectClose(p.value, l === 0 ? 100 : 100 - 100 / (1 + g / l));
    });
  });

  it.each([2, 14])('agrees with technicalindicators RSI (window %i) to its 2-decimal rounding', (window) => {
    const oracle = RSI.calculate({ period: window, values });
    const ours = rsi(closes, window);
    expect(ours).toHaveLength(oracle.length);
    ours.forEach((p, j) => expect(Math.abs(p.value - oracle[j]!)).toBeLessThanOrEqual(0.005 + 1e-9));
  });
});

/** Straightforward MACD from the definitions, independent of the module's helpers. */
function referenceMacd(xs: number[], short: number, long: number, signalW: number) {
  const emaAt = (arr: number[], w: number): (number | undefined)[] => {
    const out: (number | undefined)[] = arr.map(() => undefined);
    if (arr.length < w) return out;
    let e = arr.slice(0, w).reduce((a, b) => a + b, 0) / w;
    out[w - 1] = e;
    for (let i = w; i < arr.length; i++) {
      e = (2 / (w + 1)) * arr[i]! + (1 - 2 / (w + 1)) * e;
      out[i] = e;
    }
    return out;
  };
  const s = emaAt(xs, short);
  const l = emaAt(xs, long);
  const start = Math.max(short, long) - 1;
  const line = xs.slice(start).map((_, k) => s[k + start]! - l[k + start]!);
  const sig = emaAt(line, signalW);
  const rows: { index: number; value: number; signal: number; histogram: number }[] = [];
  line.forEach((v, k) => {
    const g = sig[k];
    if (g !== undefined) rows.push({ index: k + start, value: v, signal: g, histogram: v - g });
  });
  return rows;
}

describe('macd', () => {
  it('matches hand-computed values (short 2, long 3, signal 2)', () => {
    // EMA2 (α=2/3): 3, 5, 7, 13/3, 43/9 from idx1; EMA3 (α=1/2): 4, 6, 4.5, 4.75 from idx2
    // line from idx2: 1, 1, −1/6, 1/36; signal seeded at idx3 with mean(1,1) = 1,
    // then 1 + 2/3·(−1/6 − 1) = 2/9, then 2/9 + 2/3·(1/36 − 2/9) = 5/54
    const series = fromValues([2, 4, 6, 8, 3, 5]);
    const out = macd(series, 2, 3, 2);
    expect(out.map((r) => r.t)).toEqual([series[3]!.t, series[4]!.t, series[5]!.t]);
    const expected = [
      { value: 1, signal: 1, histogram: 0 },
      { value: -1 / 6, signal: 2 / 9, histogram: -7 / 18 },
      { value: 1 / 36, signal: 5 / 54, histogram: -7 / 108 },
    ];
    out.forEach((row, i) => {
      expectClose(row.value, expected[i]!.value, 1e-12, 1);
      expectClose(row.signal, expected[i]!.signal, 1e-12, 1);
      expectClose(row.histogram, expected[i]!.histogram, 1e-12, 1);
    });
  });

  it('emits rows only once the signal line is defined', () => {
    const out = macd(closes, 12, 26, 9);
    expect(out).toHaveLength(closes.length - (26 - 1) - (9 - 1));
    expect(out[0]!.t).toBe(closes[26 + 9 - 2]!.t);
    expect(macd(closes.slice(0, 26 + 9 - 2), 12, 26, 9)).toEqual([]);
    expect(macd(closes.slice(0, 26 + 9 - 1), 12, 26, 9)).toHaveLength(1);
  });

  it('value is EMA(short) − EMA(long) and histogram is value − signal', () => {
    const e12 = new Map(ema(closes, 12).map((p) => [p.t, p.value]));
    const e26 = new Map(ema(closes, 26).map((p) => [p.t, p.value]));
    for (const row of macd(closes, 12, 26, 9)) {
      expectClose(row.value, e12.get(row.t)! - e26.get(row.t)!, 1e-12, 100);
      expect(row.histogram).toBe(row.value - row.signal);
    }
  });

  it.each([
    [12, 26, 9],
    [5, 35, 5],
    [3, 10, 16],
    [26, 12, 9], // short and long swapped: still defined from the later of the two EMAs
  ])('agrees with a straightforward reimplementation (%i/%i/%i)', (short, long, signalW) => {
    const ours = macd(closes, short, long, signalW);
    const ref = referenceMacd(values, short, long, signalW);
    expect(ours).toHaveLength(ref.length);
    ours.forEach((row, j) => {
      expect(row.t).toBe(closes[ref[j]!.index]!.t);
      // MACD values sit near zero; compare relative to the price level.
      expectClose(row.value, ref[j]!.value, 1e-11, 100);
      expectClose(row.signal, ref[j]!.signal, 1e-11, 100);
      expectClose(row.histogram, ref[j]!.histogram, 1e-11, 100);
    });
  });

  it.each([
    [12, 26, 9],
    [5, 35, 5],
    [3, 10, 16],
  ])('agrees with technicalindicators MACD, EMA mode (%i/%i/%i)', (fastPeriod, slowPeriod, signalPeriod) => {
    // The oracle's EMA is SMA-seeded and its MACD line starts at the slow EMA's first
    // bar, as ours does; it also emits rows before the signal exists, which we skip.
    const oracle = MACD.calculate({
      values,
      fastPeriod,
      slowPeriod,
      signalPeriod,
      SimpleMAOscillator: false,
      SimpleMASignal: false,
    }).filter((r) => r.signal !== undefined);
    const ours = macd(closes, fastPeriod, slowPeriod, signalPeriod);
    expect(ours).toHaveLength(oracle.length);
    ours.forEach((row, j) => {
      expectClose(row.value, oracle[j]!.MACD!, 1e-9, 100);
      expectClose(row.signal, oracle[j]!.signal!, 1e-9, 100);
      expectClose(row.histogram, oracle[j]!.histogram!, 1e-9, 100);
    });
  });
});

describe('window validation', () => {
  it.each([0, -1, 1.5, Number.NaN])('rejects window %s', (w) => {
    expect(() => sma(closes, w)).toThrow(RangeError);
    expect(() => ema(closes, w)).toThrow(RangeError);
    expect(() => rsi(closes, w)).toThrow(RangeError);
    expect(() => macd(closes, w, 26, 9)).toThrow(RangeError);
    expect(() => macd(closes, 12, w, 9)).toThrow(RangeError);
    expect(() => macd(closes, 12, 26, w)).toThrow(RangeError);
    expect(() => lookbackBars('sma', { window: w })).toThrow(RangeError);
  });
});

describe('lookbackBars', () => {
  it('gives the documented counts', () => {
    expect(lookbackBars('sma', { window: 50 })).toBe(49);
    expect(lookbackBars('ema', { window: 50 })).toBe(6 * 50 - 1);
    expect(lookbackBars('rsi', { window: 14 })).toBe(11 * 14);
    expect(lookbackBars('macd', { shortWindow: 12, longWindow: 26, signalWindow: 9 })).toBe(6 * 26 - 1 + (6 * 9 - 1));
  });

  // The HTTP layer reads lookbackBars bars before the first requested output; the value
  // at that output must match what a much longer history gives.
  const history = randomCloses(3_000, 99);
  const target = 2_500; // index of the first requested output

  it('SMA from the lookback alone is exact', () => {
    const window = 50;
    const start = target - lookbackBars('sma', { window });
    const short = sma(history.slice(start, target + 1), window);
    expect(short).toHaveLength(1);
    expect(short[0]!.t).toBe(history[target]!.t);
    expectClose(short[0]!.value, sma(history, window)[target - window + 1]!.value, 1e-13);
  });

  it.each([2, 14, 50, 200])('EMA (window %i) from the lookback matches full history to 1e-5 relative', (window) => {
    const start = target - lookbackBars('ema', { window });
    const short = ema(history.slice(start, target + 1), window);
    const full = ema(history, window);
    expect(short.at(-1)!.t).toBe(history[target]!.t);
    expectClose(short.at(-1)!.value, full[target - window + 1]!.value, 1e-5);
  });

  it.each([2, 14, 50])('RSI (window %i) from the lookback matches full history to 0.005 RSI points', (window) => {
    const start = target - lookbackBars('rsi', { window });
    const short = rsi(history.slice(start, target + 1), window);
    const full = rsi(history, window);
    expect(short.at(-1)!.t).toBe(history[target]!.t);
    expect(Math.abs(short.at(-1)!.value - full[target - window]!.value)).toBeLessThan(0.005);
  });

  it('MACD from the lookback matches full history to 1e-6 of the price', () => {
    const params = { shortWindow: 12, longWindow: 26, signalWindow: 9 };
    const start = target - lookbackBars('macd', params);
    const short = macd(history.slice(start, target + 1), 12, 26, 9);
    const full = macd(history, 12, 26, 9).find((r) => r.t === history[target]!.t)!;
    expect(short.at(-1)!.t).toBe(history[target]!.t);
    const price = history[target]!.value;
    expectClose(short.at(-1)!.value, full.value, 1e-6, price);
    expectClose(short.at(-1)!.signal, full.signal, 1e-6, price);
  });
});
