// Recording what the relay passes on: trades and quotes are stored as POST /admin/publish stores
// them, and upstream's minute bars as minute bars with their day bars re-derived. Recording runs
// behind the delivery to clients, in arrival order: each frame's text, as the relay passed it on,
// goes to a thread of its own (frame-reader.ts) that gathers runs of up to 5,000 events or a
// quarter of a second and reads them (integers exact, checked as published events are); each run
// is written in one transaction. A SQLite file writes on the store's own thread, so the event
// loop only hands text and columns between threads, and tells the live state (snapshots,
// versions) of each committed run. A slow store never holds deliveries back.
import { fromColumns, packedRows } from '../../store/row-columns.js';
import type { QuoteRow, TradeRow } from '../../domain/market-records.js';
import { noteStoredTicks, storeLiveMinuteBars } from '../../services/live-ticks.js';
import type { Store } from '../../store/index.js';
import type { FeedMarket } from '../markets.js';
import { FrameReader, type RunResult } from './frame-reader.js';

/** Events waiting to be recorded before new ones are refused (logged and counted): a store gone silent must not take the memory. */
const MAX_QUEUED = 500_000;

/** How long events are gathered before they are read and written, ms. */
const GATHER_MS = 250;
/**
 * Events read and written at once, at most (a frame is never split). Each run is a transaction
 * of its own, and each commit writes again the index pages its rows touched: at 20,000 trades a
 * second over 500 tickers, runs of 5,000 cost the write thread about 9 ms of CPU per 1,000
 * trades, runs of 1,000 about 13-14 and runs of 100 a third more again.
 */
const RUN = 5000;
/** Rows of a run told to the live state at once (about 0.25 ms of the event loop). */
const TELL = 1000;

export interface RecorderOptions {
  store: Store;
  log(msg: string, err?: unknown): void;
  /** A ticker recorded for the first time by this process (gap repair asks upstream for these). */
  onTicker?(market: FeedMarket, ticker: string): void;
}

export class RelayRecorder {
  /** Events added and not yet written (or failed): counted against MAX_QUEUED. */
  private queued = 0;
  private idleWaiters: (() => void)[] = [];
  private readonly reader = new FrameReader({ gatherMs: GATHER_MS, maxEvents: RUN }, (run) => {
    this.record(run).catch((err: unknown) => this.opts.log('relay: a recorded run could not be told to the live state', err));
  });
  /** Settles once the run before the latest has been told to the live state (or has failed). */
  private told: Promise<void> = Promise.resolve();
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
    this.queued += count;
    this.reader.add({ market, text }, count);
  }

  /** Resolves when everything added so far is written (or failed); the run being gathered is ended now. */
  async idle(): Promise<void> {
    if (this.queued === 0) return;
    this.reader.flush();
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /** Waits for what was added, then stops the reading thread. */
  async close(): Promise<void> {
    await this.idle();
    await this.reader.close();
  }

  /**
   * Writes one run as soon as it is read (runs come in order, so writes are handed over in
   * arrival order), and tells the live state once committed, after the runs before it.
   */
  private async record(run: RunResult): Promise<void> {
    if ('error' in run) {
      this.opts.log(`relay: ${run.events} events could not be read for recording: ${run.error}`);
      return this.written(run.events);
    }
    const { ticks, bars, refused } = run.batch;
    const ticksStored = packedRows(ticks) > 0 ? this.opts.store.live.packedTicks(ticks) : undefined;
    // a stored minute bar is replaced by a later one, so bar writes also wait for the write before
    const barsStored = bars.length > 0 ? this.barWrites.then(() => storeLiveMinuteBars(this.opts.store, bars)) : undefined;
    if (barsStored) this.barWrites = barsStored.catch(() => {});
    for (const [market, tickers] of run.batch.tickers) for (const t of tickers) this.note(market, t);
    this.counts.refused += refused;
    const before = this.told;
    let told!: () => void;
    this.told = new Promise<void>((resolve) => (told = resolve));
    let stored = true;
    try {
      await Promise.all([ticksStored, barsStored]);
    } catch (err) {
      stored = false;
      this.opts.log(`relay: ${packedRows(ticks)} ticks and ${bars.length} minute bars could not be recorded`, err);
    }
    await before;
    if (stored) {
      // told in slices, the event loop turning between them, so a run of 5,000 holds no delivery back
      for (let i = 0; i < ticks.trades.length || i < ticks.quotes.length; i += TELL) {
        if (i > 0) await new Promise((resolve) => setImmediate(resolve));
        noteStoredTicks(this.opts.store, fromColumns<TradeRow>(ticks.trades, i, Math.min(i + TELL, ticks.trades.length)), fromColumns<QuoteRow>(ticks.quotes, i, Math.min(i + TELL, ticks.quotes.length)));
      }
      this.counts.recorded += packedRows(ticks) + bars.length;
    }
    told();
    this.written(run.events);
  }

  private written(events: number): void {
    this.queued -= events;
    if (this.queued > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private note(market: FeedMarket, ticker: string): void {
    let set = this.seen.get(market);
    if (!set) this.seen.set(market, (set = new Set()));
    if (set.has(ticker)) return;
    set.add(ticker);
    this.opts.onTicker?.(market, ticker);
  }
}
