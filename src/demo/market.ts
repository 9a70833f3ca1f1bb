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
// - Every ticker draws from its own forked PRNG stream, so the data does not depend on the
//   order of generation or the machine. `scale` multiplies the tick rate and the minute-bar
//   sessions (and the forex/crypto minute days).
import { barsFromTrades, dayBarsFromMinuteBars, type Bar, type TradePrint } from '../domain/bars.js';
import { dateOfDay, dayOfDate, isForexOpen, localDayStart, sessionOn, tradingDaysBetween, weekdayOfDay, type Session, type Zone } from '../domain/calendar.js';
import type { BarRow, QuoteRow, TradeRow } from '../domain/market-records.js';
import type { Store } from '../store/index.js';
import type { MarketDataPort } from '../store/repos/market-port.js';
import { CRYPTO_EXCHANGES, CRYPTO_LEVELS, DEMO_SPLITS, FOREX_EXCHANGE, FX_LEVELS, INDEX_LEVELS, QUOTE_EXCHANGES, STOCK_EXCHANGES, STOCK_LEVELS, TICK_STOCKS, TRF_IDS } from './facts/market.js';
import type { DemoOptions, DemoStep } from './step.js';
import { createRng, type Rng } from './random.js';
import { CRYPTO_MAJOR_SYMBOLS, FX_MAJOR_SYMBOLS, REAL_INDEX_SYMBOLS, REAL_STOCK_SYMBOLS, realTickers } from './universe.js';

export { DEMO_SPLITS, TICK_STOCKS } from './facts/market.js';
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
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
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

// ---------------------------------------------------------------------------------------------
// Prices.

function roundTo(x: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
}

function priceDecimals(level: number): number {
  return level >= 1000 ? 2 : level >= 1 ? 4 : 6;
}

/** Per-ticker parameters and the running (split-adjusted) price. */
interface Walk {
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
function step(w: Walk, fraction: number, sigmaScale = 1): number {
  const sd = w.sigma * Math.sqrt(fraction) * sigmaScale;
  let r = w.drift * fraction + w.rng.normal(0, sd);
  if (w.reversion > 0) r += w.reversion * fraction * Math.log(w.meanLevel / w.price);
  w.price *= Math.exp(r);
  return w.price;
}

interface Ohlc {
  o: number;
  h: number;
  l: number;
  c: number;
}

/** o → c plus wicks, in raw (rounded) prices; h ≥ max(o, c) and l ≤ min(o, c) hold after rounding. */
function candle(w: Walk, o: number, c: number, wick: number, factor: number): Ohlc {
  const hi = Math.max(o, c) * Math.exp(Math.abs(w.rng.normal(0, wick)));
  const lo = Math.min(o, c) * Math.exp(-Math.abs(w.rng.normal(0, wick)));
  const d = w.decimals;
  const ro = roundTo(o * factor, d);
  const rc = roundTo(c * factor, d);
  return { o: ro, c: rc, h: Math.max(roundTo(hi * factor, d), ro, rc), l: Math.min(roundTo(lo * factor, d), ro, rc) };
}

/** A bar's volume-weighted price where no prints are generated: (o+h+l+2c)/5, inside [l, h]. */
function typicalPrice(p: Ohlc, decimals: number): number {
  return roundTo(Math.min(p.h, Math.max(p.l, (p.o + p.h + p.l + 2 * p.c) / 5)), decimals);
}

function withVolume(w: Walk, ticker: string, t: number, p: Ohlc, volume: number, factor: number): BarRow {
  const v = Math.max(10 ** -w.volumeDecimals, roundTo(volume / factor, w.volumeDecimals));
  const vw = typicalPrice(p, 4);
  const n = Math.max(1, Math.round((volume / w.tradeSize) * Math.exp(w.rng.normal(0, 0.2))));
  return { ticker, t, ...p, v, vw, n };
}

function indexBar(ticker: string, t: number, p: Ohlc): BarRow {
  return { ticker, t, ...p, v: undefined, vw: undefined, n: undefined };
}

/** A day bar straight from the daily walk (days without minute data). */
function dailyBar(w: Walk, t: number, factor: number, withVol: boolean): BarRow {
  const o = step(w, 0.1);
  const c = step(w, 0.9);
  const p = candle(w, o, c, w.sigma * 0.5, factor);
  if (!withVol) return indexBar(w.ticker, t, p);
  const move = Math.abs(Math.log(c / o)) / w.sigma;
  return withVolume(w, w.ticker, t, p, w.volume * Math.exp(w.rng.normal(0, 0.3)) * (0.7 + 0.3 * move), factor);
}

/** Intraday volume weight of a minute: a U over the regular session, thin outside it. */
function minuteWeight(t: number, s: Session): number {
  if (t < s.open || t >= s.close) return 0.04;
  const x = (t - s.open) / (s.close - s.open);
  return 1 + 3 * (2 * x - 1) ** 2;
}

function sessionWeight(s: Session): number {
  let sum = 0;
  for (let t = s.preOpen; t < s.postClose; t += MINUTE_MS) sum += minuteWeight(t, s);
  return sum;
}

const BAR_TO_ROW = (ticker: string) => (b: Bar): BarRow => ({ ticker, t: b.t, o: b.o, h: b.h, l: b.l, c: b.c, v: b.v, vw: b.vw, n: b.n });

// ---------------------------------------------------------------------------------------------
// Stocks and indices.

export interface Rows {
  day: BarRow[];
  minute: BarRow[];
  trades: TradeRow[];
  quotes: QuoteRow[];
}

function emptyRows(): Rows {
  return { day: [], minute: [], trades: [], quotes: [] };
}

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

/** A count with mean `mean` (not Poisson, but unbiased and cheap). */
function countAround(rng: Rng, mean: number): number {
  const base = Math.floor(mean);
  return base + (rng.next() < mean - base ? 1 : 0);
}

/** Sorted random nanosecond offsets within a minute. */
function offsetsInMinute(rng: Rng, count: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(Math.floor(rng.next() * 60e9));
  return out.sort((a, b) => a - b);
}

function stockTradeSize(rng: Rng, meanSize: number): number {
  const r = rng.next();
  if (r < 0.03) return roundTo(rng.float(0.01, 1), 4); // fractional-share print
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

function tapeOf(primaryExchange: string | undefined): number {
  if (primaryExchange === 'XNAS') return 3;
  if (primaryExchange === 'XNYS') return 1;
  return 2;
}

type WalkParams = Omit<Walk, 'ticker' | 'rng' | 'decimals' | 'meanLevel' | 'reversion' | 'volumeDecimals'> & { reversion?: number; volumeDecimals?: number };

function newWalk(ticker: string, kind: string, init: (rng: Rng) => WalkParams, decimals?: number): Walk {
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

/** Every row of one stock or ETF. */
export function stockRows(ticker: string, plan: MarketPlan, info: { listDate?: string; primaryExchange?: string } = {}): Rows {
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
  const ticks = TICK_STOCKS.includes(ticker);
  const tape = tapeOf(info.primaryExchange);
  const rows = emptyRows();
  for (const date of plan.sessions) {
    if (info.listDate !== undefined && date < info.listDate) continue;
    const factor = splitFactor(ticker, date);
    const session = sessionOn(date)!;
    if (ticks && plan.tickSessions.has(date)) {
      const { trades, quotes } = sessionTicks(w, session, factor, tape, plan.scale);
      rows.trades.push(...trades);
      rows.quotes.push(...quotes);
      const prints = tradePrints(trades);
      rows.minute.push(...barsFromTrades(prints, 'minute', ET).map(BAR_TO_ROW(ticker)));
      rows.day.push(...barsFromTrades(prints, 'day', ET).map(BAR_TO_ROW(ticker)));
    } else if (plan.minuteSessions.has(date)) {
      const minutes = sessionMinutes(w, session, factor, false);
      rows.minute.push(...minutes);
      rows.day.push(...dayBarsFromMinuteBars(minutes as Bar[], ET).map(BAR_TO_ROW(ticker)));
    } else {
      rows.day.push(dailyBar(w, localDayStart(dayOfDate(date), ET), factor, true));
    }
  }
  return rows;
}

export function indexRows(ticker: string, plan: MarketPlan): Rows {
  const level = INDEX_LEVELS[ticker] ?? 1000;
  const vix = ticker === 'I:VIX';
  const w = newWalk(ticker, 'index', (rng) => ({
    price: level,
    sigma: vix ? 0.06 : rng.float(0.008, 0.012),
    drift: vix ? 0 : 0.0002,
    volume: 0,
    tradeSize: 1,
    reversion: vix ? 0.05 : 0.001,
  }), 2);
  const rows = emptyRows();
  for (const date of plan.sessions) {
    const session = sessionOn(date)!;
    if (plan.minuteSessions.has(date)) {
      const minutes = sessionMinutes(w, session, 1, true);
      rows.minute.push(...minutes);
      rows.day.push(...dayBarsFromMinuteBars(minutes, ET).map((b) => indexBar(ticker, b.t, b)));
    } else {
      rows.day.push(dailyBar(w, localDayStart(dayOfDate(date), ET), 1, false));
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Forex (UTC days, quotes) and crypto (ET days, trades).

function fxDecimals(ticker: string): number {
  return /JPY$/.test(ticker) ? 3 : /MXN$/.test(ticker) ? 4 : 5;
}

function forexQuotes(w: Walk, dayStart: number, scale: number): QuoteRow[] {
  const out: QuoteRow[] = [];
  const perMinute = (FX_QUOTES_PER_DAY * scale) / 1440;
  for (let t = dayStart; t < dayStart + DAY_MS; t += MINUTE_MS) {
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
function forexMinutes(w: Walk, dayStart: number): BarRow[] {
  const out: BarRow[] = [];
  for (let t = dayStart; t < dayStart + DAY_MS; t += MINUTE_MS) {
    if (!isForexOpen(t)) continue;
    const o = w.price;
    const c = step(w, 1 / 1440);
    const p = candle(w, o, c, w.sigma * Math.sqrt(1 / 1440) * 0.5, 1);
    const n = Math.max(1, Math.round(w.volume / 1440 * Math.exp(w.rng.normal(0, 0.4))));
    out.push({ ticker: w.ticker, t, ...p, v: n, vw: typicalPrice(p, w.decimals), n });
  }
  return out;
}

export function forexRows(ticker: string, plan: MarketPlan): Rows {
  const w = newWalk(ticker, 'forex', (rng) => ({
    price: FX_LEVELS[ticker] ?? 1,
    sigma: rng.float(0.004, 0.007),
    drift: 0,
    volume: rng.float(80_000, 250_000),
    tradeSize: 1,
    reversion: 0.005,
  }), fxDecimals(ticker));
  const rows = emptyRows();
  for (const date of plan.calendarDays) {
    const day = dayOfDate(date);
    if (weekdayOfDay(day) === SATURDAY) continue; // closed from Friday 17:00 to Sunday 17:00 ET
    const start = localDayStart(day, UTC);
    if (plan.calendarTickDays.has(date)) {
      const quotes = forexQuotes(w, start, plan.scale);
      rows.quotes.push(...quotes);
      const prints = quotes.map((q) => ({ t_ns: q.participant_timestamp!, price: q.bid_price, size: 1 }));
      // vw: the mean bid of the bar (every quote counts once)
      const asCounts = (b: Bar): BarRow => ({ ticker, t: b.t, o: b.o, h: b.h, l: b.l, c: b.c, v: b.n, vw: b.vw === undefined ? undefined : roundTo(b.vw, w.decimals), n: b.n });
      rows.minute.push(...barsFromTrades(prints, 'minute', UTC).map(asCounts));
      rows.day.push(...barsFromTrades(prints, 'day', UTC).map(asCounts));
    } else if (plan.calendarMinuteDays.has(date)) {
      const minutes = forexMinutes(w, start);
      rows.minute.push(...minutes);
      rows.day.push(...dayBarsFromMinuteBars(minutes as Bar[], UTC).map(BAR_TO_ROW(ticker)));
    } else {
      const bar = dailyBar(w, start, 1, true);
      rows.day.push({ ...bar, v: bar.n });
    }
  }
  return rows;
}

function cryptoTrades(w: Walk, dayStart: number, dayEnd: number, scale: number): TradeRow[] {
  const out: TradeRow[] = [];
  const perMinute = (CRYPTO_TRADES_PER_DAY * scale) / 1440;
  let id = 100_000_000 + w.rng.int(0, 99_999_999);
  for (let t = dayStart; t < dayEnd; t += MINUTE_MS) {
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

function cryptoMinutes(w: Walk, dayStart: number, dayEnd: number): BarRow[] {
  const out: BarRow[] = [];
  for (let t = dayStart; t < dayEnd; t += MINUTE_MS) {
    const o = w.price;
    const c = step(w, 1 / 1440);
    const p = candle(w, o, c, w.sigma * Math.sqrt(1 / 1440) * 0.5, 1);
    out.push(withVolume(w, w.ticker, t, p, (w.volume / 1440) * Math.exp(w.rng.normal(0, 0.6)), 1));
  }
  return out;
}

export function cryptoRows(ticker: string, plan: MarketPlan): Rows {
  const level = CRYPTO_LEVELS[ticker] ?? 10;
  // Volume and transaction counts on the days without trades match the trade days' average.
  const w = newWalk(ticker, 'crypto', (rng) => ({
    price: level,
    sigma: rng.float(0.025, 0.04),
    drift: 0.0002,
    volume: (CRYPTO_TRADES_PER_DAY * CRYPTO_MEAN_NOTIONAL) / level,
    tradeSize: CRYPTO_MEAN_NOTIONAL / level,
    reversion: 0.002,
    volumeDecimals: 8,
  }));
  const rows = emptyRows();
  for (const date of plan.calendarDays) {
    const day = dayOfDate(date);
    const start = localDayStart(day, ET);
    const end = localDayStart(day + 1, ET);
    if (plan.calendarTickDays.has(date)) {
      const trades = cryptoTrades(w, start, end, plan.scale);
      rows.trades.push(...trades);
      const prints = tradePrints(trades);
      rows.minute.push(...barsFromTrades(prints, 'minute', ET).map(BAR_TO_ROW(ticker)));
      rows.day.push(...barsFromTrades(prints, 'day', ET).map(BAR_TO_ROW(ticker)));
    } else if (plan.calendarMinuteDays.has(date)) {
      const minutes = cryptoMinutes(w, start, end);
      rows.minute.push(...minutes);
      rows.day.push(...dayBarsFromMinuteBars(minutes as Bar[], ET).map(BAR_TO_ROW(ticker)));
    } else {
      rows.day.push(dailyBar(w, start, 1, true));
    }
  }
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
