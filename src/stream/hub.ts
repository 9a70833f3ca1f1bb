// The hub: every open session, the subscription registry of each feed × market, and the routing
// of broker events to subscribers. The delayed feed receives each event `delayMs` after the
// real-time one (timestamps unchanged), from a queue bounded in events.
import type { Broker, BrokerEvent } from './broker.js';
import { Chunk } from './chunk.js';
import type { Feed, FeedMarket } from './markets.js';
import { SubscriptionRegistry } from './registry.js';
import type { Session } from './session.js';

export interface HubOptions {
  /** Hold-back of the delayed feed, ms (default 15 minutes). */
  delayMs: number;
  /** Events the delayed feed may hold at once; the oldest are dropped beyond it. */
  maxDelayedEvents: number;
  now: () => number;
}

interface Held {
  due: number;
  events: readonly BrokerEvent[];
}

export class StreamHub {
  readonly sessions = new Map<string, Session>();
  private readonly registries = new Map<string, SubscriptionRegistry<Session>>();
  private readonly held: Held[] = [];
  private heldHead = 0;
  private heldEvents = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Events delivered to sessions (all feeds), for metrics and benchmarks. */
  delivered = 0;

  constructor(
    broker: Broker,
    private readonly opts: HubOptions,
  ) {
    broker.onEvents((events) => this.receive(events));
  }

  registry(feed: Feed, market: FeedMarket): SubscriptionRegistry<Session> {
    const key = `${feed}/${market}`;
    let r = this.registries.get(key);
    if (!r) this.registries.set(key, (r = new SubscriptionRegistry()));
    return r;
  }

  private receive(events: readonly BrokerEvent[]): void {
    this.route('realtime', events);
    if (this.opts.delayMs <= 0) return;
    this.held.push({ due: this.opts.now() + this.opts.delayMs, events });
    this.heldEvents += events.length;
    while (this.heldEvents > this.opts.maxDelayedEvents && this.heldHead < this.held.length) {
      this.heldEvents -= this.held[this.heldHead]!.events.length;
      this.held[this.heldHead++] = undefined as unknown as Held;
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.heldHead >= this.held.length) return;
    const wait = Math.max(0, this.held[this.heldHead]!.due - this.opts.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.release();
    }, wait);
    this.timer.unref();
  }

  private release(): void {
    const now = this.opts.now();
    while (this.heldHead < this.held.length && this.held[this.heldHead]!.due <= now) {
      const h = this.held[this.heldHead]!;
      this.held[this.heldHead++] = undefined as unknown as Held;
      this.heldEvents -= h.events.length;
      this.route('delayed', h.events);
    }
    if (this.heldHead > 1024 && this.heldHead * 2 > this.held.length) {
      this.held.splice(0, this.heldHead);
      this.heldHead = 0;
    }
    this.schedule();
  }

  /**
   * Delivers a batch: each subscriber gets the events it matches, in order. Subscribers that
   * matched the same events (all holders of `T.*`, say) share one chunk, so its text and frame
   * are built once.
   */
  private route(feed: Feed, events: readonly BrokerEvent[]): void {
    const matched = new Map<Session, number[]>();
    let last: SubscriptionRegistry<Session> | undefined;
    let lastMarket: FeedMarket | undefined;
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      if (e.market !== lastMarket) {
        lastMarket = e.market;
        last = this.registries.get(`${feed}/${e.market}`);
      }
      if (!last || !last.wants(e.ev)) continue;
      last.match(e.ev, e.symbol, (s) => {
        const list = matched.get(s);
        if (list) list.push(i);
        else matched.set(s, [i]);
      });
    }
    if (matched.size === 0) return;
    const sizes = new Array<number>(events.length);
    const chunks = new Map<string, Chunk>();
    for (const [s, list] of matched) {
      const key = list.length === events.length ? '*' : list.join(',');
      let chunk = chunks.get(key);
      if (!chunk) {
        for (const i of list) sizes[i] ??= Buffer.byteLength(events[i]!.json);
        chunk = new Chunk(list.map((i) => events[i]!.json), list.map((i) => sizes[i]!));
        chunks.set(key, chunk);
      }
      s.deliver(chunk);
      this.delivered += list.length;
    }
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.held.length = 0;
    this.heldHead = 0;
    this.heldEvents = 0;
  }
}
