-- Tables of the economy data sets beyond the Fed's prices and rates: the labor market and European
-- consumer spending (merchant aggregates, merchant hierarchy). One column per declared field (see
-- src/store/repos/economy-catalog.ts; test/store/datasets.schema.test.ts checks that they agree),
-- a surrogate `pk` as keyset tiebreaker, and the natural key as UNIQUE; sortable text is
-- COLLATE "C" on PostgreSQL. Written out literally: a later change to a declaration needs a new
-- migration, not an edit here.

CREATE TABLE "fed_labor_market" (
  pk BIGSERIAL PRIMARY KEY,
  "avg_hourly_earnings" DOUBLE PRECISION,
  "date" TEXT COLLATE "C" NOT NULL,
  "job_openings" DOUBLE PRECISION,
  "labor_force_participation_rate" DOUBLE PRECISION,
  "unemployment_rate" DOUBLE PRECISION,
  UNIQUE ("date")
);

CREATE TABLE "eu_merchant_aggregates" (
  pk BIGSERIAL PRIMARY KEY,
  "channel" TEXT COLLATE "C" NOT NULL,
  "consumer_type" TEXT COLLATE "C" NOT NULL,
  "eight_day_rolling_category_accounts" BIGINT,
  "eight_day_rolling_total_accounts" BIGINT,
  "mcc_group" TEXT COLLATE "C",
  "merchant_industry" TEXT COLLATE "C",
  "merchant_ticker" TEXT COLLATE "C",
  "name" TEXT COLLATE "C" NOT NULL,
  "parent_name" TEXT COLLATE "C",
  "published_date" TEXT COLLATE "C",
  "spend_in_distinct_account_key_count" BIGINT,
  "spend_in_spend" DOUBLE PRECISION,
  "spend_in_transaction_count" BIGINT,
  "spend_out_distinct_account_key_count" BIGINT,
  "spend_out_spend" DOUBLE PRECISION,
  "spend_out_transaction_count" BIGINT,
  "total_accounts" BIGINT,
  "total_spend" DOUBLE PRECISION,
  "total_transactions" BIGINT,
  "transaction_currency" TEXT COLLATE "C",
  "transaction_date" TEXT COLLATE "C" NOT NULL,
  "twenty_eight_day_rolling_category_accounts" BIGINT,
  "twenty_eight_day_rolling_total_accounts" BIGINT,
  "type" TEXT COLLATE "C" NOT NULL,
  "user_country" TEXT COLLATE "C" NOT NULL,
  "aggregate_id" TEXT COLLATE "C" NOT NULL,
  UNIQUE ("aggregate_id")
);
CREATE INDEX eu_merchant_aggregates_default_sort ON "eu_merchant_aggregates" ("transaction_date" DESC, "aggregate_id");

CREATE TABLE "eu_merchant_hierarchy" (
  pk BIGSERIAL PRIMARY KEY,
  "active_from" TEXT COLLATE "C",
  "active_to" TEXT COLLATE "C",
  "category" TEXT COLLATE "C",
  "grandparent_name" TEXT COLLATE "C",
  "grandparent_ticker" TEXT COLLATE "C",
  "great_grandparent_name" TEXT COLLATE "C",
  "great_grandparent_ticker" TEXT COLLATE "C",
  "industry" TEXT COLLATE "C",
  "industry_group" TEXT COLLATE "C",
  "listing_status" TEXT COLLATE "C" NOT NULL,
  "lookup_name" TEXT COLLATE "C" NOT NULL,
  "normalized_name" TEXT COLLATE "C",
  "parent_name" TEXT COLLATE "C",
  "parent_ticker" TEXT COLLATE "C",
  "sector" TEXT COLLATE "C",
  "sub_industry" TEXT COLLATE "C",
  "ticker" TEXT COLLATE "C",
  "hierarchy_id" TEXT COLLATE "C" NOT NULL,
  UNIQUE ("hierarchy_id")
);
CREATE INDEX eu_merchant_hierarchy_default_sort ON "eu_merchant_hierarchy" ("lookup_name", "hierarchy_id");
CREATE INDEX eu_merchant_hierarchy_ticker ON "eu_merchant_hierarchy" ("ticker");
