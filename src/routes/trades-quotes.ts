// v3 trades and quotes: tick rows of one ticker filtered on their time, newest first by
// default, keyset-paged (services/trades-quotes.ts reads them).
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { QuoteWire, TradeWire } from '../domain/tick-schemas.js';
import { marketOfTicker, normalizeTicker, tickDayZone } from '../domain/ticker-market.js';
import type { RouteContext } from '../server/context.js';
import { listPage, type ListPage } from '../server/pagination.js';
import { JsonArray } from '../server/serializer.js';
import { getRoute } from '../server/route.js';
import { Cursor, Limit, Order, StringEnum } from '../server/schemas.js';
import { MAX_TICK_LIMIT, validTickCursor, type TickPosition, type TickWindow } from '../services/trades-quotes.js';
import { tickBounds } from './time-params.js';
const TickTime = (name: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: `a Unix timestamp in nanoseconds, an RFC 3339 time or a date in the form YYYY-MM-DD (${name})` }));

const TickQuery = Type.Object({
  timestamp: TickTime('timestamp'),
  'timestamp.gt': TickTime('timestamp.gt'),
  'timestamp.gte': TickTime('timestamp.gte'),
  'timestamp.lt': TickTime('timestamp.lt'),
  'timestamp.lte': TickTime('timestamp.lte'),
  order: Order('desc'),
  sort: StringEnum(['timestamp'] as const, { default: 'timestamp' }),
  limit: Limit(1000, MAX_TICK_LIMIT),
  cursor: Type.Optional(Cursor),
});
type TickQuery = Static<typeof TickQuery>;

/** The window of a first page, from the filters; undefined when the filters leave nothing. */
function firstWindow(ticker: string, q: TickQuery): TickWindow | undefined {
  const b = tickBounds(q, tickDayZone(marketOfTicker(ticker)));
  if (b.empty) return undefined;
  return { ticker, gte: b.gte?.toString(), lt: b.lt?.toString(), order: q.order, limit: q.limit };
}

const ListOf = <T extends ReturnType<typeof Type.Object>>(row: T) =>
  Type.Object({
    results: Type.Array(row),
    status: Type.String(),
    request_id: Type.String(),
    next_url: Type.Optional(Type.String()),
  });

/**
 * The body of a page: the declared keys only, as the native serializer writes every key it is
 * given (these lists carry no count). Pages of up to 50,000 ticks are written as JSON text
 * straight from the rows the store read (services/tick-json.ts) and spliced in.
 */
const listBody = (page: ListPage<JsonArray>) => ({ results: page.results, ...(page.next_url ? { next_url: page.next_url } : {}) });

const tickerMarket = (req: FastifyRequest) => marketOfTicker((req.params as { ticker?: string }).ticker ?? '');
const TickerParams = Type.Object({ ticker: Type.String({ minLength: 1, maxLength: 64, description: 'a ticker symbol' }) });
const FILTER_TEXT =
  '`timestamp` (equality) and `timestamp.gt/.gte/.lt/.lte` take Unix ns, RFC 3339 or YYYY-MM-DD (the whole day: ' +
  'America/New_York for stocks and options, UTC for forex and crypto). Sorted by time then sequence number; `next_url` resumes strictly after the last row.';

export async function tradeQuoteRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  const ticks = ctx.services.tradesQuotes;
  getRoute(app, ctx, {
    url: '/v3/trades/:ticker',
    operationId: 'GetTrades',
    summary: 'Trades',
    description: `Trades of a stock, option (\`O:\`) or crypto pair (\`X:\`). ${FILTER_TEXT}`,
    tags: ['Trades & quotes'],
    dataset: 'trades',
    market: tickerMarket,
    params: TickerParams,
    querystring: TickQuery,
    response: ListOf(TradeWire),
    serializer: 'native',
    handler: async ({ params, query, req }) => {
      const ticker = normalizeTicker(params.ticker);
      return listBody(await listPage(ctx, req, query, {
        family: 'v3-trades',
        firstQuery: () => firstWindow(ticker, query),
        validCursor: (q: TickWindow, a: TickPosition) => validTickCursor(q, a, ticker),
        read: (q, page) => ticks.tradesRaw(q, page),
        present: (rows) => new JsonArray(ticks.tradesJson(rows, ticker), rows.length),
      }));
    },
  });

  getRoute(app, ctx, {
    url: '/v3/quotes/:ticker',
    operationId: 'GetQuotes',
    summary: 'Quotes',
    description: `NBBO quotes of a stock or option, BBO quotes of a forex pair (\`C:\`; filtered on its participant time). ${FILTER_TEXT}`,
    tags: ['Trades & quotes'],
    dataset: 'nbbo',
    market: tickerMarket,
    params: TickerParams,
    querystring: TickQuery,
    response: ListOf(QuoteWire),
    serializer: 'native',
    handler: async ({ params, query, req }) => {
      const ticker = normalizeTicker(params.ticker);
      return listBody(await listPage(ctx, req, query, {
        family: 'v3-quotes',
        firstQuery: () => firstWindow(ticker, query),
        validCursor: (q: TickWindow, a: TickPosition) => validTickCursor(q, a, ticker),
        read: (q, page) => ticks.quotesRaw(q, page),
        present: (rows) => new JsonArray(ticks.quotesJson(rows), rows.length),
      }));
    },
  });
}
