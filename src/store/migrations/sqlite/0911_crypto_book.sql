-- The level-2 books of crypto pairs (src/store/repos/crypto-book.ts): one row per pair, side,
-- price and exchange with the size offered there; `updated` is when the book was taken, Unix ns.
-- An import replaces the whole book of each pair it holds.

CREATE TABLE crypto_book_levels (
  ticker TEXT NOT NULL,
  side TEXT NOT NULL CHECK (side IN ('bid', 'ask')),
  price REAL NOT NULL,
  exchange INTEGER NOT NULL,
  size REAL NOT NULL,
  updated INTEGER NOT NULL,
  PRIMARY KEY (ticker, side, price, exchange)
);
