import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { marketStatusAt, upcomingHolidays } from '../domain/calendar.js';
import type { RouteContext } from '../server/context.js';
import { getRoute } from '../server/route.js';
import { StringEnum } from '../server/schemas.js';

// Both bodies are computed from the trading calendar and ctx.now(); upstream sends them without
// status or request_id, hence `plain`.

const MarketState = StringEnum(['open', 'closed', 'extended-hours'] as const);
const OpenClosed = StringEnum(['open', 'closed'] as const);

const MarketStatusBody = Type.Object({
  market: MarketState,
  serverTime: Type.String(),
  earlyHours: Type.Boolean(),
  afterHours: Type.Boolean(),
  exchanges: Type.Object({ nyse: MarketState, nasdaq: MarketState, otc: MarketState }),
  currencies: Type.Object({ fx: OpenClosed, crypto: OpenClosed }),
  indicesGroups: Type.Object({
    s_and_p: OpenClosed,
    societe_generale: OpenClosed,
    msci: OpenClosed,
    ftse_russell: OpenClosed,
    mstar: OpenClosed,
    mstarc: OpenClosed,
    cccy: OpenClosed,
    cgi: OpenClosed,
    nasdaq: OpenClosed,
    dow_jones: OpenClosed,
  }),
});

const Holiday = Type.Object({
  exchange: Type.String(),
  name: Type.String(),
  date: Type.String(),
  status: StringEnum(['closed', 'early-close'] as const),
  open: Type.Optional(Type.String()),
  close: Type.Optional(Type.String()),
});

export async function marketStatusRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  getRoute(app, ctx, {
    url: '/v1/marketstatus/now',
    aliases: ['/v1/marketstatus'],
    operationId: 'GetMarketStatus',
    summary: 'Market status',
    description: 'Whether the US exchanges, currency markets and index groups are open right now, from the trading calendar (04:00–09:30 ET pre-market, 09:30–16:00 regular, 16:00–20:00 after hours; 13:00/17:00 on early-close days).',
    tags: ['Reference'],
    dataset: 'reference',
    market: 'stocks',
    plain: true,
    response: MarketStatusBody,
    handler: async () => marketStatusAt(ctx.now()),
  });

  getRoute(app, ctx, {
    url: '/v1/marketstatus/upcoming',
    operationId: 'GetMarketHolidays',
    summary: 'Market holidays',
    description: 'Exchange holidays and early closes after today (ET), ascending by date, one entry per exchange; early closes carry their open and close instants in UTC.',
    tags: ['Reference'],
    dataset: 'reference',
    market: 'stocks',
    plain: true,
    response: Type.Array(Holiday),
    handler: async () => upcomingHolidays(ctx.now()),
  });
}
