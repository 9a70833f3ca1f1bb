// The universal snapshot `GET /v3/snapshot` (upstream GetSnapshots): stocks, options, forex,
// crypto and indices in one list (services/universal-snapshot.ts builds the items), and its
// indices-only form `GET /v3/snapshot/indices` (upstream GetIndicesSnapshot).
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UNIVERSAL_TYPES, UniversalItem } from '../domain/universal-snapshot-schema.js';
import type { RouteContext } from '../server/context.js';
import { entitled } from '../server/entitlements.js';
import { listPage } from '../server/pagination.js';
import { getRoute } from '../server/route.js';
import { Cursor, Limit, Order, StringEnum } from '../server/schemas.js';
import { MAX_UNIVERSAL_TICKERS, type UniversalRequest } from '../services/universal-snapshot.js';
import { snapshotTime } from './snapshots.js';

const TickerText = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });

const Query = Type.Object({
  ticker: Type.Optional(TickerText('a ticker symbol')),
  'ticker.any_of': Type.Optional(Type.String({ minLength: 1, maxLength: 20_000, description: `a comma-separated list of up to ${MAX_UNIVERSAL_TICKERS} tickers` })),
  'ticker.gt': Type.Optional(TickerText('a ticker symbol')),
  'ticker.gte': Type.Optional(TickerText('a ticker symbol')),
  'ticker.lt': Type.Optional(TickerText('a ticker symbol')),
  'ticker.lte': Type.Optional(TickerText('a ticker symbol')),
  type: Type.Optional(StringEnum(UNIVERSAL_TYPES, { description: `one of ${UNIVERSAL_TYPES.join(', ')}` })),
  order: Order('asc'),
  limit: Limit(10, MAX_UNIVERSAL_TICKERS),
  sort: StringEnum(['ticker'] as const, { default: 'ticker', description: 'ticker' }),
  cursor: Type.Optional(Cursor),
});
type Query = Static<typeof Query>;

const IndicesQuery = Type.Omit(Query, ['type']);
type IndicesQuery = Static<typeof IndicesQuery>;

/** The clock and entitlements a universal snapshot answer is computed for. */
export function universalRequest(ctx: RouteContext, req: FastifyRequest): UniversalRequest {
  const { nowMs, timeframe } = snapshotTime(ctx, req);
  const realMs = ctx.now();
  return {
    clock: { nowMs, realMs, timeframe },
    entitled: (dataset, market) => entitled(req, dataset, market),
  };
}

export async function universalSnapshotRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  const snapshots = ctx.services.universalSnapshot;

  /** Named tickers unpaginated in the order asked for, else one page of the merged listing. */
  const answer = async (query: Query, req: FastifyRequest, family: string, outsideType: 'omit' | 'not-found') => {
    const r = universalRequest(ctx, req);
    const named = query['ticker.any_of'] ?? query.ticker;
    if (named !== undefined && query.cursor === undefined) return { results: await snapshots.named(named, query, r, { outsideType }) };
    return listPage(ctx, req, query, {
      family,
      read: (q: Query, page) => snapshots.list(q, page, r),
      present: (rows) => snapshots.items(rows, r),
    });
  };
  const Body = Type.Object({ status: Type.String(), request_id: Type.String(), results: Type.Array(UniversalItem), next_url: Type.Optional(Type.String()) });

  getRoute(app, ctx, {
    url: '/v3/snapshot',
    operationId: 'GetSnapshots',
    summary: 'Universal snapshot',
    description:
      'Stocks, options, forex, crypto and indices in one list, each item rebuilt from the same computation as /v2/snapshot/... (session = its day bar and todaysChange; indices: value = latest minute, day or previous close) and /v3/snapshot/options/... (greeks, IV, open interest) at the same clock; stock sessions split the change into pre-market and regular (from the previous close) and after hours (from the regular close), each where that part has a price; `fmv` is not served. ' +
      'Named tickers (`ticker`, `ticker.any_of`, up to 250) come back unpaginated in the order requested, unknown ones as `{error: "NOT_FOUND"}` items (`NOT_ENTITLED` for markets the plan lacks); otherwise every market is listed merged in ticker (code-unit) order and paginated by `next_url` (stocks without OTC, options = unexpired contracts, indices = reference index tickers with data).',
    tags: ['Snapshots'],
    dataset: 'snapshots',
    // the plan must cover the asked-for market; without `type` each item is checked on its own
    market: ((req: FastifyRequest) => {
      const t = (req.query as Record<string, unknown> | undefined)?.type;
      return typeof t === 'string' && (UNIVERSAL_TYPES as readonly string[]).includes(t) ? t : undefined;
    }) as (req: FastifyRequest) => string,
    querystring: Query,
    response: Body,
    handler: ({ query, req }) => answer(query, req, 'universal-snapshot', 'omit'),
  });

  getRoute(app, ctx, {
    url: '/v3/snapshot/indices',
    operationId: 'GetIndicesSnapshot',
    summary: 'Indices snapshot',
    description:
      'The universal snapshot of index tickers only: value = latest minute, day or previous close; session = the day bar and the change since the previous close. ' +
      'Named tickers (`ticker`, `ticker.any_of`, up to 250) come back unpaginated in the order requested, unknown ones and tickers of other markets as `{error: "NOT_FOUND"}` items; otherwise the reference index tickers with data, in ticker order, paginated by `next_url`.',
    tags: ['Snapshots'],
    dataset: 'snapshots',
    market: 'indices',
    querystring: IndicesQuery,
    response: Body,
    handler: ({ query, req }) => answer({ ...query, type: 'indices' } as Query, req, 'indices-snapshot', 'not-found'),
  });
}
