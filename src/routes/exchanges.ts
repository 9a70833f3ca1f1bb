import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { getRoute } from '../server/route.js';
import { ListBody, StringEnum } from '../server/schemas.js';

const Exchange = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  asset_class: Type.String(),
  locale: Type.String(),
  name: Type.String(),
  acronym: Type.Optional(Type.String()),
  mic: Type.Optional(Type.String()),
  operating_mic: Type.Optional(Type.String()),
  participant_id: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
});

const ExchangesQuery = Type.Object({
  asset_class: Type.Optional(StringEnum(['stocks', 'options', 'crypto', 'fx', 'futures'] as const)),
  locale: Type.Optional(StringEnum(['us', 'global'] as const)),
});

export async function exchangeRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  getRoute(app, ctx, {
    url: '/v3/reference/exchanges',
    operationId: 'ListExchanges',
    summary: 'Exchanges',
    description: 'Venues known to the server, ordered by asset class then id. Not paginated.',
    tags: ['Reference'],
    dataset: 'reference',
    market: 'stocks',
    querystring: ExchangesQuery,
    response: ListBody(Exchange),
    handler: async ({ query }) => {
      const results = await ctx.services.reference.exchanges(query);
      return { count: results.length, results };
    },
  });
}
