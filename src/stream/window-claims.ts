// Who emits the bars of a window when several processes aggregate the same trades: the first
// process to claim it emits its A / AM events and stores its minute bars; the others only keep
// their day totals. A claim names a span and a minute's start, for all tickers: the minute bars
// of that minute, or the second bars within it (one emitter for a minute's seconds keeps them in
// order). A claim that cannot be made (Redis down) leaves every process on its own: it emits to
// its own subscribers.
import type { Redis } from 'ioredis';

export type Span = 'second' | 'minute';

/** `won`: emit; `lost`: another process emits; `alone`: no one to ask, emit to this process's subscribers. */
export type Claim = 'won' | 'lost' | 'alone';

export interface WindowClaims {
  /** `start`: the minute's start, ms. */
  claim(span: Span, start: number): Promise<Claim>;
}

/** A Redis key per window, set if absent with an expiry (SET NX PX): atomic, and gone by itself. */
export class RedisWindowClaims implements WindowClaims {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly origin: string,
    /** How long a claim is remembered, ms: longer than any window's grace. */
    private readonly ttlMs = 10 * 60_000,
  ) {}

  async claim(span: Span, start: number): Promise<Claim> {
    if (this.redis.status !== 'ready') return 'alone';
    try {
      const set = await this.redis.set(`${this.prefix}stream:bar:${span}:${start}`, this.origin, 'PX', this.ttlMs, 'NX');
      return set === 'OK' ? 'won' : 'lost';
    } catch {
      return 'alone';
    }
  }
}
