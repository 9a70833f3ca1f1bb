-- Tables of the 8-K disclosures (one row per disclosure category an 8-K is tagged with) and of
-- the disclosure taxonomy their categories come from. One column per declared field (see
-- src/store/repos/filings-catalog.ts; test/store/datasets.schema.test.ts checks that they agree),
-- a surrogate `pk` as keyset tiebreaker, and the natural key (a hash of the identifying fields)
-- as UNIQUE. Arrays are stored as ,A,B, text; sortable text is COLLATE "C" on PostgreSQL. Written
-- out literally: a later change to a declaration needs a new migration, not an edit here.

CREATE TABLE "filing_8k_disclosures" (
  pk INTEGER PRIMARY KEY,
  "accession_number" TEXT NOT NULL,
  "cik" TEXT NOT NULL,
  "filing_date" TEXT NOT NULL,
  "filing_url" TEXT,
  "primary_category" TEXT,
  "secondary_category" TEXT,
  "supporting_text" TEXT,
  "tertiary_category" TEXT,
  "tickers" TEXT,
  "disclosure_id" TEXT NOT NULL,
  UNIQUE ("disclosure_id")
);
CREATE INDEX filing_8k_disclosures_default_sort ON "filing_8k_disclosures" ("filing_date" DESC, "disclosure_id");
CREATE INDEX filing_8k_disclosures_cik ON "filing_8k_disclosures" ("cik");

CREATE TABLE "disclosure_taxonomy" (
  pk INTEGER PRIMARY KEY,
  "description" TEXT,
  "primary_category" TEXT,
  "secondary_category" TEXT,
  "taxonomy" TEXT NOT NULL,
  "tertiary_category" TEXT,
  "category_id" TEXT NOT NULL,
  UNIQUE ("category_id")
);
CREATE INDEX disclosure_taxonomy_default_sort ON "disclosure_taxonomy" ("taxonomy" DESC, "category_id");
