// Futures trades, quotes and minute bars between the feed's wire shape (ms times, short keys:
// T, Q, AM on /futures) and the rows of the futures tables (ns times, a sequence number in each
// tick's key, the Globex trading date each tick belongs to).
import { sessionEndDateOfNs, type FuturesMinuteBar, type FuturesQuote, type FuturesTrade } from '../domain/futures-market.js';
import { NS_PER_MS } from '../domain/nanoseconds.js';
import type { WireEvent } from './json.js';
import { put, type MutableEvent } from './wire-rows.js';

const MINUTE_MS = 60_000;

type Fields = { readonly [k: string]: unknown };

const optNum = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const optNs = (v: unknown): bigint | undefined => (typeof v === 'number' ? BigInt(v) * NS_PER_MS : undefined);
const toMs = (ns: bigint): number => Number(ns / NS_PER_MS);
const seq = (v: unknown): bigint => (typeof v === 'bigint' ? v : typeof v === 'number' ? BigInt(v) : 0n);

/** The stored trade of a futures `T` event (checked by publish-input.ts: `q` is present). */
export function futuresTradeOfEvent(e: WireEvent): FuturesTrade {
  const f = e as Fields;
  const timestamp = BigInt(f.t as number) * NS_PER_MS;
  return { ticker: String(f.sym), timestamp, sequence_number: seq(f.q), session_end_date: sessionEndDateOfNs(timestamp), price: f.p as number, size: f.s as number };
}

/**
 * The stored quote of a futures `Q` event. Upstream's quote events carry no sequence number; one
 * given as `q` is kept, else 0, so two quotes of a contract in one millisecond without `q` are one
 * row (the later wins), as a re-published quote is.
 */
export function futuresQuoteOfEvent(e: WireEvent): FuturesQuote {
  const f = e as Fields;
  const timestamp = BigInt(f.t as number) * NS_PER_MS;
  return {
    ticker: String(f.sym), timestamp, sequence_number: seq(f.q), session_end_date: sessionEndDateOfNs(timestamp),
    bid_price: optNum(f.bp), bid_size: optNum(f.bs), bid_timestamp: optNs(f.bt),
    ask_price: optNum(f.ap), ask_size: optNum(f.as), ask_timestamp: optNs(f.at),
  };
}

/** The feed event of a stored futures trade. */
export function eventOfFuturesTrade(r: FuturesTrade): WireEvent {
  return { ev: 'T', sym: r.ticker, p: r.price, s: r.size, t: toMs(r.timestamp), q: r.sequence_number };
}

/** The feed event of a stored futures quote (a side that is not stored is left out). */
export function eventOfFuturesQuote(r: FuturesQuote): WireEvent {
  const e: MutableEvent = { ev: 'Q', sym: r.ticker };
  put(e, 'bp', r.bid_price);
  put(e, 'bs', r.bid_size);
  put(e, 'bt', r.bid_timestamp === undefined ? undefined : toMs(r.bid_timestamp));
  put(e, 'ap', r.ask_price);
  put(e, 'as', r.ask_size);
  put(e, 'at', r.ask_timestamp === undefined ? undefined : toMs(r.ask_timestamp));
  e.t = toMs(r.timestamp);
  return e;
}

/** The `AM` event of a stored futures minute bar. */
export function eventOfFuturesBar(b: FuturesMinuteBar): WireEvent {
  const s = toMs(b.window_start);
  return { ev: 'AM', sym: b.ticker, v: b.volume, dv: b.dollar_volume, o: b.open, c: b.close, h: b.high, l: b.low, n: b.transactions, s, e: s + MINUTE_MS };
}
