// v3 trades and quotes (spec §4.10, §4.11, §5.8): tick rows of one ticker filtered on their time,
// newest first by default, keyset-paged so that a walk returns every row once even when many
// rows share a timestamp.
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { marketOfTicker, normalizeTicker, tickDayZone, type TickerMarket } from '../domain/ticker-market.js';
import type { QuoteRow, TradeRow } from '../domain/market-records.js';
import type { ServerContext } from '../server/context.js';
import { getRoute, nextUrl } from '../server/route.js';
import { Cursor, Limit, Order, StringEnum } from '../server/schemas.js';
import type { PagedTick, TickPosition, TickRange } from '../store/repos/market-port.js';
import { tickBounds } from './time-params.js';

const Ns = Type.Integer(); // carries bigint values, written as bare integers
const Codes = Type.Array(Type.Integer());

export const TradeWire = Type.Object({
  conditions: Type.Optional(Codes),
  correction: Type.Optional(Type.Integer()),
  decimal_size: Type.Optional(Type.String()),
  exchange: Type.Integer(),
  id: Type.Optional(Type.String()),
  participant_timestamp: Type.Optional(Ns),
  price: Type.Number(),
  sequence_number: Type.Optional(Ns),
  sip_timestamp: Type.Optional(Ns),
  size: Type.Number(),
  tape: Type.Optional(Type.Integer()),
  trf_id: Type.Optional(Type.Integer()),
  trf_timestamp: Type.Optional(Ns),
});
type TradeWire = Static<typeof TradeWire>;

export const QuoteWire = Type.Object({
  ask_exchange: Type.Optional(Type.Integer()),
  ask_price: Type.Number(),
  ask_size: Type.Optional(Type.Number()),
  bid_exchange: Type.Optional(Type.Integer()),
  bid_price: Type.Number(),
  bid_size: Type.Optional(Type.Number()),
  conditions: Type.Optional(Codes),
  indicators: Type.Optional(Codes),
  participant_timestamp: Type.Optional(Ns),
  sequence_number: Type.Optional(Ns),
  sip_timestamp: Type.Optional(Ns),
  tape: Type.Optional(Type.Integer()),
  trf_timestamp: Type.Optional(Ns),
});
type QuoteWire = Static<typeof QuoteWire>;

const nonEmpty = (codes: number[] | undefined) => (codes && codes.length ? codes : undefined);

/**
 * A trade as v3 writes it (§3.8). Stocks add `decimal_size` (the size as text); crypto trades
 * have no SIP time, so only their participant time is written.
 */
export function tradeToWire(r: TradeRow, market: TickerMarket): TradeWire {
  const crypto = market === 'crypto';
  return {
    conditions: nonEmpty(r.conditions),
    correction: r.correction,
    decimal_size: market === 'stocks' ? String(r.size) : undefined,
    exchange: r.exchange,
    id: r.id,
    participant_timestamp: crypto ? (r.participant_timestamp ?? r.sip_timestamp) : r.participant_timestamp,
    price: r.price,
    sequence_number: r.sequence_number,
    sip_timestamp: crypto ? undefined : r.sip_timestamp,
    size: r.size,
    tape: r.tape,
    trf_id: r.trf_id,
    trf_timestamp: r.trf_timestamp,
  } as TradeWire;
}

export function quoteToWire(r: QuoteRow): QuoteWire {
  return {
    ask_exchange: r.ask_exchange,
    ask_price: r.ask_price,
    ask_size: r.ask_size,
    bid_exchange: r.bid_exchange,
    bid_price: r.bid_price,
    bid_size: r.bid_size,
    conditions: nonEmpty(r.conditions),
    indicators: nonEmpty(r.indicators),
    participant_timestamp: r.participant_timestamp,
    sequence_number: r.sequence_number,
    sip_timestamp: r.sip_timestamp,
    tape: r.tape,
    trf_timestamp: r.trf_timestamp,
  } as QuoteWire;
}

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
  limit: Limit(1000, 50_000),
  cursor: Type.Optional(Cursor),
});
type TickQuery = Static<typeof TickQuery>;

/** The resolved request a cursor carries: bounds in ns (as text), order, limit, position. */
interface TickCursor {
  q: { ticker: string; gte?: string; lt?: string; order: 'asc' | 'desc'; limit: number };
  a: TickPosition;
}

const isDigits = (v: unknown): v is string => typeof v === 'string' && /^\d{1,19}$/.test(v);

function decodeTickCursor(ctx: ServerContext, family: string, token: string, ticker: string): TickCursor {
  const c = ctx.cursors.decode<TickCursor>(family, token);
  const q = c?.q;
  const a = c?.a;
  const ok = q && a && q.ticker === ticker && (q.order === 'asc' || q.order === 'desc')
    && Number.isInteger(q.limit) && q.limit >= 1 && q.limit <= 50_000
    && (q.gte === undefined || isDigits(q.gte)) && (q.lt === undefined || isDigits(q.lt))
    && isDigits(a.ts) && /^\d{0,19}$/.test(a.seq) && typeof a.pk === 'string';
  if (!ok) return ctx.cursors.decode<never>(family, ''); // the standard bad-cursor error
  return c;
}

/** Runs one page of a ticks query: from the cursor when given, else from the filters. */
async function tickPage<R, W>(
  ctx: ServerContext,
  req: FastifyRequest,
  family: string,
  ticker: string,
  raw: TickQuery,
  read: (range: TickRange) => Promise<PagedTick<R>[]>,
  toWire: (row: R) => W,
): Promise<{ results: W[]; next_url?: string }> {
  let q: TickCursor['q'];
  let after: TickPosition | undefined;
  if (raw.cursor) {
    ({ q, a: after } = decodeTickCursor(ctx, family, raw.cursor, ticker));
  } else {
    const b = tickBounds(raw, tickDayZone(marketOfTicker(ticker)));
    if (b.empty) return { results: [] };
    q = { ticker, gte: b.gte?.toString(), lt: b.lt?.toString(), order: raw.order, limit: raw.limit };
  }
  const rows = await read({
    ticker,
    gte: q.gte === undefined ? undefined : BigInt(q.gte),
    lt: q.lt === undefined ? undefined : BigInt(q.lt),
    order: q.order,
    limit: q.limit + 1,
    after,
  });
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  const results = page.map((p) => toWire(p.row));
  if (!more) return { results };
  const cursor = ctx.cursors.encode(family, { q, a: page[page.length - 1]!.position } satisfies TickCursor);
  return { results, next_url: nextUrl(ctx, req, cursor) };
}

const ListOf = <T extends ReturnType<typeof Type.Object>>(row: T) =>
  Type.Object({
    results: Type.Array(row),
    status: Type.String(),
    request_id: Type.String(),
    next_url: Type.Optional(Type.String()),
  });

const tickerMarket = (req: FastifyRequest) => marketOfTicker((req.params as { ticker?: string }).ticker ?? '');
const TickerParams = Type.Object({ ticker: Type.String({ minLength: 1, maxLength: 64, description: 'a ticker symbol' }) });
const FILTER_TEXT =
  '`timestamp` (equality) and `timestamp.gt/.gte/.lt/.lte` take Unix ns, RFC 3339 or YYYY-MM-DD (the whole day: ' +
  'America/New_York for stocks and options, UTC for forex and crypto). Sorted by time then sequence number; `next_url` resumes strictly after the last row.';

export async function tradeQuoteRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
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
    handler: async ({ params, query, req }) => {
      const ticker = normalizeTicker(params.ticker);
      const market = marketOfTicker(ticker);
      return tickPage(ctx, req, 'v3-trades', ticker, query, (r) => ctx.store.market.readTrades(r), (row: TradeRow) => tradeToWire(row, market));
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
    handler: async ({ params, query, req }) => {
      const ticker = normalizeTicker(params.ticker);
      return tickPage(ctx, req, 'v3-quotes', ticker, query, (r) => ctx.store.market.readQuotes(r), quoteToWire);
    },
  });
}
