// The level-2 book of a crypto pair as upstream's /v2/snapshot/.../crypto/tickers/{ticker}/book
// shows it: the stored levels merged per price across exchanges, with the totals and the spread.
import { NS_PER_MS } from '../domain/nanoseconds.js';
import type { Store } from '../store/index.js';
import type { BookLevel } from '../store/repos/crypto-book.js';

export interface BookPriceLevel {
  p: number;
  /** Exchange id → size at this price. */
  x: Record<string, number>;
}

export interface CryptoBook {
  ticker: string;
  bids: BookPriceLevel[];
  asks: BookPriceLevel[];
  /** Total size of every bid (upstream's "combined total number of bids"). */
  bidCount: number;
  askCount: number;
  /** Best ask minus best bid; 0 when a side is empty. */
  spread: number;
  /** When the book was taken, Unix ms as upstream's recorded bodies give it; 0 for an empty book. */
  updated: number;
}

/** Levels of one side (already in book order) merged per price. */
function mergeSide(levels: readonly BookLevel[]): { levels: BookPriceLevel[]; total: number } {
  const out: BookPriceLevel[] = [];
  let total = 0;
  for (const l of levels) {
    const last = out[out.length - 1];
    if (last && last.p === l.price) last.x[String(l.exchange)] = l.size;
    else out.push({ p: l.price, x: { [String(l.exchange)]: l.size } });
    total += l.size;
  }
  return { levels: out, total };
}

/** Sums of many sizes carry binary noise (0.1 + 0.2); sizes have at most 8 decimals, as crypto venues quote them. */
const roundSize = (x: number) => Math.round(x * 1e8) / 1e8;

export class CryptoBookService {
  constructor(private readonly store: Pick<Store, 'cryptoBooks' | 'reference'>) {}

  /** The book of `ticker`; empty when none is stored for a pair the reference data knows; undefined for an unknown pair. */
  async book(ticker: string): Promise<CryptoBook | undefined> {
    const levels = await this.store.cryptoBooks.book(ticker);
    if (levels.length === 0 && (await this.store.reference.tickerVersions('ticker', ticker)).length === 0) return undefined;
    const bids = mergeSide(levels.filter((l) => l.side === 'bid'));
    const asks = mergeSide(levels.filter((l) => l.side === 'ask'));
    const updated = levels.reduce((max, l) => (l.updated > max ? l.updated : max), 0n);
    const bestBid = bids.levels[0]?.p;
    const bestAsk = asks.levels[0]?.p;
    return {
      ticker,
      bids: bids.levels,
      asks: asks.levels,
      bidCount: roundSize(bids.total),
      askCount: roundSize(asks.total),
      spread: bestBid !== undefined && bestAsk !== undefined ? Math.round((bestAsk - bestBid) * 1e8) / 1e8 : 0,
      updated: Number(updated / NS_PER_MS),
    };
  }
}
