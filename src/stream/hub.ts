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

/** Subscribers found in more than one matched set, with the event lists of their sets. */
function inSeveralSets<S>(bySet: Map<ReadonlySet<S>, number[]>): Map<S, number[][]> {
  const first = new Map<S, number[]>();
  const several = new Map<S, number[][]>();
  for (const [set, list] of bySet) {
    for (const s of set) {
      const seen = first.get(s);
      if (seen === undefined) first.set(s, list);
      else {
        const lists = several.get(s);
        if (lists) lists.push(list);
        else several.set(s, [seen, list]);
      }
    }
  }
  return several;
}

/** Sorted event indices without repeats. */
function union(lists: readonly number[][]): number[] {
  const all = lists.flat().sort((a, b) => a - b);
  return all.filter((v, k) => k === 0 || v !== all[k - 1]);
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
   * Delivers a batch: each subscriber gets the events it matches, in order. Events are matched
   * against subscriber sets (all holders of `T.*`, all holders of `T.AAPL`), not subscriber by
   * subscriber, and the members of a set share one chunk, so its text and frame are built once:
   * the cost per subscriber is one call. A subscriber in several matched sets gets their union
   * in publish order, shared with every subscriber holding the same union.
   */
  private route(feed: Feed, events: readonly BrokerEvent[]): void {
    const bySet = new Map<ReadonlySet<Session>, number[]>();
    const add = (set: ReadonlySet<Session>, i: number) => {
      const list = bySet.get(set);
      if (list) list.push(i);
      else bySet.set(set, [i]);
    };
    let last: SubscriptionRegistry<Session> | undefined;
    let lastMarket: FeedMarket | undefined;
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      if (e.market !== lastMarket) {
        lastMarket = e.market;
        last = this.registries.get(`${feed}/${e.market}`);
      }
      if (last) last.sets(e.ev, e.symbol, (set) => add(set, i));
    }
    if (bySet.size === 0) return;
    const sizes = new Array<number>(events.length);
    const chunkOf = (list: readonly number[]) =>
      new Chunk(
        list.map((i) => events[i]!.json),
        list.map((i) => (sizes[i] ??= Buffer.byteLength(events[i]!.json))),
      );
    const several = bySet.size > 1 ? inSeveralSets(bySet) : undefined;
    for (const [set, list] of bySet) {
      let chunk: Chunk | undefined;
      // a slow consumer closed here leaves the set while it is walked, which Set iteration allows
      for (const s of set) {
        if (several?.has(s)) continue;
        s.deliver((chunk ??= chunkOf(list)));
        this.delivered += list.length;
      }
    }
    if (!several) return;
    const unions = new Map<string, Chunk>();
    for (const [s, lists] of several) {
      const list = union(lists);
      const key = list.join(',');
      let chunk = unions.get(key);
      if (!chunk) unions.set(key, (chunk = chunkOf(list)));
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
