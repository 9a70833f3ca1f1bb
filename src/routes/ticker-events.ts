// Ticker events: the symbols one entity has traded under (services/ticker-events.ts).
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { getRoute } from '../server/route.js';
import { SingleBody } from '../server/schemas.js';
import { eventTypes, TICKER_EVENT_TYPES } from '../services/ticker-events.js';

const TickerEvent = Type.Object({
  type: Type.String(),
  event_type: Type.String(),
  date: Type.String(),
  ticker_change: Type.Object({ ticker: Type.String() }),
});

export async function tickerEventRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  getRoute(app, ctx, {
    url: '/vX/reference/tickers/:id/events',
    operationId: 'GetTickerEvents',
    summary: 'Ticker events',
    description:
      'The ticker changes of the entity a ticker (case-sensitive; the entity it represents now), composite FIGI or CUSIP names, newest first: ' +
      'every symbol its stored versions took, dated the first day a version under it was valid (the first listing included). 404 when nothing is stored under the id.',
    tags: ['Reference'],
    dataset: 'reference',
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'a ticker, composite FIGI or CUSIP' }) }),
    querystring: Type.Object({
      types: Type.Optional(Type.String({ maxLength: 200, description: `a comma-separated list of ${TICKER_EVENT_TYPES.join(', ')}` })),
    }),
    response: SingleBody(
      Type.Object({ name: Type.String(), composite_figi: Type.Optional(Type.String()), cik: Type.Optional(Type.String()), events: Type.Array(TickerEvent) }),
    ),
    handler: async ({ params, query }) => ({ results: await ctx.services.tickerEvents.events(params.id, eventTypes(query.types)) }),
  });
}
