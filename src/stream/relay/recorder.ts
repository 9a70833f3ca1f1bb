// Recording what the relay passes on: trades and quotes go through the live publisher's store path
// (as POST /admin/publish stores them), and upstream's minute bars are stored as minute bars with
// their day bars re-derived. Recording runs behind the delivery to clients, in arrival order:
// frames are queued as the relay passed them on (their text), gathered for some milliseconds,
// then read (integers exact) in slices of a hundred events, the event loop turning between
// slices, and written in transactions of up to a thousand, a few in flight at once. A SQLite file
// writes on the store's own thread; in-memory SQLite writes on the event loop, holding deliveries
// back for one write's time at most. A slow store never holds them back at all.
import type { BarRow } from '../../domain/market-records.js';
import { storeLiveMinuteBars } from '../../services/live-ticks.js';
import type { Store } from '../../store/index.js';
import { parseJsonExact, type WireEvent } from '../json.js';
import type { FeedMarket } from '../markets.js';
import type { LivePublisher } from '../publish.js';
import { validateEvent, type PublishedEvent } from '../publish-input.js';
import { pairTicker } from '../wire-rows.js';

/** Events waiting to be recorded before new ones are refused (logged and counted): a store gone silent must not take the memory. */
const MAX_QUEUED = 500_000;

/** How long events are gathered before they are read and written, ms. */
const GATHER_MS = 50;
/**
 * Events read at once: reading them (integers exact, checked as published events are) runs on
 * the event loop, so deliveries get a turn after each slice.
 */
const SLICE = 100;
/**
 * Events written at once, at most (a write holds what the slices read since the last one). Each
 * write is a transaction of its own: at 20,000 events a second, writes of 100 cost the write
 * thread a third more CPU, and the event loop a third more, than writes of up to 1,000.
 */
const WRITE = 1000;
/** Writes handed to the store and not yet committed: a store writing on its own thread works on the next while this loop reads the one after. */
const IN_FLIGHT = 4;

const TICK_CHANNELS = new Set(['T', 'Q', 'XT', 'XQ', 'C']);
const MINUTE_BARS = new Set(['AM', 'XA', 'CA']);

/** The stored minute bar of an upstream minute aggregate (`AM`, crypto `XA`, forex `CA`), or undefined. */
export function barOfEvent(e: WireEvent, market: FeedMarket): BarRow | undefined {
  if (!MINUTE_BARS.has(e.ev) || market === 'futures') return undefined;
  const f = e as Record<string, unknown>;
  const num = (k: string) => (typeof f[k] === 'number' ? (f[k] as number) : undefined);
  const [o, h, l, c, t] = [num('o'), num('h'), num('l'), num('c'), num('s')];
  if (o === undefined || h === undefined || l === undefined || c === undefined || t === undefined) return undefined;
  let ticker: string;
  if (e.ev === 'XA') ticker = pairTicker('X', String(f.pair));
  else if (e.ev === 'CA') ticker = pairTicker('C', String(f.pair));
  else if (typeof f.sym === 'string') ticker = f.sym;
  else return undefined;
  const v = num('v');
  const z = num('z');
  // upstream's minute aggregate carries the average trade size, not the count of trades
  const n = v !== undefined && z !== undefined && z > 0 ? Math.round(v / z) : undefined;
  return { ticker, t, o, h, l, c, v, vw: num('vw'), n };
}

export interface RecorderOptions {
  /** Stores trades and quotes (a publisher with no subscribers of its own: the relay has sent the events already). */
  publisher: LivePublisher;
  store: Store;
  log(msg: string, err?: unknown): void;
  /** A ticker recorded for the first time by this process (gap repair asks upstream for these). */
  onTicker?(market: FeedMarket, ticker: string): void;
}

/** A relayed frame waiting to be recorded: its text, read (integers exact) when its turn comes. */
interface QueuedFrame {
  market: FeedMarket;
  text: string;
  /** Data events the frame holds (counted against MAX_QUEUED before it is read). */
  count: number;
  /** The frame's events once read. */
  events?: readonly WireEvent[];
  /** The first of `events` not yet taken. */
  next: number;
}

/** What the slices read since the last write, to be written next. */
interface Batch {
  ticks: PublishedEvent[];
  bars: BarRow[];
}

/** Events of one frame taken into a slice: `events[from..to)`. */
interface Taken {
  market: FeedMarket;
  events: readonly WireEvent[];
  from: number;
  to: number;
}

export class RelayRecorder {
  private queue: QueuedFrame[] = [];
  private queued = 0;
  private running: Promise<void> | undefined;
  /** The last minute-bar write handed over (settled either way). */
  private barWrites: Promise<void> = Promise.resolve();
  private readonly seen = new Map<FeedMarket, Set<string>>();
  /** Events recorded, refused by the checks, or dropped on a full queue. */
  readonly counts = { recorded: 0, refused: 0, dropped: 0 };

  constructor(private readonly opts: RecorderOptions) {}

  /** Tickers this process has recorded on `market`. */
  tickers(market: FeedMarket): ReadonlySet<string> {
    return this.seen.get(market) ?? new Set();
  }

  /** Queues a relayed frame (its text as upstream sent it, holding `count` data events). */
  add(market: FeedMarket, text: string, count: number): void {
    if (this.queued + count > MAX_QUEUED) {
      if (this.counts.dropped === 0) this.opts.log(`relay: recording falls behind (over ${MAX_QUEUED} events waiting for the store); newer events are passed on but not recorded`);
      this.counts.dropped += count;
      return;
    }
    this.queue.push({ market, text, count, next: 0 });
    this.queued += count;
    this.running ??= new Promise<void>((resolve) => setTimeout(resolve, GATHER_MS)).then(() => this.drain()).finally(() => {
      this.running = undefined;
    });
  }

  /** Resolves when everything added so far is written (or failed). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    // the publisher applies writes in the order they were handed over, however they overlap
    const writing: Promise<void>[] = [];
    let batch: Batch = { ticks: [], bars: [] };
    while (this.queue.length > 0) {
      for (const { market, events, from, to } of this.take(SLICE)) {
        for (let i = from; i < to; i++) this.read(market, events[i]!, batch);
      }
      if (batch.ticks.length + batch.bars.length >= WRITE || this.queue.length === 0) {
        writing.push(this.write(batch));
        batch = { ticks: [], bars: [] };
        if (writing.length >= IN_FLIGHT) await writing.shift();
      }
      // let deliveries and socket reads run between slices
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (batch.ticks.length + batch.bars.length > 0) writing.push(this.write(batch));
    await Promise.all(writing);
  }

  /** Up to `max` events from the head of the queue, as runs of their frames (a frame is split where the slice ends). */
  private take(max: number): Taken[] {
    const out: Taken[] = [];
    let taken = 0;
    while (taken < max && this.queue.length > 0) {
      const head = this.queue[0]!;
      const events = (head.events ??= eventsOf(head.text));
      const n = Math.min(max - taken, events.length - head.next);
      out.push({ market: head.market, events, from: head.next, to: head.next + n });
      taken += n;
      head.next += n;
      if (head.next >= events.length) {
        this.queue.shift();
        this.queued -= head.count;
      } else {
        head.count -= n;
        this.queued -= n;
      }
    }
    return out;
  }

  private async write({ ticks, bars }: Batch): Promise<void> {
    // both handed over now, in arrival order; a stored minute bar is replaced by a later one, so
    // bar writes also wait for the write before (ticks are inserted, and may overlap)
    const ticksStored = ticks.length > 0 ? this.opts.publisher.publish(ticks) : undefined;
    const barsStored = bars.length > 0 ? this.barWrites.then(() => storeLiveMinuteBars(this.opts.store, bars)) : undefined;
    if (barsStored) this.barWrites = barsStored.catch(() => {});
    try {
      await Promise.all([ticksStored, barsStored]);
      this.counts.recorded += ticks.length + bars.length;
    } catch (err) {
      this.opts.log(`relay: ${ticks.length} ticks and ${bars.length} minute bars could not be recorded`, err);
    }
  }

  /** Adds a relayed event to the batch's ticks (checked as a published one is) or minute bars. */
  private read(market: FeedMarket, e: WireEvent, { ticks, bars }: Batch): void {
    if (TICK_CHANNELS.has(e.ev)) {
      const checked = validateEvent(e, market);
      if (typeof checked === 'string') this.counts.refused++;
      else {
        ticks.push(checked);
        this.note(market, tickerOf(checked));
      }
      return;
    }
    const bar = barOfEvent(e, market);
    if (bar) {
      bars.push(bar);
      this.note(market, bar.ticker);
    }
  }

  private note(market: FeedMarket, ticker: string): void {
    let set = this.seen.get(market);
    if (!set) this.seen.set(market, (set = new Set()));
    if (set.has(ticker)) return;
    set.add(ticker);
    this.opts.onTicker?.(market, ticker);
  }
}

/** The data events of a relayed frame, integers exact (the relay checked it is JSON). */
function eventsOf(text: string): WireEvent[] {
  const items = parseJsonExact(text);
  if (!Array.isArray(items)) return [];
  return (items as WireEvent[]).filter((e) => e !== null && typeof e === 'object' && typeof e.ev === 'string' && e.ev !== 'status');
}

function tickerOf(p: PublishedEvent): string {
  const e = p.event as Record<string, unknown>;
  if (p.event.ev === 'XT' || p.event.ev === 'XQ') return pairTicker('X', String(e.pair));
  if (p.event.ev === 'C') return pairTicker('C', String(e.p));
  return String(e.sym);
}
