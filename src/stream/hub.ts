// The hub: every open session, the subscription registry of each feed × market, and the routing
// of broker events to subscribers. The delayed feed receives each event its market's hold-back
// after the real-time one (timestamps unchanged), from queues bounded in events, one per length
// of hold-back, holding only events of channels a delayed subscriber has.
import type { Broker, BrokerEvent } from './broker.js';
import { Chunk } from './chunk.js';
import { HoldBack } from './hold-back.js';
import type { Feed, FeedMarket } from './markets.js';
import { SubscriptionRegistry, type DemandChange } from './registry.js';
import type { Session } from './session.js';

export interface HubOptions {
  /** Hold-back of the delayed feed, ms, for markets `marketDelayMs` does not name; 0 holds nothing. */
  delayMs: number;
  /** Hold-backs of markets of their own, ms (the server's: futures 10 minutes, as upstream's). */
  marketDelayMs?: Partial<Record<FeedMarket, number>>;
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
  /** The queues of held events, by length of hold-back. */
  private readonly holds = new Map<number, HoldBack>();
  private timer: NodeJS.Timeout | undefined;
  /** When the pending timer fires. */
  private timerDue = 0;
  private demandWatchers: ((market: FeedMarket, change: DemandChange) => void)[] = [];
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
    if (!r) {
      this.registries.set(key, (r = new SubscriptionRegistry()));
      r.watcher = (change) => {
        for (const w of this.demandWatchers) w(market, change);
      };
    }
    return r;
  }

  /**
   * Calls `watcher` whenever a channel and symbol of a market gains its first subscriber or loses
   * its last on a feed (real-time and delayed alike: both are fed from the same events).
   */
  watchDemand(watcher: (market: FeedMarket, change: DemandChange) => void): void {
    this.demandWatchers.push(watcher);
  }

  private receive(events: readonly BrokerEvent[]): void {
    this.route('realtime', events);
    events = this.wantedDelayed(events);
    if (events.length === 0) return;
    const now = this.opts.now();
    // a batch is published for one market; one of several is split among their hold-backs
    const market = events[0]!.market;
    if (events.every((e) => e.market === market)) this.holdOf(market)?.push(events, now);
    else {
      const byHold = new Map<HoldBack, BrokerEvent[]>();
      for (const e of events) {
        const hold = this.holdOf(e.market);
        if (hold === undefined) continue;
        const list = byHold.get(hold);
        if (list) list.push(e);
        else byHold.set(hold, [e]);
      }
      for (const [hold, list] of byHold) hold.push(list, now);
    }
    this.schedule();
  }

  /**
   * The events some delayed subscriber's channel takes (T of stocks, AM of crypto...): only those
   * are held back. With no delayed subscriber nothing is held (each held event costs about 220
   * bytes for the whole hold-back, up to maxDelayedEvents); a delayed client gets the events
   * published from its subscription on, a hold-back later.
   */
  private wantedDelayed(events: readonly BrokerEvent[]): readonly BrokerEvent[] {
    let wanted: BrokerEvent[] | undefined;
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      const wants = this.registries.get(`delayed/${e.market}`)?.wants(e.ev) === true;
      if (wants) wanted?.push(e);
      else wanted ??= events.slice(0, i);
    }
    return wanted ?? events;
  }

  /** The queue of `market`'s events, or undefined when its events are not held back. */
  private holdOf(market: FeedMarket): HoldBack | undefined {
    const delayMs = this.opts.marketDelayMs?.[market] ?? this.opts.delayMs;
    if (delayMs <= 0) return undefined;
    let hold = this.holds.get(delayMs);
    if (hold === undefined) this.holds.set(delayMs, (hold = new HoldBack(delayMs, this.opts.maxDelayedEvents)));
    return hold;
  }

  /** Sets the timer for the earliest batch due (a shorter hold-back's may fall due before the others'). */
  private schedule(): void {
    let due = Infinity;
    for (const hold of this.holds.values()) due = Math.min(due, hold.nextDue() ?? Infinity);
    if (due === Infinity) return;
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
    // markets are routed to registries of their own, so the order between hold-backs is free
    for (const hold of this.holds.values()) for (const events of hold.takeDue(now)) this.route('delayed', events);
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
    for (const hold of this.holds.values()) hold.clear();
  }
}
