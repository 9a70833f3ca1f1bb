-- Tables of the futures reference data sets: products, contracts and exchanges. One column per
-- declared field (see src/store/repos/futures-catalog.ts; test/store/datasets.schema.test.ts checks
-- that they agree), a surrogate `pk` as keyset tiebreaker, and the natural key as UNIQUE; sortable
-- text is COLLATE "C" on PostgreSQL. Written out literally: a later change to a declaration needs a
-- new migration, not an edit here.

CREATE TABLE "futures_products" (
  pk INTEGER PRIMARY KEY,
  "asset_class" TEXT,
  "asset_sub_class" TEXT,
  "date" TEXT NOT NULL,
  "last_updated" TEXT,
  "name" TEXT,
  "price_quotation" TEXT,
  "product_code" TEXT NOT NULL,
  "sector" TEXT,
  "settlement_currency_code" TEXT,
  "settlement_method" TEXT,
  "settlement_type" TEXT,
  "sub_sector" TEXT,
  "trade_currency_code" TEXT,
  "trading_venue" TEXT,
  "type" TEXT,
  "unit_of_measure" TEXT,
  "unit_of_measure_qty" REAL,
  UNIQUE ("product_code", "date")
);
CREATE INDEX futures_products_default_sort ON "futures_products" ("date", "product_code");

CREATE TABLE "futures_contracts" (
  pk INTEGER PRIMARY KEY,
  "active" INTEGER NOT NULL,
  "date" TEXT NOT NULL,
  "days_to_maturity" INTEGER,
  "first_trade_date" TEXT,
  "group_code" TEXT,
  "last_trade_date" TEXT,
  "max_order_quantity" INTEGER,
  "min_order_quantity" INTEGER,
  "name" TEXT,
  "product_code" TEXT NOT NULL,
  "settlement_date" TEXT,
  "settlement_tick_size" REAL,
  "spread_tick_size" REAL,
  "ticker" TEXT NOT NULL,
  "trade_tick_size" REAL,
  "trading_venue" TEXT,
  "type" TEXT,
  UNIQUE ("ticker", "date")
);
CREATE INDEX futures_contracts_default_sort ON "futures_contracts" ("product_code", "ticker", "date");
CREATE INDEX futures_contracts_date ON "futures_contracts" ("date");

CREATE TABLE "futures_exchanges" (
  pk INTEGER PRIMARY KEY,
  "acronym" TEXT,
  "id" TEXT NOT NULL,
  "locale" TEXT,
  "mic" TEXT,
  "name" TEXT NOT NULL,
  "operating_mic" TEXT,
  "type" TEXT NOT NULL,
  "url" TEXT,
  UNIQUE ("id")
);
