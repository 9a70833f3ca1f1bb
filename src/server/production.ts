import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { StoreUnavailableError } from '../store/driver.js';
import type { CachedHits } from './cached-hits.js';
import type { ServerContext } from './context.js';
import { cutNotice, cutToWindow, entitlementGuard } from './entitlements.js';
import { hardeningSettings, registerHardening, type HardeningOptions } from './hardening.js';
import { AccessLog, isNoopLogger, type AccessLogMode } from './logger.js';
import { metricsContentType, metricsText, rateLimitRejections, RequestMetrics, storeErrors } from './metrics.js';
import { PlanCatalog } from './plans.js';
import { BodyPieces } from './body-pieces.js';
import { tickerCaseNotice } from './ticker-case.js';
import { createRateLimiter, rateLimitGuard, rateLimitHeaders, type FailMode, type RateLimiter } from './rate-limit.js';
import { UsageRecorder, type UsageRecorderOptions } from './usage.js';

// Wires the production concerns into an app, for every route at once: the plan and rate-limit
// guards (ctx.guards, run by getRoute for every keyed route), global hooks for usage, metrics,
// request logs, rate-limit headers and the data-window cut, the hardening plugins, and the
// /metrics endpoint. The composition root adds the operational routes (/health, /ready, /admin/...).

export interface ProductionOptions {
  /** Plan catalogue (default: the built-ins). */
  plans?: PlanCatalog;
  /** Shared Redis: rate limits across processes and a readiness check. The caller closes it. */
  redis?: Redis;
  /** Rate limiting when Redis cannot answer (default open: fall back to per-process limits). */
  rateLimitFail?: FailMode;
  /** A limiter of the caller's (default: Redis when given, the cluster limiter in a worker, else memory). */
  rateLimiter?: RateLimiter;
  /** Usage counters' batching, or false for none. */
  usage?: UsageRecorderOptions | false;
  /** Enables /admin/... (at least 24 characters). */
  adminToken?: string;
  hardening?: HardeningOptions;
  /** Serve /metrics (default true). */
  metrics?: boolean;
  /** True once shutdown has begun (for /ready). */
  closing?: () => boolean;
  /** Which requests get an access line when a logger is on (default: all). */
  accessLog?: AccessLogMode;
}

export interface ProductionRuntime {
  plans: PlanCatalog;
  limiter: RateLimiter;
  usage?: UsageRecorder;
}

declare module 'fastify' {
  interface FastifyInstance {
    production?: ProductionRuntime;
  }
}

/** Inserts `"notice":"..."` as the inner body's first field of an already serialized JSON body. */
function withNotice(payload: string | Buffer, notice: string, wrapped: boolean): string | Buffer {
  const prefix = wrapped ? '{"ok":true,"data":{' : '{';
  if (typeof payload !== 'string') {
    // a body written as bytes: the same splice, without turning the bytes into a string
    if (payload.length < prefix.length || payload.toString('latin1', 0, prefix.length) !== prefix) return payload;
    const empty = payload[prefix.length] === 0x7d; // '}'
    return Buffer.concat([Buffer.from(`${prefix}"notice":${JSON.stringify(notice)}${empty ? '' : ','}`), payload.subarray(prefix.length)]);
  }
  if (!payload.startsWith(prefix)) return payload;
  const rest = payload.slice(prefix.length);
  return `${prefix}"notice":${JSON.stringify(notice)}${rest.startsWith('}') ? '' : ','}${rest}`;
}

/** An error raised by a store engine itself (better-sqlite3's SqliteError, pg's DatabaseError). */
function isEngineError(error: Error): boolean {
  return error.name === 'SqliteError' || (typeof (error as { severity?: unknown }).severity === 'string' && typeof (error as { code?: unknown }).code === 'string');
}

function innerBody(payload: unknown, wrapped: boolean): Record<string, unknown> | undefined {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
  const p = payload as Record<string, unknown>;
  const inner = wrapped ? p.data : p;
  return inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : undefined;
}

export async function setupProduction(app: FastifyInstance, ctx: ServerContext, opts: ProductionOptions = {}, hits?: CachedHits): Promise<ProductionRuntime> {
  const plans = opts.plans ?? PlanCatalog.builtin();
  const limiter = opts.rateLimiter ?? createRateLimiter({ redis: opts.redis, failMode: opts.rateLimitFail });
  const usage =
    opts.usage === false
      ? undefined
      : new UsageRecorder(ctx.store.usage, {
          ...opts.usage,
          onError: (err) => {
            storeErrors.inc({ kind: err instanceof StoreUnavailableError ? 'unavailable' : 'other' });
            app.log.warn({ err }, 'usage counters could not be written; kept for the next attempt');
          },
        });
  const runtime: ProductionRuntime = { plans, limiter, usage };
  app.decorate('plans', plans);
  app.decorate('production', runtime);

  // Rate limit first (refused requests count, as upstream's do), then entitlements; both before
  // any guard the caller passed.
  const builtIn = [rateLimitGuard(limiter, plans, (plan) => rateLimitRejections.inc({ plan: plan.name })), entitlementGuard(plans, ctx.now)];
  ctx.guards = [...builtIn, ...ctx.guards];

  // History and delay: cut rows outside the plan's window from time-series answers, and mark them.
  // Callback-form hooks: no promise per request (see app.ts).
  app.addHook('preSerialization', (req: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    const state = req.dataWindowState;
    if (state && reply.statusCode === 200) {
      const inner = innerBody(payload, req.envelopeMode === 'wrapped');
      if (inner) {
        if (!state.applied) cutToWindow(inner, state);
        if (state.cutDelay && inner.status === 'OK') inner.status = 'DELAYED';
      }
    }
    done(null, payload);
  });

  // One onSend hook for the app (each hook costs a dispatch per request): rate-limit headers and
  // the data-window notice, then hardening's step (headers, the ETag over the body as sent, notice
  // included, and compression), then the request's count, duration and usage, with the status the
  // client gets (a 304 included). Counting here rather than in onResponse spares every request the
  // onResponse hook run; the duration then ends when the response is handed to the socket.
  const requestMetrics = new RequestMetrics();
  const hardening: HardeningOptions = { hsts: ctx.config.publicUrl?.startsWith('https://'), ...opts.hardening };
  const sendStep = await registerHardening(app, hardening);
  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.rateLimit) reply.headers(rateLimitHeaders(req.rateLimit));
    if (reply.statusCode === 200 && req.dataWindowState) {
      const notice = [tickerCaseNotice(req, payload), cutNotice(req)].filter(Boolean).join(' ');
      if (notice && payload instanceof BodyPieces) payload = payload.bytes(); // spliced into one buffer
      if (notice && (typeof payload === 'string' || Buffer.isBuffer(payload))) payload = withNotice(payload, notice, req.envelopeMode === 'wrapped');
    }
    const out = sendStep(req, reply, payload);
    const status = reply.statusCode;
    // API routes are labelled with their operation's path (aliases count with it; no route
    // options object built per request), the others with their route template.
    const route = req.routeMeta !== undefined ? req.routeMeta.url : (req.routeOptions.url ?? '(no route)');
    requestMetrics.observe(route, req.method, status, reply.elapsedTime / 1000);
    if (usage && req.apiKey && req.routeMeta) usage.record(req.apiKey.id, req.routeMeta.url, status >= 400);
    if (out instanceof Promise) out.then((p) => done(null, p), done);
    else done(null, out);
  });

  app.addHook('onError', (_req, _reply, error, done) => {
    const cause = (error as { cause?: unknown }).cause;
    if (error instanceof StoreUnavailableError || cause instanceof StoreUnavailableError) storeErrors.inc({ kind: 'unavailable' });
    else if (isEngineError(error)) storeErrors.inc({ kind: 'other' });
    done();
  });

  // The access line, written once the response is finished (only when a logger is on).
  let accessLog: AccessLog | undefined;
  if (!isNoopLogger(app.log) && opts.accessLog?.kind !== 'off') {
    const log = new AccessLog(app.log, opts.accessLog);
    accessLog = log;
    app.addHook('onResponse', (req, reply, done) => {
      log.record(req, reply);
      done();
    });
  }

  // Cached answers to repeated requests, sent before Fastify's pipeline with the same checks and
  // records as above; not with CORS (its plugin's headers) or guards of the caller's.
  const { hsts, cacheControl, threshold, cors } = hardeningSettings(hardening);
  if (hits && !cors && ctx.guards.length === builtIn.length) {
    hits.enable({ plans, metrics: requestMetrics, usage, accessLog, log: app.log, hsts, cacheControl, threshold });
  }

  app.addHook('onClose', async () => {
    requestMetrics.close();
    await usage?.close();
    await limiter.close();
  });


  if (opts.metrics !== false) {
    app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
      reply.header('Content-Type', metricsContentType).header('Cache-Control', 'no-store');
      return metricsText();
    });
  }
  return runtime;
}
