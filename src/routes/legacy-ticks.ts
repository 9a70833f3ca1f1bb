// The older tick endpoints upstream still answers: v2 stock trades and NBBO of one day, and v1
// historic forex quotes and crypto trades of one day (services/legacy-ticks.ts reads them).
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { applyDataWindow, noteDataCut } from '../server/entitlements.js';
import { getRoute } from '../server/route.js';
import { DateString, Limit } from '../server/schemas.js';
import {
  HISTORIC_CRYPTO_MAP, HISTORIC_FOREX_MAP, V2_QUOTE_MAP, V2_TRADE_MAP, type HistoricQuery, type LegacyTickPage, type TickWindowLimits,
} from '../services/legacy-ticks.js';

const Ns = () => Type.Unsafe<bigint>(Type.Integer());
const OptNs = () => Type.Optional(Ns());
const OptInt = () => Type.Optional(Type.Integer());
const Codes = () => Type.Optional(Type.Array(Type.Integer()));

const V2Trade = Type.Object({
  T: Type.String(), t: Ns(), y: OptNs(), f: OptNs(), q: OptNs(), c: Codes(), i: Type.Optional(Type.String()),
  p: Type.Number(), s: Type.Number(), e: OptInt(), x: Type.Integer(), r: OptInt(), z: OptInt(),
});
const V2Quote = Type.Object({
  T: Type.String(), t: OptNs(), y: OptNs(), f: OptNs(), q: OptNs(), c: Codes(), i: Codes(),
  p: Type.Number(), s: Type.Optional(Type.Number()), x: OptInt(), P: Type.Number(), S: Type.Optional(Type.Number()), X: OptInt(), z: OptInt(),
});
const ForexTick = Type.Object({ a: Type.Number(), b: Type.Number(), x: OptInt(), t: Type.Integer() });
const CryptoTick = Type.Object({ p: Type.Number(), s: Type.Number(), x: Type.Integer(), c: Type.Array(Type.Integer()), i: Type.Optional(Type.String()), t: Type.Integer() });

const MapEntry = Type.Object({ name: Type.String(), type: Type.String() });
const V2Body = (row: TSchema) =>
  Type.Object({
    ticker: Type.String(),
    results_count: Type.Integer(),
    db_latency: Type.Integer(),
    success: Type.Boolean(),
    map: Type.Record(Type.String(), MapEntry),
    results: Type.Array(row),
  });
const HistoricBody = (row: TSchema, name: 'pair' | 'symbol') =>
  Type.Object({
    status: Type.String(),
    day: Type.String(),
    map: Type.Record(Type.String(), Type.String()),
    msLatency: Type.Integer(),
    [name]: Type.String(),
    ticks: Type.Array(row),
    type: Type.String(),
  });

const NsText = (name: string) => Type.Optional(Type.String({ pattern: '^\\d{1,19}$', description: `a Unix timestamp in nanoseconds (${name})` }));
const V2Params = Type.Object({
  ticker: Type.String({ minLength: 1, maxLength: 64, description: 'a ticker symbol' }),
  date: DateString(),
});
const V2Query = Type.Object({
  timestamp: NsText('timestamp'),
  timestampLimit: NsText('timestampLimit'),
  reverse: Type.Boolean({ default: false }),
  limit: Limit(5000, 50_000),
});
const Currency = Type.String({ pattern: '^[A-Za-z0-9]{1,10}$', description: 'a currency symbol of 1 to 10 letters or digits' });
const HistoricParams = Type.Object({ from: Currency, to: Currency, date: DateString() });
const HistoricQueryParams = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000, description: 'a Unix timestamp in milliseconds' })),
  limit: Limit(100, 10_000),
});

/** The plan's window for this request; the body is cut by the read itself, so the cut is noted here. */
function windowOf(req: FastifyRequest): TickWindowLimits {
  return applyDataWindow(req);
}

function noteCut<P extends LegacyTickPage<unknown>>(req: FastifyRequest, page: P): P {
  if (page.cut.history || page.cut.delay) noteDataCut(req, page.cut);
  return page;
}

const V2_TEXT =
  'The ticks of one trading day (America/New_York) in SIP time order. `timestamp` (Unix ns) is the first time included ' +
  '(the last one with `reverse=true`): pass the `t` of the last row for the next page, which repeats the rows of that time. `timestampLimit` (Unix ns) is the latest time included. ' +
  'Superseded upstream by /v3/';

export async function legacyTickRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  const ticks = ctx.services.legacyTicks;
  const v2 = (kind: 'trades' | 'nbbo') => {
    const trades = kind === 'trades';
    getRoute(app, ctx, {
      url: `/v2/ticks/stocks/${kind}/:ticker/:date`,
      operationId: trades ? 'GetV2HistoricTrades' : 'GetV2HistoricQuotes',
      summary: trades ? 'Historic trades (v2)' : 'Historic NBBO quotes (v2)',
      description: `${V2_TEXT}${trades ? 'trades' : 'quotes'}.`,
      tags: ['Trades & quotes'],
      dataset: kind,
      market: 'stocks',
      params: V2Params,
      querystring: V2Query,
      plain: true,
      response: V2Body(trades ? V2Trade : V2Quote),
      handler: async ({ params, query, req }) => {
        const q = {
          ticker: params.ticker, date: params.date, reverse: query.reverse, limit: query.limit,
          timestamp: query.timestamp === undefined ? undefined : BigInt(query.timestamp),
          timestampLimit: query.timestampLimit === undefined ? undefined : BigInt(query.timestampLimit),
        };
        const page: LegacyTickPage<unknown> = noteCut(req, trades ? await ticks.v2Trades(q, windowOf(req)) : await ticks.v2Quotes(q, windowOf(req)));
        return {
          ticker: params.ticker, results_count: page.rows.length, db_latency: page.latencyMs, success: true,
          map: trades ? V2_TRADE_MAP : V2_QUOTE_MAP, results: page.rows,
        };
      },
    });
  };
  v2('trades');
  v2('nbbo');

  const HISTORIC_TEXT =
    'of one UTC day in time order; `t` is Unix ms. `offset` (Unix ms) is the first time included: pass the `t` of the last tick for the next page, which repeats the ticks of that millisecond.';
  const historic = [
    {
      kind: 'forex', op: 'GetHistoricForexTicks', what: 'ticks', dataset: 'nbbo' as const, market: 'fx', prefix: 'C:', label: 'pair' as const, join: '/',
      text: 'BBO quotes of the pair C:{from}{to} (a = ask, b = bid, x = exchange)', successor: '/v3/quotes', item: ForexTick,
      read: (q: HistoricQuery, w: TickWindowLimits) => ticks.historicForex(q, w), map: HISTORIC_FOREX_MAP,
    },
    {
      kind: 'crypto', op: 'GetHistoricCryptoTrades', what: 'trades', dataset: 'trades' as const, market: 'crypto', prefix: 'X:', label: 'symbol' as const, join: '-',
      text: 'Trades of the pair X:{from}{to} (p = price, s = size, x = exchange, c = conditions, i = id)', successor: '/v3/trades', item: CryptoTick,
      read: (q: HistoricQuery, w: TickWindowLimits) => ticks.historicCrypto(q, w), map: HISTORIC_CRYPTO_MAP,
    },
  ];
  for (const h of historic) {
    getRoute(app, ctx, {
      url: `/v1/historic/${h.kind}/:from/:to/:date`,
      operationId: h.op,
      summary: `Historic ${h.kind} ${h.what} (v1)`,
      description: `${h.text} ${HISTORIC_TEXT} Superseded upstream by ${h.successor}.`,
      tags: ['Trades & quotes'],
      dataset: h.dataset,
      market: h.market,
      params: HistoricParams,
      querystring: HistoricQueryParams,
      plain: true,
      response: HistoricBody(h.item, h.label),
      handler: async ({ params, query, req }) => {
        const [from, to] = [params.from.toUpperCase(), params.to.toUpperCase()];
        const page = noteCut(req, await h.read({ ticker: `${h.prefix}${from}${to}`, date: params.date, offsetMs: query.offset, limit: query.limit }, windowOf(req)));
        return { status: 'success', day: params.date, map: h.map, msLatency: page.latencyMs, [h.label]: `${from}${h.join}${to}`, ticks: page.rows, type: h.kind };
      },
    });
  }
}
