/**
 * Aggregate bars and the bucketing rules of range aggregates.
 *
 * All functions are pure. Calendar work (local days, DST) is done once per bucket,
 * never per bar, so aggregating 50,000 base bars costs one pass.
 */
import {
  civilFromDays,
  daysFromCivil,
  localDayOf,
  localDayStart,
  weekdayOfDay,
  type Zone,
} from './calendar.js';

export type { Zone };

/** The fields every bar has; index bars have only these. */
export interface OhlcBar {
  /** bucket start, Unix ms */
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
}

export interface Bar extends OhlcBar {
  v: number;
  vw?: number;
  n?: number;
  /** present only when true */
  otc?: boolean;
}

/**
 * A bar as an array: t (bucket start, Unix ms), o, h, l, c, then v, vw, n or null where absent.
 * Large pages are read, adjusted, aggregated and written in this form, without an object per bar.
 */
export type BarTuple = [t: number, o: number, h: number, l: number, c: number, v: number | null, vw: number | null, n: number | null];

/** A bar as the aggregation reads it: volume fields may be absent (index bars). */
type AnyBar = OhlcBar & { v?: number; vw?: number; n?: number; otc?: boolean };

export const TIMESPANS = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type Timespan = (typeof TIMESPANS)[number];

export function isTimespan(value: string): value is Timespan {
  return (TIMESPANS as readonly string[]).includes(value);
}

export interface BucketSpec {
  timespan: Timespan;
  multiplier: number;
  /** start of the first bucket: the snapped `from` */
  anchorMs: number;
  zone: Zone;
}

const FIXED_UNIT_MS = { second: 1000, minute: 60_000, hour: 3_600_000 } as const;
const MONTHS_PER_UNIT = { month: 1, quarter: 3, year: 12 } as const;

function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}

function sundayOnOrBefore(dayNumber: number): number {
  return dayNumber - weekdayOfDay(dayNumber);
}

function monthIndexOfDay(dayNumber: number): number {
  const [y, m] = civilFromDays(dayNumber);
  return y * 12 + (m - 1);
}

function firstDayOfMonthIndex(monthIndex: number): number {
  const y = Math.floor(monthIndex / 12);
  return daysFromCivil(y, monthIndex - y * 12 + 1, 1);
}

type Bucketer = (ms: number) => [start: number, end: number];

/** The last instant a Date can hold (100,000,000 days after 1970). */
export const MAX_INSTANT_MS = 8.64e15;
const LAST_DAY = MAX_INSTANT_MS / 86_400_000 - 2;

/**
 * Local midnight of a day, or the last representable instant for a day past it: a bucket
 * `1000000/year` long simply ends after every stored bar.
 */
function dayStartCapped(day: number, zone: Zone): number {
  return day > LAST_DAY ? MAX_INSTANT_MS : localDayStart(day, zone);
}

/**
 * Returns the function mapping an instant to [start, end) of its bucket, with the
 * anchor's position worked out once.
 * - second/minute/hour: fixed lengths counted from `anchorMs`.
 * - day: local calendar days in `zone` (23 h or 25 h on DST days), `multiplier` days
 *   counted from the anchor's date.
 * - week: Sunday 00:00 local; `multiplier` weeks counted from the anchor's week.
 * - month/quarter/year: the 1st of the month / Jan, Apr, Jul, Oct 1 / Jan 1, local;
 *   `multiplier` units counted from the anchor's unit.
 * Instants before the anchor fall in buckets extending the same grid backwards.
 */
function bucketer(timespan: Timespan, multiplier: number, anchorMs: number, zone: Zone): Bucketer {
  if (!Number.isInteger(multiplier) || multiplier < 1) throw new RangeError(`multiplier must be a positive integer: ${multiplier}`);
  switch (timespan) {
    case 'second':
    case 'minute':
    case 'hour': {
      const size = FIXED_UNIT_MS[timespan] * multiplier;
      return (ms) => {
        const start = anchorMs + floorDiv(ms - anchorMs, size) * size;
        return [start, start + size];
      };
    }
    case 'day':
    case 'week': {
      const span = timespan === 'day' ? multiplier : 7 * multiplier;
      const toUnit = timespan === 'day' ? (day: number) => day : sundayOnOrBefore;
      const anchorDay = toUnit(localDayOf(anchorMs, zone));
      return (ms) => {
        const day = anchorDay + floorDiv(toUnit(localDayOf(ms, zone)) - anchorDay, span) * span;
        return [localDayStart(day, zone), dayStartCapped(day + span, zone)];
      };
    }
    case 'month':
    case 'quarter':
    case 'year': {
      const unitMonths = MONTHS_PER_UNIT[timespan];
      const anchorUnit = floorDiv(monthIndexOfDay(localDayOf(anchorMs, zone)), unitMonths);
      return (ms) => {
        const unit = floorDiv(monthIndexOfDay(localDayOf(ms, zone)), unitMonths);
        const startUnit = anchorUnit + floorDiv(unit - anchorUnit, multiplier) * multiplier;
        return [
          localDayStart(firstDayOfMonthIndex(startUnit * unitMonths), zone),
          dayStartCapped(firstDayOfMonthIndex((startUnit + multiplier) * unitMonths), zone),
        ];
      };
    }
  }
}

/** Start (ms) of the bucket holding `ms`. */
export function bucketStart(ms: number, timespan: Timespan, multiplier: number, anchorMs: number, zone: Zone): number {
  return bucketer(timespan, multiplier, anchorMs, zone)(ms)[0];
}

/** Start (ms) of the bucket after the one holding `ms` (the exclusive end of its bucket). */
export function nextBucketStart(ms: number, timespan: Timespan, multiplier: number, anchorMs: number, zone: Zone): number {
  return bucketer(timespan, multiplier, anchorMs, zone)(ms)[1];
}

/**
 * Snaps a requested range so the first and last buckets are whole: `from` moves back to
 * the start of its timespan unit (top of the second/minute/hour, local midnight, Sunday,
 * 1st of month/quarter/year), which becomes the anchor; `to` moves forward to the end of
 * the `multiplier`-sized bucket holding it. The range is [start, endExclusive).
 * A date-only `to` must be passed as the last ms of that day to include the whole day.
 */
export function snapRange(
  fromMs: number,
  toMs: number,
  timespan: Timespan,
  multiplier: number,
  zone: Zone,
): { start: number; endExclusive: number } {
  // With multiplier 1 every calendar unit is its own bucket, and fixed units are
  // anchored at the epoch, which is a top-of-the-hour instant in both zones.
  const start = bucketer(timespan, 1, 0, zone)(fromMs)[0];
  return { start, endExclusive: bucketer(timespan, multiplier, start, zone)(toMs)[1] };
}

/**
 * A sum of fractional sizes without binary round-off: 0.1 + 0.2 is 0.30000000000000004 in
 * doubles, and a day's crypto volume would show it (5.314723419999999). Sizes carry far fewer
 * than 15 significant digits, so rounding the sum to 15 gives back its exact decimal value.
 * Whole sums (stock volumes) are returned as they are.
 */
export function volumeSum(v: number): number {
  return Number.isInteger(v) ? v : Number(v.toPrecision(15));
}

/** Running state of one bucket. */
class BucketAccumulator {
  o: number;
  h: number;
  l: number;
  c: number;
  volume = 0;
  hasVolume = false;
  priceVolume = 0; // Σ vw·v over parts that carry vw
  weightedVolume = 0; // Σ v over parts that carry vw
  vwParts = 0;
  singleVw = 0;
  trades = 0;
  hasTrades = false;
  otc = false;

  constructor(
    readonly t: number,
    first: AnyBar,
  ) {
    this.o = first.o;
    this.h = first.h;
    this.l = first.l;
    this.c = first.c;
    this.add(first, false);
  }

  add(bar: AnyBar, updatePrices = true): void {
    this.addParts(bar.h, bar.l, bar.c, bar.v, bar.vw, bar.n, updatePrices);
    if (bar.otc === true) this.otc = true;
  }

  /** One bar's values (v, vw, n: undefined or null where absent). */
  addParts(h: number, l: number, c: number, v: number | null | undefined, vw: number | null | undefined, n: number | null | undefined, updatePrices = true): void {
    if (updatePrices) {
      if (h > this.h) this.h = h;
      if (l < this.l) this.l = l;
      this.c = c;
    }
    if (v != null) {
      this.volume += v;
      this.hasVolume = true;
      if (vw != null && v > 0) {
        this.priceVolume += vw * v;
        this.weightedVolume += v;
        this.vwParts++;
        this.singleVw = vw;
      }
    }
    if (n != null) {
      this.trades += n;
      this.hasTrades = true;
    }
  }

  private vw(): number | undefined {
    if (this.vwParts === 1) return this.singleVw; // exact, no Σ(vw·v)/Σv round-off
    return this.vwParts > 1 ? this.priceVolume / this.weightedVolume : undefined;
  }

  toTuple(): BarTuple {
    return [this.t, this.o, this.h, this.l, this.c, this.hasVolume ? volumeSum(this.volume) : null, this.vw() ?? null, this.hasTrades ? this.trades : null];
  }

  /** Key order follows upstream's JSON (v, vw, o, c, h, l, t, n). */
  toBar(): AnyBar {
    const out: AnyBar = {} as AnyBar;
    if (this.hasVolume) out.v = volumeSum(this.volume);
    const vw = this.vw();
    if (vw !== undefined) out.vw = vw;
    out.o = this.o;
    out.c = this.c;
    out.h = this.h;
    out.l = this.l;
    out.t = this.t;
    if (this.hasTrades) out.n = this.trades;
    if (this.otc) out.otc = true;
    return out;
  }
}

/**
 * Folds base bars (ascending by `t`) into `multiplier × timespan` buckets:
 * o first, c last, h max, l min, v sum, vw = Σ(vw·v)/Σv over the bars that carry vw,
 * n sum, t = bucket start. Empty buckets produce no bar. v, vw and n appear only when
 * some input bar has them, so index bars (o, h, l, c, t) stay index bars; otc is true
 * when any input bar is OTC.
 */
export function aggregateBars(bars: readonly Bar[], spec: BucketSpec): Bar[];
export function aggregateBars(bars: readonly OhlcBar[], spec: BucketSpec): OhlcBar[];
export function aggregateBars(bars: readonly AnyBar[], spec: BucketSpec): AnyBar[] {
  return foldBuckets(bars, spec, {
    t: (bar) => bar.t,
    open: (start, bar) => new BucketAccumulator(start, bar),
    add: (acc, bar) => acc.add(bar),
    close: (acc) => acc.toBar(),
  });
}

/** aggregateBars over bar tuples (ascending by t), giving tuples. */
export function aggregateTuples(rows: readonly BarTuple[], spec: BucketSpec): BarTuple[] {
  return foldBuckets(rows, spec, {
    t: (r) => r[0],
    open: (start, r) => {
      const acc = new BucketAccumulator(start, { t: r[0], o: r[1], h: r[2], l: r[3], c: r[4] });
      acc.addParts(r[2], r[3], r[4], r[5], r[6], r[7], false);
      return acc;
    },
    add: (acc, r) => acc.addParts(r[2], r[3], r[4], r[5], r[6], r[7]),
    close: (acc) => acc.toTuple(),
  });
}

/** How foldBuckets reads one form of bar and writes its buckets. */
interface BucketForm<R, O> {
  t(row: R): number;
  open(start: number, first: R): BucketAccumulator;
  add(acc: BucketAccumulator, row: R): void;
  close(acc: BucketAccumulator): O;
}

function foldBuckets<R, O>(rows: readonly R[], spec: BucketSpec, form: BucketForm<R, O>): O[] {
  const bounds = bucketer(spec.timespan, spec.multiplier, spec.anchorMs, spec.zone);
  const out: O[] = [];
  let start = Infinity;
  let end = -Infinity;
  let acc: BucketAccumulator | null = null;
  for (const row of rows) {
    const t = form.t(row);
    if (acc !== null && t >= start && t < end) {
      form.add(acc, row);
      continue;
    }
    if (acc !== null) out.push(form.close(acc));
    [start, end] = bounds(t);
    acc = form.open(start, row);
  }
  if (acc !== null) out.push(form.close(acc));
  return out;
}

export interface TradePrint {
  /** SIP timestamp, Unix ns */
  t_ns: bigint;
  price: number;
  size: number;
}

const NS_PER_MS = 1_000_000n;

/**
 * Base bars from trades: each `second`, `minute` (top of the unit) or `day` (local
 * midnight in `zone`) with at least one trade gives a bar with n = trade count and
 * vw = Σ(price·size)/Σsize. Trades need not be sorted. Condition-code eligibility is
 * the caller's job: pass only eligible prints.
 */
export function barsFromTrades(
  trades: readonly TradePrint[],
  timespan: 'second' | 'minute' | 'day',
  zone: Zone,
): Bar[] {
  let sorted = trades;
  for (let i = 1; i < trades.length; i++) {
    if (trades[i]!.t_ns < trades[i - 1]!.t_ns) {
      sorted = [...trades].sort((a, b) => (a.t_ns < b.t_ns ? -1 : a.t_ns > b.t_ns ? 1 : 0));
      break;
    }
  }
  const bounds = bucketer(timespan, 1, 0, zone);
  const out: Bar[] = [];
  let start = Infinity;
  let end = -Infinity;
  let acc: BucketAccumulator | null = null;
  for (const trade of sorted) {
    const ms = Number(trade.t_ns / NS_PER_MS);
    // A trade is a one-print bar: o = h = l = c = vw = price, v = size, n = 1.
    const print: AnyBar = { t: ms, o: trade.price, h: trade.price, l: trade.price, c: trade.price, v: trade.size, vw: trade.price, n: 1 };
    if (acc !== null && ms >= start && ms < end) {
      acc.add(print);
      continue;
    }
    if (acc !== null) out.push(acc.toBar() as Bar);
    [start, end] = bounds(ms);
    acc = new BucketAccumulator(start, print);
  }
  if (acc !== null) out.push(acc.toBar() as Bar);
  return out;
}

/**
 * Day bars from minute bars (ascending). A day bar covers the whole local calendar day
 * of `zone`, so for stocks it includes pre-market and after-hours minutes (04:00-20:00
 * ET): a daily bar holds the whole day's eligible trades, as upstream's do, and the
 * regular-session open/close are reported separately by /v1/open-close.
 */
export function dayBarsFromMinuteBars(minuteBars: readonly Bar[], zone: Zone): Bar[];
export function dayBarsFromMinuteBars(minuteBars: readonly OhlcBar[], zone: Zone): OhlcBar[];
export function dayBarsFromMinuteBars(minuteBars: readonly AnyBar[], zone: Zone): AnyBar[] {
  return aggregateBars(minuteBars as readonly Bar[], { timespan: 'day', multiplier: 1, anchorMs: 0, zone });
}
