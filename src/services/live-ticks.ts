// Storing what the feed publishes: trades and quotes of one publish request in one transaction
// (all or nothing), and minute bars of live trades with the day bars they belong to refreshed,
// so REST trades, quotes, last trade/quote, snapshots and today's aggregates include them.
import type { BarRow, QuoteRow, TradeRow } from '../ingest/market-records.js';
import { storeFromDriver, type Store } from '../store/index.js';
import { LiveBarsRepository } from '../store/repos/live-bars.js';

export interface StoredTicks {
  trades: number;
  quotes: number;
}

export async function storeTicks(store: Store, trades: TradeRow[], quotes: QuoteRow[]): Promise<StoredTicks> {
  if (trades.length === 0 && quotes.length === 0) return { trades: 0, quotes: 0 };
  return store.db.transaction(async (tx) => {
    const s = storeFromDriver(tx);
    return { trades: await s.market.insertTrades(trades), quotes: await s.market.insertQuotes(quotes) };
  });
}

/** Writes (or corrects) minute bars and re-derives the day bars of their tickers and days. */
export async function storeLiveMinuteBars(store: Store, bars: readonly BarRow[]): Promise<void> {
  if (bars.length === 0) return;
  await store.db.transaction(async (tx) => {
    await new LiveBarsRepository(tx).upsertMinuteBars(bars);
    const s = storeFromDriver(tx);
    const byTicker = new Map<string, { fromMs: number; toMs: number }>();
    for (const b of bars) {
      const w = byTicker.get(b.ticker);
      if (!w) byTicker.set(b.ticker, { fromMs: b.t, toMs: b.t });
      else {
        w.fromMs = Math.min(w.fromMs, b.t);
        w.toMs = Math.max(w.toMs, b.t);
      }
    }
    for (const [ticker, window] of byTicker) await s.market.deriveDayBars([ticker], window);
  });
}
