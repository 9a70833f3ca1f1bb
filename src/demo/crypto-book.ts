// The demo's level-2 books of the crypto pairs that have trades: ten price levels a side around
// the pair's last stored trade, each offered on one to three of the demo's crypto exchanges, taken
// at that trade's time. Synthetic: sizes and spacing come from a generator seeded by the pair, so
// the same stored trades give the same books. A pair without trades keeps an empty book.
import type { BookLevel } from '../store/repos/crypto-book.js';
import type { Store } from '../store/index.js';
import { CRYPTO_EXCHANGES, CRYPTO_LEVELS } from './facts/market.js';
import { createRng } from './random.js';
import type { DemoStep } from './step.js';

const LEVELS_PER_SIDE = 10;
/** Distance between neighbouring levels, as a fraction of the price. */
const STEP = 0.0002;

/** Decimals a price of this size is quoted with: cents for large prices, more below a dollar. */
const decimalsOf = (price: number) => Math.max(2, 4 - Math.floor(Math.log10(price)));

export function buildCryptoBook(ticker: string, lastPrice: number, updated: bigint): BookLevel[] {
  const rng = createRng(`book:${ticker}`);
  const decimals = decimalsOf(lastPrice);
  const unit = 10 ** -decimals;
  const step = Math.max(unit, Math.round(lastPrice * STEP / unit) * unit);
  const round = (x: number) => Number(x.toFixed(decimals));
  const mid = round(lastPrice);
  // Coins per level: about 20,000 USD worth, so books of cheap and dear coins look alike.
  const typical = 20_000 / lastPrice;
  const levels: BookLevel[] = [];
  for (const side of ['bid', 'ask'] as const) {
    for (let i = 0; i < LEVELS_PER_SIDE; i++) {
      // the best bid one step below the last price, the best ask one step above it
      const price = round(side === 'bid' ? mid - step * (i + 1) : mid + step * (i + 1));
      for (const exchange of rng.shuffle(CRYPTO_EXCHANGES).slice(0, rng.int(1, 3))) {
        levels.push({ ticker, side, price, exchange, size: Number((typical * rng.float(0.05, 1.5)).toFixed(8)), updated });
      }
    }
  }
  return levels;
}

export const cryptoBookDemoStep: DemoStep = {
  name: 'crypto level-2 books',
  run: async (store: Store) => {
    const levels: BookLevel[] = [];
    for (const ticker of Object.keys(CRYPTO_LEVELS)) {
      const last = await store.market.lastTrade(ticker);
      if (last) levels.push(...buildCryptoBook(ticker, last.price, last.sip_timestamp));
    }
    const written = await store.cryptoBooks.replaceBooks(levels);
    return `${written} crypto book levels`;
  },
};
