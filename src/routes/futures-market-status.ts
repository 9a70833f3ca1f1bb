// /futures/vX/market-status (and /futures/v1/market-status): whether each futures product is in
// pre-open, open or closed at the server's clock, from the CME Globex calendar and the products of
// the futures reference data.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { filterProperties } from '../server/dataset-list-route.js';
import { listPage } from '../server/pagination.js';
import { getRoute } from '../server/route.js';
import { Cursor, Limit, ListBody } from '../server/schemas.js';
import { MARKET_STATUS_PRODUCTS } from '../services/futures-market-status.js';

const MarketStatus = Type.Object({
  market_event: Type.String({ description: 'The latest Globex session event at the server\'s clock: pre_open, open or close.' }),
  market_status: Type.String({ description: 'The state the latest event left the market in: open, closed or pre_open (older clients read it).' }),
  name: Type.Optional(Type.String({ description: 'The name of the futures product.' })),
  product_code: Type.String(),
  session_end_date: Type.String({ description: 'The trading date of the event\'s session.' }),
  timestamp: Type.String({ description: 'When the event happened, UTC with a +00:00 offset.' }),
  trading_venue: Type.Optional(Type.String({ description: 'MIC of the exchange the product trades on.' })),
});

export async function futuresMarketStatusRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  getRoute(app, ctx, {
    url: '/futures/vX/market-status',
    aliases: ['/futures/v1/market-status'],
    operationId: 'GetFuturesMarketStatus',
    summary: 'Futures market status',
    description:
      'Each futures product (by product code) with the latest CME Globex session event at the server\'s clock: pre_open from 17:00 ET (the daily maintenance hour and '
      + 'Sunday\'s hour before the open), open from 18:00 ET, close at 17:00 ET on Fridays and before holidays (13:00 or 13:15 ET on shortened days).',
    tags: ['Futures'],
    dataset: 'reference',
    market: 'futures',
    querystring: Type.Object({ ...filterProperties(MARKET_STATUS_PRODUCTS), limit: Limit(10, 100), cursor: Type.Optional(Cursor) }),
    response: ListBody(MarketStatus),
    handler: ({ query, req }) =>
      listPage(ctx, req, query as Record<string, unknown> & { limit: number }, {
        family: 'futures-market-status',
        read: (q, page) => ctx.services.futuresMarketStatus.statuses(q, page),
        present: (rows) => rows.map((r) => r.status),
      }),
  });
}
