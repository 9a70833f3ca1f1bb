import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../domain/errors.js';
import type { RouteContext } from '../server/context.js';
import { datasetItemSchema, datasetListRoute, type DatasetListRouteSpec } from '../server/dataset-list-route.js';
import { getRoute, requestCacheKey } from '../server/route.js';
import { DateString } from '../server/schemas.js';
import { FUTURES_CONTRACTS, FUTURES_EXCHANGES, FUTURES_PRODUCTS, FUTURES_SCHEDULES, type DatasetDef } from '../services/dataset-lists.js';
import { futuresMarketRoutes } from './futures-market.js';

// Futures reference data, and the market data of futures-market.ts. Upstream serves the same
// endpoints under /futures/v1 and /futures/vX.
const common: Pick<DatasetListRouteSpec, 'tags' | 'dataset' | 'market'> = { tags: ['Futures'], dataset: 'reference', market: 'futures' };

/**
 * One contract or product by its code, as upstream's retired detail paths answered it (older
 * clients still call them): `results` is the item as the list writes it, described as of `as_of`
 * (its newest description on or before that date; the newest of all when absent).
 */
function detailRoute(app: FastifyInstance, ctx: RouteContext, spec: { def: DatasetDef; url: string; field: string; operationId: string; summary: string; what: string }): void {
  getRoute(app, ctx, {
    ...common,
    url: spec.url,
    operationId: spec.operationId,
    summary: spec.summary,
    description: `Retired upstream path, served for older clients: the ${spec.what} the list answers for \`${spec.field}\`, as of \`as_of\`.`,
    params: Type.Object({ [spec.field]: Type.String({ minLength: 1, maxLength: 64, description: `a ${spec.what} code` }) }),
    querystring: Type.Object({ as_of: Type.Optional(DateString()) }),
    response: Type.Object({ status: Type.String(), request_id: Type.String(), results: datasetItemSchema(spec.def) }),
    cacheKey: requestCacheKey(ctx),
    handler: async ({ params, query }) => {
      const code = (params as Record<string, string>)[spec.field]!;
      const item = await ctx.services.datasetLists.asOf(spec.def, spec.field, code, query.as_of);
      if (!item) throw notFound(`No ${spec.what} ${code}${query.as_of ? ` on or before ${query.as_of}` : ''}.`);
      return { results: item };
    },
  });
}

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
  // upstream's retired paths, which older clients (client-go's GetFuturesContract, …) still call
  detailRoute(app, ctx, { def: FUTURES_CONTRACTS, url: '/futures/vX/contracts/:ticker', field: 'ticker', operationId: 'GetFuturesContract', summary: 'Futures contract (retired path)', what: 'contract' });
  detailRoute(app, ctx, { def: FUTURES_PRODUCTS, url: '/futures/vX/products/:product_code', field: 'product_code', operationId: 'GetFuturesProduct', summary: 'Futures product (retired path)', what: 'product' });
  datasetListRoute(app, ctx, {
    ...common,
    def: FUTURES_SCHEDULES,
    url: '/futures/vX/products/:product_code/schedules',
    pathFilter: 'product_code',
    operationId: 'GetFuturesProductSchedules',
    summary: 'Futures product schedules (retired path)',
    description: 'Retired upstream path, served for older clients: /futures/vX/schedules of one product.',
  });
  await futuresMarketRoutes(app, ctx);
}
