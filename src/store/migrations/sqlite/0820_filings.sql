-- Tables of the SEC filings data sets: the filings index, 10-K sections, 8-K text, 13-F holdings
-- and Forms 3 and 4. One column per declared field (see src/store/repos/filings-catalog.ts;
-- test/store/datasets.schema.test.ts checks that they agree), a surrogate `pk` as keyset
-- tiebreaker, and the natural key as UNIQUE. Arrays are stored as ,A,B, text, JSON fields as JSON
-- text; sortable text is COLLATE "C" on PostgreSQL. Written out literally: a later change to a
-- declaration needs a new migration, not an edit here.

CREATE TABLE "filings_index" (
  pk INTEGER PRIMARY KEY,
  "accession_number" TEXT NOT NULL,
  "cik" TEXT NOT NULL,
  "filing_date" TEXT NOT NULL,
  "filing_url" TEXT,
  "form_type" TEXT NOT NULL,
  "issuer_name" TEXT,
  "ticker" TEXT,
  UNIQUE ("accession_number", "cik")
);
CREATE INDEX filings_index_default_sort ON "filings_index" ("filing_date" DESC, "accession_number", "cik");
CREATE INDEX filings_index_ticker ON "filings_index" ("ticker");

CREATE TABLE "filing_10k_sections" (
  pk INTEGER PRIMARY KEY,
  "cik" TEXT NOT NULL,
  "filing_date" TEXT NOT NULL,
  "filing_url" TEXT,
  "period_end" TEXT,
  "section" TEXT NOT NULL,
  "text" TEXT NOT NULL,
  "ticker" TEXT,
  UNIQUE ("cik", "filing_date", "section")
);
CREATE INDEX filing_10k_sections_default_sort ON "filing_10k_sections" ("period_end" DESC, "cik", "filing_date", "section");
CREATE INDEX filing_10k_sections_ticker ON "filing_10k_sections" ("ticker");

CREATE TABLE "filing_8k_text" (
  pk INTEGER PRIMARY KEY,
  "accession_number" TEXT NOT NULL,
  "cik" TEXT NOT NULL,
  "filing_date" TEXT NOT NULL,
  "filing_url" TEXT,
  "form_type" TEXT NOT NULL,
  "items_text" TEXT NOT NULL,
  "ticker" TEXT,
  UNIQUE ("accession_number")
);
CREATE INDEX filing_8k_text_default_sort ON "filing_8k_text" ("filing_date" DESC, "accession_number");
CREATE INDEX filing_8k_text_ticker ON "filing_8k_text" ("ticker");

CREATE TABLE "form_13f_holdings" (
  pk INTEGER PRIMARY KEY,
  "accession_number" TEXT NOT NULL,
  "cusip" TEXT,
  "file_number" TEXT,
  "filer_cik" TEXT NOT NULL,
  "filing_date" TEXT NOT NULL,
  "filing_url" TEXT,
  "film_number" TEXT,
  "form_type" TEXT,
  "investment_discretion" TEXT,
  "issuer_name" TEXT,
  "market_value" INTEGER,
  "other_managers" TEXT,
  "period" TEXT,
  "put_call" TEXT,
  "shares_or_principal_amount" INTEGER,
  "shares_or_principal_type" TEXT,
  "title_of_class" TEXT,
  "voting_authority_none" INTEGER,
  "voting_authority_shared" INTEGER,
  "voting_authority_sole" INTEGER,
  "holding_id" TEXT NOT NULL,
  UNIQUE ("holding_id")
);
CREATE INDEX form_13f_holdings_default_sort ON "form_13f_holdings" ("filing_date" DESC, "holding_id");
CREATE INDEX form_13f_holdings_filer_cik ON "form_13f_holdings" ("filer_cik");

CREATE TABLE "form_3_holdings" (
  pk INTEGER PRIMARY KEY,
  "accession_number" TEXT NOT NULL,
  "aff_10b5_one" INTEGER,
  "date_of_original_submission" TEXT,
  "direct_or_indirect" TEXT,
  "exercise_date" TEXT,
  "exercise_price" REAL,
  "filing_date" TEXT NOT NULL,
  "filing_url" TEXT,
  "footnotes" TEXT,
  "form_type" TEXT NOT NULL,
  "is_director" INTEGER,
  "is_officer" INTEGER,
  "is_other" INTEGER,
  "is_ten_percent_owner" INTEGER,
  "issuer_cik" TEXT NOT NULL,
  "issuer_name" TEXT,
  "nature_of_ownership" TEXT,
  "not_subject_to_section_16" INTEGER,
  "officer_title" TEXT,
  "owner_cik" TEXT,
  "owner_name" TEXT,
  "period_of_report" TEXT,
  "remarks" TEXT,
  "security_title" TEXT,
  "security_type" TEXT,
  "shares_owned" REAL,
  "tickers" TEXT,
  "underlying_security_shares" REAL,
  "underlying_security_title" TEXT,
  "holding_id" TEXT NOT NULL,
  "min_ticker" TEXT,
  "max_ticker" TEXT,
  UNIQUE ("holding_id")
);
CREATE INDEX form_3_holdings_default_sort ON "form_3_holdings" ("filing_date" DESC, "holding_id");
CREATE INDEX form_3_holdings_issuer_cik ON "form_3_holdings" ("issuer_cik");

CREATE TABLE "form_4_transactions" (
  pk INTEGER PRIMARY KEY,
  "accession_number" TEXT NOT NULL,
  "aff_10b5_one" INTEGER,
  "date_of_original_submission" TEXT,
  "deemed_execution_date" TEXT,
  "direct_or_indirect" TEXT,
  "equity_swap_involved" INTEGER,
  "exercise_date" TEXT,
  "exercise_price" REAL,
  "expiration_date" TEXT,
  "filing_date" TEXT NOT NULL,
  "filing_url" TEXT,
  "footnotes" TEXT,
  "form_type" TEXT NOT NULL,
  "is_director" INTEGER,
  "is_officer" INTEGER,
  "is_other" INTEGER,
  "is_ten_percent_owner" INTEGER,
  "issuer_cik" TEXT NOT NULL,
  "issuer_name" TEXT,
  "nature_of_ownership" TEXT,
  "not_subject_to_section_16" INTEGER,
  "officer_title" TEXT,
  "owner_cik" TEXT,
  "owner_name" TEXT,
  "period_of_report" TEXT,
  "record_type" TEXT,
  "remarks" TEXT,
  "security_title" TEXT,
  "security_type" TEXT,
  "shares_owned_following_transaction" REAL,
  "tickers" TEXT,
  "transaction_acquired_disposed" TEXT,
  "transaction_code" TEXT,
  "transaction_date" TEXT,
  "transaction_price_per_share" REAL,
  "transaction_shares" REAL,
  "transaction_timeliness" TEXT,
  "transaction_value" REAL,
  "underlying_security_shares" REAL,
  "underlying_security_title" TEXT,
  "holding_id" TEXT NOT NULL,
  "min_ticker" TEXT,
  "max_ticker" TEXT,
  UNIQUE ("holding_id")
);
CREATE INDEX form_4_transactions_default_sort ON "form_4_transactions" ("filing_date" DESC, "holding_id");
CREATE INDEX form_4_transactions_issuer_cik ON "form_4_transactions" ("issuer_cik");
