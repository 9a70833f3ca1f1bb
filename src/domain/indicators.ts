/**
 * Technical indicators over one price series. Pure functions, no I/O.
 *
 * Every function takes the series in ascending time order and returns an ascending
 * array holding an entry only for the bars where the indicator is fully warmed up;
 * each output carries the `t` of the bar that ends its window, as upstream's indicator endpoints do.
 *
 * Conventions (upstream does not publish its own; these are the textbook definitions):
 * - SMA: arithmetic mean of the last `window` values; first output at index window−1.
 * - EMA: α = 2/(window+1), seeded with the SMA of the first `window` values; first
 *   output at index window−1.
 * - RSI: Wilder smoothing. The first average gain/loss is the simple mean of the first
 *   `window` changes, then avg = (prev·(window−1) + current)/window. First output at
 *   index `window` (a change needs two bars). RSI = 100 when the average loss is 0
 *   (a flat series included).
 * - MACD: value = EMA(short) − EMA(long), both SMA-seeded, defined from the bar where
 *   both EMAs are; signal = SMA-seeded EMA of `value` over `signalWindow`;
 *   histogram = value − signal. Rows are emitted only where the signal is defined,
 *   i.e. from index max(short, long) − 1 + signalWindow − 1, so every row is complete.
 */

export interface SeriesPoint {
  /** Bar start time, Unix ms. */
  t: number;
  value: number;
}

export interface MacdPoint {
  t: number;
  value: number;
  signal: number;
  histogram: number;
}

export interface MacdParams {
  shortWindow: number;
  longWindow: number;
  signalWindow: number;
}

export interface IndicatorParams {
  sma: { window: number };
  ema: { window: number };
  rsi: { window: number };
  macd: MacdParams;
}

export type IndicatorKind = keyof IndicatorParams;

/**
 * Windows of EMA-style memory read before the first requested output. The weight left
 * on the seed after k further bars is (1−α)^k: for an EMA (α = 2/(w+1)) after 5·w bars
 * it is at most ≈ e^−10 ≈ 4.5e−5 of the seed's error; Wilder smoothing (α = 1/w) needs
 * 10·w bars for the same e^−10.
 */
const EMA_SETTLE_WINDOWS = 5;
const WILDER_SETTLE_WINDOWS = 10;

/**
 * Bars needed before the first requested output so that its value is complete (SMA)
 * or has forgotten its seed to within ≈ e^−10 (EMA, RSI, MACD, which have infinite
 * memory). The HTTP layer reads this many bars before the first requested timestamp.
 *
 * - SMA: window − 1 (exact).
 * - EMA: (window − 1) for the seed + 5·window to settle = 6·window − 1.
 * - RSI: window bars for the first `window` changes + 10·window to settle = 11·window.
 * - MACD: EMA lookback of max(short, long) plus EMA lookback of signalWindow, since the
 *   signal is an EMA of the MACD line and needs its own seed and settling.
 */
export function lookbackBars<K extends IndicatorKind>(kind: K, params: IndicatorParams[K]): number {
  switch (kind) {
    case 'sma': {
      const { window } = params as IndicatorParams['sma'];
      assertWindow(window, 'window');
      return window - 1;
    }
    case 'ema': {
      const { window } = params as IndicatorParams['ema'];
      assertWindow(window, 'window');
      return emaLookback(window);
    }
    case 'rsi': {
      const { window } = params as IndicatorParams['rsi'];
      assertWindow(window, 'window');
      return window + WILDER_SETTLE_WINDOWS * window;
    }
    case 'macd': {
      const { shortWindow, longWindow, signalWindow } = params as MacdParams;
      assertMacdParams(shortWindow, longWindow, signalWindow);
      return emaLookback(Math.max(shortWindow, longWindow)) + emaLookback(signalWindow);
    }
    default:
      throw new RangeError(`unknown indicator kind: ${String(kind)}`);
  }
}

function emaLookback(window: number): number {
  return window - 1 + EMA_SETTLE_WINDOWS * window;
}

/** Simple moving average: mean of the last `window` values ending at each bar. */
export function sma(series: readonly SeriesPoint[], window: number): SeriesPoint[] {
  assertWindow(window, 'window');
  return stampFrom(series, window - 1, smaValues(series.map((p) => p.value), window));
}

/** Exponential moving average, α = 2/(window+1), seeded with the SMA of the first `window` values. */
export function ema(series: readonly SeriesPoint[], window: number): SeriesPoint[] {
  assertWindow(window, 'window');
  return stampFrom(series, window - 1, emaValues(series.map((p) => p.value), window));
}

/** Relative strength index (0–100) with Wilder smoothing; first output at index `window`. */
export function rsi(series: readonly SeriesPoint[], window: number): SeriesPoint[] {
  assertWindow(window, 'window');
  const out: SeriesPoint[] = [];
  if (series.length <= window) return out;

  let gainSum = 0;
  let lossSum = 0;
  for (let i = 1; i <= window; i++) {
    const change = series[i]!.value - series[i - 1]!.value;
    if (change > 0) gainSum += change;
    else lossSum -= change;
  }
  let avgGain = gainSum / window;
  let avgLoss = lossSum / window;
  out.push({ t: series[window]!.t, value: rsiFromAverages(avgGain, avgLoss) });

  for (let i = window + 1; i < series.length; i++) {
    const change = series[i]!.value - series[i - 1]!.value;
    avgGain = (avgGain * (window - 1) + (change > 0 ? change : 0)) / window;
    avgLoss = (avgLoss * (window - 1) + (change < 0 ? -change : 0)) / window;
    out.push({ t: series[i]!.t, value: rsiFromAverages(avgGain, avgLoss) });
  }
  return out;
}

function rsiFromAverages(avgGain: number, avgLoss: number): number {
  if (avgLoss === 0) return 100;
  // Same as 100 − 100/(1 + avgGain/avgLoss), without the division by a tiny avgLoss.
  return (100 * avgGain) / (avgGain + avgLoss);
}

/**
 * MACD line, signal line and histogram. Only rows where the signal is defined are
 * returned (see the module comment), so the first row falls at index
 * max(shortWindow, longWindow) + signalWindow − 2.
 */
export function macd(
  series: readonly SeriesPoint[],
  shortWindow: number,
  longWindow: number,
  signalWindow: number,
): MacdPoint[] {
  assertMacdParams(shortWindow, longWindow, signalWindow);
  const values = series.map((p) => p.value);
  const shortEma = emaValues(values, shortWindow); // shortEma[j] belongs to bar j + shortWindow − 1
  const longEma = emaValues(values, longWindow);
  const first = Math.max(shortWindow, longWindow) - 1; // first bar with both EMAs

  const line: number[] = [];
  for (let i = first; i < values.length; i++) {
    line.push(shortEma[i - shortWindow + 1]! - longEma[i - longWindow + 1]!);
  }
  const signal = emaValues(line, signalWindow); // signal[k] belongs to line[k + signalWindow − 1]

  const out: MacdPoint[] = [];
  for (let k = 0; k < signal.length; k++) {
    const j = k + signalWindow - 1;
    const value = line[j]!;
    out.push({ t: series[first + j]!.t, value, signal: signal[k]!, histogram: value - signal[k]! });
  }
  return out;
}

/** SMA outputs only; element j belongs to input index j + window − 1. */
function smaValues(values: readonly number[], window: number): number[] {
  const out: number[] = [];
  if (values.length < window) return out;
  let sum = 0;
  for (let i = 0; i < window; i++) sum += values[i]!;
  out.push(sum / window);
  for (let i = window; i < values.length; i++) {
    // A running sum drifts over long series; re-add the window once per `window` steps
    // (amortised O(1)) so every output stays as exact as a fresh sum.
    if ((i - window + 1) % window === 0) {
      sum = 0;
      for (let k = i - window + 1; k <= i; k++) sum += values[k]!;
    } else {
      sum += values[i]! - values[i - window]!;
    }
    out.push(sum / window);
  }
  return out;
}

/** SMA-seeded EMA outputs only; element j belongs to input index j + window − 1. */
function emaValues(values: readonly number[], window: number): number[] {
  const out: number[] = [];
  if (values.length < window) return out;
  const alpha = 2 / (window + 1);
  let sum = 0;
  for (let i = 0; i < window; i++) sum += values[i]!;
  let current = sum / window;
  out.push(current);
  for (let i = window; i < values.length; i++) {
    current += alpha * (values[i]! - current);
    out.push(current);
  }
  return out;
}

function stampFrom(series: readonly SeriesPoint[], offset: number, values: readonly number[]): SeriesPoint[] {
  return values.map((value, j) => ({ t: series[j + offset]!.t, value }));
}

function assertWindow(window: number, name: string): void {
  if (!Number.isInteger(window) || window < 1) {
    throw new RangeError(`${name} must be a positive integer, got ${window}`);
  }
}

function assertMacdParams(shortWindow: number, longWindow: number, signalWindow: number): void {
  assertWindow(shortWindow, 'shortWindow');
  assertWindow(longWindow, 'longWindow');
  assertWindow(signalWindow, 'signalWindow');
}
