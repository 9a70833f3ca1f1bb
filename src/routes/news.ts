import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { DAY_MS, parseInstant } from '../domain/rfc3339.js';
import type { ServerContext } from '../server/context.js';
import { badParameter } from '../domain/errors.js';
import { finishPage, pagedQuery } from '../server/pagination.js';
import { getRoute } from '../server/route.js';
import { Cursor, Limit, ListBody, Order, StringEnum } from '../server/schemas.js';
import type { NewsQuery as StoreNewsQuery, RangeOp } from '../store/repos/news.js';

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
const PUBLISHED_RULE = 'a date (YYYY-MM-DD) or an RFC 3339 timestamp such as 2024-06-24T18:33:53Z';
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

// A full page is 1000 articles: their stored JSON (written from validated records, so it holds only
// schema fields) is spliced into the body rather than parsed and serialised again, which saves
// about half of the work of a page. The marker stands in for `results` until then.
const RESULTS_MARK = '\u0000news-results\u0000';
const RESULTS_MARK_JSON = JSON.stringify(RESULTS_MARK);

const RANGE_OPS = [['gt', '>'], ['gte', '>='], ['lt', '<'], ['lte', '<=']] as const;

function instantParam(name: string, value: string): { ms: number; dateOnly: boolean } {
  const t = parseInstant(value);
  if (!t) throw badParameter(`${name} must be ${PUBLISHED_RULE}`);
  return t;
}

/** The store query for the wire parameters: a bare date means the whole UTC day for equality, its 00:00:00Z for a bound. */
function storeQuery(q: NewsQuery): Omit<StoreNewsQuery, 'limit' | 'after'> {
  const ticker: StoreNewsQuery['ticker'] = [];
  const published: StoreNewsQuery['published'] = [];
  if (q.ticker !== undefined) ticker.push({ op: '=', value: q.ticker });
  for (const [suffix, op] of RANGE_OPS) {
    const v = q[`ticker.${suffix}`];
    if (v !== undefined) ticker.push({ op, value: v });
  }
  if (q.published_utc !== undefined) {
    const t = instantParam('published_utc', q.published_utc);
    if (t.dateOnly) published.push({ op: '>=', ms: t.ms }, { op: '<', ms: t.ms + DAY_MS });
    else published.push({ op: '=', ms: t.ms });
  }
  for (const [suffix, op] of RANGE_OPS) {
    const name = `published_utc.${suffix}` as const;
    const v = q[name];
    if (v !== undefined) published.push({ op: op as RangeOp, ms: instantParam(name, v).ms });
  }
  return { ticker, published, order: q.order };
}

export async function newsRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
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
    handler: async ({ query: raw, req, reply }) => {
      const { query, after } = pagedQuery<NewsQuery>(ctx, 'news', raw);
      const rows = await ctx.store.news.listArticles({ ...storeQuery(query), limit: query.limit + 1, after });
      const page = finishPage(ctx, req, 'news', query, query.limit, rows, (r) => ({ value: r.publishedMs, id: r.pk }));
      const results = `[${page.rows.map((r) => r.json).join(',')}]`;
      // A function replacer: article text may hold `$&` and the like.
      reply.serializer((payload: unknown) => JSON.stringify(payload).replace(RESULTS_MARK_JSON, () => results));
      return { count: page.rows.length, results: RESULTS_MARK, ...(page.next_url ? { next_url: page.next_url } : {}) };
    },
  });
}
