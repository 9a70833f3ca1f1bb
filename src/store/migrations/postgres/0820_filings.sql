-- Tables of the SEC filings data sets: the filings index, 10-K sections, 8-K text, 13-F holdings
-- and Forms 3 and 4. One column per declared field (see src/store/repos/filings-catalog.ts;
-- test/store/datasets.schema.test.ts checks that they agree), a surrogate `pk` as keyset
-- tiebreaker, and the natural key as UNIQUE. Arrays are stored as ,A,B, text, JSON fields as JSON
-- text; sortable text is COLLATE "C" on PostgreSQL. Written out literally: a later change to a
-- declaration needs a new migration, not an edit here.

CREATE TABLE "filings_index" (
  pk BIGSERIAL PRIMARY KEY,
  "accession_number" TEXT COLLATE "C" NOT NULL,
  "cik" TEXT COLLATE "C" NOT NULL,
  "filing_date" TEXT COLLATE "C" NOT NULL,
  "filing_url" TEXT COLLATE "C",
  "form_type" TEXT COLLATE "C" NOT NULL,
  "issuer_name" TEXT COLLATE "C",
  "ticker" TEXT COLLATE "C",
  UNIQUE ("accession_number", "cik")
);
CREATE INDEX filings_index_default_sort ON "filings_index" ("filing_date" DESC, "accession_number", "cik");
CREATE INDEX filings_index_ticker ON "filings_index" ("ticker");

CREATE TABLE "filing_10k_sections" (
  pk BIGSERIAL PRIMARY KEY,
  "cik" TEXT COLLATE "C" NOT NULL,
  "filing_date" TEXT COLLATE "C" NOT NULL,
  "filing_url" TEXT COLLATE "C",
  "period_end" TEXT COLLATE "C",
  "section" TEXT COLLATE "C" NOT NULL,
  "text" TEXT COLLATE "C" NOT NULL,
  "ticker" TEXT COLLATE "C",
  UNIQUE ("cik", "filing_date", "section")
);
CREATE INDEX filing_10k_sections_default_sort ON "filing_10k_sections" ("period_end" DESC, "cik", "filing_date", "section");
CREATE INDEX filing_10k_sections_ticker ON "filing_10k_sections" ("ticker");

CREATE TABLE "filing_8k_text" (
  pk BIGSERIAL PRIMARY KEY,
  "accession_number" TEXT COLLATE "C" NOT NULL,
  "cik" TEXT COLLATE "C" NOT NULL,
  "filing_date" TEXT COLLATE "C" NOT NULL,
  "filing_url" TEXT COLLATE "C",
  "form_type" TEXT COLLATE "C" NOT NULL,
  "items_text" TEXT COLLATE "C" NOT NULL,
  "ticker" TEXT COLLATE "C",
  UNIQUE ("accession_number")
);
CREATE INDEX filing_8k_text_default_sort ON "filing_8k_text" ("filing_date" DESC, "accession_number");
CREATE INDEX filing_8k_text_ticker ON "filing_8k_text" ("ticker");

CREATE TABLE "form_13f_holdings" (
  pk BIGSERIAL PRIMARY KEY,
  "accession_number" TEXT COLLATE "C" NOT NULL,
  "cusip" TEXT COLLATE "C",
  "file_number" TEXT COLLATE "C",
  "filer_cik" TEXT COLLATE "C" NOT NULL,
  "filing_date" TEXT COLLATE "C" NOT NULL,
  "filing_url" TEXT COLLATE "C",
  "film_number" TEXT COLLATE "C",
  "form_type" TEXT COLLATE "C",
  "investment_discretion" TEXT COLLATE "C",
  "issuer_name" TEXT COLLATE "C",
  "market_value" BIGINT,
  "other_managers" TEXT,
  "period" TEXT COLLATE "C",
  "put_call" TEXT COLLATE "C",
  "shares_or_principal_amount" BIGINT,
  "shares_or_principal_type" TEXT COLLATE "C",
  "title_of_class" TEXT COLLATE "C",
  "voting_authority_none" BIGINT,
  "voting_authority_shared" BIGINT,
  "voting_authority_sole" BIGINT,
  "holding_id" TEXT COLLATE "C" NOT NULL,
  UNIQUE ("holding_id")
);
CREATE INDEX form_13f_holdings_default_sort ON "form_13f_holdings" ("filing_date" DESC, "holding_id");
CREATE INDEX form_13f_holdings_filer_cik ON "form_13f_holdings" ("filer_cik");

CREATE TABLE "form_3_holdings" (
  pk BIGSERIAL PRIMARY KEY,
  "accession_number" TEXT COLLATE "C" NOT NULL,
  "aff_10b5_one" INTEGER,
  "date_of_original_submission" TEXT COLLATE "C",
  "direct_or_indirect" TEXT COLLATE "C",
  "exercise_date" TEXT COLLATE "C",
  "exercise_price" DOUBLE PRECISION,
  "filing_date" TEXT COLLATE "C" NOT NULL,
  "filing_url" TEXT COLLATE "C",
  "footnotes" TEXT,
  "form_type" TEXT COLLATE "C" NOT NULL,
  "is_director" INTEGER,
  "is_officer" INTEGER,
  "is_other" INTEGER,
  "is_ten_percent_owner" INTEGER,
  "issuer_cik" TEXT COLLATE "C" NOT NULL,
  "issuer_name" TEXT COLLATE "C",
  "nature_of_ownership" TEXT COLLATE "C",
  "not_subject_to_section_16" INTEGER,
  "officer_title" TEXT COLLATE "C",
  "owner_cik" TEXT COLLATE "C",
  "owner_name" TEXT COLLATE "C",
  "period_of_report" TEXT COLLATE "C",
  "remarks" TEXT COLLATE "C",
  "security_title" TEXT COLLATE "C",
  "security_type" TEXT COLLATE "C",
  "shares_owned" DOUBLE PRECISION,
  "tickers" TEXT,
  "underlying_security_shares" DOUBLE PRECISION,
  "underlying_security_title" TEXT COLLATE "C",
  "holding_id" TEXT COLLATE "C" NOT NULL,
  "min_ticker" TEXT COLLATE "C",
  "max_ticker" TEXT COLLATE "C",
  UNIQUE ("holding_id")
);
CREATE INDEX form_3_holdings_default_sort ON "form_3_holdings" ("filing_date" DESC, "holding_id");
CREATE INDEX form_3_holdings_issuer_cik ON "form_3_holdings" ("issuer_cik");

CREATE TABLE "form_4_transactions" (
  pk BIGSERIAL PRIMARY KEY,
  "accession_number" TEXT COLLATE "C" NOT NULL,
  "aff_10b5_one" INTEGER,
  "date_of_original_submission" TEXT COLLATE "C",
  "deemed_execution_date" TEXT COLLATE "C",
  "direct_or_indirect" TEXT COLLATE "C",
  "equity_swap_involved" INTEGER,
  "exercise_date" TEXT COLLATE "C",
  "exercise_price" DOUBLE PRECISION,
  "expiration_date" TEXT COLLATE "C",
  "filing_date" TEXT COLLATE "C" NOT NULL,
  "filing_url" TEXT COLLATE "C",
  "footnotes" TEXT,
  "form_type" TEXT COLLATE "C" NOT NULL,
  "is_director" INTEGER,
  "is_officer" INTEGER,
  "is_other" INTEGER,
  "is_ten_percent_owner" INTEGER,
  "issuer_cik" TEXT COLLATE "C" NOT NULL,
  "issuer_name" TEXT COLLATE "C",
  "nature_of_ownership" TEXT COLLATE "C",
  "not_subject_to_section_16" INTEGER,
  "officer_title" TEXT COLLATE "C",
  "owner_cik" TEXT COLLATE "C",
  "owner_name" TEXT COLLATE "C",
  "period_of_report" TEXT COLLATE "C",
  "record_type" TEXT COLLATE "C",
  "remarks" TEXT COLLATE "C",
  "security_title" TEXT COLLATE "C",
  "security_type" TEXT COLLATE "C",
  "shares_owned_following_transaction" DOUBLE PRECISION,
  "tickers" TEXT,
  "transaction_acquired_disposed" TEXT COLLATE "C",
  "transaction_code" TEXT COLLATE "C",
  "transaction_date" TEXT COLLATE "C",
  "transaction_price_per_share" DOUBLE PRECISION,
  "transaction_shares" DOUBLE PRECISION,
  "transaction_timeliness" TEXT COLLATE "C",
  "transaction_value" DOUBLE PRECISION,
  "underlying_security_shares" DOUBLE PRECISION,
  "underlying_security_title" TEXT COLLATE "C",
  "holding_id" TEXT COLLATE "C" NOT NULL,
  "min_ticker" TEXT COLLATE "C",
  "max_ticker" TEXT COLLATE "C",
  UNIQUE ("holding_id")
);
CREATE INDEX form_4_transactions_default_sort ON "form_4_transactions" ("filing_date" DESC, "holding_id");
CREATE INDEX form_4_transactions_issuer_cik ON "form_4_transactions" ("issuer_cik");
