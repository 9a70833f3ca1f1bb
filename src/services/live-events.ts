// What the live feed stored, told to whoever keeps answers in memory (the live versions and the
// live snapshot state): the ticks of one publish and the minute bars the aggregator stored, each
// once its transaction has committed. Listeners are kept per store, since the feed and the
// services of one server share one store object, and a test's other stores hear nothing of it.
import type { BarRow, QuoteRow, TradeRow } from '../domain/market-records.js';

/** What one committed live write stored. */
export interface LiveWrite {
  trades: readonly TradeRow[];
  quotes: readonly QuoteRow[];
  /** Minute bars (and the day bars derived from them for the same tickers and days). */
  bars: readonly BarRow[];
}

export type LiveListener = (write: LiveWrite) => void;

const listeners = new WeakMap<object, Set<LiveListener>>();

/** Calls `listener` after each live write to `store`, in this process; returns the way to stop. */
export function listenLiveWrites(store: object, listener: LiveListener): () => void {
  let set = listeners.get(store);
  if (set === undefined) listeners.set(store, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Tells the listeners of `store` what a committed live write stored. */
export function noteLiveWrite(store: object, write: LiveWrite): void {
  const set = listeners.get(store);
  if (set === undefined) return;
  for (const l of set) l(write);
}
