-- What `tickerbase sync flatfiles` stored from upstream's flat-file bucket (src/store/repos/flatfile-manifest.ts):
-- one row per object key and ticker filter ('' = every ticker of the file), with the ETag of the
-- version stored, its size and rows, and when it was committed. Written in the same transaction
-- as the file's rows, so a row here means the rows are there.

CREATE TABLE flatfile_manifest (
  object_key TEXT NOT NULL,
  tickers TEXT NOT NULL,
  etag TEXT NOT NULL,
  size INTEGER NOT NULL,
  row_count INTEGER NOT NULL,
  completed_utc TEXT NOT NULL,
  PRIMARY KEY (object_key, tickers)
);
