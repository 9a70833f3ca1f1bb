// The partner data sets (Benzinga, ETF Global, TMX): one row of the table per endpoint, each a
// declared data-set list (filters, sort, paging) over the rows the operator imported.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { CONSENSUS_FILTERS } from '../services/consensus-ratings.js';
import type { RouteContext } from '../server/context.js';
import { datasetListRoute, filterProperties, type DatasetListRouteSpec } from '../server/dataset-list-route.js';
import { getRoute } from '../server/route.js';
import { Limit } from '../server/schemas.js';
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

type Row = Pick<DatasetListRouteSpec, 'def' | 'url' | 'aliases' | 'operationId' | 'summary' | 'description'>;

const BENZINGA: Row[] = [
  // /benzinga/v1/news is upstream's retired path for the same list; older clients still call it
  { def: BENZINGA_NEWS, url: '/benzinga/v2/news', aliases: ['/benzinga/v1/news'], operationId: 'GetBenzingaV2News', summary: 'Benzinga news', description: 'Benzinga news articles with their channels, tags and tickers, newest first.' },
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

const count = (description: string) => Type.Integer({ description });
const price = (description: string) => Type.Optional(Type.Number({ description }));

const ConsensusBody = Type.Object({
  status: Type.String(),
  request_id: Type.String(),
  count: Type.Integer(),
  results: Type.Array(Type.Object({
    buy_ratings: count('Analysts whose latest rating is a buy (buy, outperform, overweight, …).'),
    consensus_price_target: price('Mean of the analysts\' latest price targets, 2 decimals.'),
    consensus_rating: Type.Optional(Type.String({ description: 'strong_buy, buy, hold, sell or strong_sell: the category nearest consensus_rating_value.' })),
    consensus_rating_value: price('Mean weight of the latest ratings, 1 (strong sell) to 5 (strong buy), 2 decimals.'),
    high_price_target: price('Highest of the latest price targets.'),
    hold_ratings: count('Analysts whose latest rating is a hold (hold, neutral, equal-weight, …).'),
    low_price_target: price('Lowest of the latest price targets.'),
    price_target_contributors: count('Analysts with a price target in the range.'),
    ratings_contributors: count('Analysts whose latest rating counts.'),
    sell_ratings: count('Analysts whose latest rating is a sell (sell, underperform, underweight, …).'),
    strong_buy_ratings: count('Analysts whose latest rating is a strong buy.'),
    strong_sell_ratings: count('Analysts whose latest rating is a strong sell.'),
    ticker: Type.String(),
  })),
});

export async function partnerDataRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  getRoute(app, ctx, {
    url: '/benzinga/v1/consensus-ratings/:ticker',
    operationId: 'GetBenzingaV1ConsensusRatings',
    summary: 'Consensus ratings',
    description: 'The consensus of the stored analyst ratings of a ticker: each analyst counts once, with their latest rating and latest price target in the date range (all ratings by default).',
    tags: ['Benzinga'],
    dataset: 'benzinga',
    market: 'stocks',
    params: Type.Object({ ticker: Type.String({ minLength: 1, maxLength: 64, description: 'a ticker symbol' }) }),
    querystring: Type.Object({ ...filterProperties(CONSENSUS_FILTERS), limit: Limit(100, 50_001) }),
    response: ConsensusBody,
    handler: async ({ params, query }) => {
      const results = await ctx.services.consensusRatings.consensus(params.ticker, query as Record<string, unknown>);
      return { count: results.length, results };
    },
  });
  for (const row of BENZINGA) datasetListRoute(app, ctx, { ...row, tags: ['Benzinga'], dataset: 'benzinga', market: 'stocks' });
  for (const row of ETF_GLOBAL) datasetListRoute(app, ctx, { ...row, tags: ['ETF Global'], dataset: 'etf-global', market: 'stocks' });
  for (const row of TMX) datasetListRoute(app, ctx, { ...row, tags: ['TMX'], dataset: 'tmx', market: 'stocks' });
}
