// Minute bars kept in memory by day. Back-tests ask one ticker's minute bars again and again from
// different start dates, and each such page read by the store walks its index and writes every bar
// as JSON anew (about 20 ms of CPU for 19,000 bars on SQLite). Here the bars of one ticker and UTC
// day are kept as the JSON items the store writes, joined in one buffer, with each bar's start
// time and where its item ends, so an ascending page of stored minute bars is a run of slices of
// those buffers. Days are read on a page's first need, as many at once as the page wants; they are
// kept while the store's version (given by the caller: the import version, which the live feed's
// writes leave alone) stays where it was before they were read, within a byte budget, the least
// recently asked ticker going first. A read's days are parsed one at a time, the loop let go
// between them once a slice is due (loop-slices.ts). Minute bars the feed stores drop only their
// ticker's days (forgetLiveBars): a range over 60 days of a ticker trading live reads its one live
// day again, not 60. What they cannot answer (descending pages, times before 1970) the store reads
// as before.
import { DAY_MS } from '../domain/rfc3339.js';
import { LoopSlices } from './loop-slices.js';
import type { BarJsonPage, BarRange, MinuteBarDayItems } from '../store/repos/market-port.js';

/** Default budget of the kept days: 16 MiB, a year of one ticker's extended-hours bars about 16 times over. */
export const DEFAULT_MINUTE_DAYS_BYTES = 16 * 2 ** 20;
/**
 * Bars read beyond what a page wants: the bars of its first day before its start, and the day cut
 * short by the read's limit (two days of bars on every minute).
 */
const SLACK_ROWS = 2 * 1440;
/** Ranges over more days than this (a century) are left to the store: each day is a step of a page. */
const MAX_RANGE_DAYS = 36_525;
/** A read's limit that takes every row. */
const ALL_ROWS = 2 ** 31 - 1;
/** What a kept day costs beyond its bytes (objects, map entry), for the budget. */
const DAY_OVERHEAD = 96;

/** The store's read the kept days need. */
export interface MinuteBarDaySource {
  readMinuteBarDays(ticker: string, fromMs: number, toMs: number, maxRows: number, otc: boolean): Promise<MinuteBarDayItems[]>;
}

/** One day's bars: items joined by commas, where item i ends (exclusive), and its start time. */
interface Day {
  items: Buffer;
  ends: Uint32Array;
  times: Float64Array;
  /** Whether every bar starts on a whole minute. */
  aligned: boolean;
  /** A day cut short by the read's limit: it holds the day's first bars only, and is not kept. */
  partial: boolean;
}

const EMPTY: Day = { items: Buffer.alloc(0), ends: new Uint32Array(0), times: new Float64Array(0), aligned: true, partial: false };

function dayOf(d: MinuteBarDayItems): Day {
  const times = Float64Array.from(d.times.split(','), Number);
  const ends = new Uint32Array(times.length);
  // A bar's object holds numbers and `true` only, so each '}' ends one.
  let at = 0;
  for (let i = 0; i < ends.length; i++) {
    const close = d.items.indexOf(0x7d, at);
    if (close < 0) throw new Error(`minute bars of day ${d.day}: ${times.length} times but ${i} items`);
    ends[i] = close + 1;
    at = close + 2; // past the comma
  }
  return { items: d.items, ends, times, aligned: times.every((t) => t % 60_000 === 0), partial: false };
}

/**
 * The days of a read, parsed in turn, the loop let go between days once a slice is due: parsed in
 * one go, 60 days of 35,000 bars held the loop 6-8 ms (the first read of a range, or every kept
 * day read again after an import).
 */
async function parsed(read: readonly MinuteBarDayItems[]): Promise<{ n: number; day: Day }[]> {
  const slices = new LoopSlices();
  const out: { n: number; day: Day }[] = [];
  for (const d of read) {
    await slices.pass();
    out.push({ n: d.day, day: dayOf(d) });
  }
  return out;
}

/** The first index of `times` (ascending) whose time is at least `t`. */
function lowerBound(times: Float64Array, t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const cost = (d: Day) => d.items.length + d.ends.byteLength + d.times.byteLength + DAY_OVERHEAD;

export class MinuteBarDays {
  private version?: string;
  /** Live bars forgotten so far (a counter), and per kept name the count at its last one. */
  private liveBars = 0;
  private readonly touched = new Map<string, number>();
  /** Kept days by ticker (`otc:ticker`), least recently asked first. */
  private readonly tickers = new Map<string, Map<number, Day>>();
  private heldBytes = 0;

  constructor(
    private readonly source: MinuteBarDaySource,
    private readonly currentVersion: () => string,
    readonly maxBytes = DEFAULT_MINUTE_DAYS_BYTES,
  ) {}

  /** Bytes held by the kept days. */
  get bytes(): number {
    return this.heldBytes;
  }

  /**
   * The page readMinuteBarsJsonPage would give for `range`, from the kept days (reading the days
   * it lacks); undefined for a page the days do not answer, which the store then reads.
   */
  async page(range: BarRange, otc: boolean): Promise<BarJsonPage | undefined> {
    if (range.order !== 'asc' || range.fromMs < 0 || !Number.isSafeInteger(range.fromMs) || !Number.isSafeInteger(range.toMs)) return undefined;
    const version = this.currentVersion(); // before any read: a write meanwhile moves it
    if (version !== this.version) this.clear(version);
    const firstDay = Math.floor(range.fromMs / DAY_MS);
    const endDay = Math.floor((range.toMs - 1) / DAY_MS);
    if (endDay - firstDay > MAX_RANGE_DAYS) return undefined;
    const name = `${otc ? 1 : 0}:${range.ticker}`;
    let kept = this.tickers.get(name);
    if (kept) {
      this.tickers.delete(name); // to the newest end
      this.tickers.set(name, kept);
    }
    const pieces: Buffer[] = [];
    let count = 0;
    let aligned = true;
    let lastT: number | undefined;
    let nextT: number | undefined;
    let read: Map<number, Day> | undefined; // days of this page's reads, partial ones included
    for (let n = firstDay; n <= endDay && nextT === undefined; n++) {
      let day = read?.get(n) ?? kept?.get(n);
      const within = (d: Day) => [n === firstDay ? lowerBound(d.times, range.fromMs) : 0, n === endDay ? lowerBound(d.times, range.toMs) : d.times.length] as const;
      // a day the last read cut short will do when it holds the bar after the page
      if (day === undefined || (day.partial && within(day)[1] - within(day)[0] <= range.limit - count)) {
        read = await this.read(name, range.ticker, otc, n, endDay, range.limit + 1 - count, version);
        kept = this.tickers.get(name);
        day = read.get(n)!;
      }
      const [from, to] = within(day);
      const take = Math.min(to - from, range.limit - count);
      if (take > 0) {
        const end = from + take;
        pieces.push(day.items.subarray(from === 0 ? 0 : day.ends[from - 1]! + 1, day.ends[end - 1]!));
        if (!day.aligned) for (let i = from; i < end && aligned; i++) aligned = day.times[i]! % 60_000 === 0;
        count += take;
        lastT = day.times[end - 1];
      }
      if (from + take < to) nextT = day.times[from + take];
    }
    const page: BarJsonPage = { items: pieces, count, aligned, fromMemory: true };
    if (nextT !== undefined) {
      page.lastT = lastT;
      page.nextT = nextT;
    }
    return page;
  }

  /**
   * Reads the days from `first` on up to the next kept one (or `last`), at most `wanted` bars past
   * the slack (but all of day `first`); keeps the complete ones (a day without bars too) and
   * returns all it read.
   */
  private async read(name: string, ticker: string, otc: boolean, first: number, last: number, wanted: number, version: string): Promise<Map<number, Day>> {
    const kept = this.tickers.get(name);
    const from = this.liveBars;
    let upTo = first;
    while (upTo < last && !kept?.has(upTo + 1)) upTo++;
    const maxRows = wanted + SLACK_ROWS;
    let found = await parsed(await this.source.readMinuteBarDays(ticker, first * DAY_MS, (upTo + 1) * DAY_MS, maxRows, otc));
    let rows = 0;
    for (const { day } of found) rows += day.times.length;
    if (rows >= maxRows && found.length === 1) {
      // the first day alone holds more bars than the read took: read all of it
      found = await parsed(await this.source.readMinuteBarDays(ticker, first * DAY_MS, (first + 1) * DAY_MS, ALL_ROWS, otc));
      upTo = first;
      rows = 0;
    }
    // At the limit, the last day read may hold more bars than were read: complete up to the one before.
    const cut = rows >= maxRows ? found[found.length - 1] : undefined;
    if (cut) cut.day.partial = true;
    const complete = cut === undefined ? upTo : cut.n - 1;
    const days = new Map<number, Day>();
    for (let n = first; n <= complete; n++) days.set(n, EMPTY);
    for (const { n, day } of found) days.set(n, day);
    // not kept when the feed stored bars of the ticker meanwhile: the read may predate them
    if (version === this.currentVersion() && version === this.version && (this.touched.get(name) ?? 0) <= from) this.keep(name, days);
    return days;
  }

  /** Drops the kept days of the bars' tickers and UTC days (minute bars the live feed stored). */
  forgetLiveBars(bars: readonly { ticker: string; t: number }[]): void {
    for (const b of bars) {
      const n = Math.floor(b.t / DAY_MS);
      for (const name of [`0:${b.ticker}`, `1:${b.ticker}`]) {
        this.touched.set(name, ++this.liveBars);
        const days = this.tickers.get(name);
        const day = days?.get(n);
        if (day === undefined) continue;
        days!.delete(n);
        this.heldBytes -= cost(day);
      }
    }
  }

  private keep(name: string, days: Map<number, Day>): void {
    let kept = this.tickers.get(name);
    if (!kept) {
      kept = new Map();
      this.tickers.set(name, kept);
    }
    for (const [n, day] of days) {
      if (day.partial || kept.has(n)) continue;
      kept.set(n, day);
      this.heldBytes += cost(day);
    }
    for (const [oldest, days] of this.tickers) {
      if (this.heldBytes <= this.maxBytes) break;
      for (const day of days.values()) this.heldBytes -= cost(day);
      this.tickers.delete(oldest);
    }
  }

  private clear(version: string): void {
    this.tickers.clear();
    this.touched.clear();
    this.heldBytes = 0;
    this.version = version;
  }
}
