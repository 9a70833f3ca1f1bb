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
  id INTEGER PRIMARY KEY,
  ticker TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  name TEXT NOT NULL,
  market TEXT NOT NULL,
  locale TEXT NOT NULL,
  primary_exchange TEXT,
  type TEXT,
  active INTEGER NOT NULL,
  currency_name TEXT,
  currency_symbol TEXT,
  base_currency_symbol TEXT,
  base_currency_name TEXT,
  cik TEXT,
  composite_figi TEXT,
  share_class_figi TEXT,
  cusip TEXT,
  last_updated_utc TEXT NOT NULL,
  delisted_utc TEXT,
  list_date TEXT,
  details TEXT,
  UNIQUE (ticker, valid_from)
);
CREATE INDEX tickers_current ON tickers (valid_to, ticker);
CREATE INDEX tickers_cik ON tickers (cik);
CREATE TABLE ticker_types (ord INTEGER PRIMARY KEY, code TEXT NOT NULL, asset_class TEXT NOT NULL, locale TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE exchanges (asset_class TEXT NOT NULL, id INTEGER NOT NULL, locale TEXT NOT NULL, ord INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (asset_class, id, ord));
CREATE TABLE conditions (
  pk INTEGER PRIMARY KEY,
  id INTEGER NOT NULL,
  asset_class TEXT NOT NULL,
  type TEXT NOT NULL,
  name TEXT NOT NULL,
  data_types TEXT NOT NULL,
  sips TEXT NOT NULL,
  legacy INTEGER NOT NULL,
  body TEXT NOT NULL,
  UNIQUE (asset_class, id, type)
);
