// The demo's futures market data: for the front contract of each demo product, minute bars of the
// last Globex sessions up to the demo date, and trades and quotes of the last hour of each (those
// minutes made from their trades, so every resolution agrees). Each session is drawn from a
// generator seeded by contract and trading date alone and is the same whichever session is the
// last, so a later as-of date (a roll) gives the sessions it shares with an earlier one exactly
// the same rows.
import { globexSessions, type FuturesSession } from '../domain/futures-calendar.js';
import { contractTicker, listedMonths } from '../domain/futures-contracts.js';
import type { FuturesMinuteBar, FuturesQuote, FuturesTrade } from '../domain/futures-market.js';
import { dayOfDate } from '../domain/calendar.js';
import { NS_PER_MS } from '../domain/nanoseconds.js';
import { addDays } from './civil-days.js';
import { FUTURES_MARKET_FACTS, FUTURES_PRODUCT_FACTS, type FuturesProductFact } from './facts/futures.js';
import { createRng, type Rng } from './random.js';
import type { DemoStep } from './step.js';

/** Sessions of minute bars per contract. */
const SESSIONS = 2;
/** Minutes at the end of each session that have trades and quotes. */
const TICK_MINUTES = 60;
const MINUTE_MS = 60_000;

export interface FuturesMarketDemo {
  bars: FuturesMinuteBar[];
  trades: FuturesTrade[];
  quotes: FuturesQuote[];
}

/** The front contract (the next to expire) of each demo product on `asOf`. */
export function frontContracts(asOf: string): { ticker: string; product: FuturesProductFact }[] {
  return FUTURES_PRODUCT_FACTS.map((product) => {
    const [year, month] = listedMonths(product.expiry, product.months, asOf, 1)[0]!;
    return { ticker: contractTicker(product.code, year, month), product };
  });
}

/** Tick-rounded price with no binary noise (0.1 + 0.2 style) in its digits. */
export function onTick(price: number, tick: number): number {
  return Number((Math.round(price / tick) * tick).toFixed(6));
}

/** Where a session starts: a slow swing around the product's level, from the trading date alone. */
function sessionLevel(base: number, date: string): number {
  const day = dayOfDate(date);
  return base * (1 + 0.03 * Math.sin(day / 9) + 0.01 * Math.sin(day / 2.3));
}

interface SessionWriter {
  ticker: string;
  session: FuturesSession;
  product: FuturesProductFact;
  rng: Rng;
  scale: number;
  out: FuturesMarketDemo;
}

function writeSession(w: SessionWriter): void {
  const { ticker, session, product, rng, out } = w;
  const facts = FUTURES_MARKET_FACTS[product.code]!;
  const tick = product.tick;
  const date = session.sessionEndDate;
  let price = onTick(sessionLevel(facts.price, date), tick);
  const sd = price * 0.00035;
  let seq = BigInt(rng.int(1_000_000, 9_000_000)) * 10n;
  let report = BigInt(rng.int(100_000, 900_000));
  const ticksFrom = session.close - TICK_MINUTES * MINUTE_MS;
  for (let t = session.open; t < session.close; t += MINUTE_MS) {
    const start = BigInt(t) * NS_PER_MS;
    if (t < ticksFrom) {
      const open = price;
      let high = price;
      let low = price;
      for (let i = 0; i < 4; i++) {
        price = onTick(price + rng.normal(0, sd / 2), tick);
        high = Math.max(high, price);
        low = Math.min(low, price);
      }
      const volume = Math.max(1, Math.round(facts.minuteVolume * (0.3 + rng.next() * 1.4)));
      const transactions = Math.max(1, Math.round(volume / (2 + rng.next() * 4)));
      const dollarVolume = Math.round(((open + high + low + price) / 4) * volume * 100) / 100;
      out.bars.push({ ticker, window_start: start, session_end_date: date, open, high, low, close: price, volume, transactions, dollar_volume: dollarVolume });
      continue;
    }
    // Ticks at sorted random instants of the minute, each trade preceded by the quote it hit.
    const n = Math.max(1, Math.round(rng.int(3, 12) * w.scale));
    const offsets = Array.from({ length: n }, () => BigInt(rng.int(1_000, 59_999_999)) * 1000n + BigInt(rng.int(0, 999))).sort((a, b) => (a < b ? -1 : 1));
    const bar: FuturesMinuteBar = { ticker, window_start: start, session_end_date: date, open: 0, high: -Infinity, low: Infinity, close: 0, volume: 0, transactions: 0, dollar_volume: 0 };
    for (const [i, offset] of offsets.entries()) {
      if (rng.chance(0.4)) price = onTick(price + (rng.chance(0.5) ? tick : -tick) * rng.int(1, 2), tick);
      const at = start + offset;
      const bid = rng.chance(0.5) ? price : onTick(price - tick, tick);
      const quoted = at - BigInt(rng.int(1, 900)) * 1000n;
      out.quotes.push({
        ticker, timestamp: quoted, sequence_number: seq++, session_end_date: date, bid_price: bid, bid_size: rng.int(1, 40), bid_timestamp: quoted - BigInt(rng.int(0, 3)) * 1000n,
        ask_price: onTick(bid + tick, tick), ask_size: rng.int(1, 40), ask_timestamp: quoted, report_sequence: report++, channel: facts.channel,
      });
      const size = rng.int(1, 12);
      out.trades.push({ ticker, timestamp: at, sequence_number: seq++, session_end_date: date, price, size, report_sequence: report++, channel: facts.channel });
      if (i === 0) bar.open = price;
      bar.high = Math.max(bar.high, price);
      bar.low = Math.min(bar.low, price);
      bar.close = price;
      bar.volume += size;
      bar.transactions += 1;
      bar.dollar_volume = Math.round((bar.dollar_volume + price * size) * 100) / 100;
    }
    out.bars.push(bar);
  }
}

/**
 * The rows of the demo's futures market data as of `asOf`: its last sessions, or with `after` every
 * session after that date (a roll); `scale` thins the ticks (1 = the first-start set).
 */
export function buildFuturesMarketDemo(asOf: string, scale = 1, after?: string): FuturesMarketDemo {
  const out: FuturesMarketDemo = { bars: [], trades: [], quotes: [] };
  const sessions = after === undefined ? globexSessions(addDays(asOf, -10), asOf).slice(-SESSIONS) : globexSessions(addDays(after, 1), asOf);
  for (const { ticker, product } of frontContracts(asOf)) {
    for (const session of sessions) writeSession({ ticker, session, product, scale, out, rng: createRng(`futures-market/${ticker}/${session.sessionEndDate}`) });
  }
  return out;
}

/** Stores the demo's futures market data (idempotent: rows are upserted on their keys). */
export async function storeFuturesMarketDemo(store: Parameters<DemoStep['run']>[0], asOf: string, scale: number, after?: string): Promise<string> {
  const d = buildFuturesMarketDemo(asOf, scale, after);
  await store.futures.insertMinuteBars(d.bars);
  await store.futures.insertTrades(d.trades);
  await store.futures.insertQuotes(d.quotes);
  const f = (n: number) => n.toLocaleString('en-US');
  return `${f(d.bars.length)} futures minute bars, ${f(d.trades.length)} trades, ${f(d.quotes.length)} quotes`;
}

export const futuresMarketDemoStep: DemoStep = {
  name: 'futures minute bars, trades and quotes',
  run: (store, opts) => storeFuturesMarketDemo(store, opts.asOf, opts.scale),
};
