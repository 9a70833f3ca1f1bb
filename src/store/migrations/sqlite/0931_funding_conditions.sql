-- The table of the daily money-market funding conditions (/fed/v1/funding-conditions): one row
-- per calendar day. One column per declared field (see src/store/repos/economy-catalog.ts;
-- test/store/datasets.schema.test.ts checks that they agree), a surrogate `pk` as keyset
-- tiebreaker, and the date as UNIQUE. Written out literally: a later change to the declaration
-- needs a new migration, not an edit here.

CREATE TABLE "fed_funding_conditions" (
  pk INTEGER PRIMARY KEY,
  "date" TEXT NOT NULL,
  "effective_fed_funds_rate" REAL,
  "effective_fed_funds_volume" REAL,
  "fed_funds_target_lower" REAL,
  "fed_funds_target_upper" REAL,
  "fed_overnight_repo_treasury_amount" REAL,
  "fed_overnight_reverse_repo_treasury_amount" REAL,
  "financial_commercial_paper_90d_rate" REAL,
  "interest_on_reserve_balances" REAL,
  "nonfinancial_commercial_paper_90d_rate" REAL,
  "obfr_25th_percentile" REAL,
  "obfr_75th_percentile" REAL,
  "obfr_volume" REAL,
  "overnight_bank_funding_rate" REAL,
  "secured_overnight_financing_rate" REAL,
  "sofr_25th_percentile" REAL,
  "sofr_75th_percentile" REAL,
  "sofr_volume" REAL,
  "tgcr_25th_percentile" REAL,
  "tgcr_75th_percentile" REAL,
  "tri_party_general_collateral_rate" REAL,
  "tri_party_general_collateral_volume" REAL,
  UNIQUE ("date")
);
