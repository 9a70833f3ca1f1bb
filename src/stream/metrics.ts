// Prometheus metrics of the feed, in the process registry that /metrics serves: open
// connections per feed, events published and delivered, and server-initiated disconnects by
// reason (a rising slow_consumer count is a client falling behind, max_connections a key shared
// by too many clients).
import { Counter, Gauge } from 'prom-client';
import { registry } from '../server/metrics.js';

/** What the metrics read of a hub (its open sessions and the events it delivered). */
interface CountedHub {
  readonly sessions: ReadonlyMap<string, { readonly feed: { readonly feed: string } }>;
  readonly delivered: number;
}

const hubs = new Set<CountedHub>();
const deliveredSeen = new WeakMap<CountedHub, number>();

export const streamConnections = new Gauge({
  name: 'tickerbase_stream_connections',
  help: 'Open WebSocket feed connections, by feed (realtime, delayed, replay)',
  labelNames: ['feed'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const hub of hubs) for (const s of hub.sessions.values()) this.inc({ feed: s.feed.feed });
  },
});

export const streamPublished = new Counter({
  name: 'tickerbase_stream_events_published_total',
  help: 'Events published to the feed by this process (POST /admin/publish, live bars, the live demo)',
  registers: [registry],
});

export const streamDelivered = new Counter({
  name: 'tickerbase_stream_events_delivered_total',
  help: 'Events queued to feed connections (one per event and connection)',
  registers: [registry],
  collect() {
    for (const hub of hubs) {
      const seen = deliveredSeen.get(hub) ?? 0;
      if (hub.delivered > seen) this.inc(hub.delivered - seen);
      deliveredSeen.set(hub, hub.delivered);
    }
  },
});

export const streamDisconnects = new Counter({
  name: 'tickerbase_stream_disconnects_total',
  help: 'Feed connections closed by the server, by the status sent (auth_failed, auth_timeout, max_connections, slow_consumer, force_disconnect)',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export function watchHub(hub: CountedHub): () => void {
  hubs.add(hub);
  return () => hubs.delete(hub);
}
