-- Market data: base bars, trades and quotes.
--
-- - Bars are keyed (ticker, t) with t the window start in Unix ms. SQLite keeps them WITHOUT
--   ROWID so a ticker's bars sit together in primary-key order and a range read is one
--   contiguous b-tree scan. `derived` = 1 marks day bars built from minute bars: a later
--   import of the real day bar replaces them, and re-deriving refreshes them, but a derived
--   bar never overwrites an imported one.
-- - Tick times are Unix ns in 64-bit integers (exact above 2^53). `sip_timestamp` of trades
--   is the time key (crypto files have only the participant time; the reader puts it there).
--   Quotes keep their time key in `ts` (sip_timestamp, or participant_timestamp for forex)
--   with `ts_is_sip` saying which, so forex quotes read back without a SIP time.
-- - Natural keys make imports idempotent. Trades: (ticker, time, sequence_number, exchange,
--   id, price, size) — stocks are unique by (time, sequence number) alone, crypto by
--   (exchange, id); options carry neither id nor sequence number, so price and size keep two
--   prints at the same nanosecond on one exchange apart. Quotes: (ticker, ts, sequence_number);
--   forex quotes have no sequence number, so one pair's quotes are unique per nanosecond.
--   Unique indexes treat NULLs as distinct, so absent key parts are stored as sentinels:
--   id '' and sequence_number -1 (read back as absent).
-- - Every tick query is a range scan of the natural-key index on (ticker, time, sequence_number,
--   ...). Paging orders by (time, sequence_number, pk), pk being the store-assigned tiebreaker;
--   rows that tie on (time, sequence_number) are ordered by a small sort of each tie group
--   (SQLite: "temp b-tree for right part of ORDER BY"; PostgreSQL: incremental sort), which stops
--   at LIMIT. A second index ending in pk would spare that sort but costs ~20% more disk and
--   import time on the largest tables.
-- - conditions/indicators are text as in the flat files ('12,37').

CREATE TABLE minute_bars (
  ticker TEXT NOT NULL, t INTEGER NOT NULL,
  o REAL NOT NULL, h REAL NOT NULL, l REAL NOT NULL, c REAL NOT NULL,
  v REAL, vw REAL, n INTEGER,
  PRIMARY KEY (ticker, t)
) WITHOUT ROWID;
CREATE TABLE day_bars (
  ticker TEXT NOT NULL, t INTEGER NOT NULL,
  o REAL NOT NULL, h REAL NOT NULL, l REAL NOT NULL, c REAL NOT NULL,
  v REAL, vw REAL, n INTEGER,
  derived INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (ticker, t)
) WITHOUT ROWID;
CREATE INDEX day_bars_t ON day_bars (t);
CREATE TABLE trades (
  pk INTEGER PRIMARY KEY,
  ticker TEXT NOT NULL,
  sip_timestamp INTEGER NOT NULL,
  sequence_number INTEGER NOT NULL,
  exchange INTEGER NOT NULL,
  id TEXT NOT NULL,
  price REAL NOT NULL,
  size REAL NOT NULL,
  participant_timestamp INTEGER,
  trf_timestamp INTEGER,
  conditions TEXT,
  correction INTEGER,
  tape INTEGER,
  trf_id INTEGER
);
CREATE UNIQUE INDEX trades_key ON trades (ticker, sip_timestamp, sequence_number, exchange, id, price, size);
CREATE TABLE quotes (
  pk INTEGER PRIMARY KEY,
  ticker TEXT NOT NULL,
  ts INTEGER NOT NULL,
  sequence_number INTEGER NOT NULL,
  ts_is_sip INTEGER NOT NULL,
  participant_timestamp INTEGER,
  trf_timestamp INTEGER,
  ask_price REAL NOT NULL,
  ask_size REAL,
  ask_exchange INTEGER,
  bid_price REAL NOT NULL,
  bid_size REAL,
  bid_exchange INTEGER,
  conditions TEXT,
  indicators TEXT,
  tape INTEGER
);
CREATE UNIQUE INDEX quotes_key ON quotes (ticker, ts, sequence_number);
