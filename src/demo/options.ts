// Demo option chains: AAPL, MSFT, SPY, NVDA and TSLA, priced from their own demo bars and
// trades so that every option price follows its underlying.
//
// - Expirations around the demo's `asOf` (a Friday): that Friday and the next two (weeklies), the
//   third Fridays of the next three months (monthlies), and two that have expired (the previous
//   Friday and last month's third Friday). A Friday holiday moves to the session before.
// - Strikes around the underlying's close on the expiration's last session (or asOf): ±15 %, in
//   steps of 1 / 2.5 / 5 / 10 by price level; calls and puts.
// - Prices: Black–Scholes–Merton (bsPrice) with a volatility smile σ(K) = base·(1 − 0.9·m + 2·m²),
//   m = ln(K/S), a little higher for short expiries; r and q are those the server's snapshot uses
//   on that date (riskFreeRate, dividendYield), so implied volatilities come back as generated and
//   put–call parity holds within the quote's rounding.
// - Ticks on the market step's tick sessions: a quote every 5 minutes (÷ scale) of the regular
//   session priced at the underlying's last trade at that instant, plus a closing quote at the
//   underlying's last trade of the session (so a snapshot after the close sees a quote consistent
//   with the underlying's last price); a few trades inside the quotes; minute and day bars built
//   from those trades. Earlier recent sessions get day bars priced from the underlying's day bar.
// - Open interest per contract and session for the last sessions, largest near the money.
// - Idempotent: contracts and open interest are upserted, bars and ticks have natural keys.
import { bsPrice, yearFraction } from '../domain/greeks.js';
import { barsFromTrades, type Bar, type TradePrint } from '../domain/bars.js';
import { dateOfDay, dayOfDate, nyMidnight, previousTradingDay, sessionOn, weekdayOfDay, isTradingDay, type Session } from '../domain/calendar.js';
import { formatOptionTicker } from '../domain/option-symbol.js';
import type { BarRow, QuoteRow, TradeRow } from '../domain/market-records.js';
import type { Store } from '../store/index.js';
import type { OptionsContractRecord, OpenInterestRecord } from '../store/repos/options.js';
import { dividendYield, riskFreeRate } from '../services/options-chain.js';
import type { DemoOptions, DemoStep } from './step.js';
import { demoMarketPlan } from './market.js';
import { createRng, type Rng } from './random.js';

/** Underlyings and their at-the-money volatility. */
export const DEMO_OPTION_UNDERLYINGS: ReadonlyArray<readonly [ticker: string, atmVol: number]> = [
  ['AAPL', 0.26],
  ['MSFT', 0.24],
  ['SPY', 0.16],
  ['NVDA', 0.48],
  ['TSLA', 0.58],
];

const FRIDAY = 5;
const MINUTE_MS = 60_000;
const NS_PER_MS = 1_000_000n;
const QUOTE_EVERY_MINUTES = 5;
/** Recent sessions (before the tick sessions) with day bars and open interest. */
const HISTORY_SESSIONS = 10;
const OPTION_EXCHANGES = [300, 301, 302, 303, 304, 307, 308, 309, 312, 313, 316, 319, 322, 323, 325];
const REGULAR_TRADE = [209];

interface Expiration {
  date: string;
  /** Weekly contracts are listed 5 weeks ahead, monthlies 4 months ahead. */
  listedDaysBefore: number;
}

/** The session on or before a date (Friday holidays move expirations back a day). */
function sessionOnOrBefore(date: string): string {
  return isTradingDay(date) ? date : previousTradingDay(date);
}

function thirdFriday(year: number, month: number): string {
  const first = dayOfDate(`${year}-${String(month).padStart(2, '0')}-01`);
  const offset = (FRIDAY - weekdayOfDay(first) + 7) % 7;
  return dateOfDay(first + offset + 14);
}

export function demoExpirations(asOf: string): Expiration[] {
  const today = dayOfDate(asOf);
  const friday = today + ((FRIDAY - weekdayOfDay(today) + 7) % 7);
  const [y, m] = asOf.split('-').map(Number) as [number, number];
  const monthOf = (k: number): [number, number] => [y + Math.floor((m - 1 + k) / 12), ((m - 1 + k) % 12 + 12) % 12 + 1];
  const weekly = (d: number): Expiration => ({ date: sessionOnOrBefore(dateOfDay(d)), listedDaysBefore: 35 });
  const monthly = (k: number): Expiration => ({ date: sessionOnOrBefore(thirdFriday(...monthOf(k))), listedDaysBefore: 120 });
  const all = [weekly(friday - 7), monthly(-1), weekly(friday), weekly(friday + 7), weekly(friday + 14), monthly(1), monthly(2), monthly(4)];
  const seen = new Set<string>();
  return all.filter((e) => !seen.has(e.date) && seen.add(e.date)).sort((a, b) => a.date.localeCompare(b.date));
}

function strikeStep(price: number): number {
  return price < 50 ? 1 : price < 150 ? 2.5 : price < 500 ? 5 : 10;
}

export function demoStrikes(price: number): number[] {
  const step = strikeStep(price);
  const out: number[] = [];
  for (let k = Math.ceil((price * 0.85) / step) * step; k <= price * 1.15; k += step) out.push(Math.round(k * 1000) / 1000);
  return out;
}

/** The smile: volatility of strike K with the underlying at S, T years out. */
export function demoVolatility(atmVol: number, S: number, K: number, T: number): number {
  const m = Math.log(K / S);
  const smile = Math.min(3, Math.max(0.5, 1 - 0.9 * m + 2 * m * m));
  return atmVol * smile * (1 + 0.15 * Math.exp(-12 * Math.max(T, 0)));
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** A two-sided quote around a theoretical price: spread ~1.5 % (at least a cent each side), cents. */
export function quoteAround(price: number): { bid: number; ask: number } {
  const half = Math.max(0.005, price * 0.0075);
  const bid = Math.max(0, Math.floor((price - half) * 100 + 1e-9) / 100);
  const ask = Math.max(0.01, Math.ceil((price + half) * 100 - 1e-9) / 100);
  return { bid: round2(bid), ask: round2(ask) };
}

interface PricingEnv {
  atmVol: number;
  /** Risk-free rate and trailing-year dividends per session date. */
  rate: Map<string, number>;
  dividends: Map<string, number>;
}

function theoretical(c: OptionsContractRecord, env: PricingEnv, S: number, atMs: number, date: string): number {
  return demoOptionPrice(c, env.atmVol, S, atMs, env.rate.get(date)!, env.dividends.get(date)!);
}

/**
 * A contract's demo price with the underlying at S: its smile's volatility, the risk-free rate r
 * and the trailing year's dividends per share (as a yield of S), as the snapshot reads them.
 */
export function demoOptionPrice(c: Pick<OptionsContractRecord, 'contract_type' | 'strike_price' | 'expiration_date'>, atmVol: number, S: number, atMs: number, r: number, dividends: number): number {
  const T = yearFraction(atMs, c.expiration_date);
  const q = S > 0 ? dividends / S : 0;
  const sigma = demoVolatility(atmVol, S, c.strike_price, T);
  return bsPrice({ type: c.contract_type as 'call' | 'put', S, K: c.strike_price, T, r, q, sigma });
}

/** Latest underlying trade price at or before `ns` in an ascending trade list (binary search). */
function priceAt(trades: readonly TradeRow[], ns: bigint, fallback: number): number {
  let lo = 0;
  let hi = trades.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (trades[mid]!.sip_timestamp <= ns) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found < 0 ? fallback : trades[found]!.price;
}

interface ChainRows {
  contracts: OptionsContractRecord[];
  day: BarRow[];
  minute: BarRow[];
  trades: TradeRow[];
  quotes: QuoteRow[];
  openInterest: OpenInterestRecord[];
}

/** Quotes, trades and bars of one contract over one tick session. */
function sessionTicks(c: OptionsContractRecord, env: PricingEnv, s: Session, under: readonly TradeRow[], prevClose: number, rng: Rng, scale: number, out: ChainRows): void {
  const every = Math.max(1, Math.round(QUOTE_EVERY_MINUTES / scale)) * MINUTE_MS;
  const times: bigint[] = [];
  for (let t = s.open + 1000; t < s.close; t += every) times.push(BigInt(t) * NS_PER_MS + BigInt(rng.int(0, 999_999)));
  // the closing quote: just after the underlying's last trade of the session
  const lastTrade = under[under.length - 1]?.sip_timestamp;
  if (lastTrade !== undefined && lastTrade > (times[times.length - 1] ?? 0n)) times.push(lastTrade + 1000n);
  const moneyness = Math.abs(Math.log(c.strike_price / (under[0]?.price ?? prevClose)));
  const tradeChance = Math.min(0.6, 0.05 + 0.5 * Math.exp(-10 * moneyness));
  let seq = 1;
  const prints: TradePrint[] = [];
  times.forEach((ns) => {
    const ms = Number(ns / NS_PER_MS);
    const S = priceAt(under, ns, prevClose);
    const p = theoretical(c, env, S, ms, s.date);
    const { bid, ask } = quoteAround(p);
    out.quotes.push({
      ticker: c.ticker,
      sip_timestamp: ns,
      participant_timestamp: undefined,
      trf_timestamp: undefined,
      ask_price: ask,
      ask_size: rng.int(1, 250),
      ask_exchange: rng.pick(OPTION_EXCHANGES),
      bid_price: bid,
      bid_size: rng.int(1, 250),
      bid_exchange: rng.pick(OPTION_EXCHANGES),
      conditions: undefined,
      indicators: undefined,
      sequence_number: BigInt(seq++),
      tape: undefined,
    });
    if (ms < s.close && ask > 0.01 && rng.chance(tradeChance)) {
      const price = round2(Math.min(ask, Math.max(bid, (bid + ask) / 2 + (rng.next() - 0.5) * (ask - bid))));
      const size = rng.int(1, 25);
      const tradeNs = ns + BigInt(rng.int(1, 50_000_000));
      out.trades.push({
        ticker: c.ticker,
        sip_timestamp: tradeNs,
        participant_timestamp: tradeNs - BigInt(rng.int(100, 5000) * 1000),
        trf_timestamp: undefined,
        price,
        size,
        exchange: rng.pick(OPTION_EXCHANGES),
        id: undefined,
        conditions: REGULAR_TRADE,
        correction: undefined,
        sequence_number: BigInt(seq++),
        tape: undefined,
        trf_id: undefined,
      });
      prints.push({ t_ns: tradeNs, price, size });
    }
  });
  const toRow = (b: Bar): BarRow => ({ ticker: c.ticker, t: b.t, o: b.o, h: b.h, l: b.l, c: b.c, v: b.v, vw: b.vw, n: b.n });
  out.minute.push(...barsFromTrades(prints, 'minute', 'America/New_York').map(toRow));
  out.day.push(...barsFromTrades(prints, 'day', 'America/New_York').map(toRow));
}

/** A day bar priced from the underlying's day bar (a call rises with S, a put falls). */
function historicalDayBar(c: OptionsContractRecord, env: PricingEnv, s: Session, u: BarRow, rng: Rng): BarRow | undefined {
  const at = (S: number, ms: number) => round2(theoretical(c, env, S, ms, s.date));
  const o = at(u.o, s.open);
  const cl = at(u.c, s.close);
  const [hiS, loS] = c.contract_type === 'call' ? [u.h, u.l] : [u.l, u.h];
  const h = Math.max(o, cl, at(hiS, s.open));
  const l = Math.min(o, cl, at(loS, s.close));
  if (h < 0.01) return undefined; // worthless all day: no trades
  const n = rng.int(3, 60);
  return { ticker: c.ticker, t: nyMidnight(s.date), o, h, l, c: cl, v: n * rng.int(1, 12), vw: round2((h + l + cl) / 3), n };
}

/**
 * Every row of one underlying's chains; with `after` (a date), the ticks and day bars of sessions
 * up to it are not generated (a roll keeps those it stored before).
 */
export async function chainRows(store: Store, underlying: string, atmVol: number, opts: Pick<DemoOptions, 'asOf' | 'scale'>, after?: string): Promise<ChainRows | undefined> {
  const plan = demoMarketPlan(opts.asOf, opts.scale);
  const sessions = plan.sessions.slice(-(HISTORY_SESSIONS + plan.tickSessions.size));
  const first = sessions[0]!;
  const dayBars = await store.market.readBars('day', { ticker: underlying, fromMs: nyMidnight(first) - 200 * 86_400_000, toMs: nyMidnight(opts.asOf) + 86_400_000, order: 'asc', limit: 1000 });
  if (dayBars.length === 0) return undefined; // the market step has not stored this underlying
  const closeOn = (date: string) => [...dayBars].reverse().find((b) => b.t <= nyMidnight(date))?.c ?? dayBars[dayBars.length - 1]!.c;
  const barOn = new Map(dayBars.map((b) => [b.t, b]));

  const env: PricingEnv = { atmVol, rate: new Map(), dividends: new Map() };
  for (const date of sessions) {
    env.rate.set(date, await riskFreeRate(store, date));
    env.dividends.set(date, await dividendYield(store, underlying, date, 1));
  }

  const out: ChainRows = { contracts: [], day: [], minute: [], trades: [], quotes: [], openInterest: [] };
  const rng = createRng('demo-options').fork(underlying);
  const tickSessions = sessions.filter((d) => plan.tickSessions.has(d) && (after === undefined || d > after));
  const underTrades = new Map<string, TradeRow[]>();
  for (const date of tickSessions) {
    const s = sessionOn(date)!;
    const rows = await store.market.readTrades({ ticker: underlying, gte: BigInt(s.preOpen) * NS_PER_MS, lt: BigInt(s.postClose) * NS_PER_MS, order: 'asc', limit: 1_000_000 });
    underTrades.set(date, rows.map((r) => r.row));
  }

  for (const exp of demoExpirations(opts.asOf)) {
    const listDate = dateOfDay(dayOfDate(exp.date) - exp.listedDaysBefore);
    const ref = closeOn(exp.date < opts.asOf ? exp.date : opts.asOf);
    for (const strike of demoStrikes(ref)) {
      for (const type of ['call', 'put'] as const) {
        const c: OptionsContractRecord = {
          ticker: formatOptionTicker({ underlying, expiration_date: exp.date, contract_type: type, strike_price: strike }),
          underlying_ticker: underlying,
          contract_type: type,
          exercise_style: 'american',
          expiration_date: exp.date,
          strike_price: strike,
          shares_per_contract: 100,
          primary_exchange: 'BATO',
          cfi: type === 'call' ? 'OCASPS' : 'OPASPS',
          list_date: listDate,
        };
        out.contracts.push(c);
        const crng = rng.fork(c.ticker);
        let oi = Math.round(50 + 4000 * Math.exp(-8 * Math.abs(Math.log(strike / ref))) * crng.float(0.5, 1.5));
        sessions.forEach((date, i) => {
          if (date < listDate || date > exp.date) return;
          const s = sessionOn(date)!;
          out.openInterest.push({ ticker: c.ticker, date, open_interest: oi });
          oi = Math.max(0, Math.round(oi * crng.float(0.97, 1.06)));
          if (after !== undefined && date <= after) return;
          if (plan.tickSessions.has(date)) {
            const prevClose = closeOn(sessions[i - 1] ?? date);
            sessionTicks(c, env, s, underTrades.get(date)!, prevClose, crng, opts.scale, out);
          } else {
            const u = barOn.get(nyMidnight(date));
            const bar = u && historicalDayBar(c, env, s, u, crng);
            if (bar) out.day.push(bar);
          }
        });
      }
    }
  }
  return out;
}

/** The rows of a chain dated after `after` (contracts all: they are upserted). */
function rowsAfter(rows: ChainRows, after: string): ChainRows {
  const fromMs = nyMidnight(dateOfDay(dayOfDate(after) + 1));
  const fromNs = BigInt(fromMs) * NS_PER_MS;
  return {
    contracts: rows.contracts,
    day: rows.day.filter((b) => b.t >= fromMs),
    minute: rows.minute.filter((b) => b.t >= fromMs),
    trades: rows.trades.filter((t) => t.sip_timestamp >= fromNs),
    quotes: rows.quotes.filter((q) => q.sip_timestamp! >= fromNs),
    openInterest: rows.openInterest.filter((r) => r.date > after),
  };
}

/**
 * Generates and stores the chains of every demo underlying at `opts.asOf`; with `after` (a
 * date), only what falls after that date's sessions, so rows stored by an earlier load stay as
 * they are (contracts are upserted). Returns the log line.
 */
export async function storeOptionChains(store: Store, opts: Pick<DemoOptions, 'asOf' | 'scale'>, after?: string): Promise<string> {
  const totals = { contracts: 0, day: 0, minute: 0, trades: 0, quotes: 0, oi: 0 };
  const skipped: string[] = [];
  for (const [underlying, vol] of DEMO_OPTION_UNDERLYINGS) {
    const all = await chainRows(store, underlying, vol, opts, after);
    if (!all) {
      skipped.push(underlying);
      continue;
    }
    const rows = after === undefined ? all : rowsAfter(all, after);
    await store.transaction(async (tx) => {
      await tx.options.upsertContracts(rows.contracts);
      await tx.options.upsertOpenInterest(rows.openInterest);
      await tx.market.insertBars('day', rows.day);
      await tx.market.insertBars('minute', rows.minute);
      await tx.market.insertTrades(rows.trades);
      await tx.market.insertQuotes(rows.quotes);
    });
    totals.contracts += rows.contracts.length;
    totals.day += rows.day.length;
    totals.minute += rows.minute.length;
    totals.trades += rows.trades.length;
    totals.quotes += rows.quotes.length;
    totals.oi += rows.openInterest.length;
  }
  const f = (n: number) => n.toLocaleString('en-US');
  return `${f(totals.contracts)} contracts on ${DEMO_OPTION_UNDERLYINGS.length - skipped.length} underlyings, ${f(totals.quotes)} quotes, ` +
    `${f(totals.trades)} trades, ${f(totals.minute)} minute and ${f(totals.day)} day bars, ${f(totals.oi)} open-interest rows` +
    (skipped.length ? ` (no market data for ${skipped.join(', ')})` : '');
}

export const optionsStep: DemoStep = {
  name: 'option chains',
  run: (store, opts) => storeOptionChains(store, opts),
};
