-- Tables of the new-style data sets: dividends and splits (read by both API families and by the
-- aggregates' adjustment), financial statements, ratios, float, short interest and volume, risk
-- factors and categories, and the Fed series. One column per declared field (see
-- src/store/repos/dataset-catalog.ts and corporate-actions.ts; test/store/datasets.schema.test.ts
-- checks that they agree), a surrogate `pk` as keyset tiebreaker, and the natural key as UNIQUE.
-- Arrays (`tickers`) are stored as ',A,B,' text; sortable text is COLLATE "C" on PostgreSQL.
-- Written out literally: a later change to a declaration needs a new migration, not an edit here.

CREATE TABLE "dividends" (
  pk INTEGER PRIMARY KEY,
  "id" TEXT NOT NULL,
  "ticker" TEXT NOT NULL,
  "cash_amount" REAL NOT NULL,
  "currency" TEXT,
  "declaration_date" TEXT,
  "ex_dividend_date" TEXT NOT NULL,
  "record_date" TEXT,
  "pay_date" TEXT,
  "frequency" INTEGER NOT NULL,
  "distribution_type" TEXT NOT NULL,
  "split_adjusted_cash_amount" REAL,
  "historical_adjustment_factor" REAL,
  "dividend_type" TEXT NOT NULL,
  UNIQUE ("id")
);
CREATE INDEX dividends_default_sort ON "dividends" ("ticker", "id");

CREATE TABLE "splits" (
  pk INTEGER PRIMARY KEY,
  "id" TEXT NOT NULL,
  "ticker" TEXT NOT NULL,
  "execution_date" TEXT NOT NULL,
  "split_from" REAL NOT NULL,
  "split_to" REAL NOT NULL,
  "adjustment_type" TEXT NOT NULL,
  "historical_adjustment_factor" REAL,
  UNIQUE ("id")
);
CREATE INDEX splits_default_sort ON "splits" ("execution_date" DESC, "id");

CREATE TABLE "balance_sheets" (
  pk INTEGER PRIMARY KEY,
  "cik" TEXT NOT NULL,
  "tickers" TEXT,
  "period_end" TEXT NOT NULL,
  "filing_date" TEXT,
  "fiscal_year" REAL,
  "fiscal_quarter" REAL,
  "timeframe" TEXT NOT NULL,
  "cash_and_equivalents" REAL,
  "short_term_investments" REAL,
  "receivables" REAL,
  "inventories" REAL,
  "other_current_assets" REAL,
  "total_current_assets" REAL,
  "property_plant_equipment_net" REAL,
  "goodwill" REAL,
  "intangible_assets_net" REAL,
  "other_assets" REAL,
  "total_assets" REAL,
  "accounts_payable" REAL,
  "accrued_and_other_current_liabilities" REAL,
  "debt_current" REAL,
  "deferred_revenue_current" REAL,
  "total_current_liabilities" REAL,
  "long_term_debt_and_capital_lease_obligations" REAL,
  "other_noncurrent_liabilities" REAL,
  "total_liabilities" REAL,
  "commitments_and_contingencies" REAL,
  "preferred_stock" REAL,
  "common_stock" REAL,
  "additional_paid_in_capital" REAL,
  "retained_earnings_deficit" REAL,
  "accumulated_other_comprehensive_income" REAL,
  "treasury_stock" REAL,
  "other_equity" REAL,
  "total_equity_attributable_to_parent" REAL,
  "noncontrolling_interest" REAL,
  "total_equity" REAL,
  "total_liabilities_and_equity" REAL,
  UNIQUE ("cik", "period_end", "timeframe")
);
CREATE INDEX balance_sheets_default_sort ON "balance_sheets" ("period_end", "cik", "timeframe");

CREATE TABLE "cash_flow_statements" (
  pk INTEGER PRIMARY KEY,
  "cik" TEXT NOT NULL,
  "tickers" TEXT,
  "period_end" TEXT NOT NULL,
  "filing_date" TEXT,
  "fiscal_year" REAL,
  "fiscal_quarter" REAL,
  "timeframe" TEXT NOT NULL,
  "net_income" REAL,
  "depreciation_depletion_and_amortization" REAL,
  "change_in_other_operating_assets_and_liabilities_net" REAL,
  "other_operating_activities" REAL,
  "cash_from_operating_activities_continuing_operations" REAL,
  "net_cash_from_operating_activities_discontinued_operations" REAL,
  "net_cash_from_operating_activities" REAL,
  "purchase_of_property_plant_and_equipment" REAL,
  "sale_of_property_plant_and_equipment" REAL,
  "other_investing_activities" REAL,
  "net_cash_from_investing_activities_continuing_operations" REAL,
  "net_cash_from_investing_activities_discontinued_operations" REAL,
  "net_cash_from_investing_activities" REAL,
  "short_term_debt_issuances_repayments" REAL,
  "long_term_debt_issuances_repayments" REAL,
  "dividends" REAL,
  "other_financing_activities" REAL,
  "net_cash_from_financing_activities_continuing_operations" REAL,
  "net_cash_from_financing_activities_discontinued_operations" REAL,
  "net_cash_from_financing_activities" REAL,
  "effect_of_currency_exchange_rate" REAL,
  "other_cash_adjustments" REAL,
  "change_in_cash_and_equivalents" REAL,
  "income_loss_from_discontinued_operations" REAL,
  "noncontrolling_interests" REAL,
  UNIQUE ("cik", "period_end", "timeframe")
);
CREATE INDEX cash_flow_statements_default_sort ON "cash_flow_statements" ("period_end", "cik", "timeframe");

CREATE TABLE "income_statements" (
  pk INTEGER PRIMARY KEY,
  "cik" TEXT NOT NULL,
  "tickers" TEXT,
  "period_end" TEXT NOT NULL,
  "filing_date" TEXT,
  "fiscal_year" REAL,
  "fiscal_quarter" REAL,
  "timeframe" TEXT NOT NULL,
  "revenue" REAL,
  "cost_of_revenue" REAL,
  "gross_profit" REAL,
  "selling_general_administrative" REAL,
  "research_development" REAL,
  "depreciation_depletion_amortization" REAL,
  "other_operating_expenses" REAL,
  "total_operating_expenses" REAL,
  "operating_income" REAL,
  "interest_income" REAL,
  "interest_expense" REAL,
  "other_income_expense" REAL,
  "total_other_income_expense" REAL,
  "income_before_income_taxes" REAL,
  "income_taxes" REAL,
  "discontinued_operations" REAL,
  "extraordinary_items" REAL,
  "equity_in_affiliates" REAL,
  "consolidated_net_income_loss" REAL,
  "noncontrolling_interest" REAL,
  "preferred_stock_dividends_declared" REAL,
  "net_income_loss_attributable_common_shareholders" REAL,
  "basic_earnings_per_share" REAL,
  "diluted_earnings_per_share" REAL,
  "basic_shares_outstanding" REAL,
  "diluted_shares_outstanding" REAL,
  "ebitda" REAL,
  UNIQUE ("cik", "period_end", "timeframe")
);
CREATE INDEX income_statements_default_sort ON "income_statements" ("period_end", "cik", "timeframe");

CREATE TABLE "ratios" (
  pk INTEGER PRIMARY KEY,
  "ticker" TEXT NOT NULL,
  "cik" TEXT,
  "date" TEXT NOT NULL,
  "price" REAL NOT NULL,
  "average_volume" REAL,
  "market_cap" REAL,
  "enterprise_value" REAL,
  "earnings_per_share" REAL,
  "price_to_earnings" REAL,
  "price_to_book" REAL,
  "price_to_sales" REAL,
  "price_to_cash_flow" REAL,
  "price_to_free_cash_flow" REAL,
  "free_cash_flow" REAL,
  "dividend_yield" REAL,
  "return_on_assets" REAL,
  "return_on_equity" REAL,
  "debt_to_equity" REAL,
  "current" REAL,
  "quick" REAL,
  "cash" REAL,
  "ev_to_sales" REAL,
  "ev_to_ebitda" REAL,
  UNIQUE ("ticker", "date")
);

CREATE TABLE "free_float" (
  pk INTEGER PRIMARY KEY,
  "ticker" TEXT NOT NULL,
  "effective_date" TEXT NOT NULL,
  "free_float" INTEGER,
  "free_float_percent" REAL,
  UNIQUE ("ticker", "effective_date")
);

CREATE TABLE "short_interest" (
  pk INTEGER PRIMARY KEY,
  "ticker" TEXT NOT NULL,
  "settlement_date" TEXT NOT NULL,
  "short_interest" INTEGER,
  "avg_daily_volume" INTEGER NOT NULL,
  "days_to_cover" REAL NOT NULL,
  UNIQUE ("ticker", "settlement_date")
);

CREATE TABLE "short_volume" (
  pk INTEGER PRIMARY KEY,
  "ticker" TEXT NOT NULL,
  "date" TEXT NOT NULL,
  "total_volume" REAL,
  "short_volume" REAL,
  "exempt_volume" REAL,
  "non_exempt_volume" REAL,
  "short_volume_ratio" REAL,
  "nyse_short_volume" INTEGER,
  "nyse_short_volume_exempt" INTEGER,
  "nasdaq_carteret_short_volume" INTEGER,
  "nasdaq_carteret_short_volume_exempt" INTEGER,
  "nasdaq_chicago_short_volume" INTEGER,
  "nasdaq_chicago_short_volume_exempt" INTEGER,
  "adf_short_volume" INTEGER,
  "adf_short_volume_exempt" INTEGER,
  UNIQUE ("ticker", "date")
);

CREATE TABLE "risk_factors" (
  pk INTEGER PRIMARY KEY,
  "cik" TEXT,
  "ticker" TEXT NOT NULL,
  "filing_date" TEXT NOT NULL,
  "primary_category" TEXT NOT NULL,
  "secondary_category" TEXT NOT NULL,
  "tertiary_category" TEXT NOT NULL,
  "supporting_text" TEXT,
  "risk_factor_id" TEXT NOT NULL,
  UNIQUE ("risk_factor_id")
);
CREATE INDEX risk_factors_default_sort ON "risk_factors" ("filing_date" DESC, "risk_factor_id");

CREATE TABLE "risk_categories" (
  pk INTEGER PRIMARY KEY,
  "taxonomy" REAL NOT NULL,
  "primary_category" TEXT NOT NULL,
  "secondary_category" TEXT NOT NULL,
  "tertiary_category" TEXT NOT NULL,
  "description" TEXT,
  UNIQUE ("taxonomy", "primary_category", "secondary_category", "tertiary_category")
);
CREATE INDEX risk_categories_default_sort ON "risk_categories" ("taxonomy" DESC, "primary_category", "secondary_category", "tertiary_category");

CREATE TABLE "fed_inflation" (
  pk INTEGER PRIMARY KEY,
  "date" TEXT NOT NULL,
  "cpi" REAL,
  "cpi_core" REAL,
  "cpi_year_over_year" REAL,
  "pce" REAL,
  "pce_core" REAL,
  "pce_spending" REAL,
  UNIQUE ("date")
);

CREATE TABLE "fed_inflation_expectations" (
  pk INTEGER PRIMARY KEY,
  "date" TEXT NOT NULL,
  "market_5_year" REAL,
  "market_10_year" REAL,
  "forward_years_5_to_10" REAL,
  "model_1_year" REAL,
  "model_5_year" REAL,
  "model_10_year" REAL,
  "model_30_year" REAL,
  UNIQUE ("date")
);

CREATE TABLE "fed_treasury_yields" (
  pk INTEGER PRIMARY KEY,
  "date" TEXT NOT NULL,
  "yield_1_month" REAL,
  "yield_3_month" REAL,
  "yield_6_month" REAL,
  "yield_1_year" REAL,
  "yield_2_year" REAL,
  "yield_3_year" REAL,
  "yield_5_year" REAL,
  "yield_7_year" REAL,
  "yield_10_year" REAL,
  "yield_20_year" REAL,
  "yield_30_year" REAL,
  UNIQUE ("date")
);
CREATE INDEX splits_ticker ON "splits" ("ticker", "execution_date");
CREATE INDEX dividends_ticker_ex ON "dividends" ("ticker", "ex_dividend_date");
