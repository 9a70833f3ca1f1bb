import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { datasetListRoute, type DatasetListRouteSpec } from '../server/dataset-list-route.js';
import { FUTURES_CONTRACTS, FUTURES_EXCHANGES, FUTURES_PRODUCTS, FUTURES_SCHEDULES } from '../services/dataset-lists.js';
import { futuresMarketRoutes } from './futures-market.js';

// Futures reference data, and the market data of futures-market.ts. Upstream serves the same
// endpoints under /futures/v1 and /futures/vX.
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
  datasetListRoute(app, ctx, {
    ...common,
    def: FUTURES_SCHEDULES,
    url: '/futures/vX/schedules',
    aliases: ['/futures/v1/schedules'],
    operationId: 'GetFuturesSchedules',
    summary: 'Futures schedules',
    description: 'Trading session events (pre_open, open, close) per product and trading date, in UTC, holidays applied.',
  });
  await futuresMarketRoutes(app, ctx);
}
