// Rolling the demo forward: a demo data set loaded days ago is extended, not regenerated, to the
// last NYSE session whose after-hours have ended (stocks, indices and option chains; a session is
// generated whole, 04:00 to 20:00 ET, so an earlier one would hold minutes past the clock) and to
// the current minute (forex, crypto). Each ticker's walk carries on from its stored last close with the parameters it was
// generated with; the new days get the kind of data a load at the new as-of date would give them
// (ticks, minute bars or day bars). Rows already stored are left as they are, except the day
// bar of a forex or crypto day that was stored in part, which is rebuilt from its stored minutes.
import { dayBarsFromMinuteBars, type Bar } from '../domain/bars.js';
import { dateOfDay, dayOfDate, lastExtendedSession, localDayOf, localDayStart, nyMidnight, tradingDaysBetween, type Zone } from '../domain/calendar.js';
import type { BarRow } from '../domain/market-records.js';
import type { Store } from '../store/index.js';
import type { MarketDataPort } from '../store/repos/market-port.js';
import { readDemoState, writeDemoState, type DemoState } from './demo-state.js';
import {
  calendarDayMode, cryptoDayRows, cryptoWalk, DEMO_CRYPTO, DEMO_FOREX, DEMO_INDICES, demoMarketPlan, forexDayRows, forexWalk,
  indexRowsOfEtf, indexSessionRows, indexWalk, sessionMode, splitFactor, stockSessionRows, stockWalk, tapeOf, TICK_STOCKS, type DayMode, type Rows, type TimeWindow,
} from './market.js';
import { futuresDemoStep } from './futures.js';
import { storeFuturesMarketDemo } from './futures-market.js';
import { storeOptionChains } from './options.js';
import { REAL_STOCK_SYMBOLS, realTickers } from './universe.js';
import { appendRows, BAR_TO_ROW, continueWalk, emptyRows, MINUTE_MS, type Walk } from './walk.js';
import { INDEX_ETFS } from './facts/market.js';

const ET: Zone = 'America/New_York';
const UTC: Zone = 'UTC';

/** Advisory lock id of a roll (any constant; names no row): two starting processes roll one at a time. */
const ROLL_LOCK = 7_316_016_002;

export interface RollOptions {
  nowMs: number;
  log?: (line: string) => void;
}

export interface RollSummary {
  /** The stock and index as-of date before and after the roll. */
  fromAsOf: string;
  asOf: string;
  /** NYSE sessions added. */
  sessions: string[];
  /** Forex and crypto now reach this instant (exclusive). */
  throughMs: number;
  day: number;
  minute: number;
  trades: number;
  quotes: number;
  /** The option-chain step's line, when sessions were added. */
  options?: string;
  /** The futures market step's line, when sessions were added. */
  futures?: string;
}

/**
 * Where forex (UTC days) and crypto (ET days) resume: where the last roll stopped, or after the
 * loaded as-of day (a load generates whole days).
 */
function resumeAt(state: DemoState, zone: Zone): number {
  return state.rolledMs ?? localDayStart(dayOfDate(state.asOf) + 1, zone);
}

function nothingToDo(state: DemoState, asOf: string, toMs: number): boolean {
  return asOf <= state.asOf && toMs <= Math.min(resumeAt(state, UTC), resumeAt(state, ET));
}

/**
 * Extends the store's demo data set to `nowMs`; returns what was added, or undefined when the
 * store holds no rollable demo (none recorded, or pinned) or it is already current.
 */
export async function rollDemo(store: Store, opts: RollOptions): Promise<RollSummary | undefined> {
  const asOf = lastExtendedSession(opts.nowMs);
  const toMs = Math.floor(opts.nowMs / MINUTE_MS) * MINUTE_MS;
  const seen = await readDemoState(store);
  if (!seen || seen.pinned || nothingToDo(seen, asOf, toMs)) return undefined;
  // Read again under the lock: a process that waited for another's roll finds nothing left to do.
  return store.transaction(async (tx) => {
    const state = await readDemoState(tx);
    if (!state || state.pinned || nothingToDo(state, asOf, toMs)) return undefined;
    const summary = await extend(tx, state, asOf, toMs);
    await writeDemoState(tx, { ...state, asOf: summary.asOf, rolledMs: Math.max(toMs, state.rolledMs ?? toMs) });
    // A load made after the close may already reach past the clock (whole as-of days): nothing added.
    if (summary.sessions.length === 0 && summary.minute + summary.day + summary.trades + summary.quotes === 0) return undefined;
    opts.log?.(describeRoll(summary));
    return summary;
  }, { serializeOn: ROLL_LOCK });
}

/** One line for the start log. */
export function describeRoll(s: RollSummary): string {
  const f = (n: number) => n.toLocaleString('en-US');
  const sessions = s.sessions.length === 0 ? `stocks stay at ${s.asOf}` : `stocks to ${s.asOf} (${s.sessions.length} session${s.sessions.length === 1 ? '' : 's'} after ${s.fromAsOf})`;
  const through = new Date(s.throughMs).toISOString().slice(0, 16).replace('T', ' ');
  return `demo: extended to ${s.asOf}: ${sessions}, forex and crypto to ${through} UTC; ` +
    `${f(s.day)} day bars, ${f(s.minute)} minute bars, ${f(s.trades)} trades, ${f(s.quotes)} quotes` +
    (s.options ? `; options: ${s.options}` : '') +
    (s.futures ? `; futures: ${s.futures}` : '');
}

async function extend(store: Store, state: DemoState, target: string, toMs: number): Promise<RollSummary> {
  const asOf = target > state.asOf ? target : state.asOf;
  const sessions = asOf > state.asOf ? tradingDaysBetween(dateOfDay(dayOfDate(state.asOf) + 1), asOf) : [];
  const summary: RollSummary = { fromAsOf: state.asOf, asOf, sessions, throughMs: toMs, day: 0, minute: 0, trades: 0, quotes: 0 };
  const write = async (rows: Rows) => {
    await store.market.insertBars('day', rows.day);
    await store.market.insertBars('minute', rows.minute);
    await store.market.insertTrades(rows.trades);
    await store.market.insertQuotes(rows.quotes);
    summary.day += rows.day.length;
    summary.minute += rows.minute.length;
    summary.trades += rows.trades.length;
    summary.quotes += rows.quotes.length;
  };
  if (sessions.length > 0) {
    await extendSessions(store, state, sessions, write);
    summary.options = await storeOptionChains(store, { asOf, scale: state.scale }, state.asOf);
    // Futures: the contracts as of the new date, and every Globex session after the old one up to it.
    await futuresDemoStep.run(store, { asOf, scale: state.scale, log: () => {} });
    summary.futures = await storeFuturesMarketDemo(store, asOf, state.scale, state.asOf);
  }
  await extendAroundTheClock(store, state, toMs, write);
  return summary;
}

/**
 * Stocks and indices: each new session, from each ticker's last stored close. A session that
 * already holds a day bar of the ticker (the live demo tape's, say) is left to it.
 */
async function extendSessions(store: Store, state: DemoState, sessions: string[], write: (rows: Rows) => Promise<void>): Promise<void> {
  const plan = demoMarketPlan(sessions[sessions.length - 1]!, state.scale);
  const stream = `after/${state.asOf}`;
  const info = new Map(realTickers(state.asOf).map((t) => [t.ticker, t]));
  const resume = async (ticker: string) => {
    const last = await store.market.lastDayBarBefore(ticker, Number.MAX_SAFE_INTEGER);
    if (!last) return undefined; // not in this data set (a subset, or listed later)
    const lastDate = nyDate(last.t);
    return { close: last.c, lastDate, dates: sessions.filter((d) => d > lastDate) };
  };
  // the new rows of the stored ETFs that indices are a multiple of (I:SPX of SPY), by ticker
  const multiplied = new Set(Object.values(INDEX_ETFS).filter((l) => l.ratio !== undefined).map((l) => l.etf));
  const etfRows = new Map<string, Rows>();
  for (const ticker of REAL_STOCK_SYMBOLS) {
    const last = await resume(ticker);
    if (!last) continue;
    const w = continueWalk(stockWalk(ticker), 'stock', last.close / splitFactor(ticker, last.lastDate), stream);
    const tape = tapeOf(info.get(ticker)?.primary_exchange);
    const ticks = TICK_STOCKS.includes(ticker);
    for (const date of last.dates) {
      const rows = stockSessionRows(w, date, sessionMode(plan, date, ticks), tape, state.scale);
      if (multiplied.has(ticker)) appendRows(etfRows.get(ticker) ?? etfRows.set(ticker, emptyRows()).get(ticker)!, { ...emptyRows(), day: rows.day, minute: rows.minute });
      await write(rows);
    }
  }
  for (const ticker of DEMO_INDICES) {
    const last = await resume(ticker);
    if (!last) continue;
    // an index that is a multiple of a stored ETF follows its new sessions; else its own walk goes on
    const link = INDEX_ETFS[ticker];
    const etf = link?.ratio !== undefined ? etfRows.get(link.etf) : undefined;
    if (link?.ratio !== undefined && etf) {
      const after = nyMidnight(last.lastDate) + 86_400_000;
      const rows = indexRowsOfEtf(ticker, etf, link.ratio);
      await write({ ...emptyRows(), day: rows.day.filter((b) => b.t >= after), minute: rows.minute.filter((b) => b.t >= after) });
      continue;
    }
    const w = continueWalk(indexWalk(ticker), 'index', last.close, stream);
    for (const date of last.dates) await write(indexSessionRows(w, date, sessionMode(plan, date, false)));
  }
}

function nyDate(ms: number): string {
  return dateOfDay(localDayOf(ms, ET));
}

interface ClockMarket {
  kind: string;
  zone: Zone;
  tickers: readonly string[];
  walk: (ticker: string) => Walk;
  rows: (w: Walk, date: string, mode: DayMode, scale: number, window?: TimeWindow) => Rows;
}

const CLOCK_MARKETS: readonly ClockMarket[] = [
  { kind: 'forex', zone: UTC, tickers: DEMO_FOREX, walk: forexWalk, rows: forexDayRows },
  { kind: 'crypto', zone: ET, tickers: DEMO_CRYPTO, walk: cryptoWalk, rows: cryptoDayRows },
];

/**
 * Forex and crypto: from where they stopped to `toMs`, day by day in their own zone. A day
 * covered whole may be a single day bar (older days of a long gap); a day covered in part is
 * minutes or ticks, and its day bar is rebuilt from every minute stored for it.
 */
async function extendAroundTheClock(store: Store, state: DemoState, toMs: number, write: (rows: Rows) => Promise<void>): Promise<void> {
  for (const m of CLOCK_MARKETS) {
    const plan = demoMarketPlan(dateOfDay(localDayOf(toMs - 1, m.zone)), state.scale);
    for (const ticker of m.tickers) {
      const last = await lastStored(store.market, ticker);
      if (!last) continue; // not in this data set
      // A load made after the close holds the rest of the as-of day already (crypto's ET day ends after forex's UTC one).
      const fromMs = Math.max(resumeAt(state, m.zone), last.nextMs);
      if (toMs <= fromMs) continue;
      const w = continueWalk(m.walk(ticker), m.kind, last.price, `after/${fromMs}`);
      for (let day = localDayOf(fromMs, m.zone); day <= localDayOf(toMs - 1, m.zone); day++) {
        const date = dateOfDay(day);
        const start = localDayStart(day, m.zone);
        const end = localDayStart(day + 1, m.zone);
        const window = { fromMs: Math.max(start, fromMs), toMs: Math.min(end, toMs) };
        const whole = window.fromMs === start && window.toMs === end;
        const planned = calendarDayMode(plan, date);
        const rows = m.rows(w, date, planned === 'day' && !whole ? 'minutes' : planned, state.scale, whole ? undefined : window);
        if (rows.minute.length > 0) rows.day = await dayFromMinutes(store.market, ticker, rows.minute, start, end, m.zone);
        await write(rows);
      }
    }
  }
}

/** The last stored price of a ticker and the minute after it: its last minute bar, else its last day bar. */
async function lastStored(market: MarketDataPort, ticker: string): Promise<{ price: number; nextMs: number } | undefined> {
  const [minute] = await market.readBars('minute', { ticker, fromMs: 0, toMs: Number.MAX_SAFE_INTEGER, order: 'desc', limit: 1 });
  if (minute) return { price: minute.c, nextMs: minute.t + MINUTE_MS };
  const day = await market.lastDayBarBefore(ticker, Number.MAX_SAFE_INTEGER);
  return day && { price: day.c, nextMs: day.t + 1 };
}

/** The day bar of [start, end) from the minutes stored for it and the new ones. */
async function dayFromMinutes(market: MarketDataPort, ticker: string, added: BarRow[], start: number, end: number, zone: Zone): Promise<BarRow[]> {
  const stored = await market.readBars('minute', { ticker, fromMs: start, toMs: added[0]!.t, order: 'asc', limit: 24 * 60 });
  return dayBarsFromMinuteBars([...stored, ...added] as Bar[], zone).map(BAR_TO_ROW(ticker));
}
