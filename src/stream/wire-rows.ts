// Trades and quotes between the feed's wire shape (ms times, short keys) and the stored rows
// (ns times, v3 names): published T/Q/XT/XQ/C events become rows for REST, and flat-file CSV
// rows become events for the feed.
import type { QuoteRow, TradeRow } from '../domain/market-records.js';
import type { WireEvent } from './json.js';
import type { FeedMarket } from './markets.js';

const NS_PER_MS = 1_000_000n;

type Fields = { readonly [k: string]: unknown };

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);
const ints = (v: unknown): number[] | undefined => (Array.isArray(v) && v.length > 0 ? (v as number[]) : undefined);
const msToNs = (v: unknown): bigint => BigInt(v as number) * NS_PER_MS;
const optNs = (v: unknown): bigint | undefined => (typeof v === 'number' ? msToNs(v) : undefined);
const optBig = (v: unknown): bigint | undefined => (typeof v === 'number' ? BigInt(v) : typeof v === 'bigint' ? v : undefined);

/** The stored ticker of a forex or crypto pair: `C:EURUSD`, `X:BTCUSD`. */
export function pairTicker(prefix: 'C' | 'X', pair: string): string {
  const p = pair.toUpperCase();
  return `${prefix}:${(p.length > 2 && p[1] === ':' ? p.slice(2) : p).replace(/[-/]/g, '')}`;
}

/** The stored trade of a trade event (stocks and options `T`, crypto `XT`), or undefined for other events. */
export function tradeOfEvent(e: WireEvent, market: FeedMarket): TradeRow | undefined {
  const f = e as Fields;
  if (e.ev === 'T' && (market === 'stocks' || market === 'options')) {
    return {
      ticker: String(f.sym), sip_timestamp: msToNs(f.t), participant_timestamp: undefined, trf_timestamp: optNs(f.trft),
      price: f.p as number, size: f.s as number, exchange: int(f.x) ?? 0, id: typeof f.i === 'string' ? f.i : undefined,
      conditions: ints(f.c), correction: undefined, sequence_number: optBig(f.q), tape: int(f.z), trf_id: int(f.trfi),
    };
  }
  if (e.ev === 'XT') {
    return {
      ticker: pairTicker('X', String(f.pair)), sip_timestamp: msToNs(f.t), participant_timestamp: msToNs(f.t), trf_timestamp: undefined,
      price: f.p as number, size: f.s as number, exchange: int(f.x) ?? 0, id: typeof f.i === 'string' ? f.i : undefined,
      conditions: ints(f.c), correction: undefined, sequence_number: undefined, tape: undefined, trf_id: undefined,
    };
  }
  return undefined;
}

/** The stored quote of a quote event (stocks and options `Q`, crypto `XQ`, forex `C`). */
export function quoteOfEvent(e: WireEvent, market: FeedMarket): QuoteRow | undefined {
  const f = e as Fields;
  if (e.ev === 'Q' && (market === 'stocks' || market === 'options')) {
    return {
      ticker: String(f.sym), sip_timestamp: msToNs(f.t), participant_timestamp: undefined, trf_timestamp: undefined,
      ask_price: f.ap as number, ask_size: num(f.as), ask_exchange: int(f.ax), bid_price: f.bp as number, bid_size: num(f.bs), bid_exchange: int(f.bx),
      conditions: int(f.c) === undefined ? undefined : [f.c as number], indicators: ints(f.i), sequence_number: optBig(f.q), tape: int(f.z),
    };
  }
  if (e.ev === 'XQ') {
    return {
      ticker: pairTicker('X', String(f.pair)), sip_timestamp: msToNs(f.t), participant_timestamp: msToNs(f.t), trf_timestamp: undefined,
      ask_price: f.ap as number, ask_size: num(f.as), ask_exchange: int(f.x), bid_price: f.bp as number, bid_size: num(f.bs), bid_exchange: int(f.x),
      conditions: undefined, indicators: undefined, sequence_number: undefined, tape: undefined,
    };
  }
  if (e.ev === 'C') {
    // forex quotes carry only a participant time, as in the forex flat files
    return {
      ticker: pairTicker('C', String(f.p)), sip_timestamp: undefined, participant_timestamp: msToNs(f.t), trf_timestamp: undefined,
      ask_price: f.a as number, ask_size: undefined, ask_exchange: int(f.x), bid_price: f.b as number, bid_size: undefined, bid_exchange: int(f.x),
      conditions: undefined, indicators: undefined, sequence_number: undefined, tape: undefined,
    };
  }
  return undefined;
}

const nsToMs = (ns: bigint): number => Number(ns / NS_PER_MS);

/** The pair of a stored forex/crypto ticker as events spell it: `X:BTCUSD` → `BTC-USD`, `C:EURUSD` → `EUR/USD`. */
export function pairOf(ticker: string, sep: string): string {
  const p = ticker.slice(2);
  const quote = QUOTE_CURRENCIES.find((q) => p.length > q.length + 1 && p.endsWith(q));
  return quote ? `${p.slice(0, -quote.length)}${sep}${quote}` : p;
}

/** Quote currencies pairs end with, longest first (`DOGEUSD` is DOGE-USD, `BTCUSDT` BTC-USDT). */
const QUOTE_CURRENCIES = ['USDT', 'USDC', 'USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'NZD', 'MXN', 'BTC', 'ETH'];

/** An event being built field by field. */
export type MutableEvent = { ev: string } & { [k: string]: WireEvent[string] };

/** Sets `k` when `v` is given (absent fields stay out of the event). */
export function put(e: MutableEvent, k: string, v: WireEvent[string] | undefined): void {
  if (v !== undefined) e[k] = v;
}

/** The feed event of a stored trade (from a flat-file row). */
export function eventOfTrade(r: TradeRow): WireEvent {
  if (r.ticker.startsWith('X:')) {
    const e: MutableEvent = { ev: 'XT', pair: pairOf(r.ticker, '-'), p: r.price, t: nsToMs(r.sip_timestamp), s: r.size };
    put(e, 'c', r.conditions);
    put(e, 'i', r.id);
    e.x = r.exchange;
    return e;
  }
  const e: MutableEvent = { ev: 'T', sym: r.ticker, x: r.exchange };
  put(e, 'i', r.id);
  put(e, 'z', r.tape);
  e.p = r.price;
  e.s = r.size;
  put(e, 'c', r.conditions);
  e.t = nsToMs(r.sip_timestamp);
  put(e, 'q', r.sequence_number);
  put(e, 'trfi', r.trf_id);
  put(e, 'trft', r.trf_timestamp === undefined ? undefined : nsToMs(r.trf_timestamp));
  return e;
}

/** The feed event of a stored quote (from a flat-file row). */
export function eventOfQuote(r: QuoteRow): WireEvent {
  const t = nsToMs((r.sip_timestamp ?? r.participant_timestamp)!);
  if (r.ticker.startsWith('C:')) {
    const e: MutableEvent = { ev: 'C', p: pairOf(r.ticker, '/') };
    put(e, 'x', r.ask_exchange ?? r.bid_exchange);
    e.a = r.ask_price;
    e.b = r.bid_price;
    e.t = t;
    return e;
  }
  if (r.ticker.startsWith('X:')) {
    const e: MutableEvent = { ev: 'XQ', pair: pairOf(r.ticker, '-'), bp: r.bid_price, bs: r.bid_size ?? 0, ap: r.ask_price, as: r.ask_size ?? 0, t };
    put(e, 'x', r.ask_exchange ?? r.bid_exchange);
    return e;
  }
  const e: MutableEvent = { ev: 'Q', sym: r.ticker };
  put(e, 'bx', r.bid_exchange);
  e.bp = r.bid_price;
  put(e, 'bs', r.bid_size);
  put(e, 'ax', r.ask_exchange);
  e.ap = r.ask_price;
  put(e, 'as', r.ask_size);
  put(e, 'c', r.conditions?.[0]);
  put(e, 'i', r.indicators);
  e.t = t;
  put(e, 'q', r.sequence_number);
  put(e, 'z', r.tape);
  return e;
}
