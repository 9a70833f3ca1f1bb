/**
 * Technical indicators (SMA, EMA, RSI, MACD) over aggregate bars. The bars come from the
 * aggregation service (`rangeBars`, multiplier 1, the requested timespan and adjustment), so an
 * indicator is computed from exactly what /v2/aggs/.../range returns for the same ticker.
 *
 * - Values are emitted for bars whose start `t` lies in [lo, hi): the timestamp filters, bounded
 *   above by the clock. Without filters: the newest values (order=desc) or the oldest (asc).
 * - Lookback: `lookbackBars(kind, params)` bars are read before the first value on the page, so an
 *   SMA is exact and an EMA/RSI/MACD has forgotten its seed to within about e^−10 (EMA seeded with
 *   the SMA of its first window; RSI with Wilder smoothing; see domain/indicators.ts). At the start
 *   of a ticker's history fewer bars exist and the first values use what there is.
 * - `underlying.url` is the range-aggregates URL of the bars read (from the first bar used to the
 *   upper bound); `underlying.aggregates` lists those bars, oldest first.
 */
import type { IndicatorValue } from '../domain/indicator-schemas.js';
import type { Bar, Timespan } from '../domain/bars.js';
import { ema, lookbackBars, macd, rsi, sma, type IndicatorKind, type IndicatorParams, type MacdPoint, type SeriesPoint } from '../domain/indicators.js';
import { AGGS_MAX_LIMIT, rangeBars, type AggregatesStore } from './aggregates.js';

export type SeriesType = 'open' | 'high' | 'low' | 'close';
const SERIES_FIELD: Record<SeriesType, 'o' | 'h' | 'l' | 'c'> = { open: 'o', high: 'h', low: 'l', close: 'c' };

export interface IndicatorRequest<K extends IndicatorKind> {
  kind: K;
  params: IndicatorParams[K];
  ticker: string;
  timespan: Exclude<Timespan, 'second'>;
  adjusted: boolean;
  seriesType: SeriesType;
  order: 'asc' | 'desc';
  /** Values to return; one more is looked for to know whether a next page exists. */
  limit: number;
  /** Bar starts (ms) of the values: [lo, hi). */
  lo: number;
  hi: number;
}

export type { IndicatorValue };

export interface IndicatorResult {
  /** In `order`, at most limit + 1 (the extra one only signals a next page). */
  values: IndicatorValue[];
  /** Bars read, oldest first. */
  bars: Bar[];
  /** Bounds of the bars read, for underlying.url. */
  fromMs: number;
  toMs: number;
}

/** Bars of [fromMs, toMs] newest first, at most `count` (whole buckets), paging through rangeBars. */
async function barsBackward(store: AggregatesStore, req: IndicatorRequest<IndicatorKind>, fromMs: number, toMs: number, count: number, enough?: (bars: Bar[]) => boolean): Promise<Bar[]> {
  const out: Bar[] = [];
  let to = toMs;
  while (out.length < count && to >= fromMs) {
    const r = await rangeBars(store, { ticker: req.ticker, multiplier: 1, timespan: req.timespan, fromMs, toMs: to, adjusted: req.adjusted, sort: 'desc', limit: AGGS_MAX_LIMIT });
    out.push(...r.bars);
    if (!r.next || !('toMs' in r.next) || enough?.(out)) break;
    to = r.next.toMs;
  }
  return out.slice(0, count);
}

/** Bars of [fromMs, toMs] oldest first, at most `count`. */
async function barsForward(store: AggregatesStore, req: IndicatorRequest<IndicatorKind>, fromMs: number, toMs: number, count: number): Promise<Bar[]> {
  const out: Bar[] = [];
  let from = fromMs;
  while (out.length < count && from <= toMs) {
    const r = await rangeBars(store, { ticker: req.ticker, multiplier: 1, timespan: req.timespan, fromMs: from, toMs, adjusted: req.adjusted, sort: 'asc', limit: AGGS_MAX_LIMIT });
    out.push(...r.bars);
    if (!r.next || !('fromMs' in r.next)) break;
    from = r.next.fromMs;
  }
  return out.slice(0, count);
}

function compute<K extends IndicatorKind>(kind: K, params: IndicatorParams[K], series: SeriesPoint[]): IndicatorValue[] {
  switch (kind) {
    case 'sma':
      return sma(series, (params as IndicatorParams['sma']).window).map((p) => ({ timestamp: p.t, value: p.value }));
    case 'ema':
      return ema(series, (params as IndicatorParams['ema']).window).map((p) => ({ timestamp: p.t, value: p.value }));
    case 'rsi':
      return rsi(series, (params as IndicatorParams['rsi']).window).map((p) => ({ timestamp: p.t, value: p.value }));
    default: {
      const m = params as IndicatorParams['macd'];
      return macd(series, m.shortWindow, m.longWindow, m.signalWindow).map((p: MacdPoint) => ({ timestamp: p.t, value: p.value, signal: p.signal, histogram: p.histogram }));
    }
  }
}

/** Earliest instant bars are read from when no lower bound applies. */
const BEGINNING = 0;

export async function indicatorValues<K extends IndicatorKind>(store: AggregatesStore, req: IndicatorRequest<K>): Promise<IndicatorResult> {
  const lookback = lookbackBars(req.kind, req.params);
  const want = req.limit + 1;
  const upper = req.hi - 1;
  let bars: Bar[];
  if (req.lo > upper) {
    bars = [];
  } else if (req.order === 'desc') {
    // newest `want` bars of the range plus `lookback` older ones; stop early once enough bars
    // older than `lo` are in hand
    const lo = req.lo;
    const desc = await barsBackward(store, req, BEGINNING, upper, want + lookback, (got) => got.filter((b) => b.t < lo).length >= lookback);
    bars = desc.reverse();
  } else {
    const lo = Math.max(req.lo, BEGINNING);
    // (both reads snap to whole buckets: a bucket starting before `lo` is lookback, not a value)
    const before = lookback > 0 && lo > BEGINNING ? (await barsBackward(store, req, BEGINNING, lo - 1, lookback)).reverse() : [];
    const after = (await barsForward(store, req, lo, upper, want + 1 + Math.max(0, lookback - before.length))).filter((b) => b.t >= lo);
    bars = [...before, ...after];
  }
  const field = SERIES_FIELD[req.seriesType];
  const all = compute(req.kind, req.params, bars.map((b) => ({ t: b.t, value: b[field] })));
  const inRange = all.filter((v) => v.timestamp >= req.lo && v.timestamp < req.hi);
  const values = req.order === 'desc' ? inRange.slice(-want).reverse() : inRange.slice(0, want);

  // Keep only the bars behind the page (the lookback before its oldest value, through its newest;
  // the extra value that only signals a next page does not count), and compute the page from
  // exactly those bars, so that underlying.aggregates reproduces every value.
  const page = values.slice(0, req.limit);
  let used = bars;
  if (page.length) {
    const oldest = Math.min(page[0]!.timestamp, page[page.length - 1]!.timestamp);
    const newest = Math.max(page[0]!.timestamp, page[page.length - 1]!.timestamp);
    const first = bars.findIndex((b) => b.t === oldest);
    const last = bars.findIndex((b) => b.t === newest);
    used = bars.slice(Math.max(0, first - lookback), last + 1);
    if (used.length !== bars.length) {
      const exact = new Map(compute(req.kind, req.params, used.map((b) => ({ t: b.t, value: b[field] }))).map((v) => [v.timestamp, v]));
      for (let i = 0; i < page.length; i++) values[i] = exact.get(page[i]!.timestamp) ?? page[i]!;
    }
  }
  return { values, bars: used, fromMs: used.length ? used[0]!.t : Math.max(req.lo, BEGINNING), toMs: upper };
}
