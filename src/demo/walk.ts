// The demo's price walks: per-ticker parameters and a running split-adjusted price, stepped
// over fractions of a day, and the bar and candle shapes drawn from them. Every walk draws from
// its own forked PRNG stream, so what it generates does not depend on the order of generation.
import type { Bar } from '../domain/bars.js';
import type { Session } from '../domain/calendar.js';
import type { BarRow, QuoteRow, TradeRow } from '../domain/market-records.js';
import { createRng, type Rng } from './random.js';

export const MINUTE_MS = 60_000;

export function roundTo(x: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
}

export function priceDecimals(level: number): number {
  return level >= 1000 ? 2 : level >= 1 ? 4 : 6;
}

/** Per-ticker parameters and the running (split-adjusted) price. */
export interface Walk {
  ticker: string;
  rng: Rng;
  price: number;
  /** Daily log-return volatility and drift. */
  sigma: number;
  drift: number;
  /** Typical daily volume (shares, coins; forex: quote updates). */
  volume: number;
  /** Typical trade size, for transaction counts. */
  tradeSize: number;
  decimals: number;
  /** Decimals of volume: whole shares and quote counts, fractions of coins. */
  volumeDecimals: number;
  /** Pull towards `meanLevel` per day (log terms): keeps indices, pairs and coins in plausible ranges. */
  meanLevel: number;
  reversion: number;
}

/** One step of the walk over `fraction` of a day; returns the new price. */
export function step(w: Walk, fraction: number, sigmaScale = 1): number {
  const sd = w.sigma * Math.sqrt(fraction) * sigmaScale;
  let r = w.drift * fraction + w.rng.normal(0, sd);
  if (w.reversion > 0) r += w.reversion * fraction * Math.log(w.meanLevel / w.price);
  w.price *= Math.exp(r);
  return w.price;
}

export interface Ohlc {
  o: number;
  h: number;
  l: number;
  c: number;
}

/** o → c plus wicks, in raw (rounded) prices; h ≥ max(o, c) and l ≤ min(o, c) hold after rounding. */
export function candle(w: Walk, o: number, c: number, wick: number, factor: number): Ohlc {
  const hi = Math.max(o, c) * Math.exp(Math.abs(w.rng.normal(0, wick)));
  const lo = Math.min(o, c) * Math.exp(-Math.abs(w.rng.normal(0, wick)));
  const d = w.decimals;
  const ro = roundTo(o * factor, d);
  const rc = roundTo(c * factor, d);
  return { o: ro, c: rc, h: Math.max(roundTo(hi * factor, d), ro, rc), l: Math.min(roundTo(lo * factor, d), ro, rc) };
}

/** A bar's volume-weighted price where no prints are generated: (o+h+l+2c)/5, inside [l, h]. */
export function typicalPrice(p: Ohlc, decimals: number): number {
  return roundTo(Math.min(p.h, Math.max(p.l, (p.o + p.h + p.l + 2 * p.c) / 5)), decimals);
}

export function withVolume(w: Walk, ticker: string, t: number, p: Ohlc, volume: number, factor: number): BarRow {
  const v = Math.max(10 ** -w.volumeDecimals, roundTo(volume / factor, w.volumeDecimals));
  const vw = typicalPrice(p, 4);
  const n = Math.max(1, Math.round((volume / w.tradeSize) * Math.exp(w.rng.normal(0, 0.2))));
  return { ticker, t, ...p, v, vw, n };
}

export function indexBar(ticker: string, t: number, p: Ohlc): BarRow {
  return { ticker, t, ...p, v: undefined, vw: undefined, n: undefined };
}

/** A day bar straight from the daily walk (days without minute data). */
export function dailyBar(w: Walk, t: number, factor: number, withVol: boolean): BarRow {
  const o = step(w, 0.1);
  const c = step(w, 0.9);
  const p = candle(w, o, c, w.sigma * 0.5, factor);
  if (!withVol) return indexBar(w.ticker, t, p);
  const move = Math.abs(Math.log(c / o)) / w.sigma;
  return withVolume(w, w.ticker, t, p, w.volume * Math.exp(w.rng.normal(0, 0.3)) * (0.7 + 0.3 * move), factor);
}

/** Intraday volume weight of a minute: a U over the regular session, thin outside it. */
export function minuteWeight(t: number, s: Session): number {
  if (t < s.open || t >= s.close) return 0.04;
  const x = (t - s.open) / (s.close - s.open);
  return 1 + 3 * (2 * x - 1) ** 2;
}

export function sessionWeight(s: Session): number {
  let sum = 0;
  for (let t = s.preOpen; t < s.postClose; t += MINUTE_MS) sum += minuteWeight(t, s);
  return sum;
}

export const BAR_TO_ROW = (ticker: string) => (b: Bar): BarRow => ({ ticker, t: b.t, o: b.o, h: b.h, l: b.l, c: b.c, v: b.v, vw: b.vw, n: b.n });

export interface Rows {
  day: BarRow[];
  minute: BarRow[];
  trades: TradeRow[];
  quotes: QuoteRow[];
}

export function emptyRows(): Rows {
  return { day: [], minute: [], trades: [], quotes: [] };
}

/** A count with mean `mean` (not Poisson, but unbiased and cheap). */
export function countAround(rng: Rng, mean: number): number {
  const base = Math.floor(mean);
  return base + (rng.next() < mean - base ? 1 : 0);
}

/** Sorted random nanosecond offsets within a minute. */
export function offsetsInMinute(rng: Rng, count: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(Math.floor(rng.next() * 60e9));
  return out.sort((a, b) => a - b);
}

export type WalkParams = Omit<Walk, 'ticker' | 'rng' | 'decimals' | 'meanLevel' | 'reversion' | 'volumeDecimals'> & { reversion?: number; volumeDecimals?: number };

export function newWalk(ticker: string, kind: string, init: (rng: Rng) => WalkParams, decimals?: number): Walk {
  const rng = createRng('tickerbase-demo-market').fork(`${kind}/${ticker}`);
  const params = init(rng);
  return {
    ticker,
    rng,
    ...params,
    meanLevel: params.price,
    reversion: params.reversion ?? 0,
    volumeDecimals: params.volumeDecimals ?? 0,
    decimals: decimals ?? priceDecimals(params.price),
  };
}

/**
 * The walk carried on from a stored price (split-adjusted) with the same parameters (its mean
 * level included, so the pull towards it is unchanged) and a new PRNG stream named by `stream`.
 */
export function continueWalk(w: Walk, kind: string, price: number, stream: string): Walk {
  return { ...w, price, rng: createRng('tickerbase-demo-market').fork(`${kind}/${w.ticker}/${stream}`) };
}

/** Appends every row of `more` to `rows`. */
export function appendRows(rows: Rows, more: Rows): Rows {
  for (const key of ['day', 'minute', 'trades', 'quotes'] as const) {
    for (const row of more[key]) (rows[key] as unknown[]).push(row);
  }
  return rows;
}
