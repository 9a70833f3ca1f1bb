// The upstream relay: Tickerbase as the one connection to upstream's WebSocket feed that every
// local client shares. Per relayed market one process (the lease holder) connects upstream and
// subscribes to what the clients of all processes want; its events go through the broker like
// published ones, so local keys, plans, delays, limits and slow-consumer rules apply unchanged.
// What passes is recorded (trades, quotes, upstream's minute bars), and holes left by outages are
// repaired from upstream's REST API.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ReadyReport } from '../../server/ready-checks.js';
import type { Store } from '../../store/index.js';
import type { GapSource } from '../../upstream/rest-gap-source.js';
import type { FeedClientOptions } from '../../upstream/feed-client.js';
import type { Broker } from '../broker.js';
import type { StreamHub } from '../hub.js';
import { CHANNELS, FEED_MARKETS, type FeedMarket } from '../markets.js';
import { MarketRelay, type MarketRelayStatus, type RelayLog } from './market.js';
import { LocalPeers, RedisPeers, type RelayNotice, type RelayPeers } from './peers.js';
import { RelayRecorder } from './recorder.js';
import { RetryQueue } from './retry.js';

export type { RelayLog } from './market.js';

export interface RelayOptions {
  hub: StreamHub;
  broker: Broker;
  markets: readonly FeedMarket[];
  /** Upstream feed base (`wss://socket.massive.com`, a delayed host, or another Tickerbase). */
  feedUrl: string;
  key: string;
  /** --relay-subscribe: topics always subscribed; `T.*` goes to every relayed market with a T channel, `crypto:XT.*` to crypto only. */
  fixed?: readonly string[];
  /** Store what passes (needs `store`). */
  record: boolean;
  store?: Store;
  gapSource?: GapSource;
  /** Shared Redis: one connection across processes (a lease per market). Without it this process holds every market. */
  redis?: Redis;
  redisPrefix?: string;
  log: RelayLog;
  /** Lease renewal, demand refresh and takeover check period, ms (default 2 s). */
  checkMs?: number;
  /** Lease lifetime, ms (default 3 periods: a dead holder's market is taken over within 4 periods). */
  leaseMs?: number;
  feed?: Partial<Pick<FeedClientOptions, 'initialDelayMs' | 'maxDelayMs' | 'connectTimeoutMs' | 'pingIntervalMs'>>;
  now?: () => number;
}

/** Splits --relay-subscribe into each market's topics; an item no relayed market carries is an error naming it. */
export function fixedTopicsByMarket(items: readonly string[], markets: readonly FeedMarket[]): Map<FeedMarket, string[]> {
  const out = new Map<FeedMarket, string[]>(markets.map((m) => [m, []]));
  for (const raw of items) {
    const item = raw.trim();
    if (item === '') continue;
    const colon = item.indexOf(':');
    const named = colon > 0 && (FEED_MARKETS as readonly string[]).includes(item.slice(0, colon)) ? (item.slice(0, colon) as FeedMarket) : undefined;
    const topic = named ? item.slice(colon + 1) : item;
    const dot = topic.indexOf('.');
    const ev = topic.slice(0, dot);
    if (dot <= 0 || dot === topic.length - 1) throw new Error(`--relay-subscribe: ${item} is not a topic such as T.* or T.AAPL`);
    const targets = (named ? [named] : markets).filter((m) => markets.includes(m) && CHANNELS[m].has(ev));
    if (targets.length === 0) throw new Error(`--relay-subscribe: ${item}: no relayed market (${markets.join(', ')}) has a ${ev} channel`);
    for (const m of targets) out.get(m)!.push(topic);
  }
  return out;
}

export class Relay {
  /** The last status the holder of each market announced (what a process not holding it knows of upstream). */
  private readonly announced = new Map<FeedMarket, RelayNotice>();

  private constructor(
    private readonly relays: MarketRelay[],
    private readonly peers: RelayPeers,
    readonly recorder: RelayRecorder | undefined,
    private readonly tickerShares: RetryQueue,
  ) {}

  static async start(opts: RelayOptions): Promise<Relay> {
    const now = opts.now ?? Date.now;
    const checkMs = opts.checkMs ?? 2000;
    const leaseMs = opts.leaseMs ?? 3 * checkMs;
    if (opts.redis) await untilReady(opts.redis, 5000);
    const peers: RelayPeers = opts.redis
      ? await RedisPeers.open({
          redis: opts.redis,
          subscriber: opts.redis.duplicate({ enableOfflineQueue: true, lazyConnect: false }),
          prefix: opts.redisPrefix ?? 'tickerbase:',
          instance: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
          leaseMs,
          demandMs: 3 * checkMs,
          now,
        })
      : new LocalPeers();
    // a ticker missing from the shared set would be left out of the next holder's gap repair
    const tickerShares = new RetryQueue({ what: 'sharing the recorded tickers', log: opts.log, initialMs: Math.min(200, checkMs), maxMs: checkMs });
    const recorder =
      opts.record && opts.store
        ? new RelayRecorder({
            store: opts.store,
            log: (msg, err) => opts.log.warn(msg, err),
            onTicker: (market, ticker) => tickerShares.push(() => peers.addTickers(market, [ticker])),
          })
        : undefined;
    const fixed = fixedTopicsByMarket(opts.fixed ?? [], opts.markets);
    const relays = opts.markets.map(
      (market) =>
        new MarketRelay({
          market, feedUrl: opts.feedUrl, key: opts.key, broker: opts.broker, peers, fixed: fixed.get(market) ?? [], recorder,
          store: opts.store, gapSource: opts.gapSource, log: opts.log, checkMs, leaseMs, feed: opts.feed, now,
        }),
    );
    const byMarket = new Map(relays.map((r) => [r.market, r]));
    opts.hub.watchDemand((market, change) => byMarket.get(market)?.onLocalDemand(change));
    peers.onDemandChanged((market) => byMarket.get(market)?.onPeerDemand());
    const relay = new Relay(relays, peers, recorder, tickerShares);
    peers.onNotice((notice) => {
      relay.announced.set(notice.market, notice);
      noticeClients(opts.hub, notice);
    });
    for (const r of relays) r.start();
    return relay;
  }

  status(): MarketRelayStatus[] {
    return this.relays.map((r) => r.status());
  }

  /** For /ready: degraded while a held upstream connection is down or refused (REST and the other markets still serve). */
  readyReport(): ReadyReport {
    const down: string[] = [];
    for (const s of this.status()) {
      if (s.state === 'stopped') down.push(`upstream ${s.market} feed stopped, not retrying (${s.detail})`);
      else if (s.holder && s.state !== 'live') down.push(`upstream ${s.market} feed ${s.state}${s.detail ? ` (${s.detail})` : ''}`);
      else if (!s.holder && this.announced.get(s.market)?.status === 'error') down.push(`${this.announced.get(s.market)!.message} (reported by the process holding the connection)`);
    }
    return down.length === 0 ? { state: 'ok', detail: 'ok' } : { state: 'degraded', detail: down.join('; ') };
  }

  async close(): Promise<void> {
    await Promise.all(this.relays.map((r) => r.close()));
    await this.recorder?.close();
    this.tickerShares.close();
    await this.peers.close();
  }

  /** Stops every connection without releasing the leases, as a process that dies would. */
  async abandon(): Promise<void> {
    for (const r of this.relays) r.abandon();
    this.tickerShares.close();
    await this.peers.close();
  }
}

/**
 * Waits (up to `timeoutMs`) for a Redis connection made a moment ago to be ready, so the first
 * lease round does not fail while it connects; past the deadline the rounds retry on their own.
 */
async function untilReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, timeoutMs);
    function done() {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    }
    redis.once('ready', done);
  });
}

/** A status frame to every authenticated local client of the market's real-time and delayed feeds. */
function noticeClients(hub: StreamHub, notice: RelayNotice): void {
  for (const s of hub.sessions.values()) {
    if (s.feed.market === notice.market && s.feed.feed !== 'replay' && s.authenticated) s.notice(notice.status, notice.message);
  }
}
