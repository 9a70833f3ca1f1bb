-- The futures session schedules data set (see src/store/repos/futures-catalog.ts;
-- test/store/datasets.schema.test.ts checks that they agree): one row per product, event and
-- time, a surrogate `pk` as keyset tiebreaker and the natural key as UNIQUE.

CREATE TABLE "futures_schedules" (
  pk BIGSERIAL PRIMARY KEY,
  "event" TEXT COLLATE "C" NOT NULL,
  "product_code" TEXT COLLATE "C" NOT NULL,
  "product_name" TEXT COLLATE "C",
  "session_end_date" TEXT COLLATE "C" NOT NULL,
  "timestamp" TEXT COLLATE "C" NOT NULL,
  "trading_venue" TEXT COLLATE "C",
  UNIQUE ("product_code", "timestamp", "event")
);
CREATE INDEX futures_schedules_session_end_date ON "futures_schedules" ("session_end_date");
