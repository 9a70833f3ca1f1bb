import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { listPage } from '../server/pagination.js';
import { getRoute, requestCacheKey } from '../server/route.js';
import { Cursor, Limit, ListBody, Order, StringEnum } from '../server/schemas.js';
import { JsonItems } from '../server/serializer.js';
import { PUBLISHED_RULE } from '../services/news.js';

export const NewsPublisher = Type.Object({
  name: Type.String(),
  homepage_url: Type.String(),
  logo_url: Type.String(),
  favicon_url: Type.Optional(Type.String()),
});

export const NewsInsight = Type.Object({
  ticker: Type.String(),
  sentiment: StringEnum(['positive', 'neutral', 'negative'] as const),
  sentiment_reasoning: Type.String(),
});

export const NewsArticle = Type.Object({
  id: Type.String(),
  publisher: NewsPublisher,
  title: Type.String(),
  author: Type.String(),
  published_utc: Type.String(),
  article_url: Type.String(),
  tickers: Type.Array(Type.String()),
  amp_url: Type.Optional(Type.String()),
  image_url: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  keywords: Type.Optional(Type.Array(Type.String())),
  insights: Type.Optional(Type.Array(NewsInsight)),
});

const TickerParam = Type.String({ minLength: 1, maxLength: 64, description: 'a ticker symbol' });
const PublishedParam = Type.String({ minLength: 1, maxLength: 64, description: PUBLISHED_RULE });

const NewsQuery = Type.Object({
  ticker: Type.Optional(TickerParam),
  'ticker.gt': Type.Optional(TickerParam),
  'ticker.gte': Type.Optional(TickerParam),
  'ticker.lt': Type.Optional(TickerParam),
  'ticker.lte': Type.Optional(TickerParam),
  published_utc: Type.Optional(PublishedParam),
  'published_utc.gt': Type.Optional(PublishedParam),
  'published_utc.gte': Type.Optional(PublishedParam),
  'published_utc.lt': Type.Optional(PublishedParam),
  'published_utc.lte': Type.Optional(PublishedParam),
  order: Order('desc'),
  limit: Limit(10, 1000),
  sort: StringEnum(['published_utc'] as const, { default: 'published_utc' }),
  cursor: Type.Optional(Cursor),
});
type NewsQuery = Static<typeof NewsQuery>;

export async function newsRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  getRoute(app, ctx, {
    url: '/v2/reference/news',
    operationId: 'ListNews',
    summary: 'Ticker news',
    description:
      'News articles with their publisher, keywords and per-ticker sentiment insights, newest first by default. ' +
      '`ticker` matches articles whose `tickers` contain it; `ticker.gt/.gte/.lt/.lte` match articles with at least one ticker in the range. ' +
      '`published_utc` takes a date (the whole UTC day) or an RFC 3339 timestamp (that instant); in its range forms a bare date means 00:00:00Z of that day. ' +
      'Keyset-paginated through `next_url`.',
    tags: ['News'],
    dataset: 'news',
    market: 'stocks',
    querystring: NewsQuery,
    response: ListBody(NewsArticle),
    // A full page is 1000 articles: their stored JSON (written from validated records, so it holds
    // only schema fields) is spliced into the body rather than parsed and written again, which
    // saves about half of the work of a page.
    serializer: 'native',
    cacheKey: requestCacheKey(ctx),
    handler: ({ query, req }) =>
      listPage(ctx, req, query, {
        family: 'news',
        read: (q: NewsQuery, page) => ctx.services.news.list(q, page),
        present: (rows) => new JsonItems(rows.map((r) => r.json)),
      }),
  });
}
