import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { DAY_MS, formatInstant, parseInstant } from '../domain/rfc3339.js';
import { Ranking } from '../domain/social-schema.js';
import type { RouteContext } from '../server/context.js';
import { badParameter } from '../domain/errors.js';
import { getRoute } from '../server/route.js';
import { Limit, Order, StringEnum } from '../server/schemas.js';
import { SOCIAL_SORTS } from '../services/social.js';

// Social rankings (product-specific; upstream has no such endpoint, see docs/social.md): tickers
// ranked by how often stored news articles and imported social posts mention them in a window
// ending at `as_of`, with average sentiment and the change against the window before.

export const WINDOWS = { '1h': 3_600_000, '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS } as const;
export type WindowName = keyof typeof WINDOWS;

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

export async function socialRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
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
      const results = await ctx.services.social.rankings({ endMs, widthMs: width, tickers, sort: query.sort, order: query.order, limit: query.limit });
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
