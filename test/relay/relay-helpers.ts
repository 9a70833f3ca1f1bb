// A Tickerbase feed server with the upstream relay attached (in this process), pointed at a fake
// upstream, and the clients the relay tests use.
import { websocketClient } from '@massive.com/client-js';
import type { Redis } from 'ioredis';
import { readyChecksOf } from '../../src/server/ready-checks.js';
import type { Store } from '../../src/store/index.js';
import type { FeedMarket } from '../../src/stream/markets.js';
import type { SessionLimits } from '../../src/stream/session.js';
import { Relay } from '../../src/stream/relay/index.js';
import { RestGapSource } from '../../src/upstream/rest-gap-source.js';
import { startFeedServer, type FeedServer } from '../stream/feed-helpers.js';
import type { Event } from '../helpers/fake-upstream-feed.js';

export interface RelayServer {
  server: FeedServer;
  relay: Relay;
  logs: string[];
  key: string;
  close(): Promise<void>;
}

export interface RelayServerOptions {
  feedUrl: string;
  upstreamKey?: string;
  markets?: FeedMarket[];
  record?: boolean;
  store?: Store;
  restBase?: string;
  fixed?: string[];
  redis?: Redis;
  redisPrefix?: string;
  limits?: Partial<SessionLimits>;
}

export async function startRelayServer(opts: RelayServerOptions): Promise<RelayServer> {
  const server = await startFeedServer({ store: opts.store, connectionLimit: 100, limits: opts.limits });
  const logs: string[] = [];
  const upstreamKey = opts.upstreamKey ?? 'upstream-key';
  const relay = await Relay.start({
    hub: server.streaming.hub,
    broker: server.streaming.broker,
    markets: opts.markets ?? ['stocks'],
    feedUrl: opts.feedUrl,
    key: upstreamKey,
    fixed: opts.fixed,
    record: opts.record ?? true,
    store: server.store,
    gapSource: opts.restBase ? new RestGapSource({ baseUrl: opts.restBase, key: upstreamKey, timeoutMs: 2000 }) : undefined,
    redis: opts.redis,
    redisPrefix: opts.redisPrefix,
    log: { info: (m) => logs.push(m), warn: (m) => logs.push(m), error: (m) => logs.push(m) },
    checkMs: 200,
    feed: { initialDelayMs: 100, maxDelayMs: 400, connectTimeoutMs: 2000 },
  });
  readyChecksOf(server.app).set('relay', () => relay.readyReport());
  const key = await server.keyFor('demo');
  return {
    server,
    relay,
    logs,
    key,
    async close() {
      await relay.close();
      await server.close();
    },
  };
}

type W3C = ReturnType<ReturnType<typeof websocketClient>['stocks']>;

/** An official client: every frame it receives, parsed, and helpers to wait on them. */
export class SdkClient {
  readonly frames: Record<string, unknown>[][] = [];
  closedWith: number | undefined;

  private constructor(readonly ws: W3C) {
    ws.onmessage = ({ data }: { data: unknown }) => {
      this.frames.push(JSON.parse(String(data)) as Record<string, unknown>[]);
    };
    ws.onclose = (e: { code: number }) => {
      this.closedWith = e.code;
    };
  }

  static async open(key: string, base: string, market: FeedMarket = 'stocks'): Promise<SdkClient> {
    const c = new SdkClient(websocketClient(key, base)[market]());
    await c.until(() => c.statuses().includes('auth_success'), 'auth_success');
    return c;
  }

  statuses(): string[] {
    return this.frames.filter((f) => f[0]?.ev === 'status').map((f) => String(f[0]!.status));
  }

  /** Status objects with their messages. */
  notices(): { status: string; message: string }[] {
    return this.frames.filter((f) => f[0]?.ev === 'status').flat().map((s) => ({ status: String(s.status), message: String(s.message) }));
  }

  events(): Record<string, unknown>[] {
    return this.frames.filter((f) => f[0]?.ev !== 'status').flat();
  }

  async subscribe(params: string): Promise<void> {
    const want = this.notices().filter((n) => n.status === 'success').length + params.split(',').length;
    this.ws.send(JSON.stringify({ action: 'subscribe', params }));
    await this.until(() => this.notices().filter((n) => n.status === 'success').length >= want, `acks of ${params}`);
  }

  async unsubscribe(params: string): Promise<void> {
    const want = this.notices().filter((n) => n.status === 'success').length + params.split(',').length;
    this.ws.send(JSON.stringify({ action: 'unsubscribe', params }));
    await this.until(() => this.notices().filter((n) => n.status === 'success').length >= want, `acks of ${params}`);
  }

  async until(pred: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pred()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last frames: ${JSON.stringify(this.frames.slice(-3))}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  close(): void {
    this.ws.close();
  }
}

/** Trades of one symbol at consecutive milliseconds from `t0` (prices vary so order shows). */
export function trades(sym: string, count: number, t0: number, first = 0): Event[] {
  return Array.from({ length: count }, (_, k) => ({ ev: 'T', sym, x: 4, i: `${first + k}`, z: 3, p: 100 + (first + k) / 100, s: 100 + k, c: [14], t: t0 + first + k, q: 1000 + first + k }));
}
