-- Booleans are stored as 0/1 integers on both engines, JSON as text, so rows read back the same.
-- PostgreSQL text columns that are sorted use COLLATE "C": upstream orders tickers byte-wise.

CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  label TEXT,
  plan TEXT NOT NULL,
  created_utc TEXT NOT NULL,
  revoked_utc TEXT,
  expires_utc TEXT
);
CREATE TABLE tickers (
  id BIGSERIAL PRIMARY KEY,
  ticker TEXT COLLATE "C" NOT NULL,
  valid_from TEXT COLLATE "C" NOT NULL,
  valid_to TEXT COLLATE "C",
  name TEXT COLLATE "C" NOT NULL,
  market TEXT COLLATE "C" NOT NULL,
  locale TEXT COLLATE "C" NOT NULL,
  primary_exchange TEXT COLLATE "C",
  type TEXT COLLATE "C",
  active SMALLINT NOT NULL,
  currency_name TEXT COLLATE "C",
  currency_symbol TEXT COLLATE "C",
  base_currency_symbol TEXT COLLATE "C",
  base_currency_name TEXT COLLATE "C",
  cik TEXT COLLATE "C",
  composite_figi TEXT COLLATE "C",
  share_class_figi TEXT COLLATE "C",
  cusip TEXT COLLATE "C",
  last_updated_utc TEXT COLLATE "C" NOT NULL,
  delisted_utc TEXT COLLATE "C",
  list_date TEXT COLLATE "C",
  details TEXT,
  UNIQUE (ticker, valid_from)
);
CREATE INDEX tickers_current ON tickers (valid_to, ticker);
CREATE INDEX tickers_cik ON tickers (cik);
CREATE TABLE ticker_types (ord INTEGER PRIMARY KEY, code TEXT NOT NULL, asset_class TEXT NOT NULL, locale TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE exchanges (asset_class TEXT COLLATE "C" NOT NULL, id INTEGER NOT NULL, locale TEXT NOT NULL, ord INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (asset_class, id, ord));
CREATE TABLE conditions (
  pk BIGSERIAL PRIMARY KEY,
  id INTEGER NOT NULL,
  asset_class TEXT COLLATE "C" NOT NULL,
  type TEXT COLLATE "C" NOT NULL,
  name TEXT COLLATE "C" NOT NULL,
  data_types TEXT COLLATE "C" NOT NULL,
  sips TEXT NOT NULL,
  legacy SMALLINT NOT NULL,
  body TEXT NOT NULL,
  UNIQUE (asset_class, id, type)
);
