-- Option contracts (the reference fields of /v3/reference/options/contracts) and the open interest
-- reported per contract and session day. Expiration and list dates are YYYY-MM-DD text, so they sort
-- and compare as dates. `list_date` is not a wire field: when known it bounds `as_of` queries.
-- `additional_underlyings` keeps its wire JSON. Open interest on `date` is the figure in force during
-- that session (contracts open at the end of the previous session).

CREATE TABLE options_contracts (
  ticker TEXT PRIMARY KEY,
  underlying_ticker TEXT NOT NULL,
  contract_type TEXT NOT NULL,
  exercise_style TEXT NOT NULL,
  expiration_date TEXT NOT NULL,
  strike_price REAL NOT NULL,
  shares_per_contract REAL NOT NULL,
  primary_exchange TEXT,
  cfi TEXT,
  correction INTEGER,
  additional_underlyings TEXT,
  list_date TEXT
);
CREATE INDEX options_contracts_underlying ON options_contracts (underlying_ticker, expiration_date, strike_price);
CREATE INDEX options_contracts_expiration ON options_contracts (expiration_date, ticker);
CREATE TABLE options_open_interest (
  ticker TEXT NOT NULL,
  date TEXT NOT NULL,
  open_interest REAL NOT NULL,
  PRIMARY KEY (ticker, date)
);
