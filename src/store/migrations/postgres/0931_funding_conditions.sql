-- The table of the daily money-market funding conditions (/fed/v1/funding-conditions): one row
-- per calendar day. One column per declared field (see src/store/repos/economy-catalog.ts;
-- test/store/datasets.schema.test.ts checks that they agree), a surrogate `pk` as keyset
-- tiebreaker, and the date as UNIQUE. Written out literally: a later change to the declaration
-- needs a new migration, not an edit here.

CREATE TABLE "fed_funding_conditions" (
  pk BIGSERIAL PRIMARY KEY,
  "date" TEXT COLLATE "C" NOT NULL,
  "effective_fed_funds_rate" DOUBLE PRECISION,
  "effective_fed_funds_volume" DOUBLE PRECISION,
  "fed_funds_target_lower" DOUBLE PRECISION,
  "fed_funds_target_upper" DOUBLE PRECISION,
  "fed_overnight_repo_treasury_amount" DOUBLE PRECISION,
  "fed_overnight_reverse_repo_treasury_amount" DOUBLE PRECISION,
  "financial_commercial_paper_90d_rate" DOUBLE PRECISION,
  "interest_on_reserve_balances" DOUBLE PRECISION,
  "nonfinancial_commercial_paper_90d_rate" DOUBLE PRECISION,
  "obfr_25th_percentile" DOUBLE PRECISION,
  "obfr_75th_percentile" DOUBLE PRECISION,
  "obfr_volume" DOUBLE PRECISION,
  "overnight_bank_funding_rate" DOUBLE PRECISION,
  "secured_overnight_financing_rate" DOUBLE PRECISION,
  "sofr_25th_percentile" DOUBLE PRECISION,
  "sofr_75th_percentile" DOUBLE PRECISION,
  "sofr_volume" DOUBLE PRECISION,
  "tgcr_25th_percentile" DOUBLE PRECISION,
  "tgcr_75th_percentile" DOUBLE PRECISION,
  "tri_party_general_collateral_rate" DOUBLE PRECISION,
  "tri_party_general_collateral_volume" DOUBLE PRECISION,
  UNIQUE ("date")
);
