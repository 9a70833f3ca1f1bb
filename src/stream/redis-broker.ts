// Scale-out over Redis pub/sub: every process publishes event batches to one channel and
// subscribes to it, so subscribers on any process receive events published on any other. A
// second channel carries evictions for the cross-process connection limit (redis-limits.ts).
import type { Redis } from 'ioredis';
import type { Broker, BrokerEvent } from './broker.js';

export interface RedisChannels {
  events: string;
  evict: string;
}

export function redisChannels(prefix: string): RedisChannels {
  return { events: `${prefix}stream:events`, evict: `${prefix}stream:evict` };
}

/**
 * One subscriber connection per process (a connection in subscribe mode can do nothing else),
 * shared by the broker and the limiter. Resolves once both channels are subscribed, so nothing
 * published afterwards is missed.
 */
export async function subscribeChannels(redis: Redis, channels: RedisChannels, timeoutMs = 5000): Promise<Redis> {
  const sub = redis.duplicate({ enableOfflineQueue: true, lazyConnect: false });
  sub.on('error', () => {
    // reconnects by itself; the publishing side reports Redis trouble
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      sub.subscribe(channels.events, channels.evict),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Redis did not answer SUBSCRIBE within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (err) {
    sub.disconnect();
    throw err;
  } finally {
    clearTimeout(timer);
  }
  return sub;
}

export class RedisBroker implements Broker {
  private readonly handlers: ((events: readonly BrokerEvent[]) => void)[] = [];

  constructor(
    private readonly pub: Redis,
    sub: Redis,
    private readonly channels: RedisChannels,
  ) {
    sub.on('message', (channel: string, message: string) => {
      if (channel !== channels.events) return;
      let events: BrokerEvent[];
      try {
        events = JSON.parse(message) as BrokerEvent[];
      } catch {
        return; // not ours
      }
      for (const h of this.handlers) h(events);
    });
  }

  async publish(events: readonly BrokerEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.pub.publish(this.channels.events, JSON.stringify(events));
  }

  onEvents(handler: (events: readonly BrokerEvent[]) => void): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    this.handlers.length = 0;
  }
}
