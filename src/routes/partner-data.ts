// The partner data sets (Benzinga, ETF Global, TMX): one row of the table per endpoint, each a
// declared data-set list (filters, sort, paging) over the rows the operator imported.
import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { datasetListRoute, type DatasetListRouteSpec } from '../server/dataset-list-route.js';
import {
  BENZINGA_ANALYST_INSIGHTS,
  BENZINGA_ANALYSTS,
  BENZINGA_BULLS_BEARS,
  BENZINGA_EARNINGS,
  BENZINGA_FIRMS,
  BENZINGA_GUIDANCE,
  BENZINGA_NEWS,
  BENZINGA_RATINGS,
  ETF_ANALYTICS,
  ETF_CONSTITUENTS,
  ETF_FUND_FLOWS,
  ETF_PROFILES,
  ETF_TAXONOMIES,
  TMX_CORPORATE_EVENTS,
} from '../services/dataset-lists.js';

type Row = Pick<DatasetListRouteSpec, 'def' | 'url' | 'operationId' | 'summary' | 'description'>;

const BENZINGA: Row[] = [
  { def: BENZINGA_NEWS, url: '/benzinga/v2/news', operationId: 'GetBenzingaV2News', summary: 'Benzinga news', description: 'Benzinga news articles with their channels, tags and tickers, newest first.' },
  { def: BENZINGA_RATINGS, url: '/benzinga/v1/ratings', operationId: 'GetBenzingaV1Ratings', summary: 'Analyst ratings', description: 'Analyst rating and price-target actions, most recently updated first.' },
  { def: BENZINGA_EARNINGS, url: '/benzinga/v1/earnings', operationId: 'GetBenzingaV1Earnings', summary: 'Earnings', description: 'Earnings announcements: estimated and actual EPS and revenue, and their surprises.' },
  { def: BENZINGA_GUIDANCE, url: '/benzinga/v1/guidance', operationId: 'GetBenzingaV1Guidance', summary: 'Guidance', description: 'Company EPS and revenue guidance ranges, with the previous ranges.' },
  { def: BENZINGA_ANALYSTS, url: '/benzinga/v1/analysts', operationId: 'GetBenzingaV1Analysts', summary: 'Analysts', description: 'Analysts with their firm and track record.' },
  { def: BENZINGA_FIRMS, url: '/benzinga/v1/firms', operationId: 'GetBenzingaV1Firms', summary: 'Firms', description: 'Research firms that issue ratings.' },
  { def: BENZINGA_ANALYST_INSIGHTS, url: '/benzinga/v1/analyst-insights', operationId: 'GetBenzingaV1AnalystInsights', summary: 'Analyst insights', description: 'The reasoning behind analyst rating actions.' },
  { def: BENZINGA_BULLS_BEARS, url: '/benzinga/v1/bulls-bears-say', operationId: 'GetBenzingaV1BullsBearsSay', summary: 'Bulls and bears say', description: 'The bull case and the bear case of a stock.' },
];

const ETF_GLOBAL: Row[] = [
  { def: ETF_ANALYTICS, url: '/etf-global/v1/analytics', operationId: 'GetEtfGlobalV1Analytics', summary: 'ETF analytics', description: 'Risk, reward and quant scores of ETFs per effective date.' },
  { def: ETF_CONSTITUENTS, url: '/etf-global/v1/constituents', operationId: 'GetEtfGlobalV1Constituents', summary: 'ETF constituents', description: 'The holdings of ETFs per effective date, by rank.' },
  { def: ETF_FUND_FLOWS, url: '/etf-global/v1/fund-flows', operationId: 'GetEtfGlobalV1FundFlows', summary: 'ETF fund flows', description: 'Daily fund flows, NAV and shares outstanding of ETFs.' },
  { def: ETF_PROFILES, url: '/etf-global/v1/profiles', operationId: 'GetEtfGlobalV1Profiles', summary: 'ETF profiles', description: 'Fees, service providers, trading figures and exposures of ETFs.' },
  { def: ETF_TAXONOMIES, url: '/etf-global/v1/taxonomies', operationId: 'GetEtfGlobalV1Taxonomies', summary: 'ETF taxonomies', description: 'The classification of ETFs: asset class, strategy, methodology.' },
];

const TMX: Row[] = [
  { def: TMX_CORPORATE_EVENTS, url: '/tmx/v1/corporate-events', operationId: 'GetTmxV1CorporateEvents', summary: 'Corporate events', description: 'Scheduled corporate events (earnings calls, meetings, dividends, splits) from TMX.' },
];

export async function partnerDataRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  for (const row of BENZINGA) datasetListRoute(app, ctx, { ...row, tags: ['Benzinga'], dataset: 'benzinga', market: 'stocks' });
  for (const row of ETF_GLOBAL) datasetListRoute(app, ctx, { ...row, tags: ['ETF Global'], dataset: 'etf-global', market: 'stocks' });
  for (const row of TMX) datasetListRoute(app, ctx, { ...row, tags: ['TMX'], dataset: 'tmx', market: 'stocks' });
}
