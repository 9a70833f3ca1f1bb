// The hub: every open session, the subscription registry of each feed × market, and the routing
// of broker events to subscribers. The delayed feed receives each event `delayMs` after the
// real-time one (futures events `futuresDelayMs` after it, as upstream delays futures 10 minutes
// and the other markets 15), timestamps unchanged, from queues bounded in events.
import type { Broker, BrokerEvent } from './broker.js';
import { Chunk } from './chunk.js';
import { HoldBack } from './hold-back.js';
import type { Feed, FeedMarket } from './markets.js';
import { SubscriptionRegistry } from './registry.js';
import type { Session } from './session.js';

export interface HubOptions {
  /** Hold-back of the delayed feed, ms (the server's default 15 minutes); 0 holds nothing. */
  delayMs: number;
  /** Hold-back of the delayed futures feed, ms (the server's default 10 minutes); 0 holds nothing. */
  futuresDelayMs: number;
  /** Events the delayed feed may hold at once, per hold-back; the oldest are dropped beyond it. */
  maxDelayedEvents: number;
  now: () => number;
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
  /** The futures events' hold-back, and the other markets'. */
  private readonly futuresHeld: HoldBack;
  private readonly othersHeld: HoldBack;
  private timer: NodeJS.Timeout | undefined;
  /** When the pending timer fires. */
  private timerDue = 0;
  /** Events delivered to sessions (all feeds), for metrics and benchmarks. */
  delivered = 0;

  constructor(
    broker: Broker,
    private readonly opts: HubOptions,
  ) {
    this.futuresHeld = new HoldBack(opts.futuresDelayMs, opts.maxDelayedEvents);
    this.othersHeld = new HoldBack(opts.delayMs, opts.maxDelayedEvents);
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
    const now = this.opts.now();
    // a batch is published for one market; one of mixed markets is split between the two
    let futures = 0;
    for (const e of events) if (e.market === 'futures') futures++;
    if (futures === 0) this.hold(this.othersHeld, events, now);
    else if (futures === events.length) this.hold(this.futuresHeld, events, now);
    else {
      this.hold(this.futuresHeld, events.filter((e) => e.market === 'futures'), now);
      this.hold(this.othersHeld, events.filter((e) => e.market !== 'futures'), now);
    }
    this.schedule();
  }

  private hold(held: HoldBack, events: readonly BrokerEvent[], now: number): void {
    if (held.delayMs > 0) held.push(events, now);
  }

  /** Sets the timer for the earliest batch due (a futures batch may fall due before the others held). */
  private schedule(): void {
    const a = this.futuresHeld.nextDue();
    const b = this.othersHeld.nextDue();
    if (a === undefined && b === undefined) return;
    const due = Math.min(a ?? Infinity, b ?? Infinity);
    if (this.timer) {
      if (this.timerDue <= due) return;
      clearTimeout(this.timer);
    }
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.release();
    }, Math.max(0, due - this.opts.now()));
    this.timer.unref();
  }

  private release(): void {
    const now = this.opts.now();
    // markets are routed to registries of their own, so the two hold-backs' order between them is free
    for (const events of this.futuresHeld.takeDue(now)) this.route('delayed', events);
    for (const events of this.othersHeld.takeDue(now)) this.route('delayed', events);
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
    this.futuresHeld.clear();
    this.othersHeld.clear();
  }
}
