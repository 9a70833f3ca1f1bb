// Scale-out over Redis pub/sub: every process publishes event batches to one channel and
// subscribes to it, so subscribers on any process receive events published on any other. A
// second channel carries evictions for the cross-process connection limit (redis-limits.ts).
// A process that starts while Redis is down, or loses it, keeps reconnecting with backoff (the
// connection's retry strategy) and subscribes again each time it is back: it rejoins the shared
// feed without a restart.
import type { Redis } from 'ioredis';
import type { BusTransport } from './bus-broker.js';

export interface RedisChannels {
  events: string;
  evict: string;
  /** A Redis stream of the recent batches, from which a process fills its catch-up history. */
  history: string;
}

export function redisChannels(prefix: string): RedisChannels {
  return { events: `${prefix}stream:events`, evict: `${prefix}stream:evict`, history: `${prefix}stream:history` };
}

/** Batches kept in the Redis history stream at most (trimmed approximately, as XADD MAXLEN ~ does). */
const HISTORY_BATCHES = 20_000;

/**
 * The bus over Redis: `pub` is the process's command connection (it fails fast while Redis is
 * away); `sub` is one subscriber connection per process (a connection in subscribe mode can do
 * nothing else), shared with the connection limiter.
 */
export class RedisBus implements BusTransport {
  readonly sub: Redis;
  private subscribed = false;
  private wasUp = false;
  private readonly upHandlers: (() => void)[] = [];
  private lastError = '';
  private closed = false;

  constructor(
    private readonly pub: Redis,
    private readonly channels: RedisChannels,
  ) {
    this.sub = pub.duplicate({ enableOfflineQueue: false, lazyConnect: false, autoResubscribe: false });
    this.sub.on('error', (err: Error) => {
      this.lastError = err.message;
    });
    this.sub.on('ready', () => void this.subscribe());
    this.sub.on('close', () => this.changed(false));
    pub.on('ready', () => this.changed(true));
    pub.on('close', () => this.changed(false));
  }

  private async subscribe(): Promise<void> {
    try {
      await this.sub.subscribe(this.channels.events, this.channels.evict);
      this.subscribed = true;
      this.changed(true);
    } catch (err) {
      this.lastError = (err as Error).message; // the connection drops and the next 'ready' tries again
    }
  }

  private changed(maybeUp: boolean): void {
    if (!maybeUp) this.subscribed = this.sub.status === 'ready' && this.subscribed;
    const up = this.up();
    if (up && !this.wasUp && !this.closed) for (const h of this.upHandlers) h();
    this.wasUp = up;
  }

  up(): boolean {
    return this.subscribed && this.sub.status === 'ready' && this.pub.status === 'ready';
  }

  /** Resolves once subscribed, or after `ms` (the process then serves alone until Redis answers). */
  async ready(ms: number): Promise<boolean> {
    if (this.up()) return true;
    let timer: NodeJS.Timeout | undefined;
    const up = await Promise.race([
      new Promise<boolean>((res) => this.upHandlers.push(() => res(true))),
      new Promise<boolean>((res) => (timer = setTimeout(() => res(false), ms))),
    ]);
    clearTimeout(timer);
    return up;
  }

  downReason(): string {
    const why = this.lastError ? `: ${this.lastError}` : '';
    return `Redis is unreachable (${this.pub.status !== 'ready' ? 'commands' : 'subscriber'} ${this.pub.status !== 'ready' ? this.pub.status : this.sub.status}${why}): events published here reach only this process's subscribers until it returns`;
  }

  /** Publishes the batch and keeps it in the history stream, in one round trip. */
  async send(message: string): Promise<void> {
    const results = await this.pub
      .pipeline()
      .publish(this.channels.events, message)
      .xadd(this.channels.history, 'MAXLEN', '~', HISTORY_BATCHES, '*', 'm', message)
      .exec();
    // the batch went out once PUBLISH did: a history entry that failed only costs catch-up
    const published = results?.[0];
    if (!published || published[0]) throw published?.[0] ?? new Error('Redis did not answer PUBLISH');
  }

  async recent(sinceMs: number): Promise<{ at: number; text: string }[]> {
    const entries = await this.pub.xrange(this.channels.history, String(Math.max(0, Math.floor(sinceMs))), '+');
    return entries.map(([id, fields]) => ({ at: Number(id.slice(0, id.indexOf('-'))), text: fields[1] ?? '' }));
  }

  onMessage(handler: (message: string) => void): void {
    this.sub.on('message', (channel: string, message: string) => {
      if (channel === this.channels.events) handler(message);
    });
  }

  onUp(handler: () => void): void {
    this.upHandlers.push(handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.upHandlers.length = 0;
    await this.sub.quit().catch(() => this.sub.disconnect());
  }
}
