// What the processes of one deployment share about the relay: which process holds each market's
// upstream connection (a lease), what each process's clients want, the status frames every
// process passes to its clients, and where the recorded tape last was whole. With Redis it is all
// kept there (a lease is `SET NX PX`, renewed by its holder and taken by another process once it
// expires); without Redis there is one process, which holds every lease.
import type { Redis } from 'ioredis';
import type { FeedMarket } from '../markets.js';

/** A status frame for every local client of a market, announced by the holder of its connection. */
export interface RelayNotice {
  market: FeedMarket;
  status: 'error' | 'success';
  message: string;
}

export interface RelayPeers {
  /** This process, as named in the leases and the demand. */
  readonly instance: string;
  /** Takes the market's lease or renews it; false when another process holds it. */
  holdLease(market: FeedMarket): Promise<boolean>;
  releaseLease(market: FeedMarket): Promise<void>;
  /** This process's wanted topics of a market (kept alive by calling again within the demand TTL). */
  setDemand(market: FeedMarket, topics: readonly string[]): Promise<void>;
  /** The union of every live process's wanted topics of a market. */
  demand(market: FeedMarket): Promise<Set<string>>;
  announce(notice: RelayNotice): Promise<void>;
  /** When the market's upstream connection was last known live (ms), kept by the holder. */
  markLive(market: FeedMarket, atMs: number): Promise<void>;
  lastLive(market: FeedMarket): Promise<number | undefined>;
  addTickers(market: FeedMarket, tickers: readonly string[]): Promise<void>;
  tickers(market: FeedMarket): Promise<string[]>;
  /** Another process's demand changed (the holder then subscribes anew). */
  onDemandChanged(handler: (market: FeedMarket) => void): void;
  onNotice(handler: (notice: RelayNotice) => void): void;
  close(): Promise<void>;
}

/** One process: it holds every lease, and its own demand is all the demand there is. */
export class LocalPeers implements RelayPeers {
  readonly instance = `${process.pid}`;
  private readonly wanted = new Map<FeedMarket, readonly string[]>();
  private readonly live = new Map<FeedMarket, number>();
  private readonly recorded = new Map<FeedMarket, Set<string>>();
  private readonly noticeHandlers: ((n: RelayNotice) => void)[] = [];

  async holdLease(): Promise<boolean> {
    return true;
  }
  async releaseLease(): Promise<void> {}
  async setDemand(market: FeedMarket, topics: readonly string[]): Promise<void> {
    this.wanted.set(market, topics);
  }
  async demand(market: FeedMarket): Promise<Set<string>> {
    return new Set(this.wanted.get(market) ?? []);
  }
  async announce(notice: RelayNotice): Promise<void> {
    for (const h of this.noticeHandlers) h(notice);
  }
  async markLive(market: FeedMarket, atMs: number): Promise<void> {
    this.live.set(market, atMs);
  }
  async lastLive(market: FeedMarket): Promise<number | undefined> {
    return this.live.get(market);
  }
  async addTickers(market: FeedMarket, tickers: readonly string[]): Promise<void> {
    let set = this.recorded.get(market);
    if (!set) this.recorded.set(market, (set = new Set()));
    for (const t of tickers) set.add(t);
  }
  async tickers(market: FeedMarket): Promise<string[]> {
    return [...(this.recorded.get(market) ?? [])];
  }
  onDemandChanged(): void {}
  onNotice(handler: (notice: RelayNotice) => void): void {
    this.noticeHandlers.push(handler);
  }
  async close(): Promise<void> {}
}

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

type Message = { kind: 'demand'; market: FeedMarket; from: string } | ({ kind: 'notice' } & RelayNotice);

export interface RedisPeersOptions {
  redis: Redis;
  /** A connection of its own in subscribe mode (the caller made it with `redis.duplicate()`). */
  subscriber: Redis;
  prefix: string;
  instance: string;
  /** How long a lease lasts without renewal, ms: the longest a dead holder keeps a market without a connection. */
  leaseMs: number;
  /** How long a process's demand counts without being written again, ms. */
  demandMs: number;
  now?: () => number;
}

export class RedisPeers implements RelayPeers {
  readonly instance: string;
  private readonly channel: string;
  private readonly demandHandlers: ((m: FeedMarket) => void)[] = [];
  private readonly noticeHandlers: ((n: RelayNotice) => void)[] = [];
  private readonly now: () => number;

  private constructor(private readonly opts: RedisPeersOptions) {
    this.instance = opts.instance;
    this.now = opts.now ?? Date.now;
    this.channel = `${opts.prefix}relay:control`;
    opts.subscriber.on('message', (channel: string, text: string) => {
      if (channel !== this.channel) return;
      let msg: Message;
      try {
        msg = JSON.parse(text) as Message;
      } catch {
        return;
      }
      if (msg.kind === 'demand' && msg.from !== this.instance) for (const h of this.demandHandlers) h(msg.market);
      if (msg.kind === 'notice') for (const h of this.noticeHandlers) h({ market: msg.market, status: msg.status, message: msg.message });
    });
  }

  /** Subscribes to the relay's channel, with a deadline (the caller's Redis may be down). */
  static async open(opts: RedisPeersOptions, timeoutMs = 5000): Promise<RedisPeers> {
    const peers = new RedisPeers(opts);
    opts.subscriber.on('error', () => {
      // reconnects by itself; the commands of the relay report Redis trouble
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        opts.subscriber.subscribe(peers.channel),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`Redis did not answer SUBSCRIBE within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } catch (err) {
      opts.subscriber.disconnect();
      throw err;
    } finally {
      clearTimeout(timer);
    }
    return peers;
  }

  private key(what: string, market: FeedMarket): string {
    return `${this.opts.prefix}relay:${what}:${market}`;
  }

  async holdLease(market: FeedMarket): Promise<boolean> {
    const key = this.key('lease', market);
    const { redis, leaseMs } = this.opts;
    if ((await redis.eval(RENEW, 1, key, this.instance, leaseMs)) === 1) return true;
    return (await redis.set(key, this.instance, 'PX', leaseMs, 'NX')) === 'OK';
  }

  async releaseLease(market: FeedMarket): Promise<void> {
    await this.opts.redis.eval(RELEASE, 1, this.key('lease', market), this.instance);
  }

  async setDemand(market: FeedMarket, topics: readonly string[]): Promise<void> {
    const value = JSON.stringify({ topics, until: this.now() + this.opts.demandMs });
    await this.opts.redis.hset(this.key('demand', market), this.instance, value);
    await this.opts.redis.publish(this.channel, JSON.stringify({ kind: 'demand', market, from: this.instance } satisfies Message));
  }

  async demand(market: FeedMarket): Promise<Set<string>> {
    const key = this.key('demand', market);
    const all = await this.opts.redis.hgetall(key);
    const out = new Set<string>();
    const stale: string[] = [];
    for (const [instance, text] of Object.entries(all)) {
      let entry: { topics?: unknown; until?: unknown };
      try {
        entry = JSON.parse(text) as typeof entry;
      } catch {
        stale.push(instance);
        continue;
      }
      // a process that stopped writing its demand (it died) no longer counts
      if (typeof entry.until !== 'number' || entry.until < this.now() || !Array.isArray(entry.topics)) {
        stale.push(instance);
        continue;
      }
      for (const t of entry.topics) if (typeof t === 'string') out.add(t);
    }
    if (stale.length > 0) await this.opts.redis.hdel(key, ...stale);
    return out;
  }

  async announce(notice: RelayNotice): Promise<void> {
    await this.opts.redis.publish(this.channel, JSON.stringify({ kind: 'notice', ...notice } satisfies Message));
  }

  async markLive(market: FeedMarket, atMs: number): Promise<void> {
    await this.opts.redis.set(this.key('live', market), String(atMs), 'PX', 7 * 86_400_000);
  }

  async lastLive(market: FeedMarket): Promise<number | undefined> {
    const v = await this.opts.redis.get(this.key('live', market));
    return v === null ? undefined : Number(v);
  }

  async addTickers(market: FeedMarket, tickers: readonly string[]): Promise<void> {
    if (tickers.length > 0) await this.opts.redis.sadd(this.key('tickers', market), ...tickers);
  }

  async tickers(market: FeedMarket): Promise<string[]> {
    return this.opts.redis.smembers(this.key('tickers', market));
  }

  onDemandChanged(handler: (market: FeedMarket) => void): void {
    this.demandHandlers.push(handler);
  }

  onNotice(handler: (notice: RelayNotice) => void): void {
    this.noticeHandlers.push(handler);
  }

  async close(): Promise<void> {
    this.demandHandlers.length = 0;
    this.noticeHandlers.length = 0;
    await this.opts.subscriber.quit().catch(() => this.opts.subscriber.disconnect());
  }
}
