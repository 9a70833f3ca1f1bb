// v3 trades and quotes: tick rows of one ticker filtered on their time, newest first by
// default, keyset-paged (services/trades-quotes.ts reads them).
import { Type, type Static, type TObject } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badParameter } from '../domain/errors.js';
import { DevTradeWire, OptionQuoteWire, OptionTradeWire, QuoteWire, TradeWire } from '../domain/tick-schemas.js';
import { marketOfTicker, normalizeTicker, tickDayZone, type TickerMarket } from '../domain/ticker-market.js';
import type { RouteContext } from '../server/context.js';
import { finalUntilWrite, windowedNs } from '../server/entitlements.js';
import { NS_PER_MS } from '../domain/nanoseconds.js';
import { listPage, type ListPage } from '../server/pagination.js';
import { JoinedJsonItems, JsonArray } from '../server/serializer.js';
import { getRoute, requestCacheKey } from '../server/route.js';
import { Cursor, Limit, Order, StringEnum } from '../server/schemas.js';
import type { KeysetRows, PageRequest } from '../services/paging.js';
import { MAX_TICK_LIMIT, validTickCursor, type RawQuote, type RawTrade, type TickPosition, type TickWindow, type TradeQuoteService } from '../services/trades-quotes.js';
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

/**
 * The query of the per-market tick lists the official client calls beyond v3
 * (/options/v3/trades|quotes on `timestamp`, /stocks/dev/trades on `sip_timestamp`): the same
 * time filters, and the order given in `sort` as `field.asc|desc` (desc when only the field is named).
 */
function fieldTickQuery(field: 'timestamp' | 'sip_timestamp', limit: number) {
  const props: Record<string, ReturnType<typeof TickTime>> = {};
  for (const suffix of ['', '.gt', '.gte', '.lt', '.lte']) props[field + suffix] = TickTime(field + suffix);
  return Type.Object({
    ...props,
    sort: StringEnum([field, `${field}.asc`, `${field}.desc`], { default: `${field}.desc` }),
    limit: Limit(limit, MAX_TICK_LIMIT),
    cursor: Type.Optional(Cursor),
  });
}
type FieldTickQuery = { sort: string; limit: number; cursor?: string };

/** The window of a first page, from the filters; undefined when the filters leave nothing. */
function firstWindow(ticker: string, q: TickQuery): TickWindow | undefined {
  const b = tickBounds(q, tickDayZone(marketOfTicker(ticker)));
  if (b.empty) return undefined;
  return { ticker, gte: b.gte?.toString(), lt: b.lt?.toString(), order: q.order, limit: q.limit };
}

/**
 * A page's window narrowed to the key's plan (history and delay), applied to first pages and to
 * cursors alike; a window with nothing in the plan becomes an empty one. The store writes these
 * pages, so the plan's cut happens in the read, not on the body.
 */
function inPlan(req: FastifyRequest, q: TickWindow): TickWindow {
  const w = windowedNs(req, q.gte === undefined ? undefined : BigInt(q.gte), q.lt === undefined ? undefined : BigInt(q.lt));
  if (w.empty) return { ...q, gte: '0', lt: '0' };
  return { ...q, gte: w.gte?.toString(), lt: w.lt?.toString() };
}

/** The ms of the newest stored tick of a kind (ns truncated: a tick before 1970 counts as later, which only keeps an answer from the cache). */
async function newestTickMs(ticks: TradeQuoteService, kind: 'trades' | 'quotes', ticker: string): Promise<number | undefined> {
  const ns = await ticks.newestNs(kind, ticker);
  return ns === undefined ? undefined : Number(ns / NS_PER_MS);
}

/** The first window of a per-market list: `ticker` must be of `market`, else a 400 naming it. */
function fieldWindow(ticker: string, market: TickerMarket, field: string, q: FieldTickQuery): TickWindow | undefined {
  if (marketOfTicker(ticker) !== market) {
    throw badParameter(market === 'options' ? 'ticker must be an options contract ticker such as O:SPY260123C00687000' : 'ticker must be a stock ticker such as AAPL');
  }
  const b = tickBounds(q, tickDayZone(market), field);
  if (b.empty) return undefined;
  return { ticker, gte: b.gte?.toString(), lt: b.lt?.toString(), order: q.sort.endsWith('.asc') ? 'asc' : 'desc', limit: q.limit };
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
const listBody = (page: ListPage<JsonArray | JoinedJsonItems>) => ({ results: page.results, ...(page.next_url ? { next_url: page.next_url } : {}) });

const tickerMarket = (req: FastifyRequest) => marketOfTicker((req.params as { ticker?: string }).ticker ?? '');
const TickerParams = Type.Object({ ticker: Type.String({ minLength: 1, maxLength: 64, description: 'a ticker symbol' }) });
const FILTER_TEXT =
  '`timestamp` (equality) and `timestamp.gt/.gte/.lt/.lte` take Unix ns, RFC 3339 or YYYY-MM-DD (the whole day: ' +
  'America/New_York for stocks and options, UTC for forex and crypto). Sorted by time then sequence number; `next_url` resumes strictly after the last row.';

/** A per-market tick list: its path, the filter field, the ticks it reads and how it writes them. */
interface MarketTickList<R> {
  url: string;
  operationId: string;
  summary: string;
  description: string;
  dataset: 'trades' | 'nbbo';
  market: 'options' | 'stocks';
  field: 'timestamp' | 'sip_timestamp';
  defaultLimit: number;
  family: string;
  row: TObject;
  read(ticks: TradeQuoteService, q: TickWindow, page: PageRequest<TickPosition>): Promise<KeysetRows<R, TickPosition>>;
  json(ticks: TradeQuoteService, rows: readonly R[], ticker: string): string;
}

const OPTION_TRADES: MarketTickList<RawTrade> = {
    url: '/options/v3/trades/:ticker',
    operationId: 'GetOptionsV3TradesTicker',
    summary: 'Option trades',
    description: 'Trades of one options contract (`O:`), each row naming its contract.',
    dataset: 'trades',
    market: 'options',
    field: 'timestamp',
    defaultLimit: 1000,
    family: 'options-v3-trades',
    row: OptionTradeWire,
    read: (ticks, q, page) => ticks.tradesRaw(q, page),
    json: (ticks, rows, ticker) => ticks.optionTradesJson(rows, ticker),
};

const OPTION_QUOTES: MarketTickList<RawQuote> = {
    url: '/options/v3/quotes/:ticker',
    operationId: 'GetOptionsV3QuotesTicker',
    summary: 'Option quotes',
    description: 'NBBO quotes of one options contract (`O:`), each row naming its contract.',
    dataset: 'nbbo',
    market: 'options',
    field: 'timestamp',
    defaultLimit: 1000,
    family: 'options-v3-quotes',
    row: OptionQuoteWire,
    read: (ticks, q, page) => ticks.quotesRaw(q, page),
    json: (ticks, rows, ticker) => ticks.optionQuotesJson(rows, ticker),
};

const DEV_TRADES: MarketTickList<RawTrade> = {
    url: '/stocks/dev/trades/:ticker',
    operationId: 'GetStocksDevTradesTicker',
    summary: 'Stock trades with fractional sizes',
    description:
      'Trades of one stock, each row naming its ticker; `size` is the whole shares of a trade and `size_fraction` its exact size ' +
      '(a fractional-share trade of 0.25 shares has size 0).',
    dataset: 'trades',
    market: 'stocks',
    field: 'sip_timestamp',
    defaultLimit: 100,
    family: 'stocks-dev-trades',
    row: DevTradeWire,
    read: (ticks, q, page) => ticks.tradesRaw(q, page),
    json: (ticks, rows, ticker) => ticks.devTradesJson(rows, ticker),
};

const FIELD_TEXT = (field: string) =>
  `\`${field}\` (equality) and \`${field}.gt/.gte/.lt/.lte\` take Unix ns, RFC 3339 or YYYY-MM-DD (the whole America/New_York day); ` +
  `\`sort\` is \`${field}.desc\` (default) or \`${field}.asc\`, ties in sequence order; \`next_url\` resumes strictly after the last row.`;

/** Registers a per-market tick list: v3's keyset paging over the stored ticks, its own query and rows. */
function marketTickRoute<R>(app: FastifyInstance, ctx: RouteContext, list: MarketTickList<R>): void {
  const ticks = ctx.services.tradesQuotes;
  getRoute(app, ctx, {
    url: list.url,
    operationId: list.operationId,
    summary: list.summary,
    description: `${list.description} ${FIELD_TEXT(list.field)}`,
    tags: ['Trades & quotes'],
    dataset: list.dataset,
    market: list.market,
    params: TickerParams,
    querystring: fieldTickQuery(list.field, list.defaultLimit),
    response: ListOf(list.row),
    serializer: 'native',
    handler: async ({ params, query, req }) => {
      const ticker = params.ticker;
      return listBody(await listPage(ctx, req, query, {
        family: list.family,
        firstQuery: () => fieldWindow(ticker, list.market, list.field, query),
        validCursor: (q: TickWindow, a: TickPosition) => validTickCursor(q, a, ticker),
        read: (q, page) => list.read(ticks, inPlan(req, q), page),
        present: (rows) => new JsonArray(list.json(ticks, rows, ticker), rows.length),
      }));
    },
  });
}

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
    // kept while the plan's window cuts nothing: a range that ends in the past, or at now with nothing stored after it
    cacheKey: requestCacheKey(ctx),
    liveScope: ({ params }) => ({ ticker: normalizeTicker(params.ticker) }),
    handler: async ({ params, query, req }) => {
      const ticker = normalizeTicker(params.ticker);
      const page = await listPage(ctx, req, query, {
        family: 'v3-trades',
        firstQuery: () => firstWindow(ticker, query),
        validCursor: (q: TickWindow, a: TickPosition) => validTickCursor(q, a, ticker),
        read: (q, page) => ticks.tradesRaw(inPlan(req, q), page),
        present: (rows) => new JsonArray(ticks.tradesJson(rows, ticker), rows.length),
        readPage: (q, page) => ticks.tradesJsonPage(inPlan(req, q), page),
      });
      await finalUntilWrite(req, () => newestTickMs(ticks, 'trades', ticker));
      return listBody(page);
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
    cacheKey: requestCacheKey(ctx),
    liveScope: ({ params }) => ({ ticker: normalizeTicker(params.ticker) }),
    handler: async ({ params, query, req }) => {
      const ticker = normalizeTicker(params.ticker);
      const page = await listPage(ctx, req, query, {
        family: 'v3-quotes',
        firstQuery: () => firstWindow(ticker, query),
        validCursor: (q: TickWindow, a: TickPosition) => validTickCursor(q, a, ticker),
        read: (q, page) => ticks.quotesRaw(inPlan(req, q), page),
        present: (rows) => new JsonArray(ticks.quotesJson(rows), rows.length),
        readPage: (q, page) => ticks.quotesJsonPage(inPlan(req, q), page),
      });
      await finalUntilWrite(req, () => newestTickMs(ticks, 'quotes', ticker));
      return listBody(page);
    },
  });

  marketTickRoute(app, ctx, OPTION_TRADES);
  marketTickRoute(app, ctx, OPTION_QUOTES);
  marketTickRoute(app, ctx, DEV_TRADES);
}
