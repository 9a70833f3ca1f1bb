// Storing what the feed publishes: trades and quotes of one publish request in one transaction
// (all or nothing), and minute bars of live trades with the day bars they belong to refreshed,
// so REST trades, quotes, last trade/quote, snapshots and today's aggregates include them.
import type { BarRow, QuoteRow, TradeRow } from '../domain/market-records.js';
import type { Store } from '../store/index.js';

export interface StoredTicks {
  trades: number;
  quotes: number;
}

export async function storeTicks(store: Store, trades: TradeRow[], quotes: QuoteRow[]): Promise<StoredTicks> {
  if (trades.length === 0 && quotes.length === 0) return { trades: 0, quotes: 0 };
  return store.transaction(async (tx) => ({ trades: await tx.market.insertTrades(trades), quotes: await tx.market.insertQuotes(quotes) }));
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
  });
}
