-- Tables of the economy data sets beyond the Fed's prices and rates: the labor market and European
-- consumer spending (merchant aggregates, merchant hierarchy). One column per declared field (see
-- src/store/repos/economy-catalog.ts; test/store/datasets.schema.test.ts checks that they agree),
-- a surrogate `pk` as keyset tiebreaker, and the natural key as UNIQUE; sortable text is
-- COLLATE "C" on PostgreSQL. Written out literally: a later change to a declaration needs a new
-- migration, not an edit here.

CREATE TABLE "fed_labor_market" (
  pk INTEGER PRIMARY KEY,
  "avg_hourly_earnings" REAL,
  "date" TEXT NOT NULL,
  "job_openings" REAL,
  "labor_force_participation_rate" REAL,
  "unemployment_rate" REAL,
  UNIQUE ("date")
);

CREATE TABLE "eu_merchant_aggregates" (
  pk INTEGER PRIMARY KEY,
  "channel" TEXT NOT NULL,
  "consumer_type" TEXT NOT NULL,
  "eight_day_rolling_category_accounts" INTEGER,
  "eight_day_rolling_total_accounts" INTEGER,
  "mcc_group" TEXT,
  "merchant_industry" TEXT,
  "merchant_ticker" TEXT,
  "name" TEXT NOT NULL,
  "parent_name" TEXT,
  "published_date" TEXT,
  "spend_in_distinct_account_key_count" INTEGER,
  "spend_in_spend" REAL,
  "spend_in_transaction_count" INTEGER,
  "spend_out_distinct_account_key_count" INTEGER,
  "spend_out_spend" REAL,
  "spend_out_transaction_count" INTEGER,
  "total_accounts" INTEGER,
  "total_spend" REAL,
  "total_transactions" INTEGER,
  "transaction_currency" TEXT,
  "transaction_date" TEXT NOT NULL,
  "twenty_eight_day_rolling_category_accounts" INTEGER,
  "twenty_eight_day_rolling_total_accounts" INTEGER,
  "type" TEXT NOT NULL,
  "user_country" TEXT NOT NULL,
  "aggregate_id" TEXT NOT NULL,
  UNIQUE ("aggregate_id")
);
CREATE INDEX eu_merchant_aggregates_default_sort ON "eu_merchant_aggregates" ("transaction_date" DESC, "aggregate_id");

CREATE TABLE "eu_merchant_hierarchy" (
  pk INTEGER PRIMARY KEY,
  "active_from" TEXT,
  "active_to" TEXT,
  "category" TEXT,
  "grandparent_name" TEXT,
  "grandparent_ticker" TEXT,
  "great_grandparent_name" TEXT,
  "great_grandparent_ticker" TEXT,
  "industry" TEXT,
  "industry_group" TEXT,
  "listing_status" TEXT NOT NULL,
  "lookup_name" TEXT NOT NULL,
  "normalized_name" TEXT,
  "parent_name" TEXT,
  "parent_ticker" TEXT,
  "sector" TEXT,
  "sub_industry" TEXT,
  "ticker" TEXT,
  "hierarchy_id" TEXT NOT NULL,
  UNIQUE ("hierarchy_id")
);
CREATE INDEX eu_merchant_hierarchy_default_sort ON "eu_merchant_hierarchy" ("lookup_name", "hierarchy_id");
CREATE INDEX eu_merchant_hierarchy_ticker ON "eu_merchant_hierarchy" ("ticker");
