// Connection limits across processes: the connections of each key × feed × market are members
// of a Redis sorted set scored by admission order. Admitting one beyond the limit removes the
// oldest members and announces them on the evict channel; the process holding each one closes it
// with max_connections. Members of a process that died are evicted the same way, as the oldest.
// Each eviction is also kept for a while as a key of its own, so a process that missed the
// announcement (its subscriber was reconnecting) finds it when it looks.
import type { Redis } from 'ioredis';
import type { ConnectionLimiter } from './limits.js';
import type { RedisChannels } from './redis-broker.js';

const SCOPE_TTL_SECONDS = 86_400;
/** How long an eviction is kept for processes that missed its announcement. */
const EVICTED_TTL_SECONDS = 600;

export class RedisConnectionLimiter implements ConnectionLimiter {
  private readonly handlers: ((id: string) => void)[] = [];

  constructor(
    private readonly redis: Redis,
    sub: Redis,
    private readonly channels: RedisChannels,
    private readonly prefix: string,
  ) {
    sub.on('message', (channel: string, id: string) => {
      if (channel === channels.evict) for (const h of this.handlers) h(id);
    });
  }

  private key(scope: string): string {
    return `${this.prefix}stream:conns:${scope}`;
  }

  async admit(scope: string, id: string, limit: number): Promise<string[]> {
    const key = this.key(scope);
    const result = await this.redis
      .multi()
      .zadd(key, Date.now(), id)
      .expire(key, SCOPE_TTL_SECONDS)
      .zrange(key, 0, -1)
      .exec();
    const members = (result?.[2]?.[1] as string[] | undefined) ?? [];
    if (members.length <= limit) return [];
    const evict = members.filter((m) => m !== id).slice(0, members.length - limit);
    if (evict.length === 0) return [];
    const tx = this.redis.multi().zrem(key, ...evict);
    for (const old of evict) tx.set(this.evictedKey(old), '1', 'EX', EVICTED_TTL_SECONDS).publish(this.channels.evict, old);
    await tx.exec();
    return evict;
  }

  private evictedKey(id: string): string {
    return `${this.prefix}stream:evicted:${id}`;
  }

  async evicted(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const marks = await this.redis.mget(...ids.map((id) => this.evictedKey(id)));
    return ids.filter((_, i) => marks[i] !== null);
  }

  release(scope: string, id: string): void {
    this.redis.zrem(this.key(scope), id).catch(() => {
      // the member expires with its set; a stale one is evicted first by the next admission
    });
  }

  onEvict(handler: (id: string) => void): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    this.handlers.length = 0;
  }
}
