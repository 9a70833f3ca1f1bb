// The relay of one market: while this process holds the market's lease it keeps one upstream
// connection, subscribed to the union of every process's demand (and the fixed list), and passes
// each frame's events to the broker as they come, so every subscriber on every process gets them
// in upstream's order. Losing the connection or the lease, and getting it back, is announced to
// local clients; the hole it left in the recorded tape is repaired from upstream's REST API.
import { UpstreamFeedClient, type FeedClientOptions, type FeedClientState } from '../../upstream/feed-client.js';
import type { GapSource } from '../../upstream/rest-gap-source.js';
import type { Store } from '../../store/index.js';
import type { Broker } from '../broker.js';
import type { FeedMarket } from '../markets.js';
import type { DemandChange } from '../registry.js';
import { MAX_REPAIR_MS, repairGap } from './gap-repair.js';
import { relayEvents, relayGapRows, relayReconnects, relayUpstreamStopped, relayUpstreamUp } from './metrics.js';
import { relayedEvents } from './pass-through.js';
import type { RelayNotice, RelayPeers } from './peers.js';
import type { RelayRecorder } from './recorder.js';
import { Backoff, CommandHealth, RetryQueue } from './retry.js';
import { barTopicOf, MarketDemand } from './topics.js';

export interface RelayLog {
  info(msg: string): void;
  warn(msg: string, err?: unknown): void;
  error(msg: string): void;
}

export interface MarketRelayOptions {
  market: FeedMarket;
  feedUrl: string;
  key: string;
  broker: Broker;
  peers: RelayPeers;
  /** Topics always subscribed (--relay-subscribe). */
  fixed: readonly string[];
  recorder?: RelayRecorder;
  store?: Store;
  gapSource?: GapSource;
  log: RelayLog;
  /** Lease renewal and demand refresh period, ms. */
  checkMs: number;
  /** Lease lifetime, ms. */
  leaseMs: number;
  feed?: Partial<Pick<FeedClientOptions, 'initialDelayMs' | 'maxDelayMs' | 'connectTimeoutMs' | 'pingIntervalMs'>>;
  now: () => number;
}

export interface MarketRelayStatus {
  market: FeedMarket;
  /** This process holds the market's upstream connection. */
  holder: boolean;
  state: FeedClientState['kind'] | 'standby';
  detail?: string;
}

const STATUS = {
  lost: (m: FeedMarket, why: string) => `upstream ${m} feed lost (${why}); reconnecting. This connection stays open; events resume when upstream is back.`,
  back: (m: FeedMarket) => `upstream ${m} feed restored`,
  stopped: (m: FeedMarket, reason: string) => `upstream ${m} feed refused the relay (${reason}); no events until the operator fixes it`,
};

export class MarketRelay {
  private client: UpstreamFeedClient | undefined;
  private readonly local: MarketDemand;
  /** Start of the current hole in the tape, while there is one. */
  private gapFrom: number | undefined;
  /** Local clients were told the feed was lost (and are told when it is back). */
  private lossAnnounced = false;
  private lastRenewed = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The rounds run one after another; `pending` is the one waiting to start (later calls join it). */
  private chain: Promise<void> = Promise.resolve();
  private pending: Promise<void> | undefined;
  private closed = false;
  /** A round whose Redis commands failed is run again after this backoff, sooner than the next period. */
  private readonly roundBackoff: Backoff;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly demandHealth: CommandHealth;
  private readonly leaseHealth: CommandHealth;
  private readonly peerDemandHealth: CommandHealth;
  /** The other processes' demand as last read, kept while Redis cannot be read (their clients keep their topics). */
  private peerDemand = new Set<string>();
  /** Status frames for every process's clients, sent in order, each retried until Redis takes it. */
  private readonly notices: RetryQueue;

  constructor(private readonly opts: MarketRelayOptions) {
    this.local = new MarketDemand(opts.market);
    const m = opts.market;
    this.roundBackoff = new Backoff(Math.min(200, opts.checkMs), opts.checkMs);
    this.demandHealth = new CommandHealth(`sharing the ${m} demand`, opts.log);
    this.leaseHealth = new CommandHealth(`taking or renewing the ${m} lease`, opts.log);
    this.peerDemandHealth = new CommandHealth(`reading the other processes' ${m} demand`, opts.log);
    this.notices = new RetryQueue({ what: `announcing the ${m} upstream status`, log: opts.log, initialMs: Math.min(200, opts.checkMs), maxMs: opts.checkMs, maxQueued: 20 });
  }

  get market(): FeedMarket {
    return this.opts.market;
  }

  status(): MarketRelayStatus {
    const s = this.client?.state;
    if (!s) return { market: this.market, holder: false, state: 'standby' };
    const detail = s.kind === 'stopped' ? `${s.reason}: ${s.message}` : s.kind === 'lost' ? s.reason : undefined;
    return { market: this.market, holder: true, state: s.kind, detail };
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.opts.checkMs);
    this.timer.unref();
    void this.tick();
  }

  /** A local subscription change: published to the other processes at once, and applied upstream when held here. */
  onLocalDemand(change: DemandChange): void {
    if (this.local.apply(change)) void this.tick();
  }

  /** Another process's demand changed. */
  onPeerDemand(): void {
    if (this.client) void this.refreshWanted().then(() => this.retryIfFailed());
  }

  /** One round: publish this process's demand, take or renew the lease, and start or stop the connection. */
  private tick(): Promise<void> {
    if (this.pending) return this.pending;
    const round = this.chain.then(async () => {
      this.pending = undefined;
      if (!this.closed) await this.round();
    });
    this.pending = round;
    this.chain = round.catch(() => {});
    return round;
  }

  private async round(): Promise<void> {
    const { peers, market, log } = this.opts;
    try {
      await peers.setDemand(market, this.local.topics());
      this.demandHealth.succeeded();
    } catch (err) {
      this.demandHealth.failed(err);
    }
    let held: boolean;
    try {
      held = await peers.holdLease(market);
      if (held) this.lastRenewed = this.opts.now();
      this.leaseHealth.succeeded();
    } catch (err) {
      // Redis unreachable: keep the connection while the lease we had may still be ours
      held = this.client !== undefined && this.opts.now() - this.lastRenewed < this.opts.leaseMs;
      this.leaseHealth.failed(err);
    }
    if (this.closed) return;
    if (held && !this.client) await this.takeOver();
    else if (!held && this.client) {
      log.warn(`relay: another process holds the ${market} upstream connection now; closing this one`);
      this.dropClient();
    }
    if (this.client) {
      await this.refreshWanted();
      if (this.client?.state.kind === 'live') await peers.markLive(market, this.opts.now()).catch(() => {});
    }
    this.retryIfFailed();
  }

  /** Runs the round again after a backoff while any of its Redis commands fails; the period goes on beside it. */
  private retryIfFailed(): void {
    if (this.closed) return;
    if (!this.demandHealth.failing && !this.leaseHealth.failing && !this.peerDemandHealth.failing) {
      this.roundBackoff.reset();
      return;
    }
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.tick();
    }, this.roundBackoff.next());
    this.retryTimer.unref();
  }

  private async takeOver(): Promise<void> {
    const { market, log } = this.opts;
    const lastLive = await this.previousLastLive();
    // the previous holder left the tape open from its last report on (a second or two when it
    // handed over on a planned stop; the lease's lifetime and more when it died)
    if (lastLive !== undefined) {
      this.gapFrom = lastLive;
      if (this.opts.now() - lastLive > 2 * this.opts.checkMs) this.announceLoss('the process holding the connection stopped');
    }
    log.info(`relay: this process holds the ${market} upstream connection (${this.opts.feedUrl}/${market})`);
    this.client = new UpstreamFeedClient({
      base: this.opts.feedUrl,
      market,
      key: this.opts.key,
      ...this.opts.feed,
      now: this.opts.now,
      onFrame: (text) => this.onFrame(text),
      onState: (next, prev) => this.onState(next, prev),
      onNotice: (status, message) => {
        if (status === 'error') log.warn(`relay: upstream ${market} answered: ${message}`);
      },
    });
    this.client.want(await this.wanted());
    this.client.start();
  }

  /**
   * When the previous holder last had the connection live, read with retries for up to one period
   * (the takeover waits no longer for it); undefined when there was none, or Redis did not answer.
   */
  private async previousLastLive(): Promise<number | undefined> {
    const { peers, market, log, checkMs } = this.opts;
    const health = new CommandHealth(`reading where the ${market} tape was last whole`, log);
    const backoff = new Backoff(Math.min(200, checkMs), checkMs);
    const giveUpAt = this.opts.now() + checkMs;
    for (;;) {
      try {
        const at = await peers.lastLive(market);
        health.succeeded();
        return at;
      } catch (err) {
        health.failed(err);
        const pause = backoff.next();
        if (this.closed || this.opts.now() + pause > giveUpAt) {
          log.warn(`relay: connecting ${market} upstream without knowing where the tape was last whole; the gap before this takeover is not repaired`);
          return undefined;
        }
        await new Promise((r) => setTimeout(r, pause));
      }
    }
  }

  private dropClient(): void {
    this.client?.close();
    this.client = undefined;
    relayUpstreamUp.remove({ market: this.market });
  }

  private async wanted(): Promise<Set<string>> {
    try {
      this.peerDemand = await this.opts.peers.demand(this.market);
      this.peerDemandHealth.succeeded();
    } catch (err) {
      // not unsubscribing what the other processes' clients held when it was last read
      this.peerDemandHealth.failed(err);
    }
    const all = new Set(this.peerDemand);
    for (const t of this.local.topics()) all.add(t);
    for (const t of this.opts.fixed) all.add(t);
    if (this.opts.recorder) {
      for (const t of [...all]) {
        const bars = barTopicOf(this.market, t);
        if (bars) all.add(bars);
      }
    }
    return all;
  }

  private async refreshWanted(): Promise<void> {
    const wanted = await this.wanted();
    this.client?.want(wanted);
  }

  private onFrame(text: string): void {
    const events = relayedEvents(text, this.market);
    if (events === undefined) {
      this.opts.log.warn(`relay: upstream ${this.market} sent a frame that is not JSON; skipped`);
      return;
    }
    if (events.length === 0) return;
    relayEvents.inc({ market: this.market }, events.length);
    this.opts.broker.publish(events).catch((err: unknown) => this.opts.log.warn('relay: events could not be sent to subscribers (the event bus is unavailable)', err));
    // the recorder reads the frame again (integers exact) when it writes, off the delivery's path
    this.opts.recorder?.add(this.market, text, events.length);
  }

  private onState(next: FeedClientState, prev: FeedClientState): void {
    const { market, log, peers } = this.opts;
    relayUpstreamUp.set({ market }, next.kind === 'live' ? 1 : 0);
    if (next.kind === 'live') {
      for (const reason of ['auth_failed', 'max_connections']) relayUpstreamStopped.remove({ market, reason });
      log.info(`relay: upstream ${market} feed live`);
      void peers.markLive(market, next.since).catch(() => {});
      if (this.lossAnnounced) {
        this.lossAnnounced = false;
        this.announce({ market, status: 'success', message: STATUS.back(market) });
      }
      if (this.gapFrom !== undefined) {
        const from = this.gapFrom;
        this.gapFrom = undefined;
        void this.repair(from, next.since);
      }
    } else if (next.kind === 'lost') {
      if (prev.kind === 'live') {
        relayReconnects.inc({ market });
        this.gapFrom ??= next.since;
        log.warn(`relay: upstream ${market} feed lost (${next.reason}); retrying in ${next.retryInMs} ms`);
        this.announceLoss(next.reason);
      } else {
        log.warn(`relay: upstream ${market} feed not reached (${next.reason}); retrying in ${next.retryInMs} ms`);
      }
    } else if (next.kind === 'stopped') {
      relayUpstreamStopped.set({ market, reason: next.reason }, 1);
      log.error(`relay: upstream ${market} feed answered ${next.reason} ("${next.message}"): not retrying. ${next.reason === 'auth_failed' ? 'Check --upstream-key.' : 'Another connection uses this upstream key for this market; stop it, or give the relay a key of its own.'}`);
      this.gapFrom ??= next.since;
      this.announce({ market, status: 'error', message: STATUS.stopped(market, next.reason) });
    }
  }

  private announceLoss(why: string): void {
    this.lossAnnounced = true;
    this.announce({ market: this.market, status: 'error', message: STATUS.lost(this.market, why) });
  }

  private announce(notice: RelayNotice): void {
    this.notices.push(() => this.opts.peers.announce(notice));
  }

  private async repair(gapFrom: number, toMs: number): Promise<void> {
    const { store, gapSource, recorder, market, log, peers } = this.opts;
    if (!store || !gapSource || !recorder) return;
    const fromMs = Math.max(gapFrom, toMs - MAX_REPAIR_MS);
    if (fromMs > gapFrom) log.warn(`relay: the ${market} gap began ${new Date(gapFrom).toISOString()}; only its last ${MAX_REPAIR_MS / 3_600_000} hours are repaired (import older history)`);
    const tickers = new Set([...recorder.tickers(market), ...(await peers.tickers(market).catch(() => []))]);
    for (const t of await this.wanted()) {
      const sym = t.slice(t.indexOf('.') + 1);
      if (sym !== '*' && (t.startsWith('T.') || t.startsWith('AM.'))) tickers.add(sym);
    }
    const span = `${new Date(fromMs).toISOString()} to ${new Date(toMs).toISOString()} (${((toMs - fromMs) / 1000).toFixed(1)} s)`;
    if (tickers.size === 0) {
      log.info(`relay: ${market} gap ${span}: nothing recorded yet, nothing to repair`);
      return;
    }
    const r = await repairGap({ source: gapSource, store, market, tickers: [...tickers], fromMs, toMs, log: (m) => log.warn(m) });
    relayGapRows.inc({ market, kind: 'trades' }, r.trades);
    relayGapRows.inc({ market, kind: 'bars' }, r.bars);
    log.info(`relay: repaired the ${market} gap ${span}: ${r.trades} trades and ${r.bars} minute bars stored for ${r.tickers} tickers${r.failed ? ` (${r.failed} failed)` : ''}`);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.retryTimer);
    this.notices.close();
    await this.chain;
    if (this.client) {
      // the next holder repairs from here
      if (this.client.state.kind === 'live') await this.opts.peers.markLive(this.market, this.opts.now()).catch(() => {});
      this.dropClient();
      await this.opts.peers.releaseLease(this.market).catch(() => {});
    }
  }

  /** Stops without releasing anything, as a process that dies would (tests of the takeover). */
  abandon(): void {
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.retryTimer);
    this.notices.close();
    this.client?.close();
    this.client = undefined;
  }
}
