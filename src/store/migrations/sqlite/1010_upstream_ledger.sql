-- What was fetched from upstream's REST API (`tickerbase sync rest` and read-through): one row per
-- data set, ticker ('*' when the data set is not per ticker) and day range ('' for undated data
-- sets such as exchanges). A 'complete' row means every page of that request was stored; a
-- 'partial' row keeps the next_url (which never holds a key) to resume from; 'failed' keeps why.
CREATE TABLE upstream_ledger (
  dataset TEXT NOT NULL,
  ticker TEXT NOT NULL,
  from_day TEXT NOT NULL,
  to_day TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('complete', 'partial', 'failed')),
  next_url TEXT,
  rows INTEGER NOT NULL DEFAULT 0,
  calls INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  updated_utc TEXT NOT NULL,
  PRIMARY KEY (dataset, ticker, from_day, to_day)
);
CREATE INDEX upstream_ledger_status ON upstream_ledger (status, updated_utc);

-- Upstream calls made, refused (429) and failed, counted across runs and processes.
CREATE TABLE upstream_counters (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
