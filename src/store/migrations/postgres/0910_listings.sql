-- Tables of the listing data sets: IPOs and related companies. One column per declared field (see
-- src/store/repos/listings-catalog.ts; test/store/datasets.schema.test.ts checks that they agree),
-- a surrogate `pk` as keyset tiebreaker, and the natural key as UNIQUE.
-- Written out literally: a later change to a declaration needs a new migration, not an edit here.

CREATE TABLE "ipos" (
  pk BIGSERIAL PRIMARY KEY,
  "announced_date" TEXT COLLATE "C",
  "currency_code" TEXT COLLATE "C",
  "final_issue_price" DOUBLE PRECISION,
  "highest_offer_price" DOUBLE PRECISION,
  "ipo_status" TEXT COLLATE "C" NOT NULL,
  "isin" TEXT COLLATE "C",
  "issue_end_date" TEXT COLLATE "C",
  "issue_start_date" TEXT COLLATE "C",
  "issuer_name" TEXT COLLATE "C" NOT NULL,
  "last_updated" TEXT COLLATE "C" NOT NULL,
  "listing_date" TEXT COLLATE "C",
  "lot_size" BIGINT,
  "lowest_offer_price" DOUBLE PRECISION,
  "max_shares_offered" BIGINT,
  "min_shares_offered" BIGINT,
  "primary_exchange" TEXT COLLATE "C",
  "security_description" TEXT COLLATE "C",
  "security_type" TEXT COLLATE "C" NOT NULL,
  "shares_outstanding" BIGINT,
  "ticker" TEXT COLLATE "C" NOT NULL,
  "total_offer_size" DOUBLE PRECISION,
  "us_code" TEXT COLLATE "C",
  UNIQUE ("ticker", "issuer_name")
);

CREATE TABLE "related_companies" (
  pk BIGSERIAL PRIMARY KEY,
  "ticker" TEXT COLLATE "C" NOT NULL,
  "related_ticker" TEXT COLLATE "C" NOT NULL,
  "rank" BIGINT,
  UNIQUE ("ticker", "related_ticker")
);

CREATE INDEX ipos_default_sort ON "ipos" ("listing_date" DESC, "ticker");
