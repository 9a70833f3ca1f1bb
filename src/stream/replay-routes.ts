// The replay API, authenticated with the same API keys as REST:
//   POST   /v1/replay              {from, to, speed, markets?, tickers} → id and feed paths
//   GET    /v1/replay/:id          state and position
//   POST   /v1/replay/:id/pause | /resume | /seek {position}
//   DELETE /v1/replay/:id
// Only the creating key sees or connects to a replay (others get 404, as for an unknown id). The
// plan decides the markets, what is replayed (trades, quotes, bars) and how far back.
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { nyMidnight, parseDate } from '../domain/calendar.js';
import { presentedKey, type KeyAuthenticator } from '../server/auth.js';
import { planWindow } from '../server/entitlements.js';
import { ApiError, badParameter, notFound } from '../domain/errors.js';
import type { Plan, PlanCatalog } from '../server/plans.js';
import { FEED_MARKETS, marketOfEvent, planMarketOf, type FeedMarket } from './markets.js';
import type { Replay, ReplayManager, Speed } from './replay.js';

const MAX_REPLAYS_PER_KEY = 5;
const MAX_WINDOW_MS = 31 * 86_400_000;
const DAY_MS = 86_400_000;

const Instant = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ minLength: 10, maxLength: 40 })], {
  description: 'Unix ms, a date (YYYY-MM-DD, New York day) or an ISO 8601 time',
});
const CreateBody = Type.Object(
  {
    from: Instant,
    to: Instant,
    speed: Type.Optional(Type.Union([Type.Number({ minimum: 0.01, maximum: 100_000 }), Type.Literal('max')])),
    markets: Type.Optional(Type.Array(Type.Union(FEED_MARKETS.map((m) => Type.Literal(m))), { minItems: 1, maxItems: 6 })),
    tickers: Type.Array(Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9:.\\-/]+$' }), { minItems: 1, maxItems: 100 }),
  },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) });
const SeekBody = Type.Object({ position: Instant }, { additionalProperties: false });

/** An instant of the API: ms, a New York date (start, or end when `end`), or an ISO time. */
function instantOf(v: number | string, name: string, end: boolean): number {
  if (typeof v === 'number') return v;
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) {
    if (parseDate(v) === null) throw badParameter(`${name} is not a valid date: ${v}`);
    return end ? nyMidnight(v) + DAY_MS : nyMidnight(v); // a `to` date includes its whole day
  }
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw badParameter(`${name} must be Unix ms, a date (YYYY-MM-DD) or an ISO 8601 time; got ${JSON.stringify(v)}`);
  return t;
}

export interface ReplayRouteDeps {
  auth: KeyAuthenticator;
  plans: PlanCatalog;
  replays: ReplayManager;
  now: () => number;
  wrapped: boolean;
}

export async function replayRoutes(app: FastifyInstance, deps: ReplayRouteDeps): Promise<void> {
  const caller = async (req: FastifyRequest): Promise<{ keyId: string; plan: Plan }> => {
    const record = await deps.auth.authenticate(presentedKey(req));
    const plan = deps.plans.get(record.plan);
    if (!plan) throw new ApiError('NOT_AUTHORIZED', `The key's plan ${record.plan} is not configured`);
    return { keyId: record.id, plan };
  };
  const send = (req: FastifyRequest, reply: FastifyReply, results: Record<string, unknown>, code = 200, extra: Record<string, unknown> = {}) => {
    const inner = { status: 'OK', request_id: req.id, ...extra, results };
    return reply.code(code).header('Cache-Control', 'no-store').send(deps.wrapped ? { ok: true, data: inner } : inner);
  };
  const owned = async (req: FastifyRequest<{ Params: Static<typeof IdParams> }>): Promise<Replay> => {
    const { keyId } = await caller(req);
    const r = deps.replays.get(req.params.id);
    if (!r || r.spec.keyId !== keyId) throw notFound(`No replay with id ${req.params.id}`);
    return r;
  };

  app.post<{ Body: Static<typeof CreateBody> }>('/v1/replay', { schema: { hide: true, body: CreateBody } }, async (req, reply) => {
    const { keyId, plan } = await caller(req);
    const body = req.body;
    const fromMs = instantOf(body.from, 'from', false);
    let toMs = instantOf(body.to, 'to', true);
    if (toMs <= fromMs) throw badParameter('to must be after from');
    if (toMs - fromMs > MAX_WINDOW_MS) throw badParameter('a replay covers at most 31 days (from to to)');
    const tickers = body.tickers;
    const markets = body.markets ?? [...new Set(tickers.map((t) => marketOfEvent('', t)))];
    for (const m of markets) {
      if (plan.markets !== '*' && !plan.markets.includes(planMarketOf(m))) throw new ApiError('NOT_AUTHORIZED', `Your plan (${plan.name}) doesn't include the ${m} market`);
    }
    const market = planMarketOf(markets[0]!);
    const kinds = {
      trades: deps.plans.entitled(plan, 'trades', market),
      quotes: deps.plans.entitled(plan, 'nbbo', market),
      bars: deps.plans.entitled(plan, 'aggregates', market),
    };
    if (!kinds.trades && !kinds.quotes && !kinds.bars) throw new ApiError('NOT_AUTHORIZED', `Your plan (${plan.name}) includes no trades, quotes or aggregates to replay`);
    const window = planWindow(plan, deps.now());
    if (fromMs < window.earliestMs) {
      throw new ApiError('NOT_AUTHORIZED', `Your plan (${plan.name}) includes history from ${new Date(window.earliestMs).toISOString().slice(0, 10)}; from is earlier`);
    }
    let notice: string | undefined;
    if (toMs > window.latestMs + 1) {
      if (fromMs > window.latestMs) throw new ApiError('NOT_AUTHORIZED', `Your plan (${plan.name}) includes data up to ${new Date(window.latestMs).toISOString()} only`);
      toMs = window.latestMs + 1;
      notice = `to was cut to ${new Date(toMs).toISOString()}, the latest data your plan (${plan.name}) includes`;
    }
    if (deps.replays.countFor(keyId) >= MAX_REPLAYS_PER_KEY) {
      throw new ApiError('RATE_LIMITED', `A key may hold ${MAX_REPLAYS_PER_KEY} unfinished replays at once; DELETE /v1/replay/<id> one first`);
    }
    const speed: Speed = body.speed ?? 1;
    const r = deps.replays.create({ keyId, tickers, markets: markets as FeedMarket[], fromMs, toMs, speed, kinds });
    return send(req, reply, r.describe(), 201, notice ? { notice } : {});
  });

  app.get<{ Params: Static<typeof IdParams> }>('/v1/replay/:id', { schema: { hide: true, params: IdParams } }, async (req, reply) => send(req, reply, (await owned(req)).describe()));

  app.post<{ Params: Static<typeof IdParams> }>('/v1/replay/:id/pause', { schema: { hide: true, params: IdParams } }, async (req, reply) => {
    const r = await owned(req);
    r.pause();
    return send(req, reply, r.describe());
  });

  app.post<{ Params: Static<typeof IdParams> }>('/v1/replay/:id/resume', { schema: { hide: true, params: IdParams } }, async (req, reply) => {
    const r = await owned(req);
    if (r.state === 'paused' || r.state === 'waiting') r.play();
    return send(req, reply, r.describe());
  });

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof SeekBody> }>(
    '/v1/replay/:id/seek',
    { schema: { hide: true, params: IdParams, body: SeekBody } },
    async (req, reply) => {
      const r = await owned(req);
      const at = instantOf(req.body.position, 'position', false);
      if (at < r.spec.fromMs || at >= r.spec.toMs) throw badParameter(`position must lie within the replay's window [${r.spec.fromMs}, ${r.spec.toMs})`);
      r.seek(at);
      return send(req, reply, r.describe());
    },
  );

  app.delete<{ Params: Static<typeof IdParams> }>('/v1/replay/:id', { schema: { hide: true, params: IdParams } }, async (req, reply) => {
    const r = await owned(req);
    deps.replays.delete(r.id);
    return send(req, reply, { id: r.id, state: 'deleted' });
  });
}
