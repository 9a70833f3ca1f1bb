import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { notFound } from '../domain/errors.js';
import { listPage } from '../server/pagination.js';
import { baseUrl, getRoute } from '../server/route.js';
import { Cursor, DateString, Limit, ListBody, Order, SingleBody, StringEnum } from '../server/schemas.js';
import { localDayOf } from '../domain/calendar.js';
import { barZone, marketOfTicker } from '../domain/ticker-market.js';
import { TICKER_SORT_FIELDS, tickerToWire, type TickerWire } from '../services/tickers.js';

export const TICKER_TYPE_CODES = [
  'CS', 'PFD', 'WARRANT', 'RIGHT', 'BOND', 'ETF', 'ETN', 'ETV', 'SP', 'ADRC', 'ADRP', 'ADRW', 'ADRR', 'FUND',
  'BASKET', 'UNIT', 'LT', 'OS', 'GDR', 'OTHER', 'NYRS', 'AGEN', 'EQLK', 'ETS', 'IX',
] as const;

const TickerItem = Type.Object({
  ticker: Type.String(),
  name: Type.String(),
  market: Type.String(),
  locale: Type.String(),
  primary_exchange: Type.Optional(Type.String()),
  type: Type.Optional(Type.String()),
  active: Type.Boolean(),
  currency_name: Type.Optional(Type.String()),
  currency_symbol: Type.Optional(Type.String()),
  base_currency_symbol: Type.Optional(Type.String()),
  base_currency_name: Type.Optional(Type.String()),
  cik: Type.Optional(Type.String()),
  composite_figi: Type.Optional(Type.String()),
  share_class_figi: Type.Optional(Type.String()),
  last_updated_utc: Type.String(),
  delisted_utc: Type.Optional(Type.String()),
  source_feed: Type.Optional(Type.String()),
});

const TickerDetails = Type.Composite([
  TickerItem,
  Type.Object({
    description: Type.Optional(Type.String()),
    homepage_url: Type.Optional(Type.String()),
    phone_number: Type.Optional(Type.String()),
    address: Type.Optional(
      Type.Object({
        address1: Type.Optional(Type.String()),
        address2: Type.Optional(Type.String()),
        city: Type.Optional(Type.String()),
        state: Type.Optional(Type.String()),
        postal_code: Type.Optional(Type.String()),
        country: Type.Optional(Type.String()),
      }),
    ),
    branding: Type.Optional(
      Type.Object({
        logo_url: Type.Optional(Type.String()),
        icon_url: Type.Optional(Type.String()),
        accent_color: Type.Optional(Type.String()),
        light_color: Type.Optional(Type.String()),
        dark_color: Type.Optional(Type.String()),
      }),
    ),
    list_date: Type.Optional(Type.String()),
    market_cap: Type.Optional(Type.Number()),
    share_class_shares_outstanding: Type.Optional(Type.Number()),
    weighted_shares_outstanding: Type.Optional(Type.Number()),
    round_lot: Type.Optional(Type.Number()),
    sic_code: Type.Optional(Type.String()),
    sic_description: Type.Optional(Type.String()),
    ticker_root: Type.Optional(Type.String()),
    ticker_suffix: Type.Optional(Type.String()),
    total_employees: Type.Optional(Type.Number()),
  }),
]);

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
    handler: ({ query, req }) =>
      listPage(ctx, req, query, {
        family: 'tickers',
        read: (q: TickersQuery, page) => ctx.services.tickers.list(q, page),
        present: (rows, q) => rows.map((r) => tickerToWire(r.record, q.date)),
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
    handler: async ({ params, query, req }) => {
      const wire = await ctx.services.tickers.overview(params.ticker, query.date);
      if (!wire) throw notFound('Ticker not found.');
      absoluteBranding(ctx, req, wire);
      return { results: wire };
    },
  });
}
