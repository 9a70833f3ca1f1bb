-- Tables of the new-style data sets: dividends and splits (read by both API families and by the
-- aggregates' adjustment), financial statements, ratios, float, short interest and volume, risk
-- factors and categories, and the Fed series. One column per declared field (see
-- src/store/repos/dataset-catalog.ts and corporate-actions.ts; test/store/datasets.schema.test.ts
-- checks that they agree), a surrogate `pk` as keyset tiebreaker, and the natural key as UNIQUE.
-- Arrays (`tickers`) are stored as ',A,B,' text; sortable text is COLLATE "C" on PostgreSQL.
-- Written out literally: a later change to a declaration needs a new migration, not an edit here.

CREATE TABLE "dividends" (
  pk BIGSERIAL PRIMARY KEY,
  "id" TEXT COLLATE "C" NOT NULL,
  "ticker" TEXT COLLATE "C" NOT NULL,
  "cash_amount" DOUBLE PRECISION NOT NULL,
  "currency" TEXT COLLATE "C",
  "declaration_date" TEXT COLLATE "C",
  "ex_dividend_date" TEXT COLLATE "C" NOT NULL,
  "record_date" TEXT COLLATE "C",
  "pay_date" TEXT COLLATE "C",
  "frequency" BIGINT NOT NULL,
  "distribution_type" TEXT COLLATE "C" NOT NULL,
  "split_adjusted_cash_amount" DOUBLE PRECISION,
  "historical_adjustment_factor" DOUBLE PRECISION,
  "dividend_type" TEXT COLLATE "C" NOT NULL,
  UNIQUE ("id")
);
CREATE INDEX dividends_default_sort ON "dividends" ("ticker", "id");

CREATE TABLE "splits" (
  pk BIGSERIAL PRIMARY KEY,
  "id" TEXT COLLATE "C" NOT NULL,
  "ticker" TEXT COLLATE "C" NOT NULL,
  "execution_date" TEXT COLLATE "C" NOT NULL,
  "split_from" DOUBLE PRECISION NOT NULL,
  "split_to" DOUBLE PRECISION NOT NULL,
  "adjustment_type" TEXT COLLATE "C" NOT NULL,
  "historical_adjustment_factor" DOUBLE PRECISION,
  UNIQUE ("id")
);
CREATE INDEX splits_default_sort ON "splits" ("execution_date" DESC, "id");

CREATE TABLE "balance_sheets" (
  pk BIGSERIAL PRIMARY KEY,
  "cik" TEXT COLLATE "C" NOT NULL,
  "tickers" TEXT,
  "period_end" TEXT COLLATE "C" NOT NULL,
  "filing_date" TEXT COLLATE "C",
  "fiscal_year" DOUBLE PRECISION,
  "fiscal_quarter" DOUBLE PRECISION,
  "timeframe" TEXT COLLATE "C" NOT NULL,
  "cash_and_equivalents" DOUBLE PRECISION,
  "short_term_investments" DOUBLE PRECISION,
  "receivables" DOUBLE PRECISION,
  "inventories" DOUBLE PRECISION,
  "other_current_assets" DOUBLE PRECISION,
  "total_current_assets" DOUBLE PRECISION,
  "property_plant_equipment_net" DOUBLE PRECISION,
  "goodwill" DOUBLE PRECISION,
  "intangible_assets_net" DOUBLE PRECISION,
  "other_assets" DOUBLE PRECISION,
  "total_assets" DOUBLE PRECISION,
  "accounts_payable" DOUBLE PRECISION,
  "accrued_and_other_current_liabilities" DOUBLE PRECISION,
  "debt_current" DOUBLE PRECISION,
  "deferred_revenue_current" DOUBLE PRECISION,
  "total_current_liabilities" DOUBLE PRECISION,
  "long_term_debt_and_capital_lease_obligations" DOUBLE PRECISION,
  "other_noncurrent_liabilities" DOUBLE PRECISION,
  "total_liabilities" DOUBLE PRECISION,
  "commitments_and_contingencies" DOUBLE PRECISION,
  "preferred_stock" DOUBLE PRECISION,
  "common_stock" DOUBLE PRECISION,
  "additional_paid_in_capital" DOUBLE PRECISION,
  "retained_earnings_deficit" DOUBLE PRECISION,
  "accumulated_other_comprehensive_income" DOUBLE PRECISION,
  "treasury_stock" DOUBLE PRECISION,
  "other_equity" DOUBLE PRECISION,
  "total_equity_attributable_to_parent" DOUBLE PRECISION,
  "noncontrolling_interest" DOUBLE PRECISION,
  "total_equity" DOUBLE PRECISION,
  "total_liabilities_and_equity" DOUBLE PRECISION,
  UNIQUE ("cik", "period_end", "timeframe")
);
CREATE INDEX balance_sheets_default_sort ON "balance_sheets" ("period_end", "cik", "timeframe");

CREATE TABLE "cash_flow_statements" (
  pk BIGSERIAL PRIMARY KEY,
  "cik" TEXT COLLATE "C" NOT NULL,
  "tickers" TEXT,
  "period_end" TEXT COLLATE "C" NOT NULL,
  "filing_date" TEXT COLLATE "C",
  "fiscal_year" DOUBLE PRECISION,
  "fiscal_quarter" DOUBLE PRECISION,
  "timeframe" TEXT COLLATE "C" NOT NULL,
  "net_income" DOUBLE PRECISION,
  "depreciation_depletion_and_amortization" DOUBLE PRECISION,
  "change_in_other_operating_assets_and_liabilities_net" DOUBLE PRECISION,
  "other_operating_activities" DOUBLE PRECISION,
  "cash_from_operating_activities_continuing_operations" DOUBLE PRECISION,
  "net_cash_from_operating_activities_discontinued_operations" DOUBLE PRECISION,
  "net_cash_from_operating_activities" DOUBLE PRECISION,
  "purchase_of_property_plant_and_equipment" DOUBLE PRECISION,
  "sale_of_property_plant_and_equipment" DOUBLE PRECISION,
  "other_investing_activities" DOUBLE PRECISION,
  "net_cash_from_investing_activities_continuing_operations" DOUBLE PRECISION,
  "net_cash_from_investing_activities_discontinued_operations" DOUBLE PRECISION,
  "net_cash_from_investing_activities" DOUBLE PRECISION,
  "short_term_debt_issuances_repayments" DOUBLE PRECISION,
  "long_term_debt_issuances_repayments" DOUBLE PRECISION,
  "dividends" DOUBLE PRECISION,
  "other_financing_activities" DOUBLE PRECISION,
  "net_cash_from_financing_activities_continuing_operations" DOUBLE PRECISION,
  "net_cash_from_financing_activities_discontinued_operations" DOUBLE PRECISION,
  "net_cash_from_financing_activities" DOUBLE PRECISION,
  "effect_of_currency_exchange_rate" DOUBLE PRECISION,
  "other_cash_adjustments" DOUBLE PRECISION,
  "change_in_cash_and_equivalents" DOUBLE PRECISION,
  "income_loss_from_discontinued_operations" DOUBLE PRECISION,
  "noncontrolling_interests" DOUBLE PRECISION,
  UNIQUE ("cik", "period_end", "timeframe")
);
CREATE INDEX cash_flow_statements_default_sort ON "cash_flow_statements" ("period_end", "cik", "timeframe");

CREATE TABLE "income_statements" (
  pk BIGSERIAL PRIMARY KEY,
  "cik" TEXT COLLATE "C" NOT NULL,
  "tickers" TEXT,
  "period_end" TEXT COLLATE "C" NOT NULL,
  "filing_date" TEXT COLLATE "C",
  "fiscal_year" DOUBLE PRECISION,
  "fiscal_quarter" DOUBLE PRECISION,
  "timeframe" TEXT COLLATE "C" NOT NULL,
  "revenue" DOUBLE PRECISION,
  "cost_of_revenue" DOUBLE PRECISION,
  "gross_profit" DOUBLE PRECISION,
  "selling_general_administrative" DOUBLE PRECISION,
  "research_development" DOUBLE PRECISION,
  "depreciation_depletion_amortization" DOUBLE PRECISION,
  "other_operating_expenses" DOUBLE PRECISION,
  "total_operating_expenses" DOUBLE PRECISION,
  "operating_income" DOUBLE PRECISION,
  "interest_income" DOUBLE PRECISION,
  "interest_expense" DOUBLE PRECISION,
  "other_income_expense" DOUBLE PRECISION,
  "total_other_income_expense" DOUBLE PRECISION,
  "income_before_income_taxes" DOUBLE PRECISION,
  "income_taxes" DOUBLE PRECISION,
  "discontinued_operations" DOUBLE PRECISION,
  "extraordinary_items" DOUBLE PRECISION,
  "equity_in_affiliates" DOUBLE PRECISION,
  "consolidated_net_income_loss" DOUBLE PRECISION,
  "noncontrolling_interest" DOUBLE PRECISION,
  "preferred_stock_dividends_declared" DOUBLE PRECISION,
  "net_income_loss_attributable_common_shareholders" DOUBLE PRECISION,
  "basic_earnings_per_share" DOUBLE PRECISION,
  "diluted_earnings_per_share" DOUBLE PRECISION,
  "basic_shares_outstanding" DOUBLE PRECISION,
  "diluted_shares_outstanding" DOUBLE PRECISION,
  "ebitda" DOUBLE PRECISION,
  UNIQUE ("cik", "period_end", "timeframe")
);
CREATE INDEX income_statements_default_sort ON "income_statements" ("period_end", "cik", "timeframe");

CREATE TABLE "ratios" (
  pk BIGSERIAL PRIMARY KEY,
  "ticker" TEXT COLLATE "C" NOT NULL,
  "cik" TEXT COLLATE "C",
  "date" TEXT COLLATE "C" NOT NULL,
  "price" DOUBLE PRECISION NOT NULL,
  "average_volume" DOUBLE PRECISION,
  "market_cap" DOUBLE PRECISION,
  "enterprise_value" DOUBLE PRECISION,
  "earnings_per_share" DOUBLE PRECISION,
  "price_to_earnings" DOUBLE PRECISION,
  "price_to_book" DOUBLE PRECISION,
  "price_to_sales" DOUBLE PRECISION,
  "price_to_cash_flow" DOUBLE PRECISION,
  "price_to_free_cash_flow" DOUBLE PRECISION,
  "free_cash_flow" DOUBLE PRECISION,
  "dividend_yield" DOUBLE PRECISION,
  "return_on_assets" DOUBLE PRECISION,
  "return_on_equity" DOUBLE PRECISION,
  "debt_to_equity" DOUBLE PRECISION,
  "current" DOUBLE PRECISION,
  "quick" DOUBLE PRECISION,
  "cash" DOUBLE PRECISION,
  "ev_to_sales" DOUBLE PRECISION,
  "ev_to_ebitda" DOUBLE PRECISION,
  UNIQUE ("ticker", "date")
);

CREATE TABLE "free_float" (
  pk BIGSERIAL PRIMARY KEY,
  "ticker" TEXT COLLATE "C" NOT NULL,
  "effective_date" TEXT COLLATE "C" NOT NULL,
  "free_float" BIGINT,
  "free_float_percent" DOUBLE PRECISION,
  UNIQUE ("ticker", "effective_date")
);

CREATE TABLE "short_interest" (
  pk BIGSERIAL PRIMARY KEY,
  "ticker" TEXT COLLATE "C" NOT NULL,
  "settlement_date" TEXT COLLATE "C" NOT NULL,
  "short_interest" BIGINT,
  "avg_daily_volume" BIGINT NOT NULL,
  "days_to_cover" DOUBLE PRECISION NOT NULL,
  UNIQUE ("ticker", "settlement_date")
);

CREATE TABLE "short_volume" (
  pk BIGSERIAL PRIMARY KEY,
  "ticker" TEXT COLLATE "C" NOT NULL,
  "date" TEXT COLLATE "C" NOT NULL,
  "total_volume" DOUBLE PRECISION,
  "short_volume" DOUBLE PRECISION,
  "exempt_volume" DOUBLE PRECISION,
  "non_exempt_volume" DOUBLE PRECISION,
  "short_volume_ratio" DOUBLE PRECISION,
  "nyse_short_volume" BIGINT,
  "nyse_short_volume_exempt" BIGINT,
  "nasdaq_carteret_short_volume" BIGINT,
  "nasdaq_carteret_short_volume_exempt" BIGINT,
  "nasdaq_chicago_short_volume" BIGINT,
  "nasdaq_chicago_short_volume_exempt" BIGINT,
  "adf_short_volume" BIGINT,
  "adf_short_volume_exempt" BIGINT,
  UNIQUE ("ticker", "date")
);

CREATE TABLE "risk_factors" (
  pk BIGSERIAL PRIMARY KEY,
  "cik" TEXT COLLATE "C",
  "ticker" TEXT COLLATE "C" NOT NULL,
  "filing_date" TEXT COLLATE "C" NOT NULL,
  "primary_category" TEXT COLLATE "C" NOT NULL,
  "secondary_category" TEXT COLLATE "C" NOT NULL,
  "tertiary_category" TEXT COLLATE "C" NOT NULL,
  "supporting_text" TEXT COLLATE "C",
  "risk_factor_id" TEXT COLLATE "C" NOT NULL,
  UNIQUE ("risk_factor_id")
);
CREATE INDEX risk_factors_default_sort ON "risk_factors" ("filing_date" DESC, "risk_factor_id");

CREATE TABLE "risk_categories" (
  pk BIGSERIAL PRIMARY KEY,
  "taxonomy" DOUBLE PRECISION NOT NULL,
  "primary_category" TEXT COLLATE "C" NOT NULL,
  "secondary_category" TEXT COLLATE "C" NOT NULL,
  "tertiary_category" TEXT COLLATE "C" NOT NULL,
  "description" TEXT COLLATE "C",
  UNIQUE ("taxonomy", "primary_category", "secondary_category", "tertiary_category")
);
CREATE INDEX risk_categories_default_sort ON "risk_categories" ("taxonomy" DESC, "primary_category", "secondary_category", "tertiary_category");

CREATE TABLE "fed_inflation" (
  pk BIGSERIAL PRIMARY KEY,
  "date" TEXT COLLATE "C" NOT NULL,
  "cpi" DOUBLE PRECISION,
  "cpi_core" DOUBLE PRECISION,
  "cpi_year_over_year" DOUBLE PRECISION,
  "pce" DOUBLE PRECISION,
  "pce_core" DOUBLE PRECISION,
  "pce_spending" DOUBLE PRECISION,
  UNIQUE ("date")
);

CREATE TABLE "fed_inflation_expectations" (
  pk BIGSERIAL PRIMARY KEY,
  "date" TEXT COLLATE "C" NOT NULL,
  "market_5_year" DOUBLE PRECISION,
  "market_10_year" DOUBLE PRECISION,
  "forward_years_5_to_10" DOUBLE PRECISION,
  "model_1_year" DOUBLE PRECISION,
  "model_5_year" DOUBLE PRECISION,
  "model_10_year" DOUBLE PRECISION,
  "model_30_year" DOUBLE PRECISION,
  UNIQUE ("date")
);

CREATE TABLE "fed_treasury_yields" (
  pk BIGSERIAL PRIMARY KEY,
  "date" TEXT COLLATE "C" NOT NULL,
  "yield_1_month" DOUBLE PRECISION,
  "yield_3_month" DOUBLE PRECISION,
  "yield_6_month" DOUBLE PRECISION,
  "yield_1_year" DOUBLE PRECISION,
  "yield_2_year" DOUBLE PRECISION,
  "yield_3_year" DOUBLE PRECISION,
  "yield_5_year" DOUBLE PRECISION,
  "yield_7_year" DOUBLE PRECISION,
  "yield_10_year" DOUBLE PRECISION,
  "yield_20_year" DOUBLE PRECISION,
  "yield_30_year" DOUBLE PRECISION,
  UNIQUE ("date")
);
CREATE INDEX splits_ticker ON "splits" ("ticker", "execution_date");
CREATE INDEX dividends_ticker_ex ON "dividends" ("ticker", "ex_dividend_date");
