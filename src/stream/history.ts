// A short history of the real-time feed, for catch-up: a client that reconnects subscribes with
// `since` (the time of the last event it received) and first gets the events of its topics it
// missed. Every batch the broker delivers is kept (its own and, across processes, those the bus
// brings), up to `maxAgeMs` and `maxEvents`, and the events are only decoded when a catch-up asks.
// Across processes over Redis, a process that joins fills its history first from the batches
// Redis keeps (seed).
//
// A batch is kept packed: its events' texts joined in one string with their end offsets, and
// their market, channel and symbol in three arrays of shared strings. Keeping the events' own
// objects meant every event of the last seconds survived the young generation and was copied
// into the old one (about half the relay's garbage-collection pauses at 20,000 events/s); packed,
// the event objects die young and a batch is a handful of objects whatever its size.
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

/** A kept batch, packed. */
interface PackedBatch {
  at: number;
  /** The events' JSON texts, one after another. */
  text: string;
  /** Where each event's text ends in `text`. */
  ends: Uint32Array;
  markets: FeedMarket[];
  evs: string[];
  symbols: string[];
}

/** The JSON text of event `j` of a packed batch. */
const eventText = (b: PackedBatch, j: number): string => b.text.slice(j === 0 ? 0 : b.ends[j - 1], b.ends[j]);

export class FeedHistory {
  private readonly kept: PackedBatch[] = [];
  private head = 0;
  private events = 0;
  /** One string per channel and symbol seen, so a kept batch never holds a slice of a larger text. */
  private readonly names = new Map<string, string>();

  constructor(private readonly opts: HistoryOptions) {}

  private name(s: string): string {
    let n = this.names.get(s);
    if (n === undefined) {
      // a symbol cut from a frame would keep the whole frame alive: keep a flat copy
      n = (' ' + s).slice(1);
      if (this.names.size < 100_000) this.names.set(n, n);
    }
    return n;
  }

  private pack(at: number, events: readonly BrokerEvent[]): PackedBatch {
    const n = events.length;
    const ends = new Uint32Array(n);
    const markets: FeedMarket[] = new Array(n);
    const evs: string[] = new Array(n);
    const symbols: string[] = new Array(n);
    const texts: string[] = new Array(n);
    let end = 0;
    for (let i = 0; i < n; i++) {
      const e = events[i]!;
      texts[i] = e.json;
      end += e.json.length;
      ends[i] = end;
      markets[i] = e.market;
      evs[i] = this.name(e.ev);
      symbols[i] = this.name(e.symbol);
    }
    return { at, text: texts.join(''), ends, markets, evs, symbols };
  }

  append(events: readonly BrokerEvent[]): void {
    if (this.opts.maxAgeMs <= 0 || events.length === 0) return;
    const now = this.opts.now();
    this.kept.push(this.pack(now, events));
    this.events += events.length;
    const oldest = now - this.opts.maxAgeMs;
    while (this.head < this.kept.length - 1 && (this.kept[this.head]!.at < oldest || this.events > this.opts.maxEvents)) {
      const gone = this.kept[this.head++]!;
      this.events -= gone.ends.length;
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
    for (let i = this.head; i < this.kept.length; i++) {
      const b = this.kept[i]!;
      for (let j = 0; j < b.ends.length; j++) held.add(eventText(b, j));
    }
    const oldest = this.opts.now() - this.opts.maxAgeMs;
    const older: PackedBatch[] = [];
    for (const b of batches) {
      if (b.at < oldest) continue;
      const events = b.events.filter((e) => !held.has(e.json));
      if (events.length === 0) continue;
      older.push(this.pack(b.at, events));
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
      const b = this.kept[i]!;
      if (b.at < oldest) continue;
      for (let j = 0; j < b.ends.length; j++) {
        if (b.markets[j] !== market) continue;
        const ev = b.evs[j];
        const symbol = b.symbols[j];
        if (!topics.some((t) => t.ev === ev && (t.symbol === '*' || t.symbol === symbol))) continue;
        const json = eventText(b, j);
        const t = eventTime(json);
        if (t === undefined) continue;
        if (t > sinceMs) out.push(json);
        else reachesBack = true;
      }
    }
    return { events: out, complete: reachesBack };
  }
}
