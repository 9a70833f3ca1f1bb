-- Futures market data: trades, quotes and minute bars of futures contracts (ESZ6, ...), apart from
-- the stock/option/forex/crypto tables: futures ticks carry a trading date (session_end_date: a
-- Globex session opens the evening before), report sequences and CME channels that those tables
-- have no columns for, and keeping them apart keeps contract tickers out of every stock list,
-- grouped bar and snapshot.
--
-- - Times are Unix ns in 64-bit integers (exact above 2^53), bars keyed by their window start in ns.
-- - Ticks are unique by (ticker, ts, sequence_number): CME numbers every event; a re-import of the
--   same key replaces the other columns (corrected rows win). Pages are keyset-ordered on the key.
-- - Volume and transactions are whole contracts and trades; dollar_volume is Σ price × size.

CREATE TABLE futures_trades (
  ticker TEXT NOT NULL,
  ts INTEGER NOT NULL,
  sequence_number INTEGER NOT NULL,
  session_end_date TEXT NOT NULL,
  price REAL NOT NULL,
  size INTEGER NOT NULL,
  report_sequence INTEGER,
  channel INTEGER,
  PRIMARY KEY (ticker, ts, sequence_number)
) WITHOUT ROWID;
CREATE INDEX futures_trades_session ON futures_trades (ticker, session_end_date);

CREATE TABLE futures_quotes (
  ticker TEXT NOT NULL,
  ts INTEGER NOT NULL,
  sequence_number INTEGER NOT NULL,
  session_end_date TEXT NOT NULL,
  bid_price REAL,
  bid_size INTEGER,
  bid_timestamp INTEGER,
  ask_price REAL,
  ask_size INTEGER,
  ask_timestamp INTEGER,
  report_sequence INTEGER,
  channel INTEGER,
  PRIMARY KEY (ticker, ts, sequence_number)
) WITHOUT ROWID;
CREATE INDEX futures_quotes_session ON futures_quotes (ticker, session_end_date);

CREATE TABLE futures_minute_bars (
  ticker TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  session_end_date TEXT NOT NULL,
  open REAL NOT NULL,
  high REAL NOT NULL,
  low REAL NOT NULL,
  close REAL NOT NULL,
  volume INTEGER NOT NULL,
  transactions INTEGER NOT NULL,
  dollar_volume REAL NOT NULL,
  PRIMARY KEY (ticker, window_start)
) WITHOUT ROWID;
CREATE INDEX futures_minute_bars_session ON futures_minute_bars (ticker, session_end_date);
