// Storing what the feed publishes: trades and quotes of one publish request in one transaction
// (all or nothing), and minute bars of live trades with the day bars they belong to refreshed,
// so REST trades, quotes, last trade/quote, snapshots and today's aggregates include them.
// Futures ticks and minute bars go to the futures tables, which /futures/vX reads. The store runs
// the writes (store/live-writes.ts; a SQLite file on a thread of its own); the listeners of live
// writes (live-events.ts) are told once each has committed.
import type { FuturesMinuteBar, FuturesQuote, FuturesTrade } from '../domain/futures-market.js';
import type { BarRow, QuoteRow, TradeRow } from '../domain/market-records.js';
import type { Store } from '../store/index.js';
import type { StoredTicks } from '../store/live-writes.js';
import { noteLiveWrite } from './live-events.js';

export type { StoredTicks };

/** Futures ticks live in tables of their own (a trading date and a sequence number in each key). */
export interface FuturesTicks {
  trades: readonly FuturesTrade[];
  quotes: readonly FuturesQuote[];
}

/**
 * Writes the ticks of one publish; resolves once committed, with the rows written. Nothing is
 * told to the listeners: the caller does that (noteStoredTicks) in the order it publishes.
 */
export function writeTicks(store: Store, trades: readonly TradeRow[], quotes: readonly QuoteRow[], futures?: FuturesTicks): Promise<StoredTicks> {
  return store.live.ticks({ trades, quotes, futuresTrades: futures?.trades ?? [], futuresQuotes: futures?.quotes ?? [] });
}

/** Tells the listeners of live writes what a committed writeTicks stored. */
export function noteStoredTicks(store: Store, trades: readonly TradeRow[], quotes: readonly QuoteRow[]): void {
  if (trades.length > 0 || quotes.length > 0) noteLiveWrite(store, { trades, quotes, bars: [] });
}

/** writeTicks, then noteStoredTicks: rows written; futures rows count with the trades and quotes. */
export async function storeTicks(store: Store, trades: TradeRow[], quotes: QuoteRow[], futures?: FuturesTicks): Promise<StoredTicks> {
  const stored = await writeTicks(store, trades, quotes, futures);
  noteStoredTicks(store, trades, quotes);
  return stored;
}

/** Writes (or corrects) minute bars and re-derives the day bars of their tickers and days. */
export async function storeLiveMinuteBars(store: Store, bars: readonly BarRow[]): Promise<void> {
  if (bars.length === 0) return;
  await store.live.minuteBars(bars);
  noteLiveWrite(store, { trades: [], quotes: [], bars });
}

/** Writes (or corrects) futures minute bars made from live futures trades. */
export async function storeLiveFuturesBars(store: Store, bars: readonly FuturesMinuteBar[]): Promise<void> {
  await store.live.futuresMinuteBars(bars);
}
