// Futures market data: trades, quotes, aggregates and the snapshot of futures contracts, at
// /futures/vX/... and upstream's /futures/v1/... spelling of the same operations
// (services/futures-market.ts reads and computes them).
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseResolution, windowStartInterval, type FuturesCandle, type FuturesQuote, type FuturesTrade, type TextFilter } from '../domain/futures-market.js';
import { badParameter } from '../domain/errors.js';
import { NS_PER_MS } from '../domain/nanoseconds.js';
import type { RouteContext } from '../server/context.js';
import { applyDataWindow, noteDataCut } from '../server/entitlements.js';
import { listPage, type ListPage } from '../server/pagination.js';
import { getRoute } from '../server/route.js';
import { Cursor, DateString, Limit, StringEnum } from '../server/schemas.js';
import {
  MAX_FUTURES_LIMIT, validAggCursor, validSnapshotCursor, validTickCursor, type FuturesAggPosition, type FuturesAggQuery, type FuturesSnapshotItem,
  type FuturesSnapshotPosition, type FuturesSnapshotQuery, type FuturesTickPosition, type FuturesTickQuery,
} from '../services/futures-market.js';
import { snapshotTime, visibleTicks } from './snapshots.js';
import { intersectBounds, parseDayParam, tickBounds } from './time-params.js';

const Ns = (description: string) => Type.Unsafe<bigint>(Type.Integer({ description }));
const OptNs = (description: string) => Type.Optional(Ns(description));
const OptNumber = (description: string) => Type.Optional(Type.Number({ description }));
const OptInteger = (description: string) => Type.Optional(Type.Integer({ description }));
const TIMEFRAME = 'REAL-TIME, or DELAYED when the plan sees the market with a delay.';

const TradeItem = Type.Object({
  channel: OptInteger('The CME multicast channel the trade came from.'),
  price: Type.Number({ description: 'Price per unit of the underlying.' }),
  report_sequence: OptNs('The reporting sequence number.'),
  sequence_number: Ns('The sequence number of the trade.'),
  session_end_date: Type.String({ description: 'The trading date: the day the Globex session ends.' }),
  size: Type.Integer({ description: 'Contracts traded.' }),
  ticker: Type.String(),
  timestamp: Ns('Exchange time, Unix ns.'),
});
const QuoteItem = Type.Object({
  ask_price: OptNumber('Best ask.'),
  ask_size: OptInteger('Contracts offered at the ask.'),
  ask_timestamp: OptNs('When the ask was last set, Unix ns.'),
  bid_price: OptNumber('Best bid.'),
  bid_size: OptInteger('Contracts bid at the bid.'),
  bid_timestamp: OptNs('When the bid was last set, Unix ns.'),
  channel: OptInteger('The CME multicast channel the quote came from.'),
  report_sequence: OptNs('The reporting sequence number.'),
  sequence_number: Ns('The sequence number of the quote.'),
  session_end_date: Type.String({ description: 'The trading date: the day the Globex session ends.' }),
  ticker: Type.String(),
  timestamp: Ns('Exchange time, Unix ns.'),
});
const CandleItem = Type.Object({
  close: Type.Number(),
  dollar_volume: Type.Number({ description: 'Σ price × size of the trades in the window.' }),
  high: Type.Number(),
  low: Type.Number(),
  open: Type.Number(),
  session_end_date: Type.String({ description: 'The trading date of the (last) session in the window.' }),
  settlement_price: OptNumber('Candles of a session or longer: the settlement of their last session (the close of its last minute).'),
  ticker: Type.String(),
  transactions: Type.Integer(),
  volume: Type.Integer(),
  window_start: Ns('Start of the window, Unix ns.'),
});
const SnapshotItem = Type.Object({
  details: Type.Object({ product_code: Type.String(), settlement_date: Type.Optional(Type.String()), ticker: Type.String() }),
  last_minute: Type.Optional(Type.Object({
    close: Type.Number(), high: Type.Number(), last_updated: Type.Integer({ description: 'Start of the minute, Unix ms.' }), low: Type.Number(), open: Type.Number(),
    timeframe: Type.String({ description: TIMEFRAME }), volume: Type.Integer(),
  })),
  last_quote: Type.Optional(Type.Object({
    ask: OptNumber('Best ask.'), ask_size: OptInteger('Contracts at the ask.'), ask_timestamp: OptNs('Unix ns.'),
    bid: OptNumber('Best bid.'), bid_size: OptInteger('Contracts at the bid.'), bid_timestamp: OptNs('Unix ns.'),
    last_updated: Ns('Exchange time of the quote, Unix ns.'), timeframe: Type.String({ description: TIMEFRAME }),
  })),
  last_trade: Type.Optional(Type.Object({
    last_updated: Ns('Exchange time of the trade, Unix ns.'), price: Type.Number(), size: Type.Integer(), timeframe: Type.String({ description: TIMEFRAME }),
  })),
  product_code: Type.String(),
  session: Type.Optional(Type.Object({
    change: OptNumber('Settlement (the last price while the session runs) minus the previous settlement.'),
    change_percent: OptNumber('change / previous_settlement, as upstream writes it (0.0962 for +9.62 %).'),
    close: Type.Number(), high: Type.Number(), low: Type.Number(), open: Type.Number(),
    previous_settlement: OptNumber('The settlement of the previous session.'),
    settlement_price: OptNumber('The settlement of the session, once it has closed.'),
    volume: Type.Integer(),
  })),
  ticker: Type.String(),
});

const ListOf = (row: TSchema) =>
  Type.Object({ status: Type.String(), request_id: Type.String(), results: Type.Array(row), next_url: Type.Optional(Type.String()) });
/** A page as upstream writes these lists: results and next_url (the snapshot adds count, as upstream's example does). */
const listBody = <W extends { length: number }>(page: ListPage<W>) => ({ results: page.results, ...(page.next_url ? { next_url: page.next_url } : {}) });

const TickerParams = Type.Object({ ticker: Type.String({ minLength: 1, maxLength: 64, description: 'a futures contract ticker such as ESZ6' }) });
const TimeText = (name: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: `a Unix timestamp in nanoseconds, an RFC 3339 time or a date in the form YYYY-MM-DD (${name})` }));
const TickQuery = (defaultLimit: number) => Type.Object({
  timestamp: TimeText('timestamp'),
  'timestamp.gt': TimeText('timestamp.gt'),
  'timestamp.gte': TimeText('timestamp.gte'),
  'timestamp.lt': TimeText('timestamp.lt'),
  'timestamp.lte': TimeText('timestamp.lte'),
  session_end_date: Type.Optional(DateString()),
  limit: Limit(defaultLimit, MAX_FUTURES_LIMIT),
  sort: StringEnum(['timestamp.asc', 'timestamp.desc'] as const, { default: 'timestamp.desc' }),
  cursor: Type.Optional(Cursor),
});
type TickParams = Static<ReturnType<typeof TickQuery>>;

const WindowText = (name: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: `a date in the form YYYY-MM-DD or a Unix timestamp in nanoseconds (${name})` }));
const AggQuery = Type.Object({
  resolution: Type.String({ default: '1session', minLength: 1, maxLength: 16, description: 'a size such as 1min, 5min, 1hour or 1session' }),
  window_start: WindowText('window_start'),
  'window_start.gt': WindowText('window_start.gt'),
  'window_start.gte': WindowText('window_start.gte'),
  'window_start.lt': WindowText('window_start.lt'),
  'window_start.lte': WindowText('window_start.lte'),
  limit: Limit(1000, MAX_FUTURES_LIMIT),
  sort: StringEnum(['window_start.asc', 'window_start.desc'] as const, { default: 'window_start.desc' }),
  cursor: Type.Optional(Cursor),
});
type AggParams = Static<typeof AggQuery>;

const MAX_LIST_VALUES = 1000;
const CodeText = Type.String({ minLength: 1, maxLength: 64, description: 'text of at most 64 characters' });
const CodeList = Type.String({ minLength: 1, maxLength: 20_000, description: `a comma-separated list of at most ${MAX_LIST_VALUES} values` });
const filterProps = (name: string) => ({
  [name]: Type.Optional(CodeText),
  [`${name}.any_of`]: Type.Optional(CodeList),
  [`${name}.gt`]: Type.Optional(CodeText),
  [`${name}.gte`]: Type.Optional(CodeText),
  [`${name}.lt`]: Type.Optional(CodeText),
  [`${name}.lte`]: Type.Optional(CodeText),
});
const SnapshotQuery = Type.Object({
  ...filterProps('product_code'),
  ...filterProps('ticker'),
  // the snapshot is a list like products (upstream's schema: 50001), not a tick read
  limit: Limit(100, 50_001),
  sort: StringEnum(['ticker.asc', 'ticker.desc', 'product_code.asc', 'product_code.desc'] as const, { default: 'ticker.asc' }),
  cursor: Type.Optional(Cursor),
});

const common = { tags: ['Futures'], market: 'futures' };

/**
 * [gte, lt) in ns narrowed to the plan's window; a cut the user asked into is noted on the body.
 * `until` is the end of the window (absent when the plan sees up to now with no end).
 */
function withinPlan(req: FastifyRequest, gte: bigint | undefined, lt: bigint | undefined): { gte?: bigint; lt?: bigint; until?: bigint } {
  const w = applyDataWindow(req);
  const earliest = Number.isFinite(w.earliestMs) ? BigInt(w.earliestMs) * NS_PER_MS : undefined;
  const latestEnd = Number.isFinite(w.latestMs) ? (BigInt(w.latestMs) + 1n) * NS_PER_MS : undefined;
  if (earliest !== undefined && (gte === undefined || gte < earliest)) {
    if (gte !== undefined) noteDataCut(req, { history: true });
    gte = earliest;
  }
  if (latestEnd !== undefined && (lt === undefined || lt > latestEnd)) {
    if (lt !== undefined || w.delayed) noteDataCut(req, { delay: true });
    lt = latestEnd;
  }
  return { gte, lt, until: latestEnd };
}

const orderOf = (sort: string): 'asc' | 'desc' => (sort.endsWith('.asc') ? 'asc' : 'desc');

/** The query of a first page of ticks; undefined when the filters leave nothing. */
function firstTickQuery(req: FastifyRequest, ticker: string, q: TickParams): FuturesTickQuery | undefined {
  const b = tickBounds(q, 'UTC');
  if (q.session_end_date !== undefined) parseDayParam(q.session_end_date, 'session_end_date');
  if (b.empty) return undefined;
  const { gte, lt } = withinPlan(req, b.gte, b.lt);
  if (gte !== undefined && lt !== undefined && gte >= lt) return undefined;
  return { ticker, gte: gte?.toString(), lt: lt?.toString(), session_end_date: q.session_end_date, order: orderOf(q.sort), limit: q.limit };
}

function firstAggQuery(req: FastifyRequest, ticker: string, q: AggParams): FuturesAggQuery | undefined {
  const r = parseResolution(q.resolution);
  const bounds = intersectBounds(q, 'window_start', (v, param) => windowStartInterval(v, r, param));
  if (bounds.empty) return undefined;
  const { gte, lt, until } = withinPlan(req, bounds.gte, bounds.lt);
  if (gte !== undefined && lt !== undefined && gte >= lt) return undefined;
  return { ticker, resolution: q.resolution, gte: gte?.toString(), lt: lt?.toString(), until: until?.toString(), order: orderOf(q.sort), limit: q.limit };
}

function textFilter(q: Record<string, unknown>, name: string): TextFilter {
  const f: TextFilter = {};
  const text = (k: string) => (typeof q[k] === 'string' ? (q[k] as string) : undefined);
  f.eq = text(name);
  const list = text(`${name}.any_of`);
  if (list !== undefined) {
    f.any_of = list.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
    if (f.any_of.length === 0 || f.any_of.length > MAX_LIST_VALUES) throw badParameter(`${name}.any_of must be a comma-separated list of 1 to ${MAX_LIST_VALUES} values`);
  }
  for (const op of ['gt', 'gte', 'lt', 'lte'] as const) f[op] = text(`${name}.${op}`);
  for (const k of Object.keys(f) as (keyof TextFilter)[]) if (f[k] === undefined) delete f[k];
  return f;
}

const TICK_TEXT =
  '`timestamp` (equality) and `timestamp.gt/.gte/.lt/.lte` take Unix ns, RFC 3339 or YYYY-MM-DD (the whole UTC day); `session_end_date` picks one trading date. ' +
  'Sorted by time then sequence number; `next_url` resumes strictly after the last row. An unknown contract has no rows.';

export async function futuresMarketRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  const futures = ctx.services.futuresMarket;
  for (const kind of ['trades', 'quotes'] as const) {
    const trades = kind === 'trades';
    getRoute(app, ctx, {
      ...common,
      url: `/futures/vX/${kind}/:ticker`,
      aliases: [`/futures/v1/${kind}/:ticker`],
      operationId: trades ? 'GetFuturesTrades' : 'GetFuturesQuotes',
      summary: trades ? 'Futures trades' : 'Futures quotes',
      description: `${trades ? 'Trades' : 'Best bid and offer quotes'} of one futures contract (ESZ6, …). ${TICK_TEXT}`,
      dataset: trades ? 'trades' : 'nbbo',
      params: TickerParams,
      querystring: TickQuery(trades ? 10 : 100),
      response: ListOf(trades ? TradeItem : QuoteItem),
      handler: async ({ params, query, req }) => {
        const ticker = params.ticker.toUpperCase();
        // the rows are bounded by the plan's window when a first page is asked (withinPlan), so
        // the generic cut (which reads `timestamp` as ms) is off for every page
        applyDataWindow(req);
        return listBody(await listPage<FuturesTickQuery, FuturesTrade | FuturesQuote, (FuturesTrade | FuturesQuote)[], FuturesTickPosition>(ctx, req, query, {
          family: `futures-${kind}`,
          firstQuery: () => firstTickQuery(req, ticker, query),
          validCursor: (q, a) => validTickCursor(q, a, ticker),
          read: (q, page) => (trades ? futures.ticks('trades', q, page) : futures.ticks('quotes', q, page)),
          present: (rows) => rows,
        }));
      },
    });
  }

  getRoute(app, ctx, {
    ...common,
    url: '/futures/vX/aggs/:ticker',
    aliases: ['/futures/v1/aggs/:ticker'],
    operationId: 'GetFuturesAggregates',
    summary: 'Futures aggregates',
    description:
      'Candles of one futures contract. `resolution` is a number and a unit: 1–59 `sec` (from trades), 1–59 `min`, 1–23 `hour`, or 1 `session`, `week`, `month`, ' +
      '`quarter`, `year`. Candles shorter than a session are counted from the start of the trading date (18:00 ET the day before) and end with it; a session candle ' +
      'starts at 00:00 UTC of its trading date (a week on the Sunday, a month on the 1st) and carries the settlement of its last session. `window_start` filters ' +
      'take a trading date (YYYY-MM-DD) or a Unix ns time, snapped to its candle. Newest first by default.',
    dataset: 'aggregates',
    params: TickerParams,
    querystring: AggQuery,
    response: ListOf(CandleItem),
    handler: async ({ params, query, req }) => {
      const ticker = params.ticker.toUpperCase();
      applyDataWindow(req); // bounded by withinPlan, as the ticks are
      return listBody(await listPage<FuturesAggQuery, FuturesCandle, FuturesCandle[], FuturesAggPosition>(ctx, req, query, {
        family: 'futures-aggs',
        firstQuery: () => firstAggQuery(req, ticker, query),
        validCursor: (q, a) => validAggCursor(q, a, ticker),
        read: (q, page) => futures.candles(q, page),
        present: (rows) => rows,
      }));
    },
  });

  getRoute(app, ctx, {
    ...common,
    url: '/futures/vX/snapshot',
    aliases: ['/futures/v1/snapshot'],
    operationId: 'GetFuturesSnapshot',
    summary: 'Futures snapshot',
    description:
      'Every active futures contract (its latest reference row) with its latest trade, quote and whole minute and its session: the latest trading date with data, ' +
      'its settlement once closed, and the change from the previous settlement. Contracts with no market data are listed with their details only.',
    dataset: 'snapshots',
    querystring: SnapshotQuery,
    response: Type.Composite([ListOf(SnapshotItem), Type.Object({ count: Type.Integer({ description: 'Items on this page.' }) })]),
    handler: async ({ query, req }) => {
      const { nowMs, timeframe } = snapshotTime(ctx, req);
      const page = await listPage<FuturesSnapshotQuery, FuturesSnapshotItem, FuturesSnapshotItem[], FuturesSnapshotPosition>(ctx, req, query, {
        family: 'futures-snapshot',
        firstQuery: () => {
          const [sort, order] = query.sort.split('.') as ['ticker' | 'product_code', 'asc' | 'desc'];
          return { ticker: textFilter(query, 'ticker'), product_code: textFilter(query, 'product_code'), sort, order, limit: query.limit };
        },
        validCursor: validSnapshotCursor,
        read: (q, page) => futures.snapshot(q, page, { nowMs, timeframe, visible: visibleTicks(req) }),
        present: (rows) => rows,
      });
      return { count: page.count, ...listBody(page) };
    },
  });
}
