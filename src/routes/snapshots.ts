// v2 snapshots of stocks, forex and crypto: all tickers, one ticker, and
// gainers/losers, computed from stored bars and ticks as of the server clock (or the plan's
// delayed clock). The maths and rules are in services/snapshots.ts.
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { normalizeTicker } from '../domain/ticker-market.js';
import type { RouteContext } from '../server/context.js';
import { applyDataWindow, entitled, noteDataCut } from '../server/entitlements.js';
import { notFound } from '../domain/errors.js';
import { getRoute, requestCacheKey } from '../server/route.js';
import { JoinedJsonItems, JsonValue } from '../server/serializer.js';
import { snapshotEpoch } from '../services/live-snapshots.js';
import { StringEnum } from '../server/schemas.js';
import type { SnapshotMarket, VisibleTicks } from '../services/snapshots.js';
import { CryptoSnapshot, ForexSnapshot, StockSnapshot } from '../domain/snapshot-schemas.js';

/** The instant a snapshot describes: now, or the end of the plan's data window when it lags (delayed plans). */
export function snapshotClock(ctx: RouteContext, req: FastifyRequest): number {
  return snapshotTime(ctx, req).nowMs;
}

/**
 * The snapshot's clock, and its timeframe: 'DELAYED' exactly when the plan's delay holds the clock
 * back (comparing the clock with a second reading of the time would flip with the millisecond).
 */
export function snapshotTime(ctx: RouteContext, req: FastifyRequest): { nowMs: number; timeframe: 'REAL-TIME' | 'DELAYED' } {
  const now = ctx.now();
  const window = applyDataWindow(req);
  if (window.delayed && window.latestMs < now) {
    noteDataCut(req, { delay: true });
    return { nowMs: window.latestMs, timeframe: 'DELAYED' };
  }
  return { nowMs: now, timeframe: 'REAL-TIME' };
}

export function visibleTicks(req: FastifyRequest): VisibleTicks {
  return { trades: entitled(req, 'trades'), quotes: entitled(req, 'nbbo'), fmv: entitled(req, 'fmv') };
}

/** `tickers` as a comma-separated value, the key repeated, or both; empty means every ticker. */
function tickerList(raw: string[] | undefined, normalize: (t: string) => string): string[] | undefined {
  const list = (raw ?? []).flatMap((v) => v.split(',')).map((t) => t.trim()).filter((t) => t.length > 0);
  return list.length ? list.map(normalize) : undefined;
}

const TickersParam = Type.Array(Type.String({ maxLength: 20_000, description: 'a comma-separated list of tickers' }), { maxItems: 2000 });

interface MarketSpec {
  market: SnapshotMarket;
  base: string;
  label: string;
  op: string;
  item: TSchema;
  tickerParam: string;
  /** The market's live version (live-versions.ts: liveMarketOf, its tickers' symbol prefix). */
  liveMarket: string;
}

const MARKETS: MarketSpec[] = [
  { market: 'stocks', base: '/v2/snapshot/locale/us/markets/stocks', label: 'stocks', op: 'Stocks', item: StockSnapshot, tickerParam: 'stocksTicker', liveMarket: '' },
  { market: 'fx', base: '/v2/snapshot/locale/global/markets/forex', label: 'forex', op: 'Forex', item: ForexSnapshot, tickerParam: 'ticker', liveMarket: 'C' },
  { market: 'crypto', base: '/v2/snapshot/locale/global/markets/crypto', label: 'crypto', op: 'Crypto', item: CryptoSnapshot, tickerParam: 'ticker', liveMarket: 'X' },
];

export async function snapshotRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  const identity = requestCacheKey(ctx);
  for (const m of MARKETS) {
    // Kept for the clock's epoch (the day and the minute: which minute bars have completed) and
    // what the plan shows; never for a delayed clock, which moves with every millisecond.
    const cacheKey = (args: { query: unknown; req: FastifyRequest }): string | undefined => {
      const t = snapshotTime(ctx, args.req);
      if (t.timeframe === 'DELAYED') return undefined;
      const show = visibleTicks(args.req);
      return `${identity(args)}\0${snapshotEpoch(m.market, t.nowMs)}\0${show.trades ? 't' : ''}${show.quotes ? 'q' : ''}${show.fmv ? 'f' : ''}`;
    };
    const marketScope = () => ({ market: m.liveMarket });
    const stocks = m.market === 'stocks';
    const normalize = stocks ? (t: string) => t : normalizeTicker;
    const otcParam: Record<string, TSchema> = stocks ? { include_otc: Type.Boolean({ default: false }) } : {};

    getRoute(app, ctx, {
      url: `${m.base}/tickers`,
      operationId: `Get${m.op}SnapshotTickers`,
      summary: `Snapshot, all ${m.label} tickers`,
      description:
        `Day, latest minute, previous day, last trade and quote of every ${m.label} ticker (or those in \`tickers\`, comma-separated or repeated), as of now. ` +
        'Unknown tickers are left out.' + (stocks ? ' OTC tickers only with `include_otc=true`.' : ''),
      tags: ['Snapshots'],
      dataset: 'snapshots',
      market: m.market,
      querystring: Type.Object({ tickers: Type.Optional(TickersParam), ...otcParam }),
      response: Type.Object({ status: Type.String(), request_id: Type.String(), count: Type.Integer(), tickers: Type.Array(m.item) }),
      // each ticker's snapshot is JSON written once per change (the live state keeps it), spliced in
      serializer: 'native',
      cacheKey,
      liveScope: marketScope,
      // a changed market's answer spliced again from the pieces kept, on the path of repeated requests
      renew: ({ query, req }) => {
        const q = query as { tickers?: string[]; include_otc?: boolean };
        if (tickerList(q.tickers, normalize) !== undefined) return undefined;
        const at = { market: m.market, includeOtc: q.include_otc ?? false, show: visibleTicks(req) };
        return () => {
          const kept = ctx.services.snapshots.marketPiecesNow({ ...at, nowMs: ctx.now() });
          return kept && { count: kept.count, tickers: new JoinedJsonItems(kept.pieces, kept.count) };
        };
      },
      handler: async ({ query, req }) => {
        const q = query as { tickers?: string[]; include_otc?: boolean };
        const { count, pieces } = await ctx.services.snapshots.listPieces({
          market: m.market,
          tickers: tickerList(q.tickers, normalize),
          nowMs: snapshotClock(ctx, req),
          includeOtc: q.include_otc ?? false,
          show: visibleTicks(req),
        });
        req.fromMemory = true;
        return { count, tickers: new JoinedJsonItems(pieces, count) };
      },
    });

    getRoute(app, ctx, {
      url: `${m.base}/tickers/:${m.tickerParam}`,
      operationId: `Get${m.op}SnapshotTicker`,
      summary: `Snapshot, one ${m.label} ticker`,
      description: `The snapshot of one ${m.label} ticker as of now; 404 when the store has no data for it.`,
      tags: ['Snapshots'],
      dataset: 'snapshots',
      market: m.market,
      params: Type.Object({ [m.tickerParam]: Type.String({ minLength: 1, maxLength: 64, description: 'a ticker symbol' }) }),
      // count (always 1) as the list snapshots carry it; older clients (client-js 8.x) read it here too
      response: Type.Object({ status: Type.String(), request_id: Type.String(), ticker: m.item, count: Type.Integer() }),
      // the ticker's snapshot is JSON written once per change (the live state keeps it), spliced in
      serializer: 'native',
      cacheKey,
      liveScope: ({ params }) => ({ ticker: normalize((params as Record<string, string>)[m.tickerParam]!) }),
      // made again from the live state on each change of the ticker, on the path of repeated requests
      renew: ({ params, req }) => {
        const ticker = normalize((params as Record<string, string>)[m.tickerParam]!);
        const show = visibleTicks(req);
        return () => {
          const json = ctx.services.snapshots.oneJsonNow({ market: m.market, nowMs: ctx.now(), show }, ticker);
          return json && { ticker: new JsonValue(json), count: 1 };
        };
      },
      handler: async ({ params, req }) => {
        const ticker = normalize((params as Record<string, string>)[m.tickerParam]!);
        const json = await ctx.services.snapshots.oneJson({ market: m.market, nowMs: snapshotClock(ctx, req), show: visibleTicks(req) }, ticker);
        if (!json) throw notFound('Ticker not found.');
        return { ticker: new JsonValue(json), count: 1 };
      },
    });

    getRoute(app, ctx, {
      url: `${m.base}/:direction`,
      operationId: `Get${m.op}SnapshotDirection`,
      summary: `Snapshot, top ${m.label} gainers or losers`,
      description:
        'The 20 tickers with the largest gain (or loss) in percent since the previous close, largest first, ties by ticker. ' +
        (stocks ? 'Only tickers with at least 10,000 shares traded today; OTC tickers only with `include_otc=true`.' : 'No volume floor.'),
      tags: ['Snapshots'],
      dataset: 'snapshots',
      market: m.market,
      params: Type.Object({ direction: StringEnum(['gainers', 'losers'] as const) }),
      querystring: Type.Object({ ...otcParam }),
      response: Type.Object({ status: Type.String(), request_id: Type.String(), count: Type.Integer(), tickers: Type.Array(m.item) }),
      cacheKey,
      liveScope: marketScope,
      handler: async ({ params, query, req }) => {
        const tickers = await ctx.services.snapshots.movers(
          { market: m.market, nowMs: snapshotClock(ctx, req), includeOtc: (query as { include_otc?: boolean }).include_otc ?? false, show: visibleTicks(req) },
          params.direction,
        );
        return { count: tickers.length, tickers };
      },
    });
  }
}
