import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { notFound } from '../domain/errors.js';
import { listPage } from '../server/pagination.js';
import { baseUrl, getRoute, requestCacheKey } from '../server/route.js';
import { JsonItems } from '../server/serializer.js';
import { Cursor, DateString, Limit, ListBody, Order, SingleBody, StringEnum } from '../server/schemas.js';
import { localDayOf } from '../domain/calendar.js';
import { barZone, marketOfTicker } from '../domain/ticker-market.js';
import { TickerDetails, TickerItem } from '../domain/ticker-schemas.js';
import { TICKER_SORT_FIELDS, type TickerWire } from '../services/tickers.js';

export const TICKER_TYPE_CODES = [
  'CS', 'PFD', 'WARRANT', 'RIGHT', 'BOND', 'ETF', 'ETN', 'ETV', 'SP', 'ADRC', 'ADRP', 'ADRW', 'ADRR', 'FUND',
  'BASKET', 'UNIT', 'LT', 'OS', 'GDR', 'OTHER', 'NYRS', 'AGEN', 'EQLK', 'ETS', 'IX',
] as const;

const TickersQuery = Type.Object({
  ticker: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'a ticker symbol' })),
  'ticker.gt': Type.Optional(Type.String({ maxLength: 64, description: 'a ticker symbol' })),
  'ticker.gte': Type.Optional(Type.String({ maxLength: 64, description: 'a ticker symbol' })),
  'ticker.lt': Type.Optional(Type.String({ maxLength: 64, description: 'a ticker symbol' })),
  'ticker.lte': Type.Optional(Type.String({ maxLength: 64, description: 'a ticker symbol' })),
  type: Type.Optional(StringEnum([...TICKER_TYPE_CODES, 'INDEX'])),
  market: Type.Optional(StringEnum(['stocks', 'crypto', 'fx', 'otc', 'indices'] as const)),
  exchange: Type.Optional(Type.String({ maxLength: 16, description: 'an exchange MIC such as XNAS' })),
  cusip: Type.Optional(Type.String({ maxLength: 16, description: 'a CUSIP' })),
  cik: Type.Optional(Type.String({ maxLength: 16, description: 'a CIK' })),
  date: Type.Optional(DateString()),
  search: Type.Optional(Type.String({ maxLength: 200, description: 'at most 200 characters of search text' })),
  active: Type.Boolean({ default: true }),
  order: Order('asc'),
  limit: Limit(100, 1000),
  sort: StringEnum(TICKER_SORT_FIELDS, { default: 'ticker' }),
  cursor: Type.Optional(Cursor),
});
type TickersQuery = Static<typeof TickersQuery>;

const TickerParams = Type.Object({ ticker: Type.String({ minLength: 1, maxLength: 64, description: 'a ticker symbol' }) });
const OverviewQuery = Type.Object({ date: Type.Optional(DateString()) });

const TypesQuery = Type.Object({
  asset_class: Type.Optional(StringEnum(['stocks', 'options', 'crypto', 'fx', 'indices'] as const)),
  locale: Type.Optional(StringEnum(['us', 'global'] as const)),
});

function absoluteBranding(ctx: RouteContext, req: FastifyRequest, wire: TickerWire): void {
  const b = wire.branding as Record<string, string> | undefined;
  if (!b) return;
  const base = baseUrl(ctx, req);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(b)) out[k] = v.startsWith('/') ? `${base}${v}` : v;
  wire.branding = out;
}

export async function tickerRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  getRoute(app, ctx, {
    url: '/v3/reference/tickers',
    operationId: 'ListTickers',
    summary: 'All tickers',
    description: 'Tickers of every market, filtered and sorted, as of a date when `date` is given. Keyset-paginated through `next_url`.',
    tags: ['Reference'],
    dataset: 'reference',
    market: 'stocks',
    querystring: TickersQuery,
    response: ListBody(TickerItem),
    // the items are JSON texts stored with the rows (tickerItemJson), spliced in as they are
    serializer: 'native',
    dataVersion: () => ctx.services.tickers.version(),
    // Apps page through the whole list, often at every start: each page (its next_url included)
    // depends only on the request and the stored tickers.
    cacheKey: requestCacheKey(ctx),
    handler: ({ query, req }) =>
      listPage(ctx, req, query, {
        family: 'tickers',
        read: (q: TickersQuery, page) => ctx.services.tickers.listItems(q, page),
        present: (rows) => new JsonItems(rows.map((r) => r.json)),
        readPage: (q: TickersQuery, page) => ctx.services.tickers.itemsPage(q, page),
      }),
  });

  getRoute(app, ctx, {
    url: '/v3/reference/tickers/types',
    operationId: 'ListTickerTypes',
    summary: 'Ticker types',
    tags: ['Reference'],
    dataset: 'reference',
    market: 'stocks',
    querystring: TypesQuery,
    response: ListBody(Type.Object({ code: Type.String(), description: Type.String(), asset_class: Type.String(), locale: Type.String() })),
    handler: async ({ query }) => {
      const results = await ctx.services.tickers.types(query);
      return { count: results.length, results };
    },
  });

  getRoute(app, ctx, {
    url: '/v3/reference/tickers/:ticker',
    operationId: 'GetTicker',
    summary: 'Ticker overview',
    description: 'One ticker with its company details, as of `date` when given.',
    tags: ['Reference'],
    dataset: 'reference',
    market: 'stocks',
    params: TickerParams,
    querystring: OverviewQuery,
    response: SingleBody(TickerDetails),
    // Depends on the data, the ticker, the date (else the clock's day, for market_cap) and the
    // base URL of branding links.
    cacheKey: ({ params, query, req }) =>
      `${params.ticker}\0${query.date ?? `day ${localDayOf(ctx.now(), barZone(marketOfTicker(params.ticker)))}`}\0${baseUrl(ctx, req)}`,
    // the ticker's own market data (market_cap) is all the live feed writes that it reads
    liveScope: ({ params }) => ({ ticker: params.ticker }),
    handler: async ({ params, query, req }) => {
      const wire = await ctx.services.tickers.overview(params.ticker, query.date);
      if (!wire) throw notFound('Ticker not found.');
      absoluteBranding(ctx, req, wire);
      return { results: wire };
    },
  });
}
