import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { RouteContext } from '../server/context.js';
import { dependencyUp } from '../server/metrics.js';
import { RedisRateLimiter, type FailMode } from '../server/rate-limit.js';
import { readyChecksOf } from '../server/ready-checks.js';
import { envelope } from '../server/serializer.js';

// Liveness and readiness for load balancers and orchestrators. No key needed, hidden from the
// OpenAPI document. /health answers while the process runs; /ready answers 200 only when the
// store (and Redis, when configured) answer within a short timeout, else 503 naming the part
// that failed, so a balancer takes the process out of rotation until it recovers. Redis only
// carries the shared rate-limit counters and the feed's bus between processes: when rate
// limiting fails open the server still serves without it, so /ready stays 200 and names Redis
// (and a feed that reaches only this process) under `degraded`; failing closed, it is 503.
// `/ready?require=feed` is 503 while the feed is not shared, for a balancer of feed clients.

export interface HealthOptions {
  redis?: Redis;
  /** Per-check timeout in ms (default 2000). */
  timeoutMs?: number;
  /** True once shutdown has begun: /ready answers 503 so balancers drain this process. */
  closing?: () => boolean;
  /** What rate limiting does without Redis (default: the app's Redis limiter's mode, else open). */
  rateLimitFail?: FailMode;
}

type CheckResult = 'ok' | 'not configured' | string;

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

function reason(err: unknown): string {
  const e = err as { message?: string; cause?: { message?: string } };
  const cause = e.cause?.message ? `: ${e.cause.message}` : '';
  return `${e.message ?? String(err)}${cause}`;
}

export async function healthRoutes(app: FastifyInstance, ctx: RouteContext, opts: HealthOptions = {}): Promise<void> {
  const wrapped = ctx.config.envelope === 'wrapped';
  const timeoutMs = opts.timeoutMs ?? 2000;
  const limiter = app.production?.limiter;
  const extraChecks = readyChecksOf(app);
  const redisFail: FailMode = opts.rateLimitFail ?? (limiter instanceof RedisRateLimiter ? limiter.failMode : 'open');

  app.get('/health', { schema: { hide: true } }, async (req, reply) => {
    const inner = { status: 'OK', request_id: req.id };
    return reply.header('Cache-Control', 'no-store').send(envelope(wrapped, inner, true));
  });

  app.get<{ Querystring: { require?: string } }>('/ready', { schema: { hide: true } }, async (req, reply) => {
    const checks: Record<string, CheckResult> = {};
    const failing: string[] = [];
    const degraded: string[] = [];
    const storeName = `store (${ctx.services.storeHealth.engine})`;
    try {
      await withTimeout(ctx.services.storeHealth.ping(), timeoutMs, storeName);
      checks.store = 'ok';
    } catch (err) {
      checks.store = `unreachable: ${reason(err)}`;
      failing.push(`${storeName} is unreachable`);
    }
    dependencyUp.set({ dependency: 'store' }, checks.store === 'ok' ? 1 : 0);
    if (opts.redis) {
      try {
        await withTimeout(opts.redis.ping(), timeoutMs, 'Redis');
        checks.redis = 'ok';
      } catch (err) {
        checks.redis = `unreachable: ${reason(err)}`;
        if (redisFail === 'closed') failing.push('Redis is unreachable');
        else degraded.push('Redis is unreachable: rate limits hold per process until it returns');
      }
      dependencyUp.set({ dependency: 'redis' }, checks.redis === 'ok' ? 1 : 0);
    } else {
      checks.redis = 'not configured';
    }
    for (const [name, check] of extraChecks) {
      const report = check();
      if (report === undefined) continue;
      checks[name] = report.label ?? (report.state === 'ok' ? 'ok' : report.detail);
      if (report.state === 'failing' || (report.state === 'degraded' && req.query.require === name)) failing.push(report.detail);
      else if (report.state === 'degraded') degraded.push(report.detail);
    }
    if (opts.closing?.()) failing.push('the server is shutting down');
    reply.header('Cache-Control', 'no-store');
    if (failing.length === 0) {
      const inner = degraded.length === 0 ? { status: 'OK', request_id: req.id, checks } : { status: 'DEGRADED', request_id: req.id, checks, degraded };
      return reply.send(envelope(wrapped, inner, true));
    }
    const message = `Not ready: ${failing.join('; ')}`;
    const inner = { status: 'ERROR', request_id: req.id, code: 'DEPENDENCY_UNAVAILABLE', error: message, message, checks };
    return reply.code(503).send(envelope(wrapped, inner, false));
  });
}
