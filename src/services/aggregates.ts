/**
 * The aggregation service: reads base bars (minute, day, or trades for
 * seconds), split-adjusts them, buckets them, and answers the range, previous-close,
 * grouped-daily and open/close questions. Indicators and snapshots reuse `rangeBars`.
 *
 * Decisions (also in the route descriptions of the OpenAPI document):
 * - Buckets are anchored at the snapped `from`, as upstream does: `5/minute` from a date starts at
 *   00:00, 00:05, … in the bar zone; from 10:07 (ms) it starts at 10:07, 10:12, …. `N/day`
 *   counts calendar days, `N/week` weeks from the Sunday of `from`, `N/month|quarter|year` units
 *   from the unit holding `from`. Hours are fixed 3,600,000 ms lengths, so `N/hour` with N > 1
 *   keeps its UTC grid through a DST change (a `4/hour` grid at 00:00 EST runs 05:00, 09:00 EDT).
 * - `limit` counts base bars read. `sort=asc` reads forward from `from`; `sort=desc` reads
 *   backward from `to` (so `sort=desc&limit=1` gives the latest bar). A bucket the budget cut
 *   is dropped, and the next page starts at the dropped bucket: asc rewrites `from` to its start,
 *   desc rewrites `to` to the ms before the oldest bucket returned. When not even one bucket fits
 *   in `limit` base bars, that one bucket is completed anyway (reading up to 50,000 base bars),
 *   so that walking pages always progresses; `queryCount` reports the bars actually read.
 * - Adjustment is applied to base bars before bucketing, so a bucket that spans a split is
 *   built from consistently adjusted prices.
 */
import type { CryptoOpenClose, CryptoTrade, OpenClose } from '../domain/aggregate-schemas.js';
import { adjustForSplits, adjustTuplesForSplits, lastSplitCutoff, type Split } from '../domain/adjustment.js';
import { dividendAdjuster, type DividendSource } from './dividend-adjustment.js';
import { aggregateBars, aggregateTuples, barsFromTrades, nextBucketStart, snapRange, type Bar, type BarTuple, type BucketSpec, type Timespan, type TradePrint } from '../domain/bars.js';
import { barTuplesJson } from './tick-json.js';
import type { MinuteBarDays } from './minute-bar-days.js';
import { dateOfDay, instantOfWallTime, localDayOf, localDayStart, sessionOnDay, type Zone } from '../domain/calendar.js';
import { barZone, marketOfTicker, tickDayZone, type TickerMarket } from '../domain/ticker-market.js';
import { msToStoredNs, NS_PER_MS } from '../domain/nanoseconds.js';
import type { BarRow, TradeRow } from '../domain/market-records.js';
import type { BarKind, BarRange, MarketDataPort, TickPosition } from '../store/repos/market-port.js';
import type { JoinedItems } from '../store/repos/joined-json.js';
import type { TickerRecord } from '../store/records.js';
import { badParameter } from '../domain/errors.js';

export const AGGS_MAX_LIMIT = 50_000;
const NY: Zone = 'America/New_York';
const DAY_MS = 86_400_000;


/** What the aggregation needs from the store; the application Store satisfies it. */
export interface AggregatesStore {
  readonly market: MarketDataPort;
  readonly corporateActions: { splitsFor(ticker: string): Promise<readonly Split[]> } & DividendSource['corporateActions'];
  readonly reference: { getTicker(ticker: string, date?: string): Promise<TickerRecord | undefined> };
}

export interface RangeRequest {
  ticker: string;
  multiplier: number;
  timespan: Timespan;
  /** Inclusive, Unix ms (a date `from` is 00:00 of that day in the bar zone). */
  fromMs: number;
  /** Inclusive, Unix ms (a date `to` is the last ms of that day). */
  toMs: number;
  adjusted: boolean;
  /** Also back-adjust prices for cash dividends (stocks; beyond upstream, see dividend-adjustment.ts). */
  dividends?: boolean;
  sort: 'asc' | 'desc';
  /** Base bars to read, 1..50000. */
  limit: number;
}

export interface RangeResult {
  /** In `sort` order. */
  bars: Bar[];
  /** Base bars read. */
  queryCount: number;
  /** When the budget ran out: the `from` (asc) or `to` (desc) of the next page, in ms. */
  next?: { fromMs: number } | { toMs: number };
}

/** Base-bar source of a timespan. */
function baseKindOf(timespan: Timespan): BarKind | 'trades' {
  if (timespan === 'second') return 'trades';
  return timespan === 'minute' || timespan === 'hour' ? 'minute' : 'day';
}

/** Whether bars of this ticker are split-adjusted (only stocks have splits). */
function hasSplits(market: TickerMarket): boolean {
  return market === 'stocks';
}

export async function splitsOf(store: AggregatesStore, ticker: string, adjusted: boolean): Promise<readonly Split[]> {
  if (!adjusted || !hasSplits(marketOfTicker(ticker))) return [];
  return store.corporateActions.splitsFor(ticker);
}

async function isOtc(store: AggregatesStore, ticker: string): Promise<boolean> {
  if (marketOfTicker(ticker) !== 'stocks') return false;
  return (await store.reference.getTicker(ticker))?.market === 'otc';
}

/**
 * Stored rows as bars. Index rows lack v/vw/n; aggregation and adjustment keep absent fields
 * absent, so the cast only widens what TypeScript is told. `ticker` rides along and is dropped
 * by wireBar / aggregation.
 */
function asBars(rows: readonly BarRow[]): Bar[] {
  return rows as unknown as Bar[];
}

/** Split-adjusted copies of the bars before each split (the same array when there are none). */
function toBars(rows: readonly Bar[], splits: readonly Split[]): Bar[] {
  return splits.length ? adjustForSplits(rows, splits, NY) : (rows as Bar[]);
}

/**
 * Second bars from trades, in `order`, up to `want` bars. The last one may be incomplete: it
 * only serves as the "one more" marker that shows the budget ran out.
 */
async function secondBarsFromTrades(
  market: MarketDataPort,
  ticker: string,
  startMs: number,
  endMs: number,
  order: 'asc' | 'desc',
  want: number,
  zone: Zone,
): Promise<Bar[]> {
  const out: Bar[] = [];
  let group: TradePrint[] = [];
  let groupSecond = 0n;
  const close = () => {
    if (order === 'desc') group.reverse();
    out.push(barsFromTrades(group, 'second', zone)[0]!);
    group = [];
  };
  let after: TickPosition | undefined;
  const chunk = 10_000;
  for (;;) {
    const page = await market.readTrades({
      ticker,
      gte: msToStoredNs(startMs),
      lt: msToStoredNs(endMs),
      order,
      limit: chunk,
      after,
    });
    for (const { row } of page) {
      const second = row.sip_timestamp / 1_000_000_000n;
      if (group.length && second !== groupSecond) {
        close();
        if (out.length === want) return out;
      }
      groupSecond = second;
      group.push({ t_ns: row.sip_timestamp, price: row.price, size: row.size });
    }
    if (page.length < chunk) break;
    after = page[page.length - 1]!.position;
  }
  if (group.length) close();
  return out;
}

async function readBase(
  store: AggregatesStore,
  req: RangeRequest,
  start: number,
  endExclusive: number,
  zone: Zone,
  want: number,
): Promise<Bar[]> {
  const kind = baseKindOf(req.timespan);
  if (kind === 'trades') return secondBarsFromTrades(store.market, req.ticker, start, endExclusive, req.sort, want, zone);
  // BarRow is a Bar plus `ticker`, which aggregation ignores and wireBar drops
  return asBars(await store.market.readBars(kind, { ticker: req.ticker, fromMs: start, toMs: endExclusive, order: req.sort, limit: want }));
}

/** A bar with only the wire fields, in upstream's key order (v, vw, o, c, h, l, t, n). */
function wireBar(b: Bar): Bar {
  return { v: b.v, vw: b.vw, o: b.o, c: b.c, h: b.h, l: b.l, t: b.t, n: b.n } as Bar;
}

/**
 * How rangeBars handles base bars of one form (objects, or tuples for pages written straight
 * to JSON): read them in `sort` order, and turn base bars in ascending order into buckets.
 */
interface BaseForm<B> {
  read(start: number, endExclusive: number, want: number): Promise<B[]>;
  t(bar: B): number;
  /** Buckets (ascending) of base bars in ascending order, adjusted. */
  buckets(ascending: B[]): B[];
}

/**
 * `1/minute` over minute bars: every base bar that starts on a whole minute is its own bucket,
 * so the hot path (up to 50,000 bars) skips the bucket accumulators.
 */
function baseIsBucket<B>(req: RangeRequest, base: readonly B[], t: (bar: B) => number): boolean {
  if (req.timespan !== 'minute' || req.multiplier !== 1) return false;
  for (let i = 0; i < base.length; i++) if (t(base[i]!) % 60_000 !== 0) return false;
  return true;
}

interface RangeSetup {
  market: TickerMarket;
  zone: Zone;
  start: number;
  endExclusive: number;
  spec: BucketSpec;
  splits: readonly Split[];
  otc: boolean;
}

async function rangeSetup(store: AggregatesStore, req: RangeRequest): Promise<RangeSetup> {
  const market = marketOfTicker(req.ticker);
  const zone = barZone(market);
  const { start, endExclusive } = snapRange(req.fromMs, req.toMs, req.timespan, req.multiplier, zone);
  const spec = { timespan: req.timespan, multiplier: req.multiplier, anchorMs: start, zone };
  const [splits, otc] = await Promise.all([splitsOf(store, req.ticker, req.adjusted), isOtc(store, req.ticker)]);
  return { market, zone, start, endExclusive, spec, splits, otc };
}

/** The paging of rangeBars over base bars of either form; buckets in `sort` order. */
async function rangeOf<B>(req: RangeRequest, setup: RangeSetup, form: BaseForm<B>): Promise<{ bars: B[]; queryCount: number; next?: RangeResult['next'] }> {
  const { start, endExclusive, zone } = setup;
  const t = form.t;
  const bucketEnd = (ms: number) => nextBucketStart(ms, req.timespan, req.multiplier, start, zone);
  let budget = req.limit;
  let oneBucket = false; // the budget could not complete a single bucket: serve exactly one, whole
  for (;;) {
    const read = await form.read(start, endExclusive, budget + 1);
    const cut = read.length > budget;
    const base = cut ? read.slice(0, budget) : read;
    const bars = form.buckets(req.sort === 'asc' ? base : base.slice().reverse());
    let more = cut;
    if (cut && bars.length) {
      // The bucket of the first unread base bar is incomplete when the last bar read is in it too.
      const peekEnd = bucketEnd(t(read[budget]!));
      if (req.sort === 'asc' && bucketEnd(t(bars[bars.length - 1]!)) === peekEnd) bars.pop();
      else if (req.sort === 'desc' && bucketEnd(t(bars[0]!)) === peekEnd) bars.shift();
    }
    if (cut && bars.length === 0) {
      if (budget < AGGS_MAX_LIMIT) {
        budget = AGGS_MAX_LIMIT;
        oneBucket = true;
        continue;
      }
      throw badParameter(`multiplier: one ${req.multiplier}-${req.timespan} bucket holds more than ${AGGS_MAX_LIMIT} base bars; use a smaller multiplier`);
    }
    let queryCount = base.length;
    if (oneBucket) {
      if (bars.length > 1) {
        if (req.sort === 'asc') bars.length = 1;
        else bars.splice(0, bars.length - 1);
        more = true;
      }
      const keptT = t(bars[0]!);
      const keptEnd = bucketEnd(keptT);
      queryCount = base.reduce((n, b) => (t(b) >= keptT && t(b) < keptEnd ? n + 1 : n), 0);
    }
    let next: RangeResult['next'];
    if (more && bars.length) {
      next = req.sort === 'asc' ? { fromMs: bucketEnd(t(bars[bars.length - 1]!)) } : { toMs: t(bars[0]!) - 1 };
    }
    if (req.sort === 'desc') bars.reverse();
    return { bars, queryCount, ...(next ? { next } : {}) };
  }
}

/**
 * Bars of one ticker over [from, to] in `multiplier × timespan` buckets.
 * Pure apart from the reads; empty buckets give no bar.
 */
export async function rangeBars(store: AggregatesStore, req: RangeRequest): Promise<RangeResult> {
  const setup = await rangeSetup(store, req);
  const withDividends = req.dividends && setup.market === 'stocks' ? await dividendAdjuster(store, req.ticker) : undefined;
  const r = await rangeOf<Bar>(req, setup, {
    read: (start, endExclusive, want) => readBase(store, req, start, endExclusive, setup.zone, want),
    t: (b) => b.t,
    buckets: (ascending) => {
      let adjusted = toBars(ascending, setup.splits);
      if (withDividends) adjusted = withDividends(adjusted);
      return baseIsBucket(req, adjusted, (b) => b.t) ? adjusted.map(wireBar) : aggregateBars(adjusted, setup.spec);
    },
  });
  if (setup.otc) for (const b of r.bars) b.otc = true;
  return r;
}

/** A range's bars as JSON, with the figures of RangeResult. */
export interface RangeJson {
  /** The `results` array as one JSON text, or its items as the store joined them (no brackets). */
  results: { json: string } | { joined: JoinedItems };
  count: number;
  queryCount: number;
  next?: RangeResult['next'];
  /** The results are slices of bars kept in memory (see FastifyRequest.fromMemory). */
  fromMemory?: boolean;
}

const tupleT = (b: BarTuple) => b[0];

/**
 * rangeBars written as JSON text. Minute and day bars are read as tuples (no row object, no
 * BarRow), adjusted in place and aggregated as tuples; second bars (from trades) and
 * dividend-adjusted ranges go through rangeBars.
 */
export async function rangeBarsJson(store: AggregatesStore, req: RangeRequest, keptDays?: MinuteBarDays): Promise<RangeJson> {
  const kind = baseKindOf(req.timespan);
  if (kind === 'trades' || req.dividends) {
    const r = await rangeBars(store, req);
    return { results: { json: JSON.stringify(r.bars) }, count: r.bars.length, queryCount: r.queryCount, ...(r.next ? { next: r.next } : {}) };
  }
  const setup = await rangeSetup(store, req);
  if (kind === 'minute' && req.timespan === 'minute' && req.multiplier === 1 && setup.start >= lastSplitCutoff(setup.splits, NY)) {
    const stored = await storedMinuteBarsJson(store, req, setup, keptDays);
    if (stored) return stored;
  }
  const r = await rangeOf<BarTuple>(req, setup, {
    read: (fromMs, toMs, limit) => store.market.readBarsRaw(kind, { ticker: req.ticker, fromMs, toMs, order: req.sort, limit }),
    t: tupleT,
    buckets: (ascending) => {
      adjustTuplesForSplits(ascending, setup.splits, NY);
      return baseIsBucket(req, ascending, tupleT) ? ascending.slice() : aggregateTuples(ascending, setup.spec);
    },
  });
  return { results: { json: barTuplesJson(r.bars, setup.otc) }, count: r.bars.length, queryCount: r.queryCount, ...(r.next ? { next: r.next } : {}) };
}

/**
 * `1/minute` over minute bars that no split adjusts: when every bar starts on a whole minute, each
 * is a bucket of its own, so the page is the stored bars as they are, written as JSON by the store,
 * with the figures rangeOf gives such bars (queryCount = bars; the next page starts at the next
 * minute, or ends just before the page's earliest bar). undefined when a bar of the page, or the
 * one after it, starts elsewhere: then buckets are built.
 */
async function storedMinuteBarsJson(store: AggregatesStore, req: RangeRequest, setup: RangeSetup, keptDays?: MinuteBarDays): Promise<RangeJson | undefined> {
  const range: BarRange = { ticker: req.ticker, fromMs: setup.start, toMs: setup.endExclusive, order: req.sort, limit: req.limit };
  const page = (await keptDays?.page(range, setup.otc)) ?? (await store.market.readMinuteBarsJsonPage(range, setup.otc));
  if (!page.aligned || (page.nextT !== undefined && page.nextT % 60_000 !== 0)) return undefined;
  const out: RangeJson = { results: { joined: page.items }, count: page.count, queryCount: page.count };
  if (page.fromMemory) out.fromMemory = true;
  if (page.nextT !== undefined && page.lastT !== undefined) {
    out.next = req.sort === 'asc' ? { fromMs: nextBucketStart(page.lastT, 'minute', 1, setup.start, setup.zone) } : { toMs: page.lastT - 1 };
  }
  return out;
}

// ---------------------------------------------------------------------------
// Daily views: previous close, grouped daily, open/close

export interface DailyBar extends Bar {
  T: string;
}

/**
 * The `t` of grouped-daily and previous-close bars: 16:00 ET of the session date for
 * stocks, options and indices; 23:59:59.999 UTC for forex; the bar's own start (00:00 ET) for
 * crypto, as upstream's crypto samples show.
 */
export function dailyBarTime(market: TickerMarket, barStartMs: number): number {
  if (market === 'fx') return (Math.floor(barStartMs / DAY_MS) + 1) * DAY_MS - 1;
  if (market === 'crypto') return barStartMs;
  return instantOfWallTime(localDayOf(barStartMs, NY) * DAY_MS + 16 * 3_600_000, NY);
}

function toDailyBar(ticker: string, bar: Bar, market: TickerMarket, otc: boolean): DailyBar {
  const { otc: _ignored, ...fields } = bar;
  return { T: ticker, ...fields, t: dailyBarTime(market, bar.t), ...(otc ? { otc: true } : {}) };
}

/**
 * The cut-off of "completed" day bars at `nowMs`: bars starting before it are complete. Stocks,
 * options and indices: today's bar once today's regular session has closed, else yesterday's.
 * Forex and crypto: the bar of the last finished calendar day in the bar zone.
 */
export function completedDayCutoff(market: TickerMarket, nowMs: number): number {
  const zone = barZone(market);
  const today = localDayOf(nowMs, zone);
  if (market === 'fx' || market === 'crypto') return localDayStart(today, zone);
  const session = sessionOnDay(today);
  return session && nowMs >= session.close ? localDayStart(today + 1, zone) : localDayStart(today, zone);
}

export async function previousClose(store: AggregatesStore, ticker: string, adjusted: boolean, nowMs: number): Promise<DailyBar | undefined> {
  const market = marketOfTicker(ticker);
  const row = await store.market.lastDayBarBefore(ticker, completedDayCutoff(market, nowMs));
  if (!row) return undefined;
  const [splits, otc] = await Promise.all([splitsOf(store, ticker, adjusted), isOtc(store, ticker)]);
  const [bar] = toBars(asBars([row]), splits);
  return toDailyBar(ticker, bar!, market, otc);
}

export type GroupedMarket = 'stocks' | 'fx' | 'crypto';

/** Tickers whose reference market is OTC, among `tickers`. */
async function otcAmong(store: AggregatesStore, tickers: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  await Promise.all(
    tickers.map(async (t) => {
      if ((await store.reference.getTicker(t))?.market === 'otc') out.add(t);
    }),
  );
  return out;
}

/**
 * One daily bar per ticker of `market` for calendar day `day`. Forex and crypto day bars
 * may be stored at 00:00 UTC or 00:00 ET of the day (flat files and derived bars differ), so both
 * are looked up; the bar zone's own midnight wins when a ticker has both.
 */
export async function groupedDaily(
  store: AggregatesStore,
  market: GroupedMarket,
  day: number,
  opts: { adjusted: boolean; includeOtc: boolean },
): Promise<DailyBar[]> {
  const zone = barZone(market);
  const other: Zone = zone === 'UTC' ? NY : 'UTC';
  const starts = market === 'stocks' ? [localDayStart(day, NY)] : [localDayStart(day, zone), localDayStart(day, other)];
  const byTicker = new Map<string, BarRow>();
  for (const t of starts) {
    for (const row of await store.market.dayBarsAt(t)) {
      if (marketOfTicker(row.ticker) === market && !byTicker.has(row.ticker)) byTicker.set(row.ticker, row);
    }
  }
  const tickers = [...byTicker.keys()].sort();
  const otc = market === 'stocks' ? await otcAmong(store, tickers) : new Set<string>();
  const out: DailyBar[] = [];
  const splitLists = opts.adjusted && market === 'stocks'
    ? await Promise.all(tickers.map((t) => store.corporateActions.splitsFor(t)))
    : undefined;
  tickers.forEach((ticker, i) => {
    const isOtcTicker = otc.has(ticker);
    if (isOtcTicker && !opts.includeOtc) return;
    const [bar] = toBars(asBars([byTicker.get(ticker)!]), splitLists?.[i] ?? []);
    out.push(toDailyBar(ticker, bar!, market, isOtcTicker));
  });
  return out;
}

/**
 * Daily open/close of a stock, option or index on session day `day`, or undefined when
 * the day has no session or no data. open/close are the first and last regular-session
 * (09:30–16:00, or the early close) minute prices; high, low and volume come from the day bar
 * (the whole day, extended hours included) when there is one; preMarket is the first price of
 * 04:00–09:30 and afterHours the last of the close–20:00 (17:00 on early-close days).
 */
export async function openClose(store: AggregatesStore, ticker: string, day: number, adjusted: boolean): Promise<OpenClose | undefined> {
  const session = sessionOnDay(day);
  if (!session) return undefined;
  const dayStart = localDayStart(day, NY);
  const dayEnd = localDayStart(day + 1, NY);
  const [minuteRows, dayRows, splits, otc] = await Promise.all([
    store.market.readBars('minute', { ticker, fromMs: dayStart, toMs: dayEnd, order: 'asc', limit: 1440 }),
    store.market.readBars('day', { ticker, fromMs: dayStart, toMs: dayEnd, order: 'asc', limit: 1 }),
    splitsOf(store, ticker, adjusted),
    isOtc(store, ticker),
  ]);
  const minutes = toBars(asBars(minuteRows), splits);
  const dayBar = dayRows.length ? toBars(asBars(dayRows), splits)[0] : undefined;
  if (!minutes.length && !dayBar) return undefined;

  let open: number | undefined;
  let close: number | undefined;
  let preMarket: number | undefined;
  let afterHours: number | undefined;
  let high = -Infinity;
  let low = Infinity;
  let volume: number | undefined;
  for (const m of minutes) {
    if (m.t >= session.open && m.t < session.close) {
      open ??= m.o;
      close = m.c;
    } else if (m.t >= session.preOpen && m.t < session.open) {
      preMarket ??= m.o;
    } else if (m.t >= session.close && m.t < session.postClose) {
      afterHours = m.c;
    }
    if (m.h > high) high = m.h;
    if (m.l < low) low = m.l;
    if (m.v !== undefined) volume = (volume ?? 0) + m.v;
  }
  if (dayBar) {
    open ??= dayBar.o;
    close ??= dayBar.c;
    high = dayBar.h;
    low = dayBar.l;
    volume = dayBar.v;
  }
  if (open === undefined || close === undefined) {
    // only extended-hours minutes: the day's first and last prices stand in
    open = minutes[0]!.o;
    close = minutes[minutes.length - 1]!.c;
  }
  return {
    from: dateOfDay(day),
    symbol: ticker,
    open,
    high,
    low,
    close,
    ...(volume !== undefined ? { volume } : {}),
    ...(preMarket !== undefined ? { preMarket } : {}),
    ...(afterHours !== undefined ? { afterHours } : {}),
    ...(otc ? { otc: true } : {}),
  };
}

function cryptoTradeToWire(row: TradeRow): CryptoTrade {
  const ns = row.participant_timestamp ?? row.sip_timestamp;
  return { c: row.conditions ?? [], i: row.id ?? '', p: row.price, s: row.size, t: Number(ns / NS_PER_MS), x: row.exchange };
}

/**
 * Crypto open/close of UTC day `day`: the first and last trades of the day (the first two and
 * last two as openTrades / closingTrades), else the first and last minute bars' prices.
 */
export async function cryptoOpenClose(store: AggregatesStore, ticker: string, symbol: string, day: number): Promise<CryptoOpenClose | undefined> {
  const zone = tickDayZone('crypto');
  const start = localDayStart(day, zone);
  const end = localDayStart(day + 1, zone);
  const range = { ticker, gte: msToStoredNs(start), lt: msToStoredNs(end), limit: 2 };
  const [first, last] = await Promise.all([
    store.market.readTrades({ ...range, order: 'asc' }),
    store.market.readTrades({ ...range, order: 'desc' }),
  ]);
  const base = { symbol, isUTC: true as const, day: dateOfDay(day) };
  if (first.length && last.length) {
    return {
      ...base,
      open: first[0]!.row.price,
      close: last[0]!.row.price,
      openTrades: first.map((p) => cryptoTradeToWire(p.row)),
      closingTrades: last.map((p) => cryptoTradeToWire(p.row)).reverse(),
    };
  }
  const [head, tail] = await Promise.all([
    store.market.readBars('minute', { ticker, fromMs: start, toMs: end, order: 'asc', limit: 1 }),
    store.market.readBars('minute', { ticker, fromMs: start, toMs: end, order: 'desc', limit: 1 }),
  ]);
  if (!head.length || !tail.length) return undefined;
  return { ...base, open: head[0]!.o, close: tail[0]!.c, openTrades: [], closingTrades: [] };
}
