// Demo market data: deterministic, calendar-true bars, trades and quotes.
//
// - Stocks and ETFs (REAL_STOCK_SYMBOLS): day bars for five years of NYSE sessions; minute
//   bars 04:00-20:00 ET (pre-market and after-hours sparse, as in real data) for the last 20
//   sessions, with those days' day bars aggregated from them (whole ET day, extended hours
//   included, like the importer's derived bars); for TICK_STOCKS, trades and NBBO quotes over
//   the last 2 sessions, with those sessions' minute and day bars computed from the trades.
// - Indices (I:): values only (no volume), regular session minutes.
// - Forex (C:): UTC days (Sunday to Friday, minutes while the market is open); the last 2 days
//   as quotes carrying only participant_timestamp, with bars built from their bids (v = n =
//   quote count). Crypto (X:): every ET day, trades without SIP time for the last 2 days.
// - Prices follow a geometric random walk per ticker in split-adjusted terms, carried from one
//   day to the next and through the minutes of a day. Stored bars are RAW: before each split
//   in DEMO_SPLITS prices are multiplied (and volumes divided) by the split ratio, so
//   `adjusted=true` shows the adjustment. The splits themselves are stored by the corporate-
//   actions step, which reads DEMO_SPLITS.
// - Every ticker draws from its own forked PRNG stream (walk.ts), so the data does not depend on the
//   order of generation or the machine. `scale` multiplies the tick rate and the minute-bar
//   sessions (and the forex/crypto minute days).
import { barsFromTrades, dayBarsFromMinuteBars, type Bar, type TradePrint } from '../domain/bars.js';
import { dateOfDay, dayOfDate, isForexOpen, localDayOf, localDayStart, sessionOn, tradingDaysBetween, weekdayOfDay, type Session, type Zone } from '../domain/calendar.js';
import type { BarRow, QuoteRow, TradeRow } from '../domain/market-records.js';
import type { Store } from '../store/index.js';
import type { MarketDataPort } from '../store/repos/market-port.js';
import { CRYPTO_EXCHANGES, CRYPTO_LEVELS, DEMO_SPLITS, FOREX_EXCHANGE, FX_LEVELS, INDEX_ETFS, INDEX_LEVELS, QUOTE_EXCHANGES, STOCK_EXCHANGES, STOCK_LEVELS, TICK_STOCKS, TRF_IDS } from './facts/market.js';
import type { DemoOptions, DemoStep } from './step.js';
import type { Rng } from './random.js';
import { appendRows, BAR_TO_ROW, candle, countAround, dailyBar, emptyRows, indexBar, MINUTE_MS, minuteWeight, newWalk, offsetsInMinute, roundTo, sessionWeight, step, typicalPrice, withVolume, type Ohlc, type Rows, type Walk } from './walk.js';
import { CRYPTO_MAJOR_SYMBOLS, FX_MAJOR_SYMBOLS, REAL_INDEX_SYMBOLS, REAL_STOCK_SYMBOLS, realTickers } from './universe.js';

export { DEMO_SPLITS, TICK_STOCKS } from './facts/market.js';
export type { Rows } from './walk.js';
export const DEMO_FOREX: readonly string[] = FX_MAJOR_SYMBOLS;
export const DEMO_CRYPTO: readonly string[] = CRYPTO_MAJOR_SYMBOLS;
export const DEMO_INDICES: readonly string[] = REAL_INDEX_SYMBOLS;

const YEARS_OF_DAY_BARS = 5;
const MINUTE_SESSIONS = 20;
const TICK_SESSIONS = 2;
/** Forex and crypto trade around the clock: fewer minute days keep the first start quick. */
const FX_CRYPTO_MINUTE_DAYS = 5;
const TRADES_PER_SESSION = 6000;
const QUOTES_PER_SESSION = 6000;
const CRYPTO_TRADES_PER_DAY = 4000;
const FX_QUOTES_PER_DAY = 3000;
const CRYPTO_MEAN_NOTIONAL = 1500;

const ET: Zone = 'America/New_York';
const UTC: Zone = 'UTC';
const NS_PER_MS = 1_000_000n;
const SATURDAY = 6;

// ---------------------------------------------------------------------------------------------
// The plan: which days get which kind of data.

export interface MarketPlan {
  asOf: string;
  scale: number;
  /** NYSE sessions with day bars, ascending. */
  sessions: string[];
  /** The last sessions with minute bars (tick sessions included). */
  minuteSessions: Set<string>;
  /** The last sessions with trades and quotes for TICK_STOCKS. */
  tickSessions: Set<string>;
  /** Calendar days (ascending) from the first day-bar day to asOf, for forex and crypto. */
  calendarDays: string[];
  /** Forex and crypto calendar days with minute bars / with ticks. */
  calendarMinuteDays: Set<string>;
  calendarTickDays: Set<string>;
}

export function demoMarketPlan(asOf: string, scale: number): MarketPlan {
  const last = dayOfDate(asOf);
  const first = last - Math.round(YEARS_OF_DAY_BARS * 365.25) + 1;
  const sessions = tradingDaysBetween(dateOfDay(first), asOf);
  const minuteCount = Math.min(sessions.length, Math.round(MINUTE_SESSIONS * scale));
  const calendarDays: string[] = [];
  for (let d = first; d <= last; d++) calendarDays.push(dateOfDay(d));
  const calendarMinuteCount = Math.min(calendarDays.length, Math.round(FX_CRYPTO_MINUTE_DAYS * scale));
  return {
    asOf,
    scale,
    sessions,
    minuteSessions: new Set(sessions.slice(-minuteCount)),
    tickSessions: new Set(sessions.slice(-TICK_SESSIONS)),
    calendarDays,
    calendarMinuteDays: new Set(calendarDays.slice(-calendarMinuteCount)),
    calendarTickDays: new Set(calendarDays.slice(-TICK_SESSIONS)),
  };
}

/** Raw price = adjusted price × this, for a bar or tick on `date` (splits on later dates apply). */
export function splitFactor(ticker: string, date: string): number {
  let factor = 1;
  for (const s of DEMO_SPLITS) if (s.ticker === ticker && date < s.execution_date) factor *= s.split_to / s.split_from;
  return factor;
}

/** What a session or calendar day holds: ticks (and bars built from them), minute bars, or one day bar. */
export type DayMode = 'ticks' | 'minutes' | 'day';

/** The kind of data a NYSE session gets under `plan` (`ticks`: whether the ticker has tick sessions). */
export function sessionMode(plan: MarketPlan, date: string, ticks: boolean): DayMode {
  if (ticks && plan.tickSessions.has(date)) return 'ticks';
  return plan.minuteSessions.has(date) ? 'minutes' : 'day';
}

/** The kind of data a forex or crypto calendar day gets under `plan`. */
export function calendarDayMode(plan: MarketPlan, date: string): DayMode {
  if (plan.calendarTickDays.has(date)) return 'ticks';
  return plan.calendarMinuteDays.has(date) ? 'minutes' : 'day';
}

// ---------------------------------------------------------------------------------------------
// Stocks and indices.

/** Minute bars of one session from the walk; extended-hours minutes are sparse. */
function sessionMinutes(w: Walk, s: Session, factor: number, isIndex: boolean): BarRow[] {
  const out: BarRow[] = [];
  const from = isIndex ? s.open : s.preOpen;
  const to = isIndex ? s.close : s.postClose;
  const perMinute = 1 / 390;
  const totalWeight = sessionWeight(s);
  step(w, 0.05); // overnight gap
  for (let t = from; t < to; t += MINUTE_MS) {
    const regular = t >= s.open && t < s.close;
    const o = w.price;
    const c = step(w, perMinute, regular ? 1 : 0.5);
    if (!regular && !w.rng.chance(0.35)) continue;
    const p = candle(w, o, c, w.sigma * Math.sqrt(perMinute) * 0.5, factor);
    if (isIndex) out.push(indexBar(w.ticker, t, p));
    else out.push(withVolume(w, w.ticker, t, p, ((w.volume * minuteWeight(t, s)) / totalWeight) * Math.exp(w.rng.normal(0, 0.4)), factor));
  }
  return out;
}

function stockTradeSize(rng: Rng, meanSize: number): number {
  const r = rng.next();
  // a one-share print where a fractional one was once drawn: sizes are whole shares, as upstream's
  // trades and the bars' volumes are (the draw is kept so the rest of the walk is unchanged)
  if (r < 0.03) return Math.max(1, Math.round(rng.float(0.01, 1)));
  if (r < 0.15) return rng.int(1, 99); // odd lot
  const meanLots = Math.max(1, meanSize / 100);
  return 100 * (1 + Math.floor(-Math.log(1 - rng.next()) * (meanLots - 1)));
}

/** Every n-th demo stock trade carries a correction indicator (1: a corrected print). */
const CORRECTED_EVERY = 500;
/** Quote condition 1, "Regular, Two-Sided Open", on quotes of the regular session. */
const REGULAR_TWO_SIDED = 1;

/** Sale conditions of a stock trade: 12 (Form T) outside the regular session, 14 (intermarket sweep) when drawn. */
function stockTradeConditions(regular: boolean, sweep: boolean): number[] | undefined {
  const codes = [...(regular ? [] : [12]), ...(sweep ? [14] : [])];
  return codes.length ? codes : undefined;
}

/** Trades and NBBO quotes of one session; the bars of the session are built from the trades. */
function sessionTicks(w: Walk, s: Session, factor: number, tape: number, scale: number): { trades: TradeRow[]; quotes: QuoteRow[] } {
  const rng = w.rng;
  const trades: TradeRow[] = [];
  const quotes: QuoteRow[] = [];
  const tradeTarget = TRADES_PER_SESSION * scale;
  const quoteTarget = QUOTES_PER_SESSION * scale;
  const totalWeight = sessionWeight(s);
  const meanSize = w.volume / tradeTarget;
  const d = 2; // stock prices in cents
  let sequence = 1000 + rng.int(0, 999);
  let tradeId = 10_000 + rng.int(0, 9999);
  step(w, 0.05);
  for (let t = s.preOpen; t < s.postClose; t += MINUTE_MS) {
    const weight = minuteWeight(t, s) / totalWeight;
    const nTrades = countAround(rng, tradeTarget * weight);
    const nQuotes = countAround(rng, quoteTarget * weight);
    const events = nTrades + nQuotes;
    if (events === 0) {
      step(w, 1 / 390, 0.5);
      continue;
    }
    const offsets = offsetsInMinute(rng, events);
    const regular = t >= s.open && t < s.close;
    const sdScale = (regular ? 1 : 0.5) / Math.sqrt(events);
    let tradesLeft = nTrades;
    const minuteNs = BigInt(t) * NS_PER_MS;
    for (let i = 0; i < events; i++) {
      const price = step(w, 1 / 390, sdScale) * factor;
      const sip = minuteNs + BigInt(offsets[i]!);
      const participant = sip - BigInt(rng.int(50, 3000) * 1000);
      sequence += rng.int(1, 4);
      // Trades take their share of the events at random positions.
      const isTrade = rng.next() * (events - i) < tradesLeft;
      if (isTrade) {
        tradesLeft--;
        const exchange = rng.pick(STOCK_EXCHANGES);
        const trf = exchange === 4;
        trades.push({
          ticker: w.ticker,
          sip_timestamp: sip,
          participant_timestamp: participant,
          trf_timestamp: trf ? participant + BigInt(rng.int(1, 40) * 1000) : undefined,
          price: roundTo(price, d),
          size: stockTradeSize(rng, meanSize / factor),
          exchange,
          id: String(++tradeId),
          conditions: stockTradeConditions(regular, rng.chance(0.1)),
          correction: tradeId % CORRECTED_EVERY === 0 ? 1 : undefined,
          sequence_number: BigInt(sequence),
          tape,
          trf_id: trf ? rng.pick(TRF_IDS) : undefined,
        });
      } else {
        const spread = Math.max(0.01, roundTo(price * (regular ? 0.0001 : 0.0005), d));
        const bid = roundTo(price - spread / 2, d);
        quotes.push({
          ticker: w.ticker,
          sip_timestamp: sip,
          participant_timestamp: participant,
          trf_timestamp: undefined,
          ask_price: roundTo(bid + spread, d),
          ask_size: 100 * rng.int(1, 30),
          ask_exchange: rng.pick(QUOTE_EXCHANGES),
          bid_price: bid,
          bid_size: 100 * rng.int(1, 30),
          bid_exchange: rng.pick(QUOTE_EXCHANGES),
          conditions: regular ? [REGULAR_TWO_SIDED] : undefined,
          indicators: undefined,
          sequence_number: BigInt(sequence),
          tape,
        });
      }
    }
  }
  return { trades, quotes };
}

function tradePrints(trades: readonly TradeRow[]): TradePrint[] {
  return trades.map((t) => ({ t_ns: t.sip_timestamp, price: t.price, size: t.size }));
}

/** The walk of a stock or ETF, at its first day-bar session's level. */
export function stockWalk(ticker: string): Walk {
  const w = newWalk(ticker, 'stock', (rng) => {
    const volume = Math.exp(rng.normal(Math.log(8e6), 0.9));
    return {
      price: STOCK_LEVELS[ticker] ?? Math.exp(rng.normal(Math.log(120), 0.8)),
      sigma: rng.float(0.01, 0.022),
      drift: rng.float(-0.0001, 0.0005),
      volume,
      // Transaction counts match what the tick sessions print, so `n` does not jump on those days.
      tradeSize: volume / TRADES_PER_SESSION,
      reversion: 0.002,
    };
  });
  w.decimals = 2;
  return w;
}

/** The SIP tape of a stock by its primary exchange. */
export function tapeOf(primaryExchange: string | undefined): number {
  if (primaryExchange === 'XNAS') return 3;
  if (primaryExchange === 'XNYS') return 1;
  return 2;
}

/** The rows of one stock session, advancing the walk (`tape` and `scale` matter to ticks only). */
export function stockSessionRows(w: Walk, date: string, mode: DayMode, tape: number, scale: number): Rows {
  const ticker = w.ticker;
  const factor = splitFactor(ticker, date);
  const session = sessionOn(date)!;
  const rows = emptyRows();
  if (mode === 'ticks') {
    const { trades, quotes } = sessionTicks(w, session, factor, tape, scale);
    rows.trades = trades;
    rows.quotes = quotes;
    const prints = tradePrints(trades);
    rows.minute = barsFromTrades(prints, 'minute', ET).map(BAR_TO_ROW(ticker));
    rows.day = barsFromTrades(prints, 'day', ET).map(BAR_TO_ROW(ticker));
  } else if (mode === 'minutes') {
    rows.minute = sessionMinutes(w, session, factor, false);
    rows.day = dayBarsFromMinuteBars(rows.minute as Bar[], ET).map(BAR_TO_ROW(ticker));
  } else {
    rows.day = [dailyBar(w, localDayStart(dayOfDate(date), ET), factor, true)];
  }
  return rows;
}

/** Every row of one stock or ETF. */
export function stockRows(ticker: string, plan: MarketPlan, info: { listDate?: string; primaryExchange?: string } = {}): Rows {
  const w = stockWalk(ticker);
  const ticks = TICK_STOCKS.includes(ticker);
  const tape = tapeOf(info.primaryExchange);
  const rows = emptyRows();
  for (const date of plan.sessions) {
    if (info.listDate !== undefined && date < info.listDate) continue;
    appendRows(rows, stockSessionRows(w, date, sessionMode(plan, date, ticks), tape, plan.scale));
  }
  return rows;
}

/** The walk of an index (values only), at its first session's level. */
export function indexWalk(ticker: string): Walk {
  const level = INDEX_LEVELS[ticker] ?? 1000;
  const vix = ticker === 'I:VIX';
  return newWalk(ticker, 'index', (rng) => ({
    price: level,
    sigma: vix ? 0.06 : rng.float(0.008, 0.012),
    drift: vix ? 0 : 0.0002,
    volume: 0,
    tradeSize: 1,
    reversion: vix ? 0.05 : 0.001,
  }), 2);
}

/** The rows of one index session ('ticks' is taken as 'minutes': indices print values, not trades). */
export function indexSessionRows(w: Walk, date: string, mode: DayMode): Rows {
  const rows = emptyRows();
  if (mode === 'day') {
    rows.day = [dailyBar(w, localDayStart(dayOfDate(date), ET), 1, false)];
  } else {
    rows.minute = sessionMinutes(w, sessionOn(date)!, 1, true);
    rows.day = dayBarsFromMinuteBars(rows.minute, ET).map((b) => indexBar(w.ticker, b.t, b));
  }
  return rows;
}

/**
 * The rows of an index that is its ETF's price times `ratio` (I:SPX and SPY): the ETF's
 * regular-session minute bars scaled, the day bars built from them, and the ETF's day bar scaled
 * on days without minute bars.
 */
export function indexRowsOfEtf(ticker: string, etf: Rows, ratio: number): Rows {
  const rows = emptyRows();
  const scaled = (b: Ohlc): Ohlc => ({ o: roundTo(b.o * ratio, 2), h: roundTo(b.h * ratio, 2), l: roundTo(b.l * ratio, 2), c: roundTo(b.c * ratio, 2) });
  rows.minute = etf.minute.filter((b) => {
    const s = sessionOn(dateOfDay(localDayOf(b.t, ET)));
    return s !== null && b.t >= s.open && b.t < s.close;
  }).map((b) => indexBar(ticker, b.t, scaled(b)));
  const fromMinutes = dayBarsFromMinuteBars(rows.minute as Bar[], ET).map((b) => indexBar(ticker, b.t, b));
  const covered = new Set(fromMinutes.map((b) => b.t));
  rows.day = [...etf.day.filter((b) => !covered.has(b.t)).map((b) => indexBar(ticker, b.t, scaled(b))), ...fromMinutes].sort((a, b) => a.t - b.t);
  return rows;
}

export function indexRows(ticker: string, plan: MarketPlan): Rows {
  const ratio = INDEX_ETFS[ticker]?.ratio;
  if (ratio !== undefined) return indexRowsOfEtf(ticker, stockRows(INDEX_ETFS[ticker]!.etf, plan), ratio);
  const w = indexWalk(ticker);
  const rows = emptyRows();
  for (const date of plan.sessions) appendRows(rows, indexSessionRows(w, date, sessionMode(plan, date, false)));
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Forex (UTC days, quotes) and crypto (ET days, trades).

function fxDecimals(ticker: string): number {
  return /JPY$/.test(ticker) ? 3 : /MXN$/.test(ticker) ? 4 : 5;
}

function forexQuotes(w: Walk, from: number, to: number, scale: number): QuoteRow[] {
  const out: QuoteRow[] = [];
  const perMinute = (FX_QUOTES_PER_DAY * scale) / 1440;
  for (let t = from; t < to; t += MINUTE_MS) {
    if (!isForexOpen(t)) continue;
    const n = countAround(w.rng, perMinute);
    if (n === 0) {
      step(w, 1 / 1440);
      continue;
    }
    const minuteNs = BigInt(t) * NS_PER_MS;
    for (const offset of offsetsInMinute(w.rng, n)) {
      const mid = step(w, 1 / 1440, 1 / Math.sqrt(n));
      const spread = mid * 0.00008;
      const bid = roundTo(mid - spread / 2, w.decimals);
      out.push({
        ticker: w.ticker,
        sip_timestamp: undefined,
        participant_timestamp: minuteNs + BigInt(offset),
        trf_timestamp: undefined,
        ask_price: Math.max(roundTo(mid + spread / 2, w.decimals), bid + 10 ** -w.decimals),
        ask_size: undefined,
        ask_exchange: FOREX_EXCHANGE,
        bid_price: bid,
        bid_size: undefined,
        bid_exchange: FOREX_EXCHANGE,
        conditions: undefined,
        indicators: undefined,
        sequence_number: undefined,
        tape: undefined,
      });
    }
  }
  return out;
}

/** Forex minute bars: o/h/l/c of the bid, v = n = quote updates. */
function forexMinutes(w: Walk, from: number, to: number): BarRow[] {
  const out: BarRow[] = [];
  for (let t = from; t < to; t += MINUTE_MS) {
    if (!isForexOpen(t)) continue;
    const o = w.price;
    const c = step(w, 1 / 1440);
    const p = candle(w, o, c, w.sigma * Math.sqrt(1 / 1440) * 0.5, 1);
    const n = Math.max(1, Math.round(w.volume / 1440 * Math.exp(w.rng.normal(0, 0.4))));
    out.push({ ticker: w.ticker, t, ...p, v: n, vw: typicalPrice(p, w.decimals), n });
  }
  return out;
}

/** The walk of a currency pair, at its first day's level. */
export function forexWalk(ticker: string): Walk {
  return newWalk(ticker, 'forex', (rng) => ({
    price: FX_LEVELS[ticker] ?? 1,
    sigma: rng.float(0.004, 0.007),
    drift: 0,
    volume: rng.float(80_000, 250_000),
    tradeSize: 1,
    reversion: 0.005,
  }), fxDecimals(ticker));
}

/** [from, to) of a calendar day in `zone`, or the part of it `window` gives. */
function dayWindow(date: string, zone: Zone, window?: TimeWindow): { start: number; from: number; to: number } {
  const day = dayOfDate(date);
  const start = localDayStart(day, zone);
  return { start, from: window?.fromMs ?? start, to: window?.toMs ?? localDayStart(day + 1, zone) };
}

/** Part of a day: [fromMs, toMs). */
export interface TimeWindow {
  fromMs: number;
  toMs: number;
}

/**
 * The rows of one forex UTC day (none on Saturdays), advancing the walk; `window` limits a
 * 'ticks' or 'minutes' day to part of it. Day rows are those of the generated part only.
 */
export function forexDayRows(w: Walk, date: string, mode: DayMode, scale: number, window?: TimeWindow): Rows {
  const ticker = w.ticker;
  const rows = emptyRows();
  if (weekdayOfDay(dayOfDate(date)) === SATURDAY) return rows; // closed from Friday 17:00 to Sunday 17:00 ET
  const { start, from, to } = dayWindow(date, UTC, window);
  if (mode === 'ticks') {
    rows.quotes = forexQuotes(w, from, to, scale);
    const prints = rows.quotes.map((q) => ({ t_ns: q.participant_timestamp!, price: q.bid_price, size: 1 }));
    // vw: the mean bid of the bar (every quote counts once)
    const asCounts = (b: Bar): BarRow => ({ ticker, t: b.t, o: b.o, h: b.h, l: b.l, c: b.c, v: b.n, vw: b.vw === undefined ? undefined : roundTo(b.vw, w.decimals), n: b.n });
    rows.minute = barsFromTrades(prints, 'minute', UTC).map(asCounts);
    rows.day = barsFromTrades(prints, 'day', UTC).map(asCounts);
  } else if (mode === 'minutes') {
    rows.minute = forexMinutes(w, from, to);
    rows.day = dayBarsFromMinuteBars(rows.minute as Bar[], UTC).map(BAR_TO_ROW(ticker));
  } else {
    const bar = dailyBar(w, start, 1, true);
    rows.day = [{ ...bar, v: bar.n }];
  }
  return rows;
}

export function forexRows(ticker: string, plan: MarketPlan): Rows {
  const w = forexWalk(ticker);
  const rows = emptyRows();
  for (const date of plan.calendarDays) appendRows(rows, forexDayRows(w, date, calendarDayMode(plan, date), plan.scale));
  return rows;
}

function cryptoTrades(w: Walk, from: number, to: number, scale: number): TradeRow[] {
  const out: TradeRow[] = [];
  const perMinute = (CRYPTO_TRADES_PER_DAY * scale) / 1440;
  let id = 100_000_000 + w.rng.int(0, 99_999_999);
  for (let t = from; t < to; t += MINUTE_MS) {
    const n = countAround(w.rng, perMinute);
    if (n === 0) {
      step(w, 1 / 1440);
      continue;
    }
    const minuteNs = BigInt(t) * NS_PER_MS;
    for (const offset of offsetsInMinute(w.rng, n)) {
      const price = roundTo(step(w, 1 / 1440, 1 / Math.sqrt(n)), w.decimals);
      // Lognormal notional with mean CRYPTO_MEAN_NOTIONAL.
      const notional = CRYPTO_MEAN_NOTIONAL * Math.exp(w.rng.normal(-0.5, 1));
      const ts = minuteNs + BigInt(offset);
      out.push({
        ticker: w.ticker,
        // Crypto files carry only the participant time; it is the time key (as the importer stores it).
        sip_timestamp: ts,
        participant_timestamp: ts,
        trf_timestamp: undefined,
        price,
        size: Math.max(1e-8, roundTo(notional / price, 8)),
        exchange: w.rng.pick(CRYPTO_EXCHANGES),
        id: String(++id),
        conditions: [w.rng.chance(0.5) ? 1 : 2],
        correction: undefined,
        sequence_number: undefined,
        tape: undefined,
        trf_id: undefined,
      });
    }
  }
  return out;
}

function cryptoMinutes(w: Walk, from: number, to: number): BarRow[] {
  const out: BarRow[] = [];
  for (let t = from; t < to; t += MINUTE_MS) {
    const o = w.price;
    const c = step(w, 1 / 1440);
    const p = candle(w, o, c, w.sigma * Math.sqrt(1 / 1440) * 0.5, 1);
    out.push(withVolume(w, w.ticker, t, p, (w.volume / 1440) * Math.exp(w.rng.normal(0, 0.6)), 1));
  }
  return out;
}

/** The walk of a coin, at its first day's level. */
export function cryptoWalk(ticker: string): Walk {
  const level = CRYPTO_LEVELS[ticker] ?? 10;
  // Volume and transaction counts on the days without trades match the trade days' average.
  return newWalk(ticker, 'crypto', (rng) => ({
    price: level,
    sigma: rng.float(0.025, 0.04),
    drift: 0.0002,
    volume: (CRYPTO_TRADES_PER_DAY * CRYPTO_MEAN_NOTIONAL) / level,
    tradeSize: CRYPTO_MEAN_NOTIONAL / level,
    // a pull strong enough to keep each coin within about a fifth of its level, so the pairs keep
    // sane ratios to each other over the years of history (ETH well under BTC)
    reversion: 0.02,
    volumeDecimals: 8,
  }));
}

/**
 * The rows of one crypto ET day, advancing the walk; `window` limits a 'ticks' or 'minutes' day
 * to part of it. Day rows are those of the generated part only.
 */
export function cryptoDayRows(w: Walk, date: string, mode: DayMode, scale: number, window?: TimeWindow): Rows {
  const ticker = w.ticker;
  const rows = emptyRows();
  const { start, from, to } = dayWindow(date, ET, window);
  if (mode === 'ticks') {
    rows.trades = cryptoTrades(w, from, to, scale);
    const prints = tradePrints(rows.trades);
    rows.minute = barsFromTrades(prints, 'minute', ET).map(BAR_TO_ROW(ticker));
    rows.day = barsFromTrades(prints, 'day', ET).map(BAR_TO_ROW(ticker));
  } else if (mode === 'minutes') {
    rows.minute = cryptoMinutes(w, from, to);
    rows.day = dayBarsFromMinuteBars(rows.minute as Bar[], ET).map(BAR_TO_ROW(ticker));
  } else {
    rows.day = [dailyBar(w, start, 1, true)];
  }
  return rows;
}

export function cryptoRows(ticker: string, plan: MarketPlan): Rows {
  const w = cryptoWalk(ticker);
  const rows = emptyRows();
  for (const date of plan.calendarDays) appendRows(rows, cryptoDayRows(w, date, calendarDayMode(plan, date), plan.scale));
  return rows;
}

// ---------------------------------------------------------------------------------------------
// The demo step.

/** Every ticker of the demo market data and the generator of its rows. */
export function demoMarketTickers(plan: MarketPlan): { ticker: string; rows: () => Rows }[] {
  const info = new Map(realTickers(plan.asOf).map((t) => [t.ticker, t]));
  return [
    ...REAL_STOCK_SYMBOLS.map((ticker) => ({
      ticker,
      rows: () => stockRows(ticker, plan, { listDate: info.get(ticker)?.list_date, primaryExchange: info.get(ticker)?.primary_exchange }),
    })),
    ...DEMO_INDICES.map((ticker) => ({ ticker, rows: () => indexRows(ticker, plan) })),
    ...DEMO_FOREX.map((ticker) => ({ ticker, rows: () => forexRows(ticker, plan) })),
    ...DEMO_CRYPTO.map((ticker) => ({ ticker, rows: () => cryptoRows(ticker, plan) })),
  ];
}

async function writeRows(market: MarketDataPort, rows: Rows): Promise<void> {
  await market.insertBars('day', rows.day);
  await market.insertBars('minute', rows.minute);
  await market.insertTrades(rows.trades);
  await market.insertQuotes(rows.quotes);
}

export interface MarketLoadSummary {
  day: number;
  minute: number;
  trades: number;
  quotes: number;
}

/** Generates and stores the demo market data (only `onlyTickers` when given); returns rows generated. */
export async function loadDemoMarket(store: Store, opts: Pick<DemoOptions, 'asOf' | 'scale'>, onlyTickers?: readonly string[]): Promise<MarketLoadSummary> {
  const plan = demoMarketPlan(opts.asOf, opts.scale);
  const totals: MarketLoadSummary = { day: 0, minute: 0, trades: 0, quotes: 0 };
  // One transaction: a single commit (and WAL checkpoint) instead of one per ticker; rows are
  // generated and written a ticker at a time, so memory stays at one ticker's worth.
  await store.transaction(async (tx) => {
    for (const { ticker, rows } of demoMarketTickers(plan)) {
      if (onlyTickers && !onlyTickers.includes(ticker)) continue;
      const r = rows();
      await writeRows(tx.market, r);
      totals.day += r.day.length;
      totals.minute += r.minute.length;
      totals.trades += r.trades.length;
      totals.quotes += r.quotes.length;
    }
  });
  return totals;
}

export const marketStep: DemoStep = {
  name: 'market data',
  async run(store: Store, opts: DemoOptions): Promise<string> {
    const t = await loadDemoMarket(store, opts);
    const f = (n: number) => n.toLocaleString('en-US');
    return `${f(t.day)} day bars, ${f(t.minute)} minute bars, ${f(t.trades)} trades, ${f(t.quotes)} quotes`;
  },
};
