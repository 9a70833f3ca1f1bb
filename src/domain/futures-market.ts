// Futures market data: the records of trades, quotes and minute bars of futures contracts, the
// trading date (session_end_date) a tick belongs to, and the candles of /futures/vX/aggs.
//
// A Globex trading date D runs from 18:00 ET on the day before D to 18:00 ET on D (the session
// itself closes at 17:00, or earlier on holidays; futures-calendar.ts). Candles shorter than a
// session are counted from the start of their trading date and never reach into the next one, so
// a 5hour candle starting 14:00 ET holds the last three hours of its session only. Candles of a
// session or longer start at 00:00 UTC of their first trading date (a week on the Sunday, a month
// on the 1st), as upstream's session candles do (window_start 2025-02-04T00:00Z for the session
// ending 2025-02-04).
import { bucketStart, type Timespan } from './bars.js';
import { dateOfDay, dayOfDate, nyDateOf, nyTime, parseDate } from './calendar.js';
import { badParameter } from './errors.js';
import { globexSession } from './futures-calendar.js';
import { MAX_STORED_NS, NS_PER_MS } from './nanoseconds.js';

export interface FuturesTrade {
  ticker: string;
  /** Exchange time, Unix ns. */
  timestamp: bigint;
  sequence_number: bigint;
  /** The trading date (YYYY-MM-DD). */
  session_end_date: string;
  price: number;
  size: number;
  report_sequence?: bigint;
  channel?: number;
}

export interface FuturesQuote {
  ticker: string;
  timestamp: bigint;
  sequence_number: bigint;
  session_end_date: string;
  bid_price?: number;
  bid_size?: number;
  bid_timestamp?: bigint;
  ask_price?: number;
  ask_size?: number;
  ask_timestamp?: bigint;
  report_sequence?: bigint;
  channel?: number;
}

export interface FuturesMinuteBar {
  ticker: string;
  /** Start of the minute, Unix ns. */
  window_start: bigint;
  session_end_date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  transactions: number;
  /** Σ price × size of the minute's trades. */
  dollar_volume: number;
}

/** One candle of /futures/vX/aggs: a minute bar, or minute bars (or trades) folded together. */
export interface FuturesCandle extends FuturesMinuteBar {
  /** Candles of a session or longer: the settlement of their last session. */
  settlement_price?: number;
}

const HOUR_MS = 3_600_000;

/** Start (Unix ms) of trading date `date`: 18:00 ET on the day before. */
export function tradingDateStartMs(date: string): number {
  return nyTime(dateOfDay(dayOfDate(date) - 1), '18:00');
}

/** The trading date (session_end_date) of an instant: its ET date, or the next one from 18:00 ET. */
export function tradingDateOfMs(ms: number): string {
  const date = nyDateOf(ms);
  return ms >= nyTime(date, '18:00') ? dateOfDay(dayOfDate(date) + 1) : date;
}

export function tradingDateOfNs(ns: bigint): string {
  return tradingDateOfMs(Number(floorDiv(ns, NS_PER_MS)));
}

/**
 * The session_end_date of a tick at `ns`: its trading date, or the next one with a Globex session
 * when the market is shut then (Friday evening to Sunday evening, full holidays).
 */
export function sessionEndDateOfNs(ns: bigint): string {
  const date = tradingDateOfNs(ns);
  for (let d = dayOfDate(date), left = 7; left > 0; d++, left--) {
    if (globexSession(dateOfDay(d))) return dateOfDay(d);
  }
  return date;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** A filter on a text column of the futures snapshot: equality, a list, and bounds. */
export interface TextFilter {
  eq?: string;
  any_of?: string[];
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
}

// ---------------------------------------------------------------------------------------------
// Resolutions

export type ResolutionUnit = 'sec' | 'min' | 'hour' | 'session' | 'week' | 'month' | 'quarter' | 'year';

export interface Resolution {
  multiplier: number;
  unit: ResolutionUnit;
}

/**
 * The largest multiplier of each unit: the next unit takes over after it (59min, then 1hour).
 * Candles of a session or longer are one unit each.
 */
export const MAX_MULTIPLIER: Record<ResolutionUnit, number> = { sec: 59, min: 59, hour: 23, session: 1, week: 1, month: 1, quarter: 1, year: 1 };

const RESOLUTION = /^([1-9]\d{0,2})(sec|min|hour|session|week|month|quarter|year)$/;

/** `5min` → {5, 'min'}; a 400 naming `resolution` for anything else. */
export function parseResolution(text: string): Resolution {
  const m = RESOLUTION.exec(text);
  const allowed = Object.entries(MAX_MULTIPLIER).map(([u, max]) => (max === 1 ? `1${u}` : `1${u}…${max}${u}`)).join(', ');
  if (!m) throw badParameter(`resolution must be a number followed by a unit (${allowed}); got '${text}'`);
  const unit = m[2] as ResolutionUnit;
  const multiplier = Number(m[1]);
  if (multiplier > MAX_MULTIPLIER[unit]) throw badParameter(`resolution ${text} is not supported: ${unit} candles go up to ${MAX_MULTIPLIER[unit]}${unit} (${allowed})`);
  return { multiplier, unit };
}

/** Whether candles of `r` are shorter than a session (counted within their trading date). */
export const isIntraday = (r: Resolution): boolean => r.unit === 'sec' || r.unit === 'min' || r.unit === 'hour';

/** Length in ns of an intraday candle. */
export function intradayLengthNs(r: Resolution): bigint {
  const seconds = r.unit === 'sec' ? 1 : r.unit === 'min' ? 60 : 3600;
  return BigInt(seconds * r.multiplier) * 1_000_000_000n;
}

/** Start (ns) of the intraday candle holding instant `ns`, counted from the start of its trading date. */
export function intradayCandleStart(ns: bigint, r: Resolution): bigint {
  const dayStart = BigInt(tradingDateStartMs(tradingDateOfNs(ns))) * NS_PER_MS;
  const size = intradayLengthNs(r);
  return dayStart + floorDiv(ns - dayStart, size) * size;
}

const PERIOD: Record<'week' | 'month' | 'quarter' | 'year', Timespan> = { week: 'week', month: 'month', quarter: 'quarter', year: 'year' };

/** 00:00 UTC (ns) of the start of the candle of a session-or-longer resolution holding trading date `date`. */
export function periodCandleStart(date: string, r: Resolution): bigint {
  const dayMs = dayOfDate(date) * 24 * HOUR_MS;
  const ms = r.unit === 'session' ? dayMs : bucketStart(dayMs, PERIOD[r.unit as keyof typeof PERIOD], 1, 0, 'UTC');
  return BigInt(ms) * NS_PER_MS;
}

/** The trading date whose 00:00 UTC is `ns` (or that holds it). */
export const dateOfUtcNs = (ns: bigint): string => dateOfDay(Number(floorDiv(ns, 86_400_000n * NS_PER_MS)));

/**
 * The window_start values [start, end) a `window_start` filter value denotes: a YYYY-MM-DD date is
 * its trading date (every candle of it, or the session-or-longer candle holding it); a Unix ns time
 * is the one candle holding it.
 */
export function windowStartInterval(value: string, r: Resolution, param: string): { start: bigint; end: bigint } {
  const date = parseDate(value) !== null ? value : undefined;
  if (date === undefined && (!/^\d{1,19}$/.test(value) || BigInt(value) > MAX_STORED_NS)) throw badParameter(`${param} must be a date in the form YYYY-MM-DD or a Unix timestamp in nanoseconds`);
  if (isIntraday(r)) {
    if (date !== undefined) {
      const next = dateOfDay(dayOfDate(date) + 1);
      return { start: BigInt(tradingDateStartMs(date)) * NS_PER_MS, end: BigInt(tradingDateStartMs(next)) * NS_PER_MS };
    }
    const start = intradayCandleStart(BigInt(value), r);
    return { start, end: start + 1n };
  }
  const start = periodCandleStart(date ?? tradingDateOfNs(BigInt(value)), r);
  return { start, end: start + 1n };
}

/** Folds bars or candles (ascending) into one candle starting at `windowStart`. */
export function foldCandle(parts: readonly FuturesCandle[], windowStart: bigint): FuturesCandle {
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  const out: FuturesCandle = { ...first, window_start: windowStart, session_end_date: last.session_end_date, close: last.close };
  for (let i = 1; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.high > out.high) out.high = p.high;
    if (p.low < out.low) out.low = p.low;
    out.volume += p.volume;
    out.transactions += p.transactions;
    out.dollar_volume += p.dollar_volume;
  }
  // cents, without the binary noise of long sums
  out.dollar_volume = Math.round(out.dollar_volume * 100) / 100;
  if (last.settlement_price !== undefined) out.settlement_price = last.settlement_price;
  else delete out.settlement_price;
  return out;
}

/**
 * Candles from base rows (minute bars, one-trade bars or session candles) in ascending time,
 * grouped by `startOf` of each row, in ascending order.
 */
export function candlesOf(rows: readonly FuturesCandle[], startOf: (row: FuturesCandle) => bigint): FuturesCandle[] {
  const out: FuturesCandle[] = [];
  let group: FuturesCandle[] = [];
  let start: bigint | undefined;
  for (const row of rows) {
    const s = startOf(row);
    if (start !== undefined && s !== start) {
      out.push(foldCandle(group, start));
      group = [];
    }
    start = s;
    group.push(row);
  }
  if (start !== undefined) out.push(foldCandle(group, start));
  return out;
}
