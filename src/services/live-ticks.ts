// Storing what the feed publishes: trades and quotes of one publish request in one transaction
// (all or nothing), and minute bars of live trades with the day bars they belong to refreshed,
// so REST trades, quotes, last trade/quote, snapshots and today's aggregates include them.
// Futures ticks and minute bars go to the futures tables, which /futures/vX reads.
import type { FuturesMinuteBar, FuturesQuote, FuturesTrade } from '../domain/futures-market.js';
import type { BarRow, QuoteRow, TradeRow } from '../domain/market-records.js';
import type { Store } from '../store/index.js';
import { noteLiveWrite } from './live-events.js';

/** Live writes move the store's data version but not its import version (cached answers are scoped: live-versions.ts). */
const LIVE = { live: true } as const;

export interface StoredTicks {
  trades: number;
  quotes: number;
}

/** Futures ticks live in tables of their own (a trading date and a sequence number in each key). */
export interface FuturesTicks {
  trades: readonly FuturesTrade[];
  quotes: readonly FuturesQuote[];
}

/** Rows written; futures rows count with the trades and quotes. */
export async function storeTicks(store: Store, trades: TradeRow[], quotes: QuoteRow[], futures?: FuturesTicks): Promise<StoredTicks> {
  const fTrades = futures?.trades ?? [];
  const fQuotes = futures?.quotes ?? [];
  if (trades.length === 0 && quotes.length === 0 && fTrades.length === 0 && fQuotes.length === 0) return { trades: 0, quotes: 0 };
  const stored = await store.transaction(async (tx) => ({
    trades: (await tx.market.insertTrades(trades)) + (await tx.futures.insertTrades(fTrades)),
    quotes: (await tx.market.insertQuotes(quotes)) + (await tx.futures.insertQuotes(fQuotes)),
  }), LIVE);
  noteLiveWrite(store, { trades, quotes, bars: [] });
  return stored;
}

/** Writes (or corrects) minute bars and re-derives the day bars of their tickers and days. */
export async function storeLiveMinuteBars(store: Store, bars: readonly BarRow[]): Promise<void> {
  if (bars.length === 0) return;
  await store.transaction(async (tx) => {
    // a stored minute is replaced: a late trade corrects its bar
    await tx.market.insertBars('minute', [...bars]);
    const byTicker = new Map<string, { fromMs: number; toMs: number }>();
    for (const b of bars) {
      const w = byTicker.get(b.ticker);
      if (!w) byTicker.set(b.ticker, { fromMs: b.t, toMs: b.t });
      else {
        w.fromMs = Math.min(w.fromMs, b.t);
        w.toMs = Math.max(w.toMs, b.t);
      }
    }
    for (const [ticker, window] of byTicker) await tx.market.deriveDayBars([ticker], window);
  }, LIVE);
  noteLiveWrite(store, { trades: [], quotes: [], bars });
}

/** Writes (or corrects) futures minute bars made from live futures trades. */
export async function storeLiveFuturesBars(store: Store, bars: readonly FuturesMinuteBar[]): Promise<void> {
  if (bars.length === 0) return;
  await store.transaction(async (tx) => {
    await tx.futures.insertMinuteBars(bars);
  }, LIVE);
}
