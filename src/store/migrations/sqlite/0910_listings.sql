-- Tables of the listing data sets: IPOs and related companies. One column per declared field (see
-- src/store/repos/listings-catalog.ts; test/store/datasets.schema.test.ts checks that they agree),
-- a surrogate `pk` as keyset tiebreaker, and the natural key as UNIQUE.
-- Written out literally: a later change to a declaration needs a new migration, not an edit here.

CREATE TABLE "ipos" (
  pk INTEGER PRIMARY KEY,
  "announced_date" TEXT,
  "currency_code" TEXT,
  "final_issue_price" REAL,
  "highest_offer_price" REAL,
  "ipo_status" TEXT NOT NULL,
  "isin" TEXT,
  "issue_end_date" TEXT,
  "issue_start_date" TEXT,
  "issuer_name" TEXT NOT NULL,
  "last_updated" TEXT NOT NULL,
  "listing_date" TEXT,
  "lot_size" INTEGER,
  "lowest_offer_price" REAL,
  "max_shares_offered" INTEGER,
  "min_shares_offered" INTEGER,
  "primary_exchange" TEXT,
  "security_description" TEXT,
  "security_type" TEXT NOT NULL,
  "shares_outstanding" INTEGER,
  "ticker" TEXT NOT NULL,
  "total_offer_size" REAL,
  "us_code" TEXT,
  UNIQUE ("ticker", "issuer_name")
);

CREATE TABLE "related_companies" (
  pk INTEGER PRIMARY KEY,
  "ticker" TEXT NOT NULL,
  "related_ticker" TEXT NOT NULL,
  "rank" INTEGER,
  UNIQUE ("ticker", "related_ticker")
);

CREATE INDEX ipos_default_sort ON "ipos" ("listing_date" DESC, "ticker");
