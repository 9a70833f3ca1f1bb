import { Worker } from 'node:worker_threads';
import type { FuturesMinuteBar } from '../../domain/futures-market.js';
import type { BarRow } from '../../domain/market-records.js';
import { StoreBusyError, StoreUnavailableError } from '../driver.js';
import type { LiveTicks, LiveWriter, StoredTicks } from '../live-writes.js';
import { workerSource, type WorkerSource } from '../worker-source.js';
import { packTicks, packedRows, type PackedTicks } from '../row-columns.js';

// The live feed's writes of a SQLite file on a thread of their own. better-sqlite3 runs a
// statement on the calling thread: storing a publish of 5,000 trades held the event loop for
// 50-90 ms, during which no subscriber was sent anything and no request answered. Jobs sent here
// (a publish's ticks, the aggregator's minute bars: whole batches, one message each) run on one
// worker thread with its own connection to the file (write-worker.ts), in the order they are
// sent; each answer comes once its transaction has committed, so a publish acknowledged after it
// is readable by every connection. A thread that fails or ends fails the jobs waiting on it with
// StoreUnavailableError (nothing of them was committed: each is one transaction); the next job
// starts another.

export type WriteJob =
  | { kind: 'ticks'; ticks: PackedTicks }
  | { kind: 'minuteBars'; bars: readonly BarRow[] }
  | { kind: 'futuresMinuteBars'; bars: readonly FuturesMinuteBar[] }
  /** No write: only the answer's `foreign`. */
  | { kind: 'look' };

export interface WriteRequest {
  id: number;
  job: WriteJob;
}

/** `foreign`: another connection committed since the thread's previous job or look. */
export type WriteReply =
  | { id: number; foreign: boolean; stored?: StoredTicks }
  | { id: number; foreign: boolean; error: { message: string; code?: string } };

/** What the serving connection learns from the thread, for its data versions (SqliteDriver). */
export interface WriteThreadEvents {
  /** A job committed (called before its caller hears of it). */
  committed(): void;
  /** Another connection committed (the serving one or another program: the thread cannot tell). */
  foreign(): void;
}

/**
 * How long the thread's connection waits for another's write lock (an import's) before the job
 * fails with StoreBusyError. It waits on its own thread, so longer than the serving connection's,
 * but jobs wait one after another: behind an import holding the lock for minutes, a queue of
 * publishes must fail fast (503 STORE_BUSY) rather than pile up with their rows.
 */
export const WRITE_THREAD_BUSY_TIMEOUT_MS = 250;

interface Pending {
  resolve(stored: StoredTicks | undefined): void;
  reject(err: Error): void;
}

let source: WorkerSource | null | undefined;

export class WriteThread implements LiveWriter {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Writing jobs sent so far (looks not counted). */
  private sent = 0;
  private closed = false;

  private constructor(
    private readonly file: string,
    private readonly where: WorkerSource,
    private readonly events: WriteThreadEvents,
  ) {}

  /** A writer of `file`, or undefined where no worker can be started (the caller writes itself). */
  static for(file: string, events: WriteThreadEvents): WriteThread | undefined {
    if (source === undefined) source = workerSource(import.meta.url, 'write-worker');
    return source === null ? undefined : new WriteThread(file, source, events);
  }

  async ticks(ticks: LiveTicks): Promise<StoredTicks> {
    if (ticks.trades.length === 0 && ticks.quotes.length === 0 && ticks.futuresTrades.length === 0 && ticks.futuresQuotes.length === 0) return { trades: 0, quotes: 0 };
    const { packed, transfer } = packTicks(ticks);
    return (await this.send({ kind: 'ticks', ticks: packed }, transfer))!;
  }

  async packedTicks(ticks: PackedTicks): Promise<StoredTicks> {
    if (packedRows(ticks) === 0) return { trades: 0, quotes: 0 };
    // copied, not transferred: the caller reads the rows again once they are committed
    return (await this.send({ kind: 'ticks', ticks }))!;
  }

  async minuteBars(bars: readonly BarRow[]): Promise<void> {
    if (bars.length > 0) await this.send({ kind: 'minuteBars', bars });
  }

  async futuresMinuteBars(bars: readonly FuturesMinuteBar[]): Promise<void> {
    if (bars.length > 0) await this.send({ kind: 'futuresMinuteBars', bars });
  }

  /**
   * Where the thread stands, for SqliteDriver's reads of data_version: writing jobs sent so far
   * and whether one is waiting for its answer. Between two marks with equal `sent` and no job
   * waiting at the first, the thread committed nothing.
   */
  mark(): { sent: number; waiting: boolean } {
    return { sent: this.sent, waiting: this.pending.size > 0 };
  }

  /** Starts the thread now rather than at the first write (its first look answered through `events.foreign`). */
  prepare(): void {
    if (this.closed || this.worker !== undefined) return;
    this.send({ kind: 'look' }).catch(() => {});
  }

  /** Asks the thread whether another connection committed since its last job (answered through `events.foreign`). */
  look(): void {
    if (this.closed || this.worker === undefined) return;
    this.send({ kind: 'look' }).catch(() => {});
  }

  async close(): Promise<void> {
    this.closed = true;
    const w = this.worker;
    this.worker = undefined;
    this.fail(new StoreUnavailableError('the store is closed'));
    if (w) await w.terminate();
  }

  private send(job: WriteJob, transfer: ArrayBuffer[] = []): Promise<StoredTicks | undefined> {
    if (this.closed) return Promise.reject(new StoreUnavailableError('the store is closed'));
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    if (job.kind !== 'look') this.sent++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) worker.ref(); // a write in flight keeps the process up
      worker.postMessage({ id, job } satisfies WriteRequest, transfer);
    });
  }

  private start(): Worker {
    const w = new Worker(this.where.filename, {
      eval: this.where.eval,
      execArgv: [],
      workerData: { file: this.file, busyTimeoutMs: WRITE_THREAD_BUSY_TIMEOUT_MS },
      // its messages are batches of rows, freed as soon as they are written
      resourceLimits: { maxYoungGenerationSizeMb: 16 },
    });
    w.unref();
    w.on('message', (m: WriteReply) => {
      if (m.foreign) this.events.foreign();
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (this.pending.size === 0) w.unref();
      if ('error' in m) p.reject(writeError(m.error));
      else {
        this.events.committed();
        p.resolve(m.stored);
      }
    });
    // a worker that failed (or was ended) fails its jobs; the next job starts another
    const lost = (err: Error) => {
      if (this.worker !== w) return;
      this.worker = undefined;
      this.fail(new StoreUnavailableError(`the SQLite write thread ended: ${err.message}`, { cause: err }));
      // whatever another connection committed while no thread looked is not known: say so
      this.events.foreign();
    };
    w.on('error', lost);
    w.on('exit', (code) => lost(new Error(`exit code ${code}`)));
    this.worker = w;
    return w;
  }

  private fail(err: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(err);
  }
}

/** The thread's error as the store's: busy as StoreBusyError, any other failed write as StoreUnavailableError. */
function writeError(e: { message: string; code?: string }): Error {
  const cause = Object.assign(new Error(e.message), e.code ? { code: e.code } : {});
  if (e.code?.startsWith('SQLITE_BUSY')) return new StoreBusyError('another connection (such as an import) holds the SQLite write lock', { cause });
  return new StoreUnavailableError(`the live write failed: ${e.message}`, { cause });
}
