import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { datasetListRoute, type DatasetListRouteSpec } from '../server/dataset-list-route.js';
import { INFLATION, INFLATION_EXPECTATIONS, TREASURY_YIELDS } from '../services/dataset-lists.js';

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
}
