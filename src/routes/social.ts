import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { DAY_MS, formatInstant, parseInstant } from '../domain/rfc3339.js';
import type { ServerContext } from '../server/context.js';
import { badParameter } from '../domain/errors.js';
import { getRoute } from '../server/route.js';
import { Limit, Order, StringEnum } from '../server/schemas.js';
import type { MentionCounts } from '../store/repos/social.js';

// Social rankings (product-specific; upstream has no such endpoint, see docs/social.md): tickers
// ranked by how often stored news articles and imported social posts mention them in a window
// ending at `as_of`, with average sentiment and the change against the window before.

export const WINDOWS = { '1h': 3_600_000, '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS } as const;
export type WindowName = keyof typeof WINDOWS;
export const SOCIAL_SORTS = ['mentions', 'sentiment', 'mentions_change'] as const;
export type SocialSort = (typeof SOCIAL_SORTS)[number];

const MAX_TICKERS = 100;
const AS_OF_RULE = 'a date (YYYY-MM-DD, meaning the end of that UTC day) or an RFC 3339 timestamp such as 2026-11-20T21:00:00Z';
const TICKERS_RULE = `a comma-separated list of at most ${MAX_TICKERS} ticker symbols`;

const SocialQuery = Type.Object({
  window: StringEnum(Object.keys(WINDOWS) as WindowName[], { default: '24h', description: 'one of 1h, 24h, 7d, 30d' }),
  as_of: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: AS_OF_RULE })),
  ticker: Type.Optional(Type.String({ minLength: 1, maxLength: 4000, description: TICKERS_RULE })),
  sort: StringEnum(SOCIAL_SORTS, { default: 'mentions' }),
  order: Order('desc'),
  limit: Limit(10, 1000),
});
type SocialQuery = Static<typeof SocialQuery>;

const Ranking = Type.Object({
  rank: Type.Integer({ description: '1-based position in this ordering' }),
  ticker: Type.String(),
  mentions: Type.Integer({ description: 'news_mentions + post_mentions in the window' }),
  news_mentions: Type.Integer({ description: 'articles listing the ticker in `tickers`' }),
  post_mentions: Type.Integer({ description: 'social posts listing the ticker in `tickers`' }),
  sentiment: Type.Optional(Type.Number({ description: 'mean sentiment in [-1, 1] of the mentions that carry one (news insights: positive 1, neutral 0, negative -1; posts: their `sentiment`); absent when none does' })),
  sentiment_mentions: Type.Integer({ description: 'how many mentions carry a sentiment' }),
  previous_mentions: Type.Integer({ description: 'mentions in the window of the same length just before' }),
  mentions_change: Type.Integer({ description: 'mentions − previous_mentions' }),
  mentions_change_percent: Type.Optional(Type.Number({ description: '100 × mentions_change / previous_mentions; absent when previous_mentions is 0' })),
});
export type Ranking = Static<typeof Ranking>;

const SocialBody = Type.Object({
  status: Type.String(),
  request_id: Type.String(),
  window: Type.String(),
  window_start: Type.String({ description: 'inclusive start of the window, RFC 3339 UTC' }),
  window_end: Type.String({ description: 'exclusive end of the window (= as_of), RFC 3339 UTC' }),
  previous_window_start: Type.String({ description: 'inclusive start of the previous window (it ends at window_start)' }),
  count: Type.Integer(),
  results: Type.Array(Ranking),
});

const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;

function toRanking(c: MentionCounts): Ranking {
  const mentions = c.news_mentions + c.post_mentions;
  const change = mentions - c.previous_mentions;
  return {
    rank: 0,
    ticker: c.ticker,
    mentions,
    news_mentions: c.news_mentions,
    post_mentions: c.post_mentions,
    ...(c.sentiment_count > 0 ? { sentiment: round(c.sentiment_sum / c.sentiment_count, 4) } : {}),
    sentiment_mentions: c.sentiment_count,
    previous_mentions: c.previous_mentions,
    mentions_change: change,
    ...(c.previous_mentions > 0 ? { mentions_change_percent: round((100 * change) / c.previous_mentions, 2) } : {}),
  };
}

/**
 * Orders by the sort key in `order`; tickers with no sentiment come last when sorting by it. Ties
 * go to more mentions, then to the ticker in byte order, so the ranking is deterministic.
 */
export function rankTickers(counts: MentionCounts[], sort: SocialSort, order: 'asc' | 'desc', limit: number): Ranking[] {
  const sign = order === 'asc' ? 1 : -1;
  const key = (r: Ranking): number | undefined => (sort === 'mentions' ? r.mentions : sort === 'sentiment' ? r.sentiment : r.mentions_change);
  const ranked = counts.map(toRanking).sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) {
      if (ka === undefined) return 1;
      if (kb === undefined) return -1;
      return sign * (ka - kb);
    }
    if (a.mentions !== b.mentions) return b.mentions - a.mentions;
    return a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0;
  });
  return ranked.slice(0, limit).map((r, i) => ({ ...r, rank: i + 1 }));
}

function parseTickers(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = [...new Set(value.split(',').map((t) => t.trim()))];
  if (list.length > MAX_TICKERS || list.some((t) => t.length === 0 || t.length > 64)) throw badParameter(`ticker must be ${TICKERS_RULE}`);
  return list;
}

function asOfMs(value: string | undefined, now: number): number {
  if (value === undefined) return now;
  const t = parseInstant(value);
  if (!t) throw badParameter(`as_of must be ${AS_OF_RULE}`);
  return t.dateOnly ? t.ms + DAY_MS : t.ms;
}

export async function socialRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  getRoute(app, ctx, {
    url: '/v3/social',
    operationId: 'ListSocialRankings',
    summary: 'Social rankings',
    description:
      'Product-specific (no upstream twin). Tickers ranked by mentions in stored news articles and imported social posts ' +
      'during the window [as_of − window, as_of), with mean sentiment and the change against the window just before. ' +
      'Every ticker mentioned in either window is ranked; `ticker` (comma list) keeps only those tickers. Not paginated: `limit` caps the ranking. ' +
      '`as_of` defaults to the server clock; a bare date means the end of that UTC day.',
    tags: ['Social'],
    dataset: 'news',
    market: 'stocks',
    querystring: SocialQuery,
    response: SocialBody,
    handler: async ({ query }: { query: SocialQuery }) => {
      const tickers = parseTickers(query.ticker);
      const endMs = asOfMs(query.as_of, ctx.now());
      const width = WINDOWS[query.window];
      const startMs = endMs - width;
      const counts = await ctx.store.social.mentionCounts({ previousStartMs: startMs - width, startMs, endMs, tickers });
      const results = rankTickers(counts, query.sort, query.order, query.limit);
      return {
        window: query.window,
        window_start: formatInstant(startMs),
        window_end: formatInstant(endMs),
        previous_window_start: formatInstant(startMs - width),
        count: results.length,
        results,
      };
    },
  });
}
