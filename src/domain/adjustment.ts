/**
 * Split and dividend back-adjustment of bars. Pure; inputs are never
 * mutated. Bars that need no change are returned as the same objects.
 */
import { dayOfDate, localDayStart, type Zone } from './calendar.js';
import type { BarTuple, OhlcBar } from './bars.js';

export interface Split {
  execution_date: string;
  split_from: number;
  split_to: number;
}

export interface Dividend {
  ex_dividend_date: string;
  cash_amount: number;
}

/** Any bar: index bars have no v or vw, and those stay absent. */
type AdjustableBar = OhlcBar & { v?: number; vw?: number };

/**
 * One event's effect on bars with t < cutoffMs: prices × num/den, volume × den/num.
 * Keeping the ratio as two numbers lets p × 1 / 3 stay exact where p × (1/3) would not.
 */
interface Adjustment {
  cutoffMs: number;
  num: number;
  den: number;
}

/**
 * Adjustments combined as suffix products over the events sorted by cutoff, so each bar costs
 * one binary search.
 */
class Factors {
  readonly k: number;
  private readonly cutoffs: number[];
  readonly num: number[];
  readonly den: number[];

  constructor(adjustments: Adjustment[]) {
    adjustments.sort((a, b) => a.cutoffMs - b.cutoffMs);
    const k = (this.k = adjustments.length);
    this.cutoffs = adjustments.map((a) => a.cutoffMs);
    this.num = new Array<number>(k + 1);
    this.den = new Array<number>(k + 1);
    this.num[k] = 1;
    this.den[k] = 1;
    for (let i = k - 1; i >= 0; i--) {
      this.num[i] = this.num[i + 1]! * adjustments[i]!.num;
      this.den[i] = this.den[i + 1]! * adjustments[i]!.den;
    }
  }

  /** The first event whose cutoff is after `t`: it and every later one apply (k: none). */
  at(t: number): number {
    let lo = 0;
    let hi = this.k;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cutoffs[mid]! > t) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/** Applies adjustments to every bar before each cutoff. */
function applyAdjustments<B extends AdjustableBar>(bars: readonly B[], adjustments: Adjustment[], adjustVolume: boolean): B[] {
  if (adjustments.length === 0) return bars.slice();
  const f = new Factors(adjustments);
  return bars.map((bar) => {
    const i = f.at(bar.t);
    if (i === f.k) return bar;
    const n = f.num[i]!;
    const d = f.den[i]!;
    const adjusted: B = { ...bar, o: (bar.o * n) / d, h: (bar.h * n) / d, l: (bar.l * n) / d, c: (bar.c * n) / d };
    if (bar.vw !== undefined) adjusted.vw = (bar.vw * n) / d;
    if (bar.v !== undefined && adjustVolume) adjusted.v = (bar.v * d) / n;
    return adjusted;
  });
}

/**
 * Split adjustment: for each split executed on date E, every bar starting before 00:00
 * (`zone`) of E gets o, h, l, c, vw × split_from/split_to and v × split_to/split_from;
 * n is unchanged. Splits on the same date compound. A split with a non-positive or
 * non-finite ratio is ignored rather than turning prices into Infinity or NaN.
 */
export function adjustForSplits<B extends AdjustableBar>(bars: readonly B[], splits: readonly Split[], zone: Zone): B[] {
  return applyAdjustments(bars, splitAdjustments(splits, zone), true);
}

/**
 * adjustForSplits over bar tuples, in place (the same arithmetic, so the same values): for
 * pages serialized straight from the rows a store read.
 */
export function adjustTuplesForSplits(rows: BarTuple[], splits: readonly Split[], zone: Zone): void {
  const adjustments = splitAdjustments(splits, zone);
  if (adjustments.length === 0) return;
  const f = new Factors(adjustments);
  for (const r of rows) {
    const i = f.at(r[0]);
    if (i === f.k) continue;
    const n = f.num[i]!;
    const d = f.den[i]!;
    r[1] = (r[1] * n) / d;
    r[2] = (r[2] * n) / d;
    r[3] = (r[3] * n) / d;
    r[4] = (r[4] * n) / d;
    if (r[5] !== null) r[5] = (r[5] * d) / n;
    if (r[6] !== null) r[6] = (r[6] * n) / d;
  }
}

/** The instant from which no bar is split-adjusted (the latest cutoff); -Infinity without splits. */
export function lastSplitCutoff(splits: readonly Split[], zone: Zone): number {
  return splitAdjustments(splits, zone).reduce((latest, a) => Math.max(latest, a.cutoffMs), -Infinity);
}

function splitAdjustments(splits: readonly Split[], zone: Zone): Adjustment[] {
  const adjustments: Adjustment[] = [];
  for (const s of splits) {
    if (!(s.split_from > 0 && s.split_to > 0 && Number.isFinite(s.split_from) && Number.isFinite(s.split_to))) continue;
    adjustments.push({
      cutoffMs: localDayStart(dayOfDate(s.execution_date), zone),
      num: s.split_from,
      den: s.split_to,
    });
  }
  return adjustments;
}

export interface DividendFactor {
  ex_dividend_date: string;
  /** 00:00 (`zone`) of the ex-date; bars starting before it are adjusted */
  cutoffMs: number;
  /** 1 − cash / close of the last bar before the ex-date */
  factor: number;
}

/**
 * The multiplicative factor of each dividend, ascending by ex-date:
 * factor = 1 − D / C, with C the close of the last bar before 00:00 of the ex-date and
 * D the total cash of the dividends sharing that ex-date. Bars and amounts must be on
 * the same share basis; as D/C is a ratio, computing factors on unadjusted bars and
 * applying splits afterwards gives the same result as adjusting both first. A dividend
 * with no earlier bar, a non-positive amount or a factor ≤ 0 (bad data) is left out.
 */
export function dividendFactors(bars: readonly OhlcBar[], dividends: readonly Dividend[], zone: Zone): DividendFactor[] {
  const cashByDate = new Map<string, number>();
  for (const d of dividends) {
    if (!(d.cash_amount > 0 && Number.isFinite(d.cash_amount))) continue;
    cashByDate.set(d.ex_dividend_date, (cashByDate.get(d.ex_dividend_date) ?? 0) + d.cash_amount);
  }
  if (cashByDate.size === 0 || bars.length === 0) return [];

  let sorted = bars;
  for (let i = 1; i < bars.length; i++) {
    if (bars[i]!.t < bars[i - 1]!.t) {
      sorted = [...bars].sort((a, b) => a.t - b.t);
      break;
    }
  }

  const factors: DividendFactor[] = [];
  for (const [date, cash] of cashByDate) {
    const cutoffMs = localDayStart(dayOfDate(date), zone);
    // last bar with t < cutoff
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]!.t < cutoffMs) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) continue;
    const prevClose = sorted[lo - 1]!.c;
    if (!(prevClose > 0)) continue;
    const factor = 1 - cash / prevClose;
    if (!(factor > 0)) continue;
    factors.push({ ex_dividend_date: date, cutoffMs, factor });
  }
  return factors.sort((a, b) => a.cutoffMs - b.cutoffMs);
}

/**
 * Dividend back-adjustment: prices (o, h, l, c, vw) of each bar are multiplied by the
 * product of the factors of all dividends whose ex-date is after the bar. Volume and n
 * are unchanged. Not part of upstream's `adjusted=true`, which covers splits only.
 */
export function adjustForDividends<B extends AdjustableBar>(
  bars: readonly B[],
  dividends: readonly Dividend[],
  zone: Zone,
): B[] {
  const adjustments = dividendFactors(bars, dividends, zone).map((f) => ({ cutoffMs: f.cutoffMs, num: f.factor, den: 1 }));
  return applyAdjustments(bars, adjustments, false);
}
