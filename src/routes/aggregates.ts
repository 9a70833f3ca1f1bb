// Aggregates: custom range bars, previous close, grouped daily and daily
// open/close, for every asset class through the ticker prefix.
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CryptoOpenClose, OpenClose } from '../domain/aggregate-schemas.js';
import { TIMESPANS } from '../domain/bars.js';
import { barZone, marketOfTicker, normalizeTicker } from '../domain/ticker-market.js';
import type { RouteContext } from '../server/context.js';
import { finalUntilWrite, windowedMs } from '../server/entitlements.js';
import { badParameter, notFound } from '../domain/errors.js';
import { getRoute, nextUrl, requestCacheKey } from '../server/route.js';
import { JoinedJsonItems, JsonArray } from '../server/serializer.js';
import { Cursor, DateString, Limit, StringEnum } from '../server/schemas.js';
import { AGGS_MAX_LIMIT, type GroupedMarket } from '../services/aggregates.js';
import { parseAggregateBound, parseDayParam } from './time-params.js';

// ---------------------------------------------------------------------------
// Wire schemas (shapes of upstream's recorded bodies; key order as upstream writes them)

const barFields = {
  v: Type.Optional(Type.Number()),
  vw: Type.Optional(Type.Number()),
  o: Type.Number(),
  c: Type.Number(),
  h: Type.Number(),
  l: Type.Number(),
  t: Type.Integer(),
  n: Type.Optional(Type.Integer()),
  otc: Type.Optional(Type.Boolean()),
};
export const AggBar = Type.Object(barFields);
export const DailyAggBar = Type.Object({ T: Type.String(), ...barFields });

const RangeBody = Type.Object({
  ticker: Type.String(),
  queryCount: Type.Integer(),
  resultsCount: Type.Integer(),
  adjusted: Type.Optional(Type.Boolean()),
  results: Type.Array(AggBar),
  status: Type.String(),
  request_id: Type.String(),
  count: Type.Integer(),
  next_url: Type.Optional(Type.String()),
});

const PrevBody = Type.Object({
  status: Type.String(),
  request_id: Type.String(),
  ticker: Type.String(),
  queryCount: Type.Integer(),
  resultsCount: Type.Integer(),
  adjusted: Type.Optional(Type.Boolean()),
  results: Type.Array(DailyAggBar),
  // as on the other aggregates bodies; older clients (client-js 8.x) read it here too
  count: Type.Integer(),
});

const GroupedBody = Type.Object({
  queryCount: Type.Integer(),
  resultsCount: Type.Integer(),
  adjusted: Type.Boolean(),
  results: Type.Array(DailyAggBar),
  status: Type.String(),
  request_id: Type.String(),
  count: Type.Integer(),
});

const OpenCloseBody = Type.Object({ status: Type.String(), ...OpenClose.properties });

// ---------------------------------------------------------------------------
// Parameters

const TickerParam = Type.String({ minLength: 1, maxLength: 64, description: 'a ticker symbol' });
const Adjusted = Type.Boolean({ default: true });

const RangeParams = Type.Object({
  ticker: TickerParam,
  multiplier: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  timespan: StringEnum(TIMESPANS),
  from: Type.String({ minLength: 1, maxLength: 32, description: 'a date in the form YYYY-MM-DD or a Unix timestamp in milliseconds' }),
  to: Type.String({ minLength: 1, maxLength: 32, description: 'a date in the form YYYY-MM-DD or a Unix timestamp in milliseconds' }),
});
const RangeQuery = Type.Object({
  adjusted: Adjusted,
  dividends: Type.Boolean({ default: false }),
  sort: StringEnum(['asc', 'desc'] as const, { default: 'asc' }),
  limit: Limit(5000, AGGS_MAX_LIMIT),
  cursor: Type.Optional(Cursor),
});
type RangeQuery = Static<typeof RangeQuery>;

/** What an aggregates next_url cursor carries; the rewritten path carries the rest (ticker, range). */
interface RangeCursor {
  limit: number;
  sort: 'asc' | 'desc';
  adjusted: boolean;
  dividends?: boolean;
}
const RANGE_FAMILY = 'aggs-range';

function rangeCursorQuery(ctx: RouteContext, raw: RangeQuery): RangeCursor {
  if (!raw.cursor) return { limit: raw.limit, sort: raw.sort, adjusted: raw.adjusted, dividends: raw.dividends };
  const c = ctx.cursors.decode<Partial<RangeCursor>>(RANGE_FAMILY, raw.cursor);
  const ok = c && Number.isInteger(c.limit) && c.limit! >= 1 && c.limit! <= AGGS_MAX_LIMIT
    && (c.sort === 'asc' || c.sort === 'desc') && typeof c.adjusted === 'boolean' && (c.dividends === undefined || typeof c.dividends === 'boolean');
  if (!ok) return ctx.cursors.decode<never>(RANGE_FAMILY, ''); // throws the standard bad-cursor error
  return c as RangeCursor;
}

const tickerMarket = (req: FastifyRequest) => marketOfTicker((req.params as { ticker?: string }).ticker ?? '');

export async function aggregateRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  getRoute(app, ctx, {
    url: '/v2/aggs/ticker/:ticker/range/:multiplier/:timespan/:from/:to',
    operationId: 'GetAggregates',
    summary: 'Custom bars (aggregates)',
    description:
      'Bars of `multiplier × timespan` over [from, to] for stocks, options (`O:`), forex (`C:`), crypto (`X:`) and indices (`I:`). ' +
      'Day and longer buckets follow America/New_York (UTC for forex); weeks start on Sunday; buckets are anchored at the snapped `from`. ' +
      '`limit` caps the base bars read (minute bars for minute/hour, day bars for day and longer, second bars built from trades for second); ' +
      'a bucket the limit cuts is left for the next page: `next_url` rewrites `{from}` (sort=asc) or `{to}` (sort=desc, which reads backward from `to`) ' +
      'and carries limit, sort and adjusted in its cursor. A limit too small for one bucket still returns that one bucket whole. ' +
      '`dividends=true` (beyond upstream, stocks only) also back-adjusts prices for cash dividends: bars before each ex-date are multiplied by 1 − cash / (close of the day before the ex-date); volumes unchanged. Independent of `adjusted` (splits).',
    tags: ['Aggregates'],
    dataset: 'aggregates',
    market: tickerMarket,
    params: RangeParams,
    querystring: RangeQuery,
    response: RangeBody,
    // Up to 50,000 bars written as JSON text straight from the rows the store read and spliced in
    // by the native serializer; the rest of the body holds only schema fields by construction.
    serializer: 'native',
    // Back-tests ask the same ranges again and again; kept while the plan's window cuts nothing
    // (a range ending today: while no bar after now is stored)
    cacheKey: requestCacheKey(ctx),
    // bars of a minute and longer are made of stored bars alone; second bars of trades
    liveScope: ({ params }) => ({ ticker: normalizeTicker(params.ticker), bars: params.timespan !== 'second' }),
    handler: async ({ params, query: raw, req }) => {
      const q = rangeCursorQuery(ctx, raw);
      const ticker = normalizeTicker(params.ticker);
      const market = marketOfTicker(ticker);
      const zone = barZone(market);
      const fromMs = parseAggregateBound(params.from, 'from', zone);
      const toMs = parseAggregateBound(params.to, 'to', zone);
      if (toMs < fromMs) throw badParameter("The parameter 'to' cannot be a time that occurs before 'from'");
      // The store writes the bars' JSON, so the plan's window bounds the read rather than the body.
      const inPlan = windowedMs(req, fromMs, toMs);
      const adjustedField = market === 'indices' ? {} : { adjusted: q.adjusted };
      if (inPlan.empty) return { ticker: params.ticker, queryCount: 0, resultsCount: 0, ...adjustedField, results: new JsonArray('[]', 0), count: 0 };
      const r = await ctx.services.aggregates.rangeJson({
        ticker,
        multiplier: params.multiplier,
        timespan: params.timespan,
        fromMs: inPlan.fromMs,
        toMs: inPlan.toMs,
        adjusted: q.adjusted,
        dividends: q.dividends === true,
        sort: q.sort,
        limit: q.limit,
      });
      // slices of days kept in memory, or items the store joined: sent as their pieces (FastifyRequest.fromMemory)
      if (r.fromMemory || 'joined' in r.results) req.fromMemory = true;
      await finalUntilWrite(req, () => ctx.services.aggregates.newestBarMs(ticker));
      let next_url: string | undefined;
      if (r.next) {
        const from = 'fromMs' in r.next ? String(r.next.fromMs) : params.from;
        const to = 'toMs' in r.next ? String(r.next.toMs) : params.to;
        const path = `/v2/aggs/ticker/${encodeURIComponent(params.ticker)}/range/${params.multiplier}/${params.timespan}/${from}/${to}`;
        next_url = nextUrl(ctx, req, ctx.cursors.encode(RANGE_FAMILY, q), path);
      }
      return {
        ticker: params.ticker,
        queryCount: r.queryCount,
        resultsCount: r.count,
        ...adjustedField,
        results: 'json' in r.results ? new JsonArray(r.results.json, r.count) : new JoinedJsonItems(r.results.joined, r.count),
        count: r.count,
        ...(next_url ? { next_url } : {}),
      };
    },
  });

  getRoute(app, ctx, {
    url: '/v2/aggs/ticker/:ticker/prev',
    operationId: 'GetPreviousClose',
    summary: 'Previous close',
    description:
      'The day bar of the last completed session (stocks, options, indices: once 16:00 ET has passed; forex and crypto: the last finished day). ' +
      '`t` is 16:00 ET of the session date (stocks, options, indices), 23:59:59.999 UTC (forex) or 00:00 ET (crypto), as upstream writes it.',
    tags: ['Aggregates'],
    dataset: 'aggregates',
    market: tickerMarket,
    params: Type.Object({ ticker: TickerParam }),
    querystring: Type.Object({ adjusted: Adjusted }),
    response: PrevBody,
    handler: async ({ params, query }) => {
      const ticker = normalizeTicker(params.ticker);
      const bar = await ctx.services.aggregates.previousClose(ticker, query.adjusted);
      const results = bar ? [bar] : [];
      return {
        ticker: params.ticker,
        queryCount: results.length,
        resultsCount: results.length,
        ...(marketOfTicker(ticker) === 'indices' ? {} : { adjusted: query.adjusted }),
        results,
        count: results.length,
      };
    },
  });

  const grouped = (market: GroupedMarket, url: string, operationId: string, label: string) =>
    getRoute(app, ctx, {
      url,
      operationId,
      summary: `Grouped daily, ${label}`,
      description:
        `One daily bar per ${label} ticker that traded on \`date\` (empty on a day without data). ` +
        (market === 'stocks' ? '`t` is 16:00 ET of the date; OTC tickers only with `include_otc=true`, flagged `otc: true`.' : market === 'fx' ? '`t` is 23:59:59.999 UTC of the date.' : '`t` is 00:00 ET of the date.'),
      tags: ['Aggregates'],
      dataset: 'aggregates',
      market: market,
      params: Type.Object({ date: DateString() }),
      querystring: Type.Object({ adjusted: Adjusted, include_otc: Type.Boolean({ default: false }) }),
      response: GroupedBody,
      handler: async ({ params, query }) => {
        const day = parseDayParam(params.date, 'date');
        const results = await ctx.services.aggregates.grouped(market, day, { adjusted: query.adjusted, includeOtc: market === 'stocks' && query.include_otc });
        return { queryCount: results.length, resultsCount: results.length, adjusted: query.adjusted, results, count: results.length };
      },
    });
  grouped('stocks', '/v2/aggs/grouped/locale/us/market/stocks/:date', 'GetGroupedStocksAggregates', 'stocks');
  grouped('fx', '/v2/aggs/grouped/locale/global/market/fx/:date', 'GetGroupedForexAggregates', 'forex');
  grouped('crypto', '/v2/aggs/grouped/locale/global/market/crypto/:date', 'GetGroupedCryptoAggregates', 'crypto');

  getRoute(app, ctx, {
    url: '/v1/open-close/:ticker/:date',
    operationId: 'GetOpenClose',
    summary: 'Daily open/close',
    description:
      'Open and close of the regular session (09:30–16:00 ET, or the early close), high/low/volume of the day, ' +
      'preMarket = first price from 04:00 ET, afterHours = last price before 20:00 ET. 404 on a day without a session or data.',
    tags: ['Aggregates'],
    dataset: 'aggregates',
    market: tickerMarket,
    plain: true,
    params: Type.Object({ ticker: TickerParam, date: DateString() }),
    querystring: Type.Object({ adjusted: Adjusted }),
    response: OpenCloseBody,
    handler: async ({ params, query }) => {
      const day = parseDayParam(params.date, 'date');
      const ticker = normalizeTicker(params.ticker);
      const oc = await ctx.services.aggregates.openClose(ticker, day, query.adjusted);
      if (!oc) throw notFound('Data not found.');
      return { status: 'OK', ...oc, symbol: params.ticker };
    },
  });

  getRoute(app, ctx, {
    url: '/v1/open-close/crypto/:from/:to/:date',
    operationId: 'GetCryptoOpenClose',
    summary: 'Daily open/close, crypto pair',
    description: 'First and last trades of the UTC day for the pair `X:{from}{to}` (from minute bars when no trades are stored).',
    tags: ['Aggregates'],
    dataset: 'aggregates',
    market: 'crypto',
    plain: true,
    params: Type.Object({
      from: Type.String({ pattern: '^[A-Za-z0-9]{1,12}$', description: 'a currency symbol such as BTC' }),
      to: Type.String({ pattern: '^[A-Za-z0-9]{1,12}$', description: 'a currency symbol such as USD' }),
      date: DateString(),
    }),
    querystring: Type.Object({ adjusted: Adjusted }),
    response: CryptoOpenClose,
    handler: async ({ params }) => {
      const day = parseDayParam(params.date, 'date');
      const [from, to] = [params.from.toUpperCase(), params.to.toUpperCase()];
      const oc = await ctx.services.aggregates.cryptoOpenClose(from, to, day);
      if (!oc) throw notFound('Data not found.');
      return oc;
    },
  });
}
