-- Tables of the futures reference data sets: products, contracts and exchanges. One column per
-- declared field (see src/store/repos/futures-catalog.ts; test/store/datasets.schema.test.ts checks
-- that they agree), a surrogate `pk` as keyset tiebreaker, and the natural key as UNIQUE; sortable
-- text is COLLATE "C" on PostgreSQL. Written out literally: a later change to a declaration needs a
-- new migration, not an edit here.

CREATE TABLE "futures_products" (
  pk BIGSERIAL PRIMARY KEY,
  "asset_class" TEXT COLLATE "C",
  "asset_sub_class" TEXT COLLATE "C",
  "date" TEXT COLLATE "C" NOT NULL,
  "last_updated" TEXT COLLATE "C",
  "name" TEXT COLLATE "C",
  "price_quotation" TEXT COLLATE "C",
  "product_code" TEXT COLLATE "C" NOT NULL,
  "sector" TEXT COLLATE "C",
  "settlement_currency_code" TEXT COLLATE "C",
  "settlement_method" TEXT COLLATE "C",
  "settlement_type" TEXT COLLATE "C",
  "sub_sector" TEXT COLLATE "C",
  "trade_currency_code" TEXT COLLATE "C",
  "trading_venue" TEXT COLLATE "C",
  "type" TEXT COLLATE "C",
  "unit_of_measure" TEXT COLLATE "C",
  "unit_of_measure_qty" DOUBLE PRECISION,
  UNIQUE ("product_code", "date")
);
CREATE INDEX futures_products_default_sort ON "futures_products" ("date", "product_code");

CREATE TABLE "futures_contracts" (
  pk BIGSERIAL PRIMARY KEY,
  "active" INTEGER NOT NULL,
  "date" TEXT COLLATE "C" NOT NULL,
  "days_to_maturity" BIGINT,
  "first_trade_date" TEXT COLLATE "C",
  "group_code" TEXT COLLATE "C",
  "last_trade_date" TEXT COLLATE "C",
  "max_order_quantity" BIGINT,
  "min_order_quantity" BIGINT,
  "name" TEXT COLLATE "C",
  "product_code" TEXT COLLATE "C" NOT NULL,
  "settlement_date" TEXT COLLATE "C",
  "settlement_tick_size" DOUBLE PRECISION,
  "spread_tick_size" DOUBLE PRECISION,
  "ticker" TEXT COLLATE "C" NOT NULL,
  "trade_tick_size" DOUBLE PRECISION,
  "trading_venue" TEXT COLLATE "C",
  "type" TEXT COLLATE "C",
  UNIQUE ("ticker", "date")
);
CREATE INDEX futures_contracts_default_sort ON "futures_contracts" ("product_code", "ticker", "date");
CREATE INDEX futures_contracts_date ON "futures_contracts" ("date");

CREATE TABLE "futures_exchanges" (
  pk BIGSERIAL PRIMARY KEY,
  "acronym" TEXT COLLATE "C",
  "id" TEXT COLLATE "C" NOT NULL,
  "locale" TEXT COLLATE "C",
  "mic" TEXT COLLATE "C",
  "name" TEXT COLLATE "C" NOT NULL,
  "operating_mic" TEXT COLLATE "C",
  "type" TEXT COLLATE "C" NOT NULL,
  "url" TEXT COLLATE "C",
  UNIQUE ("id")
);
