// A short history of the real-time feed, for catch-up: a client that reconnects subscribes with
// `since` (the time of the last event it received) and first gets the events of its topics it
// missed. Every batch the broker delivers is kept (its own and, across processes, those the bus
// brings), up to `maxAgeMs` and `maxEvents`; appending costs one array push per batch, and the
// events are only decoded when a catch-up asks. Across processes over Redis, a process that
// joins fills its history first from the batches Redis keeps (seed).
import type { BrokerEvent } from './broker.js';
import type { FeedMarket } from './markets.js';
import type { Topic } from './topics.js';

export interface HistoryOptions {
  /** How long a batch is kept, ms (0 keeps nothing). */
  maxAgeMs: number;
  /** Events kept at most; the oldest batches go first beyond it. */
  maxEvents: number;
  now: () => number;
}

export interface Kept {
  at: number;
  events: readonly BrokerEvent[];
}

export interface CatchUp {
  /** The missed events' JSON texts, in the order they were published. */
  events: string[];
  /** False when the history no longer reaches back to `since`: older missed events may be gone. */
  complete: boolean;
}

/** The event's own time in ms: `t` of ticks, `s` (start) of bars, else `e`. */
function eventTime(json: string): number | undefined {
  const e = JSON.parse(json) as { t?: unknown; s?: unknown; e?: unknown };
  const t = e.t ?? e.s ?? e.e;
  return typeof t === 'number' ? t : undefined;
}

export class FeedHistory {
  private readonly kept: Kept[] = [];
  private head = 0;
  private events = 0;

  constructor(private readonly opts: HistoryOptions) {}

  append(events: readonly BrokerEvent[]): void {
    if (this.opts.maxAgeMs <= 0 || events.length === 0) return;
    const now = this.opts.now();
    this.kept.push({ at: now, events });
    this.events += events.length;
    const oldest = now - this.opts.maxAgeMs;
    while (this.head < this.kept.length - 1 && (this.kept[this.head]!.at < oldest || this.events > this.opts.maxEvents)) {
      const gone = this.kept[this.head++]!;
      this.events -= gone.events.length;
    }
    if (this.head > 1024 && this.head * 2 > this.kept.length) {
      this.kept.splice(0, this.head);
      this.head = 0;
    }
  }

  /**
   * Older batches from elsewhere (the bus's own history, for a process that just joined), put
   * before the batches received here; events already held are not kept twice.
   */
  seed(batches: readonly Kept[]): void {
    if (this.opts.maxAgeMs <= 0) return;
    const held = new Set<string>();
    for (let i = this.head; i < this.kept.length; i++) for (const e of this.kept[i]!.events) held.add(e.json);
    const oldest = this.opts.now() - this.opts.maxAgeMs;
    const older: Kept[] = [];
    for (const b of batches) {
      if (b.at < oldest) continue;
      const events = b.events.filter((e) => !held.has(e.json));
      if (events.length === 0) continue;
      older.push({ at: b.at, events });
      this.events += events.length;
    }
    this.kept.splice(this.head, 0, ...older);
  }

  /** The kept events of `market` matching `topics` whose own time is after `sinceMs`. */
  since(market: FeedMarket, topics: readonly Topic[], sinceMs: number): CatchUp {
    const out: string[] = [];
    // the history is whole from its first kept batch on: holding an event of these topics at or
    // before `since` (the client's last) means nothing it missed was dropped
    let reachesBack = false;
    const oldest = this.opts.now() - this.opts.maxAgeMs;
    for (let i = this.head; i < this.kept.length; i++) {
      const batch = this.kept[i]!;
      if (batch.at < oldest) continue;
      for (const e of batch.events) {
        if (e.market !== market || !topics.some((t) => t.ev === e.ev && (t.symbol === '*' || t.symbol === e.symbol))) continue;
        const t = eventTime(e.json);
        if (t === undefined) continue;
        if (t > sinceMs) out.push(e.json);
        else reachesBack = true;
      }
    }
    return { events: out, complete: reachesBack };
  }
}
