// Technical indicators: SMA, EMA, RSI and MACD of any ticker's bars.
// The computation is in services/indicators.ts.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LineValue, MacdValue } from '../domain/indicator-schemas.js';
import type { IndicatorKind, IndicatorParams } from '../domain/indicators.js';
import { barZone, marketOfTicker, normalizeTicker } from '../domain/ticker-market.js';
import type { RouteContext } from '../server/context.js';
import { listPage } from '../server/pagination.js';
import { baseUrl, getRoute } from '../server/route.js';
import { Cursor, Limit, Order, StringEnum } from '../server/schemas.js';
import type { IndicatorResult } from '../services/indicators.js';
import { AggBar } from './aggregates.js';
import { parseFlexibleTimeMs } from './time-params.js';

const MAX_WINDOW = 5000;
const Window = (def: number) => Type.Integer({ minimum: 1, maximum: MAX_WINDOW, default: def });
const TimeInput = () => Type.String({ minLength: 1, maxLength: 32, description: 'a date in the form YYYY-MM-DD or a Unix timestamp' });

const common = {
  timestamp: Type.Optional(TimeInput()),
  'timestamp.gt': Type.Optional(TimeInput()),
  'timestamp.gte': Type.Optional(TimeInput()),
  'timestamp.lt': Type.Optional(TimeInput()),
  'timestamp.lte': Type.Optional(TimeInput()),
  timespan: StringEnum(['minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const, { default: 'day' }),
  adjusted: Type.Boolean({ default: true }),
  series_type: StringEnum(['open', 'high', 'low', 'close'] as const, { default: 'close' }),
  expand_underlying: Type.Boolean({ default: false }),
  order: Order('desc'),
  limit: Limit(10, 5000),
  cursor: Type.Optional(Cursor),
};
const WindowQuery = (def: number) => Type.Object({ ...common, window: Window(def) });
const MacdQuery = Type.Object({ ...common, short_window: Window(12), long_window: Window(26), signal_window: Window(9) });
type CommonQuery = Static<ReturnType<typeof WindowQuery>> & Partial<Static<typeof MacdQuery>>;

const Body = (value: TSchema) =>
  Type.Object({
    status: Type.String(),
    request_id: Type.String(),
    results: Type.Object({
      values: Type.Array(value),
      underlying: Type.Object({ url: Type.String(), aggregates: Type.Optional(Type.Array(AggBar)) }),
    }),
    next_url: Type.Optional(Type.String()),
  });

const TickerParams = Type.Object({ ticker: Type.String({ minLength: 1, maxLength: 64, description: 'a ticker symbol' }) });
const tickerMarket = (req: FastifyRequest) => marketOfTicker((req.params as { ticker?: string }).ticker ?? '');

/** [lo, hi) in ms of the value timestamps the filters allow (a date is its whole day in the bar zone). */
function bounds(q: CommonQuery, ticker: string): { lo: number; hi: number } {
  const zone = barZone(marketOfTicker(ticker));
  let lo = -Infinity;
  let hi = Infinity;
  const read = (name: 'timestamp' | 'timestamp.gt' | 'timestamp.gte' | 'timestamp.lt' | 'timestamp.lte') => {
    const v = q[name];
    return v === undefined ? undefined : parseFlexibleTimeMs(v, name, zone);
  };
  const eq = read('timestamp');
  if (eq) [lo, hi] = [eq.startMs, eq.endMs];
  const gt = read('timestamp.gt');
  if (gt) lo = Math.max(lo, gt.endMs);
  const gte = read('timestamp.gte');
  if (gte) lo = Math.max(lo, gte.startMs);
  const lt = read('timestamp.lt');
  if (lt) hi = Math.min(hi, lt.startMs);
  const lte = read('timestamp.lte');
  if (lte) hi = Math.min(hi, lte.endMs);
  return { lo, hi };
}

function paramsOf<K extends IndicatorKind>(kind: K, q: CommonQuery): IndicatorParams[K] {
  if (kind === 'macd') return { shortWindow: q.short_window!, longWindow: q.long_window!, signalWindow: q.signal_window! } as IndicatorParams[K];
  return { window: q.window } as IndicatorParams[K];
}

/** The aggregates URL of the bars used (upstream's form), absolute and without the key. */
function underlyingUrl(ctx: RouteContext, req: FastifyRequest, ticker: string, timespan: string, fromMs: number, toMs: number, adjusted: boolean): string {
  const path = `/v2/aggs/ticker/${encodeURIComponent(ticker).replace(/%3A/gi, ':')}/range/1/${timespan}/${fromMs}/${toMs}`;
  return `${baseUrl(ctx, req)}${path}?adjusted=${adjusted}&limit=50000&sort=desc`;
}

const LABEL: Record<IndicatorKind, string> = {
  sma: 'Simple moving average (SMA)',
  ema: 'Exponential moving average (EMA)',
  rsi: 'Relative strength index (RSI)',
  macd: 'Moving average convergence/divergence (MACD)',
};

export async function indicatorRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  const route = <K extends IndicatorKind>(kind: K, querystring: TSchema, value: TSchema, description: string) =>
    getRoute(app, ctx, {
      url: `/v1/indicators/${kind}/:ticker`,
      operationId: `Get${kind.toUpperCase()}`,
      summary: LABEL[kind],
      description,
      tags: ['Technical indicators'],
      dataset: 'indicators',
      market: tickerMarket,
      params: TickerParams,
      querystring,
      response: Body(value),
      handler: async ({ params, query: raw, req }) => {
        const ticker = normalizeTicker(params.ticker);
        // what the page was read with (from the cursor or the parameters), for underlying
        let used: { query: CommonQuery; result: IndicatorResult } | undefined;
        const page = await listPage(ctx, req, raw as CommonQuery & { cursor?: string }, {
          family: `indicator-${kind}`,
          read: async (query: CommonQuery, page) => {
            const { lo, hi } = bounds(query, ticker);
            const r = await ctx.services.indicators.page({
              kind,
              params: paramsOf(kind, query),
              ticker,
              timespan: query.timespan,
              adjusted: query.adjusted,
              seriesType: query.series_type,
              order: query.order,
              lo,
              hi,
            }, page);
            used = { query, result: r.result };
            return r;
          },
          present: (values) => values,
        });
        const { query, result: r } = used!;
        const underlying = {
          url: underlyingUrl(ctx, req, ticker, query.timespan, r.fromMs, r.toMs, query.adjusted),
          ...(query.expand_underlying ? { aggregates: r.bars } : {}),
        };
        return { results: { values: page.results, underlying }, ...(page.next_url ? { next_url: page.next_url } : {}) };
      },
    });

  const common = ' of the bars of /v2/aggs/ticker/{ticker}/range/1/{timespan}, values at the start time of the bar that ends each window, newest first by default. ' +
    'Enough earlier bars are read that every value is complete (SMA) or independent of its seed to about e^-10 (EMA, RSI, MACD).';
  route('sma', WindowQuery(50), LineValue, `Mean of the last \`window\` values${common}`);
  route('ema', WindowQuery(50), LineValue, `EMA with α = 2/(window+1), seeded with the SMA of the first window${common}`);
  route('rsi', WindowQuery(14), LineValue, `RSI (0–100) with Wilder smoothing over \`window\` changes${common}`);
  route('macd', MacdQuery, MacdValue, `MACD line = EMA(short_window) − EMA(long_window), signal = EMA(signal_window) of the line, histogram = line − signal${common}`);
}
