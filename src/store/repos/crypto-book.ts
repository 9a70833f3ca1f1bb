// The stored level-2 books of crypto pairs: per pair, the size each exchange offers at each price
// on each side, and when the book was taken (Unix ns, bigint). A book is replaced whole: an import
// of a pair's levels drops the levels stored for it before.
import type { SqlDriver } from '../driver.js';
import { toBigInt, toNumber } from '../driver.js';

export type BookSide = 'bid' | 'ask';

export interface BookLevel {
  ticker: string;
  side: BookSide;
  price: number;
  /** Exchange id, as /v3/reference/exchanges lists them for crypto. */
  exchange: number;
  size: number;
  /** When the book was taken, Unix ns. */
  updated: bigint;
}

const CHUNK = 500;

export class CryptoBookRepository {
  constructor(private readonly db: SqlDriver) {}

  /** Stores the books of the pairs in `levels`, replacing whatever was stored for those pairs. */
  async replaceBooks(levels: readonly BookLevel[]): Promise<number> {
    return this.db.transaction(async (tx) => {
      const repo = new CryptoBookRepository(tx);
      await repo.clearBooks([...new Set(levels.map((l) => l.ticker))]);
      return repo.upsertLevels(levels);
    });
  }

  /** Drops every stored level of these pairs. */
  async clearBooks(tickers: readonly string[]): Promise<void> {
    for (let i = 0; i < tickers.length; i += CHUNK) {
      const chunk = tickers.slice(i, i + CHUNK);
      await this.db.run(`DELETE FROM crypto_book_levels WHERE ticker IN (${chunk.map(() => '?').join(', ')})`, chunk);
    }
  }

  /**
   * Writes levels, replacing a stored level of the same pair, side, price and exchange (within
   * one call the last one given wins). Returns the number of levels written.
   */
  async upsertLevels(levels: readonly BookLevel[]): Promise<number> {
    const unique = new Map<string, BookLevel>();
    for (const l of levels) unique.set(JSON.stringify([l.ticker, l.side, l.price, l.exchange]), l);
    if (unique.size === 0) return 0;
    await this.db.insertMany({
      table: 'crypto_book_levels',
      columns: ['ticker', 'side', 'price', 'exchange', 'size', 'updated'],
      rows: [...unique.values()].map((l) => [l.ticker, l.side, l.price, l.exchange, l.size, l.updated]),
      conflictColumns: ['ticker', 'side', 'price', 'exchange'],
      updateColumns: ['size', 'updated'],
    });
    return unique.size;
  }

  /** The stored levels of one pair: bids by price descending, asks ascending, then exchange. */
  async book(ticker: string): Promise<BookLevel[]> {
    const rows = await this.db.all(
      `SELECT side, price, exchange, size, updated FROM crypto_book_levels WHERE ticker = ?
        ORDER BY side DESC, CASE WHEN side = 'bid' THEN -price ELSE price END, exchange`,
      [ticker],
      { bigint: true },
    );
    return rows.map((r) => ({
      ticker,
      side: String(r.side) as BookSide,
      price: toNumber(r.price),
      exchange: toNumber(r.exchange),
      size: toNumber(r.size),
      updated: toBigInt(r.updated),
    }));
  }

  async count(): Promise<number> {
    const row = await this.db.get('SELECT COUNT(*) AS n FROM crypto_book_levels');
    return toNumber(row?.n ?? 0);
  }
}
