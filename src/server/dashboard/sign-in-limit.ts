import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from '../../domain/errors.js';

// Failed sign-ins per client address: after `failures` failures within `windowSeconds`, the
// address may not try again until the window ends (whatever the account). With Redis the count
// is shared by every process; without it, each process counts its own. Per-account protection is
// the lockout the account service applies after five wrong passwords.

export interface SignInLimitOptions {
  redis?: Redis;
  failures?: number;
  windowSeconds?: number;
  /** Redis key prefix (tests use a random one). */
  prefix?: string;
}

export class SignInLimit {
  private readonly limiter: RateLimiterAbstract;
  private readonly failures: number;

  constructor(opts: SignInLimitOptions = {}) {
    this.failures = opts.failures ?? 20;
    const base = { keyPrefix: opts.prefix ?? 'tb:signin', points: this.failures, duration: opts.windowSeconds ?? 900 };
    this.limiter = opts.redis
      ? new RateLimiterRedis({ ...base, storeClient: opts.redis, insuranceLimiter: new RateLimiterMemory({ ...base, keyPrefix: `${base.keyPrefix}:local` }) })
      : new RateLimiterMemory(base);
  }

  /** Throws 429 when the address has used up its failures. */
  async check(ip: string): Promise<void> {
    const res = await this.limiter.get(ip).catch(() => null);
    if (res && res.consumedPoints >= this.failures) {
      const wait = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
      throw new ApiError('RATE_LIMITED', `Too many failed sign-ins from this address; try again in ${wait} s`, { 'Retry-After': String(wait) });
    }
  }

  /** Counts one failed sign-in of the address. */
  async failed(ip: string): Promise<void> {
    await this.limiter.consume(ip).catch((err: unknown) => {
      if (!(err instanceof RateLimiterRes)) throw err;
    });
  }
}
