// The writes of the live feed: the ticks of one publish request (trades and quotes, futures ones
// in the futures tables) in one transaction, all or nothing, and the minute bars the aggregator
// makes, with the day bars they belong to derived again. Every one is a live transaction
// (TransactionOptions.live): it moves the store's data version but not its import version.
//
// `LiveWriter` is how a store runs them. PostgreSQL, in-memory SQLite and a store inside a
// transaction run them on the calling thread (`writerOver`); a SQLite file runs them on a thread
// of its own (sqlite/write-thread.ts), which calls these same functions over its own connection.
import type { FuturesMinuteBar, FuturesQuote, FuturesTrade } from '../domain/futures-market.js';
import type { BarRow, QuoteRow, TradeRow } from '../domain/market-records.js';
import type { TransactionOptions } from './driver.js';
import { fromColumns, type PackedTicks } from './row-columns.js';
import type { FuturesMarketRepository } from './repos/futures-market.js';
import type { MarketDataPort } from './repos/market-port.js';

/** What the live writes need of a store (a Store is one). */
export interface LiveStore {
  readonly market: MarketDataPort;
  transaction<T>(fn: (tx: { market: MarketDataPort; futures: FuturesMarketRepository }) => Promise<T>, opts?: TransactionOptions): Promise<T>;
}

/** The rows of one publish request. */
export interface LiveTicks {
  trades: readonly TradeRow[];
  quotes: readonly QuoteRow[];
  futuresTrades: readonly FuturesTrade[];
  futuresQuotes: readonly FuturesQuote[];
}

/** Rows written (a row already stored unchanged is not written again); futures rows count with the trades and quotes. */
export interface StoredTicks {
  trades: number;
  quotes: number;
}

export interface LiveWriter {
  /** Stores the ticks of one publish in one transaction; resolves once committed. */
  ticks(ticks: LiveTicks): Promise<StoredTicks>;
  /** ticks() of rows already packed as columns (a SQLite file's write thread takes them as they are). */
  packedTicks(ticks: PackedTicks): Promise<StoredTicks>;
  /** Writes (or corrects) minute bars and re-derives the day bars of their tickers and days. */
  minuteBars(bars: readonly BarRow[]): Promise<void>;
  /** Writes (or corrects) futures minute bars. */
  futuresMinuteBars(bars: readonly FuturesMinuteBar[]): Promise<void>;
}

const LIVE = { live: true } as const;

export async function writeTicks(store: LiveStore, t: LiveTicks): Promise<StoredTicks> {
  if (t.trades.length === 0 && t.quotes.length === 0 && t.futuresTrades.length === 0 && t.futuresQuotes.length === 0) return { trades: 0, quotes: 0 };
  if (t.futuresTrades.length === 0 && t.futuresQuotes.length === 0) {
    const stored = await store.market.insertLiveTicks(t.trades, t.quotes);
    if (stored) return stored;
  }
  return store.transaction(async (tx) => ({
    trades: (await tx.market.insertTrades(t.trades as TradeRow[])) + (await tx.futures.insertTrades(t.futuresTrades)),
    quotes: (await tx.market.insertQuotes(t.quotes as QuoteRow[])) + (await tx.futures.insertQuotes(t.futuresQuotes)),
  }), LIVE);
}

export async function writeMinuteBars(store: LiveStore, bars: readonly BarRow[]): Promise<void> {
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
    // Tickers with the same window (a minute's bars: all of them) are derived together, one
    // statement on PostgreSQL where a statement per ticker took a round trip each.
    const byWindow = new Map<string, { window: { fromMs: number; toMs: number }; tickers: string[] }>();
    for (const [ticker, window] of byTicker) {
      const key = `${window.fromMs}:${window.toMs}`;
      const same = byWindow.get(key);
      if (same) same.tickers.push(ticker);
      else byWindow.set(key, { window, tickers: [ticker] });
    }
    for (const { window, tickers } of byWindow.values()) await tx.market.deriveDayBars(tickers, window);
  }, LIVE);
}

export async function writeFuturesMinuteBars(store: LiveStore, bars: readonly FuturesMinuteBar[]): Promise<void> {
  if (bars.length === 0) return;
  await store.transaction(async (tx) => {
    await tx.futures.insertMinuteBars(bars);
  }, LIVE);
}

/** The live writes run on the calling thread, through `store`'s own transactions. */
export function writerOver(store: LiveStore): LiveWriter {
  return {
    ticks: (t) => writeTicks(store, t),
    packedTicks: (t) => writeTicks(store, unpackTicks(t)),
    minuteBars: (bars) => writeMinuteBars(store, bars),
    futuresMinuteBars: (bars) => writeFuturesMinuteBars(store, bars),
  };
}

/** The rows of a PackedTicks. */
export function unpackTicks(t: PackedTicks): LiveTicks {
  return { trades: fromColumns<TradeRow>(t.trades), quotes: fromColumns<QuoteRow>(t.quotes), futuresTrades: fromColumns<FuturesTrade>(t.futuresTrades), futuresQuotes: fromColumns<FuturesQuote>(t.futuresQuotes) };
}
