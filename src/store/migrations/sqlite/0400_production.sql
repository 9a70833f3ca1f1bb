-- Per-key usage: one row per key, UTC day and endpoint family (the route's canonical URL template),
-- incremented by batched upserts from each server process.

CREATE TABLE key_usage (
  key_id TEXT NOT NULL,
  day TEXT NOT NULL,
  family TEXT NOT NULL,
  requests INTEGER NOT NULL,
  errors INTEGER NOT NULL,
  PRIMARY KEY (key_id, day, family)
);
CREATE INDEX key_usage_day ON key_usage (day);
