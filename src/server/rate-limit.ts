import cluster from 'node:cluster';
import { Redis } from 'ioredis';
import {
  RateLimiterCluster,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { FastifyRequest } from 'fastify';
import type { RequestGuard } from './context.js';
import { ApiError } from '../domain/errors.js';
import type { Plan, PlanCatalog } from './plans.js';

// Per-key rate limits behind one small interface, with three implementations from
// rate-limiter-flexible: in-process memory (one process), the node-cluster IPC limiter (the
// workers of `serve --workers N` share the primary's counters) and Redis (every process on
// every host shares them). Each plan gets its own limiter: a fixed window of `per_seconds`
// that starts with a key's first request, holding at most `requests` requests.

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the window ends (epoch ms). */
  resetMs: number;
  /** Whole seconds to wait before retrying (429 only). */
  retryAfterS: number;
}

export interface RateLimiter {
  readonly kind: 'memory' | 'cluster' | 'redis';
  /** Counts one request of the key; undefined when the plan is unlimited. */
  consume(keyId: string, plan: Plan): Promise<RateDecision | undefined>;
  /** The key's current window without counting a request (the dashboard shows it); undefined when unlimited or unknown. */
  peek(keyId: string, plan: Plan): Promise<RateDecision | undefined>;
  close(): Promise<void>;
}

/** What to do when the shared store (Redis) cannot answer. */
export type FailMode = 'open' | 'closed';

type Flexible = RateLimiterAbstract;

abstract class FlexibleRateLimiter implements RateLimiter {
  abstract readonly kind: RateLimiter['kind'];
  private readonly limiters = new Map<string, Flexible>();

  constructor(protected readonly now: () => number = Date.now) {}

  protected abstract make(keyPrefix: string, points: number, duration: number): Flexible;

  /** The error a store failure becomes (fail-closed), or undefined to let it through. */
  protected onStoreError(_err: unknown): ApiError {
    return new ApiError('DEPENDENCY_UNAVAILABLE', 'Rate limiting is unavailable; try again shortly');
  }

  private limiterFor(plan: Plan, points: number, duration: number): Flexible {
    const id = `${plan.name}:${points}:${duration}`;
    let l = this.limiters.get(id);
    if (!l) {
      l = this.make(`tb:rl:${plan.name}:${points}:${duration}`, points, duration);
      this.limiters.set(id, l);
    }
    return l;
  }

  async consume(keyId: string, plan: Plan): Promise<RateDecision | undefined> {
    const rl = plan.rate_limit;
    if (!rl) return undefined;
    const limiter = this.limiterFor(plan, rl.requests, rl.per_seconds);
    let res: RateLimiterRes;
    let allowed = true;
    try {
      res = await limiter.consume(keyId);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw this.onStoreError(err);
      res = err;
      allowed = false;
    }
    const ms = Math.max(0, res.msBeforeNext);
    return {
      allowed,
      limit: rl.requests,
      remaining: Math.max(0, res.remainingPoints),
      resetMs: this.now() + ms,
      retryAfterS: Math.max(1, Math.ceil(ms / 1000)),
    };
  }

  async peek(keyId: string, plan: Plan): Promise<RateDecision | undefined> {
    const rl = plan.rate_limit;
    if (!rl) return undefined;
    const res = await this.limiterFor(plan, rl.requests, rl.per_seconds).get(keyId).catch(() => null);
    const used = res?.consumedPoints ?? 0;
    const ms = Math.max(0, res?.msBeforeNext ?? 0);
    return { allowed: used < rl.requests, limit: rl.requests, remaining: Math.max(0, rl.requests - used), resetMs: this.now() + ms, retryAfterS: Math.max(1, Math.ceil(ms / 1000)) };
  }

  async close(): Promise<void> {}
}

/** One process: counters in this process's memory. */
export class MemoryRateLimiter extends FlexibleRateLimiter {
  readonly kind = 'memory' as const;
  protected make(keyPrefix: string, points: number, duration: number): Flexible {
    return new RateLimiterMemory({ keyPrefix, points, duration });
  }
}

/**
 * A worker of `serve --workers N`: counters live in the cluster primary (which must have created a
 * RateLimiterClusterMaster), so the limit holds across the workers of one host.
 */
export class ClusterRateLimiter extends FlexibleRateLimiter {
  readonly kind = 'cluster' as const;
  protected make(keyPrefix: string, points: number, duration: number): Flexible {
    return new RateLimiterCluster({
      keyPrefix,
      points,
      duration,
      timeoutMs: 1000,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${keyPrefix}:local`, points, duration }),
    });
  }
}

/**
 * Shared by every process and host through Redis. When Redis cannot answer: `open` falls back to
 * this process's own memory counters (the limit then holds per process, so at worst N× across N
 * processes, until Redis returns); `closed` answers 503 DEPENDENCY_UNAVAILABLE.
 */
export class RedisRateLimiter extends FlexibleRateLimiter {
  readonly kind = 'redis' as const;

  constructor(
    private readonly redis: Redis,
    readonly failMode: FailMode = 'open',
    now: () => number = Date.now,
  ) {
    super(now);
  }

  protected make(keyPrefix: string, points: number, duration: number): Flexible {
    return new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix,
      points,
      duration,
      rejectIfRedisNotReady: true,
      ...(this.failMode === 'open' ? { insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${keyPrefix}:local`, points, duration }) } : {}),
    });
  }

  protected override onStoreError(): ApiError {
    return new ApiError('DEPENDENCY_UNAVAILABLE', 'Rate limiting is unavailable: Redis is unreachable (this server fails closed); try again shortly');
  }
}

/** The limiter a process should use: Redis when given, the cluster limiter in a worker, else memory. */
export function createRateLimiter(opts: { redis?: Redis; failMode?: FailMode; now?: () => number } = {}): RateLimiter {
  if (opts.redis) return new RedisRateLimiter(opts.redis, opts.failMode ?? 'open', opts.now);
  if (cluster.isWorker) return new ClusterRateLimiter(opts.now);
  return new MemoryRateLimiter(opts.now);
}

declare module 'fastify' {
  interface FastifyRequest {
    rateLimit?: RateDecision;
  }
}

/** The X-RateLimit-* headers of a decision (and Retry-After when it refused). */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  const h: Record<string, string> = {
    'X-RateLimit-Limit': String(d.limit),
    'X-RateLimit-Remaining': String(d.remaining),
    'X-RateLimit-Reset': String(Math.ceil(d.resetMs / 1000)),
  };
  if (!d.allowed) h['Retry-After'] = String(d.retryAfterS);
  return h;
}

function perWindow(seconds: number): string {
  if (seconds === 60) return 'minute';
  if (seconds === 1) return 'second';
  if (seconds === 3600) return 'hour';
  if (seconds === 86_400) return 'day';
  return `${seconds} seconds`;
}

/** The least rate the dashboard explorer's tokens get, whatever the account's plan. */
export const EXPLORER_MIN_RATE = { requests: 60, per_seconds: 60 } as const;

/**
 * Counts every keyed request against its plan's limit, before the entitlement check (upstream
 * counts refused requests too). The decision rides on the request; a global onSend hook writes
 * its headers on every response.
 */
export function rateLimitGuard(limiter: RateLimiter, plans: PlanCatalog, onReject?: (plan: Plan) => void): RequestGuard {
  // The dashboard explorer's short-lived tokens: one page view makes about six calls (search,
  // overview, logo, previous close, bars), more than a free plan's minute allows, so they are
  // counted against at least EXPLORER_MIN_RATE (their requests still count in the account's usage).
  const explorerPlans = new Map<string, Plan>();
  const planOf = (keyPlan: string, kind: string): Plan | undefined => {
    const plan = plans.get(keyPlan);
    if (kind !== 'explorer' || !plan?.rate_limit) return plan;
    let p = explorerPlans.get(plan.name);
    if (!p) {
      const rl = plan.rate_limit;
      const faster = rl.requests / rl.per_seconds >= EXPLORER_MIN_RATE.requests / EXPLORER_MIN_RATE.per_seconds;
      p = { ...plan, name: `${plan.name}-explorer`, rate_limit: faster ? rl : EXPLORER_MIN_RATE };
      explorerPlans.set(plan.name, p);
    }
    return p;
  };
  return (req, meta) => {
    req.routeMeta = meta;
    const key = req.apiKey;
    const plan = key ? planOf(key.plan, key.kind) : undefined;
    // unlimited plans: nothing to count (consume would answer undefined), no promise
    if (!key || !plan || !plan.rate_limit) return undefined;
    return limiter.consume(key.id, plan).then((d) => decide(req, d, plan));
  };

  function decide(req: FastifyRequest, d: RateDecision | undefined, plan: Plan): void {
    if (!d) return;
    req.rateLimit = d;
    if (!d.allowed) {
      onReject?.(plan);
      const rl = plan.rate_limit as NonNullable<Plan['rate_limit']>;
      throw new ApiError(
        'RATE_LIMITED',
        `You've exceeded the maximum of ${rl.requests} requests per ${perWindow(rl.per_seconds)} of the ${plan.name} plan; retry in ${d.retryAfterS} s or upgrade your plan.`,
        rateLimitHeaders(d),
      );
    }
  }
}

/**
 * A Redis connection for rate limits and readiness that never queues commands while Redis is
 * away (they fail at once, so requests fail open or closed instead of hanging), gives each command
 * `commandTimeoutMs` (default 1000), and reconnects in the background for as long as it takes.
 */
export async function connectRedis(url: string, onError?: (err: Error) => void, opts: { commandTimeoutMs?: number } = {}): Promise<Redis> {
  if (!/^rediss?:\/\//.test(url)) throw new Error(`--redis-url must be a redis:// or rediss:// URL, got ${url}`);
  const commandTimeout = opts.commandTimeoutMs ?? 1000;
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: Math.max(2000, commandTimeout),
    // a silent Redis (reachable, not answering) fails each command after this, open or closed
    commandTimeout,
    retryStrategy: (times) => Math.min(100 * times, 2000),
  });
  let lastError = '';
  redis.on('error', (err: Error) => {
    if (err.message !== lastError) onError?.(err); // once per distinct failure, not per retry
    lastError = err.message;
  });
  redis.on('ready', () => {
    lastError = '';
  });
  // A connection that went silent stays "ready" to ioredis (a timed-out command does not close
  // it), so every command would time out until TCP gave up, minutes later. A PING that times out
  // drops the connection and reconnects, which succeeds as soon as Redis answers again.
  const watchdog = setInterval(() => {
    if (redis.status !== 'ready') return;
    redis.ping().catch((err: Error) => {
      if (/timed out/i.test(err.message) && redis.status === 'ready') redis.disconnect(true);
    });
  }, Math.max(1000, 2 * commandTimeout));
  watchdog.unref();
  redis.on('end', () => clearInterval(watchdog));
  return redis;
}
