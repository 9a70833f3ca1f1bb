import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { datasetListRoute, type DatasetListRouteSpec } from '../server/dataset-list-route.js';
import { EU_MERCHANT_AGGREGATES, EU_MERCHANT_HIERARCHY, FUNDING_CONDITIONS, INFLATION, INFLATION_EXPECTATIONS, LABOR_MARKET, TREASURY_YIELDS } from '../services/dataset-lists.js';

const common: Pick<DatasetListRouteSpec, 'tags' | 'dataset' | 'market'> = { tags: ['Economy'], dataset: 'economy', market: 'economy' };

export async function economyRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  datasetListRoute(app, ctx, {
    ...common,
    def: INFLATION,
    url: '/fed/v1/inflation',
    operationId: 'GetFedV1Inflation',
    summary: 'Inflation',
    description: 'Monthly realized inflation: CPI and PCE, headline and core (`date` is the first day of the month).',
  });
  datasetListRoute(app, ctx, {
    ...common,
    def: INFLATION_EXPECTATIONS,
    url: '/fed/v1/inflation-expectations',
    operationId: 'GetFedV1InflationExpectations',
    summary: 'Inflation expectations',
    description: 'Market breakevens and model-based inflation expectations, percent.',
  });
  datasetListRoute(app, ctx, {
    ...common,
    def: TREASURY_YIELDS,
    url: '/fed/v1/treasury-yields',
    operationId: 'GetFedV1TreasuryYields',
    summary: 'Treasury yields',
    description: 'Daily constant-maturity Treasury yields, 1 month to 30 years, percent.',
  });
  datasetListRoute(app, ctx, {
    ...common,
    def: LABOR_MARKET,
    url: '/fed/v1/labor-market',
    operationId: 'GetFedV1LaborMarket',
    summary: 'Labor market',
    description: 'Monthly unemployment rate, participation rate, average hourly earnings and job openings (`date` is the first day of the month).',
  });
  datasetListRoute(app, ctx, {
    ...common,
    def: FUNDING_CONDITIONS,
    url: '/fed/v1/funding-conditions',
    operationId: 'GetFedV1FundingConditions',
    summary: 'Funding conditions',
    description: 'Daily money-market funding: the federal funds rate and target range, IORB, SOFR, OBFR and TGCR with their percentiles and volumes, NY Fed repo and reverse repo operations, and 90-day commercial paper rates (percent; volumes and amounts in billions of USD). One row per calendar day; market rates are absent on weekends and holidays.',
  });
  const spending: Pick<DatasetListRouteSpec, 'tags' | 'dataset' | 'market'> = { tags: ['Consumer spending'], dataset: 'consumer-spending', market: 'stocks' };
  datasetListRoute(app, ctx, {
    ...spending,
    def: EU_MERCHANT_AGGREGATES,
    url: '/consumer-spending/eu/v1/merchant-aggregates',
    operationId: 'GetConsumerSpendingEuV1MerchantAggregates',
    summary: 'EU merchant aggregates',
    description: 'Daily card and open-banking spending at European merchants, per country, channel and consumer type.',
  });
  datasetListRoute(app, ctx, {
    ...spending,
    def: EU_MERCHANT_HIERARCHY,
    url: '/consumer-spending/eu/v1/merchant-hierarchy',
    operationId: 'GetConsumerSpendingEuV1MerchantHierarchy',
    summary: 'EU merchant hierarchy',
    description: 'The corporate hierarchy and industry of the merchants of the merchant aggregates (joined on `lookup_name` = `name`).',
  });
}
