-- The futures session schedules data set (see src/store/repos/futures-catalog.ts;
-- test/store/datasets.schema.test.ts checks that they agree): one row per product, event and
-- time, a surrogate `pk` as keyset tiebreaker and the natural key as UNIQUE.

CREATE TABLE "futures_schedules" (
  pk INTEGER PRIMARY KEY,
  "event" TEXT NOT NULL,
  "product_code" TEXT NOT NULL,
  "product_name" TEXT,
  "session_end_date" TEXT NOT NULL,
  "timestamp" TEXT NOT NULL,
  "trading_venue" TEXT,
  UNIQUE ("product_code", "timestamp", "event")
);
CREATE INDEX futures_schedules_session_end_date ON "futures_schedules" ("session_end_date");
