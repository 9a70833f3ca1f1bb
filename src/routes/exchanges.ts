import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { listPage } from '../server/pagination.js';
import { getRoute, requestCacheKey } from '../server/route.js';
import { Cursor, Limit, ListBody, StringEnum } from '../server/schemas.js';
import { VENUE_MARKETS } from '../services/reference.js';

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

// The per-market venue lists: upstream's newer shape, with the fields it gives each market.
const ListedVenue = Type.Composite([
  Type.Omit(Exchange, ['id', 'asset_class', 'locale']),
  Type.Object({ id: Type.String(), locale: Type.Optional(Type.String()) }),
]);

const CryptoVenue = Type.Object({ id: Type.String(), type: Type.String(), name: Type.String(), url: Type.Optional(Type.String()) });
const ForexVenue = Type.Object({ id: Type.String(), type: Type.String(), name: Type.String() });

const VenuesQuery = Type.Object({
  limit: Limit(100, 1000),
  cursor: Type.Optional(Cursor),
});
type VenuesQuery = Static<typeof VenuesQuery>;

const VENUE_ITEMS = { stocks: ListedVenue, options: ListedVenue, forex: ForexVenue, crypto: CryptoVenue };
const LABELS = { stocks: 'Stock', options: 'Options', forex: 'Forex', crypto: 'Crypto' };

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
    cacheKey: requestCacheKey(ctx),
    handler: async ({ query }) => {
      const results = await ctx.services.reference.exchanges(query);
      return { count: results.length, results };
    },
  });

  for (const market of VENUE_MARKETS) {
    getRoute(app, ctx, {
      url: `/${market}/v1/exchanges`,
      operationId: `List${LABELS[market]}Exchanges`,
      summary: `${LABELS[market]} exchanges`,
      description: `The ${market} venues known to the server (the stored exchanges of that asset class), ordered by id.`,
      tags: ['Reference'],
      dataset: 'reference',
      market,
      querystring: VenuesQuery,
      response: ListBody(VENUE_ITEMS[market]),
      cacheKey: requestCacheKey(ctx),
      handler: ({ query, req }) =>
        listPage(ctx, req, query, {
          family: `exchanges-${market}`,
          read: (_q: VenuesQuery, page) => ctx.services.reference.marketVenues(market, page),
          present: (rows) => rows.map((r) => r.venue),
        }),
    });
  }
}
