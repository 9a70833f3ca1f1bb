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
  ticker TEXT COLLATE "C" NOT NULL,
  ts BIGINT NOT NULL,
  sequence_number BIGINT NOT NULL,
  session_end_date TEXT COLLATE "C" NOT NULL,
  price DOUBLE PRECISION NOT NULL,
  size BIGINT NOT NULL,
  report_sequence BIGINT,
  channel INTEGER,
  PRIMARY KEY (ticker, ts, sequence_number)
);
CREATE INDEX futures_trades_session ON futures_trades (ticker, session_end_date);

CREATE TABLE futures_quotes (
  ticker TEXT COLLATE "C" NOT NULL,
  ts BIGINT NOT NULL,
  sequence_number BIGINT NOT NULL,
  session_end_date TEXT COLLATE "C" NOT NULL,
  bid_price DOUBLE PRECISION,
  bid_size BIGINT,
  bid_timestamp BIGINT,
  ask_price DOUBLE PRECISION,
  ask_size BIGINT,
  ask_timestamp BIGINT,
  report_sequence BIGINT,
  channel INTEGER,
  PRIMARY KEY (ticker, ts, sequence_number)
);
CREATE INDEX futures_quotes_session ON futures_quotes (ticker, session_end_date);

CREATE TABLE futures_minute_bars (
  ticker TEXT COLLATE "C" NOT NULL,
  window_start BIGINT NOT NULL,
  session_end_date TEXT COLLATE "C" NOT NULL,
  open DOUBLE PRECISION NOT NULL,
  high DOUBLE PRECISION NOT NULL,
  low DOUBLE PRECISION NOT NULL,
  close DOUBLE PRECISION NOT NULL,
  volume BIGINT NOT NULL,
  transactions BIGINT NOT NULL,
  dollar_volume DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (ticker, window_start)
);
CREATE INDEX futures_minute_bars_session ON futures_minute_bars (ticker, session_end_date);
