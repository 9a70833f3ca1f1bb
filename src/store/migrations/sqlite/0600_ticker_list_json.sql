-- Each ticker version's list item as JSON text (domain tickerItemJson), written with the row, so
-- a page of the ticker list joins stored texts instead of building and serializing objects. Rows
-- stored before this column are filled in by openStore (backfillTickerItems) after migrating.
ALTER TABLE tickers ADD COLUMN list_json TEXT;
-- The tickers list's data version, renewed by every write of ticker rows: its ETags derive from it.
INSERT INTO meta (key, value) VALUES ('tickers_version', '0') ON CONFLICT (key) DO NOTHING;
