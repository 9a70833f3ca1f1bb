/**
 * Stock, forex and crypto snapshots (all tickers, one ticker, gainers and losers), computed from the
 * stored bars and ticks as of a clock `nowMs` (the server clock, or the plan's delayed clock).
 *
 * Rules (documented in docs/snapshots.md):
 * - The snapshot's day: stocks show the current session from 04:00 ET (before that, and on days
 *   without a session, the previous session); forex shows the current UTC day, crypto the current
 *   New York day (their bar zones, as the aggregates use).
 * - `day`: a finished stock session shows its stored day bar (what /v2/aggs/.../range/1/day/
 *   returns); a session in progress, and every forex/crypto day, shows the minute bars of the day
 *   completed by the clock (t + 1 min ≤ now), folded like the aggregates fold them. No data yet:
 *   zeros, as upstream shows before the open.
 * - `min`: the latest such completed minute bar of the day; `av` is the day's volume so far.
 * - `prevDay`: the latest day bar before the snapshot's day.
 * - `lastTrade` / `lastQuote`: the latest tick at or before the clock.
 * - `todaysChange` = price − prevDay.c with price = lastTrade.p (forex: lastQuote bid), else the
 *   latest minute close, else the day close; `todaysChangePerc` = 100·change/prevDay.c, rounded to
 *   3 decimals as upstream's samples are (ranking uses the unrounded value).
 * - Gainers/losers: the 20 largest positive (negative) changes, ties by ticker; stocks need a
 *   previous close and at least 10,000 shares traded today, and OTC tickers only count with
 *   include_otc; forex and crypto have no volume floor.
 * - Bars are shown as stored (not split-adjusted).
 * - Stocks repeat volumes and the last trade's size as decimal text (day.dv, min.dv, min.dav,
 *   lastTrade.ds), fractional shares kept, as upstream's newer fields do.
 */
import { localDayOf, localDayStart, sessionOnDay, type Session, type Zone } from '../domain/calendar.js';
import { decimalQuantity } from '../domain/decimal-quantity.js';
import { barZone } from '../domain/ticker-market.js';
import type { BarRow, QuoteRow, TradeRow } from '../domain/market-records.js';
import type { CryptoSnapshot, ForexSnapshot, StockSnapshot } from '../domain/snapshot-schemas.js';
import type { SnapshotMarket, SnapshotReadRepository } from '../store/repos/snapshot-reads.js';

export const MOVERS_LIMIT = 20;
export const MIN_MOVER_VOLUME = 10_000;
const NY: Zone = 'America/New_York';
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const NS_PER_MS = 1_000_000n;
/** Tickers of the full-market snapshot: those with a day bar in this many days before the snapshot's day. */
const UNIVERSE_LOOKBACK_DAYS = 10;

export interface SnapshotStore {
  readonly snapshotReads: SnapshotReadRepository;
}

/** The day a snapshot shows, [start, end) in ms, and whether it is over at the clock. */
export interface SnapshotDay {
  start: number;
  end: number;
  complete: boolean;
  /** Stocks: the day's session (pre-market, regular and after-hours bounds). */
  session?: Session;
}

export function snapshotDay(market: SnapshotMarket, nowMs: number): SnapshotDay {
  if (market === 'stocks') {
    let day = localDayOf(nowMs, NY);
    let session = sessionOnDay(day);
    while (!session || nowMs < session.preOpen) session = sessionOnDay(--day);
    return { start: localDayStart(day, NY), end: localDayStart(day + 1, NY), complete: nowMs >= session.postClose, session };
  }
  const zone = barZone(market);
  const day = localDayOf(nowMs, zone);
  return { start: localDayStart(day, zone), end: localDayStart(day + 1, zone), complete: false };
}

/** What a snapshot is built from, per ticker. */
export interface SnapshotInputs {
  day?: BarRow;
  min?: BarRow;
  prev?: BarRow;
  trade?: TradeRow;
  quote?: QuoteRow;
  /** With `sessionParts`: the last price of each part of the stock session that has one by the clock. */
  parts?: SessionPartPrices;
  /** With `sessionParts`: the close of each part's last minute bar completed by the clock (parts without the last trade). */
  partCloses?: SessionPartPrices;
}

/** The last price of the pre-market (early), regular and after-hours (late) parts of a stock session. */
export interface SessionPartPrices {
  early?: number;
  regular?: number;
  late?: number;
}

/** Reads every input of `tickers` in a fixed number of batched queries. */
export async function readSnapshotInputs(
  reads: SnapshotReadRepository,
  market: SnapshotMarket,
  tickers: readonly string[],
  nowMs: number,
  /** Leave the quotes out (ranking stocks or crypto needs no quote); read the session parts' last prices (stocks). */
  /**
   * `ticksAtNs`: the last trade and quote at or before this instant rather than the clock (the live
   * state reads the latest stored, and holds back a tick later than a request's clock).
   */
  opts: { quotes?: boolean; sessionParts?: boolean; ticksAtNs?: bigint } = {},
): Promise<Map<string, SnapshotInputs>> {
  const d = snapshotDay(market, nowMs);
  // minute bars that have ended by the clock (all of them once the day is over)
  const minutesBefore = d.complete ? d.end : Math.min(d.end, nowMs - MINUTE_MS + 1);
  const atNs = opts.ticksAtNs ?? BigInt(nowMs) * NS_PER_MS;
  const [stored, running, min, prev, trades, quotes, partBars] = await Promise.all([
    d.complete ? reads.dayBarsAt(tickers, d.start) : Promise.resolve(new Map<string, BarRow>()),
    d.complete ? Promise.resolve(new Map<string, BarRow>()) : reads.minuteAggregates(tickers, d.start, minutesBefore),
    reads.lastMinuteBars(tickers, d.start, minutesBefore),
    reads.lastDayBarsBefore(tickers, d.start),
    market === 'fx' ? Promise.resolve(new Map<string, TradeRow>()) : reads.lastTrades(tickers, atNs),
    market === 'crypto' || opts.quotes === false ? Promise.resolve(new Map<string, QuoteRow>()) : reads.lastQuotes(tickers, atNs),
    opts.sessionParts && d.session ? lastBarsOfParts(reads, tickers, d.session, minutesBefore) : Promise.resolve(undefined),
  ]);
  let day = d.complete ? stored : running;
  if (d.complete) {
    // a finished day without a stored day bar: fold its minute bars
    const missing = tickers.filter((t) => !stored.has(t) && min.has(t));
    if (missing.length) day = new Map([...stored, ...(await reads.minuteAggregates(missing, d.start, minutesBefore))]);
  }
  const out = new Map<string, SnapshotInputs>();
  for (const t of tickers) {
    const x: SnapshotInputs = { day: day.get(t), min: min.get(t), prev: prev.get(t), trade: trades.get(t), quote: quotes.get(t) };
    if (partBars) {
      x.partCloses = { early: partBars.early.get(t)?.c, regular: partBars.regular.get(t)?.c, late: partBars.late.get(t)?.c };
      x.parts = partPrices(d.session!, x.trade, x.partCloses);
    }
    if (x.day || x.min || x.prev || x.trade || x.quote) out.set(t, x);
  }
  return out;
}

/**
 * Reads snapshot inputs as readSnapshotInputs does (stocks with the session parts' prices): the
 * live state's where it holds them (live-snapshots.ts), else the store's.
 */
export type SnapshotInputsReader = (market: SnapshotMarket, tickers: readonly string[], nowMs: number) => Promise<Map<string, SnapshotInputs>>;

/** A SnapshotInputsReader over the store alone. */
export function storeInputsReader(reads: SnapshotReadRepository): SnapshotInputsReader {
  return (market, tickers, nowMs) => readSnapshotInputs(reads, market, tickers, nowMs, { sessionParts: market === 'stocks' });
}

type PartName = keyof SessionPartPrices;

/** Each part's [from, to) in ms: pre-market 04:00–09:30, regular 09:30–16:00, after hours 16:00–20:00 ET (early closes: 13:00, 17:00). */
function partBounds(s: Session): Record<PartName, [number, number]> {
  return { early: [s.preOpen, s.open], regular: [s.open, s.close], late: [s.close, s.postClose] };
}

/** Each ticker's last minute bar, completed before `minutesBefore`, of every part of the session that has begun by then. */
async function lastBarsOfParts(reads: SnapshotReadRepository, tickers: readonly string[], session: Session, minutesBefore: number): Promise<Record<PartName, Map<string, BarRow>>> {
  const bounds = Object.entries(partBounds(session)) as [PartName, [number, number]][];
  const maps = await Promise.all(
    bounds.map(([, [from, to]]) => (minutesBefore > from ? reads.lastMinuteBars(tickers, from, Math.min(to, minutesBefore)) : Promise.resolve(new Map<string, BarRow>()))),
  );
  return { early: maps[0]!, regular: maps[1]!, late: maps[2]! };
}

/**
 * The last price of each part: the last trade when it falls in that part (the minute it is in may
 * not be complete yet), else the close of the part's last completed minute bar.
 */
export function partPrices(session: Session, trade: TradeRow | undefined, closes: SessionPartPrices): SessionPartPrices {
  const out: SessionPartPrices = {};
  const tradeMs = trade ? msOf(trade.sip_timestamp) : undefined;
  for (const [part, [from, to]] of Object.entries(partBounds(session)) as [PartName, [number, number]][]) {
    const price = tradeMs !== undefined && tradeMs >= from && tradeMs < to ? trade!.price : closes[part];
    if (price !== undefined) out[part] = price;
  }
  return out;
}

/** Every ticker of the market that the full-market snapshot covers at the clock, ascending. */
export async function snapshotUniverse(reads: SnapshotReadRepository, market: SnapshotMarket, nowMs: number): Promise<string[]> {
  const d = snapshotDay(market, nowMs);
  return reads.tickersWithDayBars(market, d.start - UNIVERSE_LOOKBACK_DAYS * DAY_MS, d.end);
}

// ---------------------------------------------------------------------------------------------
// Wire objects

/** A snapshot with what ranking needs. */
export interface Ranked<S> {
  snapshot: S;
  /** Unrounded todaysChangePerc; undefined without a previous close or a price. */
  changePerc?: number;
  dayVolume: number;
  otc: boolean;
}

/** Removes binary noise (e.g. 159.99 − 163.64 = −3.6500000000000057) without losing digits that matter. */
function clean(x: number): number {
  return Number(x.toPrecision(12));
}

/** `price` − `base` and its percentage of `base` (rounded to 3 decimals; `exact` unrounded); undefined without both or with a zero base. */
export function changeFrom(price: number | undefined, base: number | undefined): { change: number; percent: number; exact: number } | undefined {
  if (price === undefined || base === undefined || base === 0) return undefined;
  const diff = price - base;
  const exact = (100 * diff) / base;
  return { change: clean(diff), percent: Math.round(exact * 1000) / 1000, exact };
}

function change(price: number | undefined, prev: BarRow | undefined): { todaysChange: number; todaysChangePerc: number; perc?: number } {
  const c = changeFrom(price, prev?.c);
  return c ? { todaysChange: c.change, todaysChangePerc: c.percent, perc: c.exact } : { todaysChange: 0, todaysChangePerc: 0 };
}

const msOf = (ns: bigint): number => Number(ns / NS_PER_MS);

// The builders write plain object literals (one hidden class each, no spreads: a full-market
// snapshot builds tens of thousands). A key whose value is undefined is left out of the JSON by
// the response serializer, as upstream leaves out keys without a value.

interface Ohlcv {
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  /** The stock day's volume as a decimal string. */
  dv?: string;
  vw?: number;
  otc?: true;
}

/** A bar's o/h/l/c/v/vw, or zeros before anything traded (as upstream shows before the open). */
/** `min` before any minute of the day has completed: zero-filled, as `day` is before any bar. */
const NO_MINUTE = { o: 0, h: 0, l: 0, c: 0, v: 0, n: 0, t: 0 } as const;

function ohlcv(b: BarRow | undefined, otc?: true, decimal = false): Ohlcv {
  const v = b?.v ?? 0;
  const dv = decimal ? decimalQuantity(v) : undefined;
  return b ? { o: b.o, h: b.h, l: b.l, c: b.c, v, dv, vw: b.vw, otc } : { o: 0, h: 0, l: 0, c: 0, v, dv, vw: 0, otc };
}

export interface VisibleTicks {
  /** Include lastTrade (the plan covers trades). */
  trades: boolean;
  /** Include lastQuote (the plan covers quotes). */
  quotes: boolean;
  /** Include fmv (the plan covers fair market value; v2 stock snapshots). */
  fmv?: boolean;
}

/**
 * Fair market value of a stock at the snapshot's clock: the NBBO midpoint when there is a two-sided
 * quote, else the last trade's price. Upstream's figure is a proprietary model; this is the
 * estimate a self-hosted store can make from its own ticks.
 */
function fairMarketValue(trade: TradeRow | undefined, quote: QuoteRow | undefined): number | undefined {
  if (quote && quote.bid_price > 0 && quote.ask_price >= quote.bid_price) return Math.round(((quote.bid_price + quote.ask_price) / 2) * 1e6) / 1e6;
  return trade?.price;
}

function barEndNs(b: BarRow | undefined): bigint | undefined {
  return b ? BigInt(b.t + MINUTE_MS) * NS_PER_MS : undefined;
}

export function stockSnapshot(ticker: string, x: SnapshotInputs, otc: boolean, show: VisibleTicks): Ranked<StockSnapshot> {
  const flag = otc ? (true as const) : undefined;
  const day = ohlcv(x.day, flag, true);
  const { todaysChange, todaysChangePerc, perc } = change(x.trade?.price ?? x.min?.c ?? x.day?.c, x.prev);
  const m = x.min;
  const dav = day.dv!;
  const tr = show.trades ? x.trade : undefined;
  const q = x.quote;
  const quoteNs = q ? (q.sip_timestamp ?? q.participant_timestamp ?? 0n) : undefined;
  const snapshot: StockSnapshot = {
    ticker,
    day,
    fmv: show.fmv ? fairMarketValue(x.trade, q) : undefined,
    // av is a whole number of shares upstream (fractional share volume is not counted in it); dav has it all
    min: m
      ? { av: Math.round(day.v), dav, o: m.o, h: m.h, l: m.l, c: m.c, v: m.v ?? 0, dv: decimalQuantity(m.v ?? 0), vw: m.vw, t: m.t, n: m.n, otc: flag }
      : { av: Math.round(day.v), dav, ...NO_MINUTE, dv: decimalQuantity(0), vw: 0, otc: flag },
    prevDay: x.prev ? ohlcv(x.prev, flag) : undefined,
    lastTrade: tr ? { c: tr.conditions ?? [], i: tr.id, p: tr.price, s: tr.size, ds: decimalQuantity(tr.size), t: tr.sip_timestamp, x: tr.exchange } : undefined,
    lastQuote: q && show.quotes ? { P: q.ask_price, S: q.ask_size, p: q.bid_price, s: q.bid_size, t: quoteNs! } : undefined,
    todaysChange,
    todaysChangePerc,
    // upstream's `updated` is the last trade's time; without trades, the last quote's or bar's end
    updated: x.trade?.sip_timestamp ?? quoteNs ?? barEndNs(m) ?? barEndNs(x.prev) ?? 0n,
  };
  return { snapshot, changePerc: perc, dayVolume: day.v, otc };
}

export function forexSnapshot(ticker: string, x: SnapshotInputs): Ranked<ForexSnapshot> {
  const d = x.day;
  const day = d ? { o: d.o, h: d.h, l: d.l, c: d.c, v: d.v ?? 0 } : { o: 0, h: 0, l: 0, c: 0, v: 0 };
  const { todaysChange, todaysChangePerc, perc } = change(x.quote?.bid_price ?? x.min?.c ?? d?.c, x.prev);
  const q = x.quote;
  const quoteMs = q ? msOf(q.participant_timestamp ?? q.sip_timestamp ?? 0n) : undefined;
  const m = x.min;
  const snapshot: ForexSnapshot = {
    ticker,
    day,
    min: m ? { o: m.o, h: m.h, l: m.l, c: m.c, v: m.v ?? 0, n: m.n, t: m.t } : NO_MINUTE,
    prevDay: x.prev ? ohlcv(x.prev) : undefined,
    lastQuote: q ? { a: q.ask_price, b: q.bid_price, t: quoteMs!, x: q.bid_exchange ?? q.ask_exchange } : undefined,
    todaysChange,
    todaysChangePerc,
    updated: quoteMs ?? (m ? m.t + MINUTE_MS : 0),
  };
  return { snapshot, changePerc: perc, dayVolume: day.v, otc: false };
}

export function cryptoSnapshot(ticker: string, x: SnapshotInputs, show: VisibleTicks): Ranked<CryptoSnapshot> {
  const day = ohlcv(x.day);
  const { todaysChange, todaysChangePerc, perc } = change(x.trade?.price ?? x.min?.c ?? x.day?.c, x.prev);
  const tr = x.trade;
  const tradeMs = tr ? msOf(tr.participant_timestamp ?? tr.sip_timestamp) : undefined;
  const m = x.min;
  const snapshot: CryptoSnapshot = {
    ticker,
    day,
    min: m ? { o: m.o, h: m.h, l: m.l, c: m.c, v: m.v ?? 0, vw: m.vw, t: m.t, n: m.n } : { ...NO_MINUTE, vw: 0 },
    prevDay: x.prev ? ohlcv(x.prev) : undefined,
    lastTrade: tr && show.trades ? { c: tr.conditions ?? [], i: tr.id ?? '', p: tr.price, s: tr.size, t: tradeMs!, x: tr.exchange } : undefined,
    todaysChange,
    todaysChangePerc,
    updated: tradeMs ?? (m ? m.t + MINUTE_MS : 0),
  };
  return { snapshot, changePerc: perc, dayVolume: day.v, otc: false };
}

// ---------------------------------------------------------------------------------------------
// Queries

export interface SnapshotRequest {
  market: SnapshotMarket;
  /** Explicit tickers, or undefined for the whole market. */
  tickers?: readonly string[];
  nowMs: number;
  /** Stocks: keep OTC tickers (they are flagged otc: true). */
  includeOtc: boolean;
  show: VisibleTicks;
}

export type AnySnapshot = StockSnapshot | ForexSnapshot | CryptoSnapshot;

/** Snapshots of the requested tickers (or the whole market) that have any data, ascending by ticker. */
export async function marketSnapshots(store: SnapshotStore, req: SnapshotRequest, opts: { quotes?: boolean } = {}): Promise<Ranked<AnySnapshot>[]> {
  const reads = store.snapshotReads;
  const tickers = req.tickers ? [...new Set(req.tickers)].sort() : await snapshotUniverse(reads, req.market, req.nowMs);
  const otc = req.market === 'stocks' ? await reads.otcTickers() : new Set<string>();
  const wanted = req.includeOtc ? tickers : tickers.filter((t) => !otc.has(t));
  const inputs = await readSnapshotInputs(reads, req.market, wanted, req.nowMs, opts);
  const out: Ranked<AnySnapshot>[] = [];
  for (const [ticker, x] of inputs) {
    if (req.market === 'stocks') out.push(stockSnapshot(ticker, x, otc.has(ticker), req.show));
    else if (req.market === 'fx') out.push(forexSnapshot(ticker, x));
    else out.push(cryptoSnapshot(ticker, x, req.show));
  }
  return out;
}

/** Top movers: the 20 largest gains or losses in percent, ties by ticker. */
export function rankMovers<S>(all: readonly Ranked<S>[], market: SnapshotMarket, direction: 'gainers' | 'losers'): S[] {
  const sign = direction === 'gainers' ? 1 : -1;
  return all
    .filter((r) => r.changePerc !== undefined && sign * r.changePerc > 0 && (market !== 'stocks' || r.dayVolume >= MIN_MOVER_VOLUME))
    .sort((a, b) => sign * (b.changePerc! - a.changePerc!) || ((a.snapshot as { ticker: string }).ticker < (b.snapshot as { ticker: string }).ticker ? -1 : 1))
    .slice(0, MOVERS_LIMIT)
    .map((r) => r.snapshot);
}

/**
 * Gainers or losers of the whole market. Stocks and crypto rank on trades and bars alone, so the
 * full market is read without quotes and only the 20 movers are read again in full.
 */
export async function movers(store: SnapshotStore, req: Omit<SnapshotRequest, 'tickers'>, direction: 'gainers' | 'losers'): Promise<AnySnapshot[]> {
  if (req.market === 'fx') return rankMovers(await marketSnapshots(store, req), req.market, direction);
  const top = rankMovers(await marketSnapshots(store, req, { quotes: false }), req.market, direction);
  if (req.market === 'crypto' || top.length === 0) return top;
  const full = await marketSnapshots(store, { ...req, tickers: top.map((s) => s.ticker), includeOtc: true });
  const byTicker = new Map(full.map((r) => [r.snapshot.ticker, r.snapshot]));
  return top.map((s) => byTicker.get(s.ticker) ?? s);
}

export type { SnapshotMarket };

/** Snapshots as JSON pieces, one per ticker (spliced into the body by the native serializer). */
export interface SnapshotPieces {
  count: number;
  pieces: readonly Buffer[];
}

/** A ticker's snapshot as JSON text (nanosecond times exact). */
export function snapshotJson(s: AnySnapshot): Buffer {
  return Buffer.from(JSON.stringify(s, bigintMarker).replace(BIGINT_PATTERN, '$1'));
}

// JSON writes the marker's NUL as \u0000 (six characters), which no other value of a snapshot holds
const BIGINT_PATTERN = /"\\u0000n(-?\d+)"/g;
function bigintMarker(_key: string, v: unknown): unknown {
  return typeof v === 'bigint' ? `\u0000n${v}` : v;
}

/**
 * Answers kept in memory (live-snapshots.ts): each gives undefined where it cannot answer for the
 * request's clock, and the store is read instead.
 */
export interface LiveSnapshotAnswers {
  one(market: SnapshotMarket, ticker: string, nowMs: number, show: VisibleTicks): Promise<{ ranked: Ranked<AnySnapshot>; json: Buffer } | null | undefined>;
  /** one() from memory alone, synchronously (undefined also where one() would read the store). */
  oneNow(market: SnapshotMarket, ticker: string, nowMs: number, show: VisibleTicks): { json: Buffer } | null | undefined;
  list(market: SnapshotMarket, nowMs: number, includeOtc: boolean, show: VisibleTicks): Promise<SnapshotPieces | undefined>;
  /** list() from memory alone, synchronously (undefined also where list() would read the store). */
  listNow(market: SnapshotMarket, nowMs: number, includeOtc: boolean, show: VisibleTicks): SnapshotPieces | undefined;
  ranked(market: SnapshotMarket, nowMs: number, includeOtc: boolean, show: VisibleTicks): Promise<Ranked<AnySnapshot>[] | undefined>;
}

/**
 * Snapshots answered from the live state (live-snapshots.ts) where it can answer for the
 * request's clock, else computed from the store as above; both give the same answer.
 */
export class SnapshotService {
  constructor(
    private readonly store: SnapshotStore,
    private readonly live?: LiveSnapshotAnswers,
  ) {}

  /** Snapshots of the requested tickers (or the whole market) that have any data, ascending by ticker. */
  async list(req: SnapshotRequest): Promise<AnySnapshot[]> {
    return (await marketSnapshots(this.store, req)).map((r) => r.snapshot);
  }

  /** list() as JSON pieces; the whole market from the live state's rendered pieces. */
  async listPieces(req: SnapshotRequest): Promise<SnapshotPieces> {
    if (req.tickers === undefined && this.live !== undefined) {
      const kept = await this.live.list(req.market, req.nowMs, req.includeOtc, req.show);
      if (kept !== undefined) return kept;
    }
    const all = await this.list(req);
    return { count: all.length, pieces: all.map(snapshotJson) };
  }

  /** The snapshot of one ticker (OTC included) as JSON (the live state's rendered bytes where it answers), undefined when nothing is stored for it. */
  async oneJson(req: Omit<SnapshotRequest, 'tickers' | 'includeOtc'>, ticker: string): Promise<Buffer | undefined> {
    const kept = await this.live?.one(req.market, ticker, req.nowMs, req.show);
    if (kept !== undefined) return kept?.json;
    const [one] = await marketSnapshots(this.store, { ...req, tickers: [ticker], includeOtc: true });
    return one === undefined ? undefined : snapshotJson(one.snapshot);
  }

  /**
   * oneJson() where memory holds the answer, synchronously; undefined where it would read the
   * store (and for a ticker without data, whose 404 the full path answers).
   */
  oneJsonNow(req: Omit<SnapshotRequest, 'tickers' | 'includeOtc'>, ticker: string): Buffer | undefined {
    return this.live?.oneNow(req.market, ticker, req.nowMs, req.show)?.json;
  }

  /** listPieces() of the whole market where memory holds it, synchronously; undefined where it would read the store. */
  marketPiecesNow(req: Omit<SnapshotRequest, 'tickers'>): SnapshotPieces | undefined {
    return this.live?.listNow(req.market, req.nowMs, req.includeOtc, req.show);
  }

  async movers(req: Omit<SnapshotRequest, 'tickers'>, direction: 'gainers' | 'losers'): Promise<AnySnapshot[]> {
    const all = await this.live?.ranked(req.market, req.nowMs, req.includeOtc, req.show);
    return all !== undefined ? rankMovers(all, req.market, direction) : movers(this.store, req, direction);
  }
}
