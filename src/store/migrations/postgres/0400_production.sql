-- Per-key usage: one row per key, UTC day and endpoint family (the route's canonical URL template),
-- incremented by batched upserts from each server process.

CREATE TABLE key_usage (
  key_id TEXT COLLATE "C" NOT NULL,
  day TEXT COLLATE "C" NOT NULL,
  family TEXT COLLATE "C" NOT NULL,
  requests BIGINT NOT NULL,
  errors BIGINT NOT NULL,
  PRIMARY KEY (key_id, day, family)
);
CREATE INDEX key_usage_day ON key_usage (day);
