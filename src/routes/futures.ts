import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { datasetListRoute, type DatasetListRouteSpec } from '../server/dataset-list-route.js';
import { FUTURES_CONTRACTS, FUTURES_EXCHANGES, FUTURES_PRODUCTS } from '../services/dataset-lists.js';

// Futures reference data. Upstream serves the same endpoints under /futures/v1 and /futures/vX.
const common: Pick<DatasetListRouteSpec, 'tags' | 'dataset' | 'market'> = { tags: ['Futures'], dataset: 'reference', market: 'futures' };

export async function futuresRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  datasetListRoute(app, ctx, {
    ...common,
    def: FUTURES_PRODUCTS,
    url: '/futures/vX/products',
    aliases: ['/futures/v1/products'],
    operationId: 'GetFuturesProducts',
    summary: 'Futures products',
    description: 'Futures products (ES, CL, …): asset class, sector, trading venue, settlement and unit of measure, one row per product and date.',
  });
  datasetListRoute(app, ctx, {
    ...common,
    def: FUTURES_CONTRACTS,
    url: '/futures/vX/contracts',
    aliases: ['/futures/v1/contracts'],
    operationId: 'GetFuturesContracts',
    summary: 'Futures contracts',
    description: 'Futures contracts (ESZ6, …): first and last trade dates, settlement, tick sizes, whether active on `date`, one row per contract and date.',
  });
  datasetListRoute(app, ctx, {
    ...common,
    def: FUTURES_EXCHANGES,
    url: '/futures/vX/exchanges',
    aliases: ['/futures/v1/exchanges'],
    operationId: 'GetFuturesExchanges',
    summary: 'Futures exchanges',
    description: 'The exchanges futures trade on, with their MICs.',
  });
}
