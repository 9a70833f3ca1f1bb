-- Tables of the partner data sets: Benzinga (news, ratings, earnings, guidance, analysts, firms,
-- analyst insights, bull and bear cases), ETF Global (analytics, constituents, fund flows, profiles,
-- taxonomies) and TMX corporate events. One column per declared field (see
-- src/store/repos/partner-catalog.ts; test/store/datasets.schema.test.ts checks that they agree),
-- a surrogate `pk` as keyset tiebreaker, and the natural key as UNIQUE. Arrays are stored as
-- ,A,B, text, JSON fields as JSON text; sortable text is COLLATE "C" on PostgreSQL.
-- Written out literally: a later change to a declaration needs a new migration, not an edit here.

CREATE TABLE "benzinga_news" (
  pk INTEGER PRIMARY KEY,
  "author" TEXT NOT NULL,
  "benzinga_id" INTEGER NOT NULL,
  "body" TEXT,
  "channels" TEXT,
  "images" TEXT,
  "last_updated" TEXT NOT NULL,
  "published" TEXT NOT NULL,
  "tags" TEXT,
  "teaser" TEXT,
  "tickers" TEXT,
  "title" TEXT NOT NULL,
  "url" TEXT NOT NULL,
  "stocks" TEXT,
  UNIQUE ("benzinga_id")
);
CREATE INDEX benzinga_news_default_sort ON "benzinga_news" ("published" DESC, "benzinga_id");

CREATE TABLE "benzinga_ratings" (
  pk INTEGER PRIMARY KEY,
  "adjusted_price_target" REAL,
  "analyst" TEXT,
  "benzinga_analyst_id" TEXT,
  "benzinga_calendar_url" TEXT,
  "benzinga_firm_id" TEXT,
  "benzinga_id" TEXT NOT NULL,
  "benzinga_news_url" TEXT,
  "company_name" TEXT,
  "currency" TEXT,
  "date" TEXT NOT NULL,
  "firm" TEXT,
  "importance" INTEGER,
  "last_updated" TEXT,
  "notes" TEXT,
  "previous_adjusted_price_target" REAL,
  "previous_price_target" REAL,
  "previous_rating" TEXT,
  "price_percent_change" REAL,
  "price_target" REAL,
  "price_target_action" TEXT,
  "rating" TEXT,
  "rating_action" TEXT,
  "ticker" TEXT NOT NULL,
  "time" TEXT,
  UNIQUE ("benzinga_id")
);
CREATE INDEX benzinga_ratings_default_sort ON "benzinga_ratings" ("last_updated" DESC, "benzinga_id");
CREATE INDEX benzinga_ratings_ticker ON "benzinga_ratings" ("ticker");

CREATE TABLE "benzinga_earnings" (
  pk INTEGER PRIMARY KEY,
  "actual_eps" REAL,
  "actual_revenue" REAL,
  "benzinga_id" TEXT NOT NULL,
  "company_name" TEXT,
  "currency" TEXT,
  "date" TEXT NOT NULL,
  "date_status" TEXT,
  "eps_method" TEXT,
  "eps_surprise" REAL,
  "eps_surprise_percent" REAL,
  "estimated_eps" REAL,
  "estimated_revenue" REAL,
  "fiscal_period" TEXT,
  "fiscal_year" INTEGER,
  "importance" INTEGER,
  "last_updated" TEXT,
  "notes" TEXT,
  "previous_eps" REAL,
  "previous_revenue" REAL,
  "revenue_method" TEXT,
  "revenue_surprise" REAL,
  "revenue_surprise_percent" REAL,
  "ticker" TEXT NOT NULL,
  "time" TEXT,
  UNIQUE ("benzinga_id")
);
CREATE INDEX benzinga_earnings_default_sort ON "benzinga_earnings" ("last_updated" DESC, "benzinga_id");
CREATE INDEX benzinga_earnings_ticker ON "benzinga_earnings" ("ticker");

CREATE TABLE "benzinga_guidance" (
  pk INTEGER PRIMARY KEY,
  "benzinga_id" TEXT NOT NULL,
  "company_name" TEXT,
  "currency" TEXT,
  "date" TEXT NOT NULL,
  "eps_method" TEXT,
  "estimated_eps_guidance" REAL,
  "estimated_revenue_guidance" REAL,
  "fiscal_period" TEXT,
  "fiscal_year" INTEGER,
  "importance" INTEGER,
  "last_updated" TEXT,
  "max_eps_guidance" REAL,
  "max_revenue_guidance" REAL,
  "min_eps_guidance" REAL,
  "min_revenue_guidance" REAL,
  "notes" TEXT,
  "positioning" TEXT,
  "previous_max_eps_guidance" REAL,
  "previous_max_revenue_guidance" REAL,
  "previous_min_eps_guidance" REAL,
  "previous_min_revenue_guidance" REAL,
  "release_type" TEXT,
  "revenue_method" TEXT,
  "ticker" TEXT NOT NULL,
  "time" TEXT,
  UNIQUE ("benzinga_id")
);
CREATE INDEX benzinga_guidance_default_sort ON "benzinga_guidance" ("date" DESC, "benzinga_id");
CREATE INDEX benzinga_guidance_ticker ON "benzinga_guidance" ("ticker");

CREATE TABLE "benzinga_analysts" (
  pk INTEGER PRIMARY KEY,
  "benzinga_firm_id" TEXT,
  "benzinga_id" TEXT NOT NULL,
  "firm_name" TEXT,
  "full_name" TEXT NOT NULL,
  "last_updated" TEXT,
  "overall_avg_return" REAL,
  "overall_avg_return_percentile" REAL,
  "overall_success_rate" REAL,
  "smart_score" REAL,
  "total_ratings" REAL,
  "total_ratings_percentile" REAL,
  UNIQUE ("benzinga_id")
);
CREATE INDEX benzinga_analysts_default_sort ON "benzinga_analysts" ("full_name", "benzinga_id");

CREATE TABLE "benzinga_firms" (
  pk INTEGER PRIMARY KEY,
  "benzinga_id" TEXT NOT NULL,
  "currency" TEXT,
  "last_updated" TEXT,
  "name" TEXT NOT NULL,
  UNIQUE ("benzinga_id")
);
CREATE INDEX benzinga_firms_default_sort ON "benzinga_firms" ("name", "benzinga_id");

CREATE TABLE "benzinga_analyst_insights" (
  pk INTEGER PRIMARY KEY,
  "benzinga_firm_id" TEXT,
  "benzinga_id" TEXT NOT NULL,
  "benzinga_rating_id" TEXT,
  "company_name" TEXT,
  "date" TEXT NOT NULL,
  "firm" TEXT,
  "insight" TEXT,
  "last_updated" TEXT,
  "price_target" REAL,
  "rating" TEXT,
  "rating_action" TEXT,
  "ticker" TEXT,
  UNIQUE ("benzinga_id")
);
CREATE INDEX benzinga_analyst_insights_default_sort ON "benzinga_analyst_insights" ("last_updated" DESC, "benzinga_id");
CREATE INDEX benzinga_analyst_insights_ticker ON "benzinga_analyst_insights" ("ticker");

CREATE TABLE "benzinga_bulls_bears" (
  pk INTEGER PRIMARY KEY,
  "bear_case" TEXT,
  "benzinga_id" TEXT NOT NULL,
  "bull_case" TEXT,
  "last_updated" TEXT,
  "ticker" TEXT NOT NULL,
  UNIQUE ("benzinga_id")
);
CREATE INDEX benzinga_bulls_bears_default_sort ON "benzinga_bulls_bears" ("ticker" DESC, "benzinga_id");

CREATE TABLE "etf_global_analytics" (
  pk INTEGER PRIMARY KEY,
  "composite_ticker" TEXT NOT NULL,
  "effective_date" TEXT NOT NULL,
  "processed_date" TEXT,
  "quant_composite_behavioral" REAL,
  "quant_composite_fundamental" REAL,
  "quant_composite_global" REAL,
  "quant_composite_quality" REAL,
  "quant_composite_sentiment" REAL,
  "quant_composite_technical" REAL,
  "quant_fundamental_div" REAL,
  "quant_fundamental_pb" REAL,
  "quant_fundamental_pcf" REAL,
  "quant_fundamental_pe" REAL,
  "quant_global_country" REAL,
  "quant_global_sector" REAL,
  "quant_grade" TEXT,
  "quant_quality_diversification" REAL,
  "quant_quality_firm" REAL,
  "quant_quality_liquidity" REAL,
  "quant_sentiment_iv" REAL,
  "quant_sentiment_pc" REAL,
  "quant_sentiment_si" REAL,
  "quant_technical_it" REAL,
  "quant_technical_lt" REAL,
  "quant_technical_st" REAL,
  "quant_total_score" REAL,
  "reward_score" REAL,
  "risk_country" REAL,
  "risk_deviation" REAL,
  "risk_efficiency" REAL,
  "risk_liquidity" REAL,
  "risk_structure" REAL,
  "risk_total_score" REAL,
  "risk_volatility" REAL,
  UNIQUE ("composite_ticker", "effective_date")
);

CREATE TABLE "etf_global_constituents" (
  pk INTEGER PRIMARY KEY,
  "asset_class" TEXT,
  "composite_ticker" TEXT NOT NULL,
  "constituent_name" TEXT,
  "constituent_rank" INTEGER NOT NULL,
  "constituent_ticker" TEXT,
  "country_of_exchange" TEXT,
  "currency_traded" TEXT,
  "effective_date" TEXT NOT NULL,
  "exchange" TEXT,
  "figi" TEXT,
  "isin" TEXT,
  "market_value" REAL,
  "processed_date" TEXT,
  "security_type" TEXT,
  "sedol" TEXT,
  "shares_held" REAL,
  "us_code" TEXT,
  "weight" REAL,
  UNIQUE ("composite_ticker", "effective_date", "constituent_rank")
);

CREATE TABLE "etf_global_fund_flows" (
  pk INTEGER PRIMARY KEY,
  "composite_ticker" TEXT NOT NULL,
  "effective_date" TEXT NOT NULL,
  "fund_flow" REAL,
  "nav" REAL,
  "processed_date" TEXT,
  "shares_outstanding" REAL,
  UNIQUE ("composite_ticker", "effective_date")
);

CREATE TABLE "etf_global_profiles" (
  pk INTEGER PRIMARY KEY,
  "administrator" TEXT,
  "advisor" TEXT,
  "asset_class" TEXT,
  "aum" REAL,
  "avg_daily_trading_volume" REAL,
  "bid_ask_spread" REAL,
  "call_volume" REAL,
  "category" TEXT,
  "composite_ticker" TEXT NOT NULL,
  "coupon_exposure" TEXT,
  "creation_fee" REAL,
  "creation_unit_size" REAL,
  "currency_exposure" TEXT,
  "custodian" TEXT,
  "description" TEXT,
  "development_class" TEXT,
  "discount_premium" REAL,
  "distribution_frequency" TEXT,
  "distributor" TEXT,
  "effective_date" TEXT NOT NULL,
  "fee_waivers" REAL,
  "fiscal_year_end" TEXT,
  "focus" TEXT,
  "futures_commission_merchant" TEXT,
  "geographic_exposure" TEXT,
  "inception_date" TEXT,
  "industry_exposure" TEXT,
  "industry_group_exposure" TEXT,
  "issuer" TEXT,
  "lead_market_maker" TEXT,
  "leverage_style" TEXT NOT NULL,
  "levered_amount" REAL,
  "listing_exchange" TEXT,
  "management_classification" TEXT NOT NULL,
  "management_fee" REAL,
  "maturity_exposure" TEXT,
  "net_expenses" REAL,
  "num_holdings" REAL,
  "options_available" INTEGER,
  "options_volume" REAL,
  "other_expenses" REAL,
  "portfolio_manager" TEXT,
  "primary_benchmark" TEXT,
  "processed_date" TEXT,
  "product_type" TEXT NOT NULL,
  "put_call_ratio" REAL,
  "put_volume" REAL,
  "region" TEXT,
  "sector_exposure" TEXT,
  "short_interest" REAL,
  "subadvisor" TEXT,
  "subindustry_exposure" TEXT,
  "tax_classification" TEXT,
  "total_expenses" REAL,
  "transfer_agent" TEXT,
  "trustee" TEXT,
  UNIQUE ("composite_ticker", "effective_date")
);

CREATE TABLE "etf_global_taxonomies" (
  pk INTEGER PRIMARY KEY,
  "asset_class" TEXT,
  "category" TEXT,
  "composite_ticker" TEXT NOT NULL,
  "country" TEXT,
  "credit_quality_rating" TEXT,
  "description" TEXT,
  "development_class" TEXT,
  "duration" TEXT,
  "effective_date" TEXT NOT NULL,
  "esg" TEXT,
  "exposure_mechanism" TEXT,
  "factor" TEXT,
  "focus" TEXT,
  "hedge_reset" TEXT,
  "holdings_disclosure_frequency" TEXT,
  "inception_date" TEXT,
  "isin" TEXT,
  "issuer" TEXT,
  "leverage_reset" TEXT,
  "leverage_style" TEXT NOT NULL,
  "levered_amount" REAL,
  "management_classification" TEXT NOT NULL,
  "management_style" TEXT,
  "maturity" TEXT,
  "objective" TEXT,
  "primary_benchmark" TEXT,
  "processed_date" TEXT,
  "product_type" TEXT NOT NULL,
  "rebalance_frequency" TEXT,
  "reconstitution_frequency" TEXT,
  "region" TEXT,
  "secondary_objective" TEXT,
  "selection_methodology" TEXT,
  "selection_universe" TEXT,
  "strategic_focus" TEXT,
  "targeted_focus" TEXT,
  "tax_classification" TEXT,
  "us_code" TEXT,
  "weighting_methodology" TEXT,
  UNIQUE ("composite_ticker", "effective_date")
);

CREATE TABLE "tmx_corporate_events" (
  pk INTEGER PRIMARY KEY,
  "company_name" TEXT,
  "date" TEXT NOT NULL,
  "isin" TEXT,
  "name" TEXT,
  "status" TEXT,
  "ticker" TEXT,
  "tmx_company_id" INTEGER,
  "tmx_record_id" TEXT NOT NULL,
  "trading_venue" TEXT,
  "type" TEXT NOT NULL,
  "url" TEXT,
  UNIQUE ("tmx_record_id")
);
CREATE INDEX tmx_corporate_events_default_sort ON "tmx_corporate_events" ("date" DESC, "tmx_record_id");
CREATE INDEX tmx_corporate_events_ticker ON "tmx_corporate_events" ("ticker");
