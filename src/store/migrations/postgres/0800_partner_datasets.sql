-- Tables of the partner data sets: Benzinga (news, ratings, earnings, guidance, analysts, firms,
-- analyst insights, bull and bear cases), ETF Global (analytics, constituents, fund flows, profiles,
-- taxonomies) and TMX corporate events. One column per declared field (see
-- src/store/repos/partner-catalog.ts; test/store/datasets.schema.test.ts checks that they agree),
-- a surrogate `pk` as keyset tiebreaker, and the natural key as UNIQUE. Arrays are stored as
-- ,A,B, text, JSON fields as JSON text; sortable text is COLLATE "C" on PostgreSQL.
-- Written out literally: a later change to a declaration needs a new migration, not an edit here.

CREATE TABLE "benzinga_news" (
  pk BIGSERIAL PRIMARY KEY,
  "author" TEXT COLLATE "C" NOT NULL,
  "benzinga_id" BIGINT NOT NULL,
  "body" TEXT COLLATE "C",
  "channels" TEXT,
  "images" TEXT,
  "last_updated" TEXT COLLATE "C" NOT NULL,
  "published" TEXT COLLATE "C" NOT NULL,
  "tags" TEXT,
  "teaser" TEXT COLLATE "C",
  "tickers" TEXT,
  "title" TEXT COLLATE "C" NOT NULL,
  "url" TEXT COLLATE "C" NOT NULL,
  "stocks" TEXT,
  UNIQUE ("benzinga_id")
);
CREATE INDEX benzinga_news_default_sort ON "benzinga_news" ("published" DESC, "benzinga_id");

CREATE TABLE "benzinga_ratings" (
  pk BIGSERIAL PRIMARY KEY,
  "adjusted_price_target" DOUBLE PRECISION,
  "analyst" TEXT COLLATE "C",
  "benzinga_analyst_id" TEXT COLLATE "C",
  "benzinga_calendar_url" TEXT COLLATE "C",
  "benzinga_firm_id" TEXT COLLATE "C",
  "benzinga_id" TEXT COLLATE "C" NOT NULL,
  "benzinga_news_url" TEXT COLLATE "C",
  "company_name" TEXT COLLATE "C",
  "currency" TEXT COLLATE "C",
  "date" TEXT COLLATE "C" NOT NULL,
  "firm" TEXT COLLATE "C",
  "importance" BIGINT,
  "last_updated" TEXT COLLATE "C",
  "notes" TEXT COLLATE "C",
  "previous_adjusted_price_target" DOUBLE PRECISION,
  "previous_price_target" DOUBLE PRECISION,
  "previous_rating" TEXT COLLATE "C",
  "price_percent_change" DOUBLE PRECISION,
  "price_target" DOUBLE PRECISION,
  "price_target_action" TEXT COLLATE "C",
  "rating" TEXT COLLATE "C",
  "rating_action" TEXT COLLATE "C",
  "ticker" TEXT COLLATE "C" NOT NULL,
  "time" TEXT COLLATE "C",
  UNIQUE ("benzinga_id")
);
CREATE INDEX benzinga_ratings_default_sort ON "benzinga_ratings" ("last_updated" DESC, "benzinga_id");
CREATE INDEX benzinga_ratings_ticker ON "benzinga_ratings" ("ticker");

CREATE TABLE "benzinga_earnings" (
  pk BIGSERIAL PRIMARY KEY,
  "actual_eps" DOUBLE PRECISION,
  "actual_revenue" DOUBLE PRECISION,
  "benzinga_id" TEXT COLLATE "C" NOT NULL,
  "company_name" TEXT COLLATE "C",
  "currency" TEXT COLLATE "C",
  "date" TEXT COLLATE "C" NOT NULL,
  "date_status" TEXT COLLATE "C",
  "eps_method" TEXT COLLATE "C",
  "eps_surprise" DOUBLE PRECISION,
  "eps_surprise_percent" DOUBLE PRECISION,
  "estimated_eps" DOUBLE PRECISION,
  "estimated_revenue" DOUBLE PRECISION,
  "fiscal_period" TEXT COLLATE "C",
  "fiscal_year" BIGINT,
  "importance" BIGINT,
  "last_updated" TEXT COLLATE "C",
  "notes" TEXT COLLATE "C",
  "previous_eps" DOUBLE PRECISION,
  "previous_revenue" DOUBLE PRECISION,
  "revenue_method" TEXT COLLATE "C",
  "revenue_surprise" DOUBLE PRECISION,
  "revenue_surprise_percent" DOUBLE PRECISION,
  "ticker" TEXT COLLATE "C" NOT NULL,
  "time" TEXT COLLATE "C",
  UNIQUE ("benzinga_id")
);
CREATE INDEX benzinga_earnings_default_sort ON "benzinga_earnings" ("last_updated" DESC, "benzinga_id");
CREATE INDEX benzinga_earnings_ticker ON "benzinga_earnings" ("ticker");

CREATE TABLE "benzinga_guidance" (
  pk BIGSERIAL PRIMARY KEY,
  "benzinga_id" TEXT COLLATE "C" NOT NULL,
  "company_name" TEXT COLLATE "C",
  "currency" TEXT COLLATE "C",
  "date" TEXT COLLATE "C" NOT NULL,
  "eps_method" TEXT COLLATE "C",
  "estimated_eps_guidance" DOUBLE PRECISION,
  "estimated_revenue_guidance" DOUBLE PRECISION,
  "fiscal_period" TEXT COLLATE "C",
  "fiscal_year" BIGINT,
  "importance" BIGINT,
  "last_updated" TEXT COLLATE "C",
  "max_eps_guidance" DOUBLE PRECISION,
  "max_revenue_guidance" DOUBLE PRECISION,
  "min_eps_guidance" DOUBLE PRECISION,
  "min_revenue_guidance" DOUBLE PRECISION,
  "notes" TEXT COLLATE "C",
  "positioning" TEXT COLLATE "C",
  "previous_max_eps_guidance" DOUBLE PRECISION,
  "previous_max_revenue_guidance" DOUBLE PRECISION,
  "previous_min_eps_guidance" DOUBLE PRECISION,
  "previous_min_revenue_guidance" DOUBLE PRECISION,
  "release_type" TEXT COLLATE "C",
  "revenue_method" TEXT COLLATE "C",
  "ticker" TEXT COLLATE "C" NOT NULL,
  "time" TEXT COLLATE "C",
  UNIQUE ("benzinga_id")
);
CREATE INDEX benzinga_guidance_default_sort ON "benzinga_guidance" ("date" DESC, "benzinga_id");
CREATE INDEX benzinga_guidance_ticker ON "benzinga_guidance" ("ticker");

CREATE TABLE "benzinga_analysts" (
  pk BIGSERIAL PRIMARY KEY,
  "benzinga_firm_id" TEXT COLLATE "C",
  "benzinga_id" TEXT COLLATE "C" NOT NULL,
  "firm_name" TEXT COLLATE "C",
  "full_name" TEXT COLLATE "C" NOT NULL,
  "last_updated" TEXT COLLATE "C",
  "overall_avg_return" DOUBLE PRECISION,
  "overall_avg_return_percentile" DOUBLE PRECISION,
  "overall_success_rate" DOUBLE PRECISION,
  "smart_score" DOUBLE PRECISION,
  "total_ratings" DOUBLE PRECISION,
  "total_ratings_percentile" DOUBLE PRECISION,
  UNIQUE ("benzinga_id")
);
CREATE INDEX benzinga_analysts_default_sort ON "benzinga_analysts" ("full_name", "benzinga_id");

CREATE TABLE "benzinga_firms" (
  pk BIGSERIAL PRIMARY KEY,
  "benzinga_id" TEXT COLLATE "C" NOT NULL,
  "currency" TEXT COLLATE "C",
  "last_updated" TEXT COLLATE "C",
  "name" TEXT COLLATE "C" NOT NULL,
  UNIQUE ("benzinga_id")
);
CREATE INDEX benzinga_firms_default_sort ON "benzinga_firms" ("name", "benzinga_id");

CREATE TABLE "benzinga_analyst_insights" (
  pk BIGSERIAL PRIMARY KEY,
  "benzinga_firm_id" TEXT COLLATE "C",
  "benzinga_id" TEXT COLLATE "C" NOT NULL,
  "benzinga_rating_id" TEXT COLLATE "C",
  "company_name" TEXT COLLATE "C",
  "date" TEXT COLLATE "C" NOT NULL,
  "firm" TEXT COLLATE "C",
  "insight" TEXT COLLATE "C",
  "last_updated" TEXT COLLATE "C",
  "price_target" DOUBLE PRECISION,
  "rating" TEXT COLLATE "C",
  "rating_action" TEXT COLLATE "C",
  "ticker" TEXT COLLATE "C",
  UNIQUE ("benzinga_id")
);
CREATE INDEX benzinga_analyst_insights_default_sort ON "benzinga_analyst_insights" ("last_updated" DESC, "benzinga_id");
CREATE INDEX benzinga_analyst_insights_ticker ON "benzinga_analyst_insights" ("ticker");

CREATE TABLE "benzinga_bulls_bears" (
  pk BIGSERIAL PRIMARY KEY,
  "bear_case" TEXT COLLATE "C",
  "benzinga_id" TEXT COLLATE "C" NOT NULL,
  "bull_case" TEXT COLLATE "C",
  "last_updated" TEXT COLLATE "C",
  "ticker" TEXT COLLATE "C" NOT NULL,
  UNIQUE ("benzinga_id")
);
CREATE INDEX benzinga_bulls_bears_default_sort ON "benzinga_bulls_bears" ("ticker" DESC, "benzinga_id");

CREATE TABLE "etf_global_analytics" (
  pk BIGSERIAL PRIMARY KEY,
  "composite_ticker" TEXT COLLATE "C" NOT NULL,
  "effective_date" TEXT COLLATE "C" NOT NULL,
  "processed_date" TEXT COLLATE "C",
  "quant_composite_behavioral" DOUBLE PRECISION,
  "quant_composite_fundamental" DOUBLE PRECISION,
  "quant_composite_global" DOUBLE PRECISION,
  "quant_composite_quality" DOUBLE PRECISION,
  "quant_composite_sentiment" DOUBLE PRECISION,
  "quant_composite_technical" DOUBLE PRECISION,
  "quant_fundamental_div" DOUBLE PRECISION,
  "quant_fundamental_pb" DOUBLE PRECISION,
  "quant_fundamental_pcf" DOUBLE PRECISION,
  "quant_fundamental_pe" DOUBLE PRECISION,
  "quant_global_country" DOUBLE PRECISION,
  "quant_global_sector" DOUBLE PRECISION,
  "quant_grade" TEXT COLLATE "C",
  "quant_quality_diversification" DOUBLE PRECISION,
  "quant_quality_firm" DOUBLE PRECISION,
  "quant_quality_liquidity" DOUBLE PRECISION,
  "quant_sentiment_iv" DOUBLE PRECISION,
  "quant_sentiment_pc" DOUBLE PRECISION,
  "quant_sentiment_si" DOUBLE PRECISION,
  "quant_technical_it" DOUBLE PRECISION,
  "quant_technical_lt" DOUBLE PRECISION,
  "quant_technical_st" DOUBLE PRECISION,
  "quant_total_score" DOUBLE PRECISION,
  "reward_score" DOUBLE PRECISION,
  "risk_country" DOUBLE PRECISION,
  "risk_deviation" DOUBLE PRECISION,
  "risk_efficiency" DOUBLE PRECISION,
  "risk_liquidity" DOUBLE PRECISION,
  "risk_structure" DOUBLE PRECISION,
  "risk_total_score" DOUBLE PRECISION,
  "risk_volatility" DOUBLE PRECISION,
  UNIQUE ("composite_ticker", "effective_date")
);

CREATE TABLE "etf_global_constituents" (
  pk BIGSERIAL PRIMARY KEY,
  "asset_class" TEXT COLLATE "C",
  "composite_ticker" TEXT COLLATE "C" NOT NULL,
  "constituent_name" TEXT COLLATE "C",
  "constituent_rank" BIGINT NOT NULL,
  "constituent_ticker" TEXT COLLATE "C",
  "country_of_exchange" TEXT COLLATE "C",
  "currency_traded" TEXT COLLATE "C",
  "effective_date" TEXT COLLATE "C" NOT NULL,
  "exchange" TEXT COLLATE "C",
  "figi" TEXT COLLATE "C",
  "isin" TEXT COLLATE "C",
  "market_value" DOUBLE PRECISION,
  "processed_date" TEXT COLLATE "C",
  "security_type" TEXT COLLATE "C",
  "sedol" TEXT COLLATE "C",
  "shares_held" DOUBLE PRECISION,
  "us_code" TEXT COLLATE "C",
  "weight" DOUBLE PRECISION,
  UNIQUE ("composite_ticker", "effective_date", "constituent_rank")
);

CREATE TABLE "etf_global_fund_flows" (
  pk BIGSERIAL PRIMARY KEY,
  "composite_ticker" TEXT COLLATE "C" NOT NULL,
  "effective_date" TEXT COLLATE "C" NOT NULL,
  "fund_flow" DOUBLE PRECISION,
  "nav" DOUBLE PRECISION,
  "processed_date" TEXT COLLATE "C",
  "shares_outstanding" DOUBLE PRECISION,
  UNIQUE ("composite_ticker", "effective_date")
);

CREATE TABLE "etf_global_profiles" (
  pk BIGSERIAL PRIMARY KEY,
  "administrator" TEXT COLLATE "C",
  "advisor" TEXT COLLATE "C",
  "asset_class" TEXT COLLATE "C",
  "aum" DOUBLE PRECISION,
  "avg_daily_trading_volume" DOUBLE PRECISION,
  "bid_ask_spread" DOUBLE PRECISION,
  "call_volume" DOUBLE PRECISION,
  "category" TEXT COLLATE "C",
  "composite_ticker" TEXT COLLATE "C" NOT NULL,
  "coupon_exposure" TEXT,
  "creation_fee" DOUBLE PRECISION,
  "creation_unit_size" DOUBLE PRECISION,
  "currency_exposure" TEXT,
  "custodian" TEXT COLLATE "C",
  "description" TEXT COLLATE "C",
  "development_class" TEXT COLLATE "C",
  "discount_premium" DOUBLE PRECISION,
  "distribution_frequency" TEXT COLLATE "C",
  "distributor" TEXT COLLATE "C",
  "effective_date" TEXT COLLATE "C" NOT NULL,
  "fee_waivers" DOUBLE PRECISION,
  "fiscal_year_end" TEXT COLLATE "C",
  "focus" TEXT COLLATE "C",
  "futures_commission_merchant" TEXT COLLATE "C",
  "geographic_exposure" TEXT,
  "inception_date" TEXT COLLATE "C",
  "industry_exposure" TEXT,
  "industry_group_exposure" TEXT,
  "issuer" TEXT COLLATE "C",
  "lead_market_maker" TEXT COLLATE "C",
  "leverage_style" TEXT COLLATE "C" NOT NULL,
  "levered_amount" DOUBLE PRECISION,
  "listing_exchange" TEXT COLLATE "C",
  "management_classification" TEXT COLLATE "C" NOT NULL,
  "management_fee" DOUBLE PRECISION,
  "maturity_exposure" TEXT,
  "net_expenses" DOUBLE PRECISION,
  "num_holdings" DOUBLE PRECISION,
  "options_available" BIGINT,
  "options_volume" DOUBLE PRECISION,
  "other_expenses" DOUBLE PRECISION,
  "portfolio_manager" TEXT COLLATE "C",
  "primary_benchmark" TEXT COLLATE "C",
  "processed_date" TEXT COLLATE "C",
  "product_type" TEXT COLLATE "C" NOT NULL,
  "put_call_ratio" DOUBLE PRECISION,
  "put_volume" DOUBLE PRECISION,
  "region" TEXT COLLATE "C",
  "sector_exposure" TEXT,
  "short_interest" DOUBLE PRECISION,
  "subadvisor" TEXT COLLATE "C",
  "subindustry_exposure" TEXT,
  "tax_classification" TEXT COLLATE "C",
  "total_expenses" DOUBLE PRECISION,
  "transfer_agent" TEXT COLLATE "C",
  "trustee" TEXT COLLATE "C",
  UNIQUE ("composite_ticker", "effective_date")
);

CREATE TABLE "etf_global_taxonomies" (
  pk BIGSERIAL PRIMARY KEY,
  "asset_class" TEXT COLLATE "C",
  "category" TEXT COLLATE "C",
  "composite_ticker" TEXT COLLATE "C" NOT NULL,
  "country" TEXT COLLATE "C",
  "credit_quality_rating" TEXT COLLATE "C",
  "description" TEXT COLLATE "C",
  "development_class" TEXT COLLATE "C",
  "duration" TEXT COLLATE "C",
  "effective_date" TEXT COLLATE "C" NOT NULL,
  "esg" TEXT COLLATE "C",
  "exposure_mechanism" TEXT COLLATE "C",
  "factor" TEXT COLLATE "C",
  "focus" TEXT COLLATE "C",
  "hedge_reset" TEXT COLLATE "C",
  "holdings_disclosure_frequency" TEXT COLLATE "C",
  "inception_date" TEXT COLLATE "C",
  "isin" TEXT COLLATE "C",
  "issuer" TEXT COLLATE "C",
  "leverage_reset" TEXT COLLATE "C",
  "leverage_style" TEXT COLLATE "C" NOT NULL,
  "levered_amount" DOUBLE PRECISION,
  "management_classification" TEXT COLLATE "C" NOT NULL,
  "management_style" TEXT COLLATE "C",
  "maturity" TEXT COLLATE "C",
  "objective" TEXT COLLATE "C",
  "primary_benchmark" TEXT COLLATE "C",
  "processed_date" TEXT COLLATE "C",
  "product_type" TEXT COLLATE "C" NOT NULL,
  "rebalance_frequency" TEXT COLLATE "C",
  "reconstitution_frequency" TEXT COLLATE "C",
  "region" TEXT COLLATE "C",
  "secondary_objective" TEXT COLLATE "C",
  "selection_methodology" TEXT COLLATE "C",
  "selection_universe" TEXT COLLATE "C",
  "strategic_focus" TEXT COLLATE "C",
  "targeted_focus" TEXT COLLATE "C",
  "tax_classification" TEXT COLLATE "C",
  "us_code" TEXT COLLATE "C",
  "weighting_methodology" TEXT COLLATE "C",
  UNIQUE ("composite_ticker", "effective_date")
);

CREATE TABLE "tmx_corporate_events" (
  pk BIGSERIAL PRIMARY KEY,
  "company_name" TEXT COLLATE "C",
  "date" TEXT COLLATE "C" NOT NULL,
  "isin" TEXT COLLATE "C",
  "name" TEXT COLLATE "C",
  "status" TEXT COLLATE "C",
  "ticker" TEXT COLLATE "C",
  "tmx_company_id" BIGINT,
  "tmx_record_id" TEXT COLLATE "C" NOT NULL,
  "trading_venue" TEXT COLLATE "C",
  "type" TEXT COLLATE "C" NOT NULL,
  "url" TEXT COLLATE "C",
  UNIQUE ("tmx_record_id")
);
CREATE INDEX tmx_corporate_events_default_sort ON "tmx_corporate_events" ("date" DESC, "tmx_record_id");
CREATE INDEX tmx_corporate_events_ticker ON "tmx_corporate_events" ("ticker");
