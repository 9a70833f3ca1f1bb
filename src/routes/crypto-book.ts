// /v2/snapshot/locale/global/markets/crypto/tickers/{ticker}/book: the level-2 book of a crypto
// pair from the stored book levels (imported as the crypto-book data set).
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../domain/errors.js';
import { normalizeTicker } from '../domain/ticker-market.js';
import type { RouteContext } from '../server/context.js';
import { getRoute } from '../server/route.js';

const Level = Type.Object({
  p: Type.Number({ description: 'The price of this book level.' }),
  x: Type.Record(Type.String(), Type.Number(), { description: 'Exchange id → size offered at this price.' }),
});

const BookBody = Type.Object({
  status: Type.String(),
  request_id: Type.String(),
  data: Type.Object({
    ticker: Type.String(),
    bids: Type.Array(Level, { description: 'Best (highest) price first.' }),
    asks: Type.Array(Level, { description: 'Best (lowest) price first.' }),
    bidCount: Type.Number({ description: 'The total size of every bid.' }),
    askCount: Type.Number({ description: 'The total size of every ask.' }),
    spread: Type.Number({ description: 'Best ask minus best bid (0 when a side is empty).' }),
    updated: Type.Integer({ description: 'When the book was taken, Unix ms (0 for an empty book).' }),
  }),
});

export async function cryptoBookRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  getRoute(app, ctx, {
    url: '/v2/snapshot/locale/global/markets/crypto/tickers/:ticker/book',
    operationId: 'DeprecatedGetCryptoSnapshotTickerBook',
    summary: 'Snapshot, crypto level-2 book',
    description:
      'The stored level-2 book of a crypto pair: levels merged per price across exchanges, bids best first, asks best first, the total sizes and the spread. '
      + 'An empty book for a pair of the reference data without stored levels; 404 for an unknown pair.',
    tags: ['Snapshots'],
    dataset: 'snapshots',
    market: 'crypto',
    params: Type.Object({ ticker: Type.String({ minLength: 1, maxLength: 64, description: 'a crypto pair such as X:BTCUSD' }) }),
    response: BookBody,
    handler: async ({ params }) => {
      const data = await ctx.services.cryptoBooks.book(normalizeTicker(params.ticker));
      if (!data) throw notFound('Ticker not found.');
      return { data };
    },
  });
}
