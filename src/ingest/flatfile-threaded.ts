// readFlatFile with the reading (gunzip callbacks, CSV tokenising, row parsing) done in a worker
// thread, so that it overlaps the store's writes on this thread instead of taking turns with
// them. Same contract as readFlatFile: same batches, summary, errors, rejects and progress
// reports, in the same order; only the thread that does the work differs.
//
// The worker (flatfile-worker.ts) posts each batch encoded as typed arrays whose buffers are
// transferred (flatfile-codec.ts); this thread decodes it into row objects, which costs a small
// fraction of parsing. At most `maxInFlight` messages are posted and not yet taken, so memory
// stays constant however far the writes lag. Leaving the loop early (or an error here) stops
// the worker; one that finished its file waits a few seconds for the next.
//
// Small files are read in this thread: a new worker takes tens of ms to start (more under tsx),
// and its parser starts cold. So are all files where no worker can be had (no worker file next
// to this module, a worker that fails to load); `flatFileReaderStats` tells which way files went.
import { stat } from 'node:fs/promises';
import { MessageChannel, Worker } from 'node:worker_threads';
import { workerSource, type WorkerSource } from '../store/worker-source.js';
import {
  CANCELLED,
  decodeBatch,
  type CopyRowsBatch,
  IN_FLIGHT,
  type SerializedError,
  type WorkerInput,
  type WorkerMessage,
} from './flatfile-codec.js';
import { FlatFileError, flatFileName, readFlatFile, type FlatFileBatch, type FlatFileSource, type FlatFileSummary, type ReadFlatFileOptions } from './flatfile.js';
import { pumpToPort } from './flatfile-byte-port.js';

/**
 * Files smaller than this on disk (compressed bytes for .gz) are read in this thread when no
 * worker is idle. A new worker costs ~40 ms to start and parses cold at first: importing one file
 * in a fresh process (SQLite), it loses ~80-100 ms up to ~100k rows (2.3 MB of trades.csv.gz)
 * and breaks even at ~200k rows (4.7 MB of trades, 3.6 MB of minute aggs); 500k trades gain 20%.
 * (bench/import-threaded.ts measures it.)
 */
export const DEFAULT_WORKER_THRESHOLD = 4 << 20;

/**
 * The same for when a worker is idle (it read the file before, and so is started and warm): from
 * ~20k rows on (460 KB of trades.csv.gz, 360 KB of minute aggs) it gains 10-25%; at 5k rows the
 * two are even. A directory of files past DEFAULT_WORKER_THRESHOLD thus keeps its worker for
 * smaller files too.
 */
export const DEFAULT_IDLE_WORKER_THRESHOLD = 256 << 10;

/** Process-wide defaults of readFlatFileThreaded (tests force the worker with workerThreshold 0). */
export const flatFileReaderSettings = {
  workerThreshold: DEFAULT_WORKER_THRESHOLD,
  idleWorkerThreshold: DEFAULT_IDLE_WORKER_THRESHOLD,
};

export interface ThreadedReadOptions extends ReadFlatFileOptions {
  /**
   * Bytes on disk from which a new worker reads the file; 0 always uses one (when it can).
   * `flatFileReaderSettings.workerThreshold` by default.
   */
  workerThreshold?: number;
  /**
   * Bytes on disk from which a worker reads the file when one is idle (never more than
   * workerThreshold). `flatFileReaderSettings.idleWorkerThreshold` by default.
   */
  idleWorkerThreshold?: number;
  /** Messages (batches) the worker may have posted and this thread not yet taken; 3 by default. */
  maxInFlight?: number;
}

export interface CopyRowsReadOptions extends ThreadedReadOptions {
  /**
   * Batches read by a worker come encoded for COPY (CopyRowsBatch) where copyEncoderFor has an
   * encoder for the file; batches read in this thread always come as rows.
   */
  copyRows: boolean;
}

/** How files were read since the process started (for benches and diagnostics). */
export const flatFileReaderStats = {
  /** Files read by a worker. */
  worker: 0,
  /** Files read in this thread: small ones, and any where no worker could be had. */
  inThread: 0,
  /** Of those, files where a worker was wanted but could not be started. */
  workerUnavailable: 0,
  /** Milliseconds this thread spent decoding batches from workers. */
  decodeMs: 0,
  /** Rows decoded. */
  decodedRows: 0,
  /** The most messages from a worker waiting to be taken at once (maxInFlight bounds it, +1). */
  maxQueued: 0,
  /** Workers started (one serves file after file while they come within IDLE_MS). */
  workersStarted: 0,
};

let cachedSpec: WorkerSource | null | undefined;

/** How to start the worker (flatfile-worker beside this module); null: read in this thread. */
function workerSpec(): WorkerSource | null {
  if (cachedSpec === undefined) cachedSpec = workerSource(import.meta.url, 'flatfile-worker');
  return cachedSpec;
}

let warned = false;

function workerUnavailable(reason: string): void {
  flatFileReaderStats.workerUnavailable++;
  if (warned) return;
  warned = true;
  process.emitWarning(`flat files are read without a worker thread (slower imports): ${reason}`, 'TickerbaseWarning');
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).size;
  } catch {
    return undefined; // readFlatFile reports it, with its own message
  }
}

function revive(path: string, e: SerializedError): FlatFileError {
  return e.flatFile
    ? new FlatFileError(e.file, e.line, e.reason, e.code)
    : new FlatFileError(path, 0, `read failed: ${e.message}`, 'read_failed');
}

// ---------------------------------------------------------------------------------------------
// Workers. One that finished a file cleanly waits (unreferenced) for the next: a directory import
// then starts one worker, not one per file, and its parser stays compiled and optimised. One that
// was left mid-file is terminated.

/** Workers kept waiting between files; more only when files are read at the same time. */
const MAX_IDLE_WORKERS = 1;
/** An idle worker ends after this long without a file. */
const IDLE_MS = 5_000;

const idleWorkers: Array<{ worker: Worker; timer: NodeJS.Timeout }> = [];

function dropIdle(worker: Worker): void {
  const at = idleWorkers.findIndex((w) => w.worker === worker);
  if (at < 0) return;
  clearTimeout(idleWorkers[at]!.timer);
  idleWorkers.splice(at, 1);
}

/** An idle worker, else a new one (which may throw, or fail to load later: an 'error' event). */
function takeWorker(spec: WorkerSource): { worker: Worker; fresh: boolean } {
  const idle = idleWorkers.pop();
  if (idle !== undefined) {
    clearTimeout(idle.timer);
    return { worker: idle.worker, fresh: false };
  }
  // execArgv []: not this process's `--import tsx` and the like, which would cost the worker
  // 100 ms to load and do nothing there (the .ts worker registers tsx itself).
  const worker = new Worker(spec.filename, { eval: spec.eval, execArgv: [], workerData: { flatFileReader: true } });
  flatFileReaderStats.workersStarted++;
  // Referenced only while a reader waits for it: neither an idle worker nor a reader left
  // unfinished keeps the process alive.
  worker.unref();
  worker.on('exit', () => dropIdle(worker));
  worker.on('error', () => dropIdle(worker)); // the reader using it, if any, reports it
  return { worker, fresh: true };
}

function releaseWorker(worker: Worker): void {
  if (idleWorkers.length >= MAX_IDLE_WORKERS) {
    void worker.terminate();
    return;
  }
  const timer = setTimeout(() => {
    dropIdle(worker);
    void worker.terminate();
  }, IDLE_MS);
  timer.unref();
  idleWorkers.push({ worker, timer });
}

/** Ends the workers waiting for a file (they also end by themselves, IDLE_MS after their last). */
export async function closeIdleWorkers(): Promise<void> {
  const idle = idleWorkers.splice(0);
  for (const { timer } of idle) clearTimeout(timer);
  await Promise.all(idle.map(({ worker }) => worker.terminate()));
}

/** readFlatFile, read by a worker thread when the file is large enough and a worker can be had. */
export function readFlatFileThreaded(
  file: string | FlatFileSource,
  options: CopyRowsReadOptions,
): AsyncGenerator<FlatFileBatch | CopyRowsBatch, FlatFileSummary>;
export function readFlatFileThreaded(file: string | FlatFileSource, options?: ThreadedReadOptions): AsyncGenerator<FlatFileBatch, FlatFileSummary>;
export async function* readFlatFileThreaded(
  file: string | FlatFileSource,
  options: ThreadedReadOptions & { copyRows?: boolean } = {},
): AsyncGenerator<FlatFileBatch | CopyRowsBatch, FlatFileSummary> {
  const {
    workerThreshold = flatFileReaderSettings.workerThreshold,
    idleWorkerThreshold = flatFileReaderSettings.idleWorkerThreshold,
    maxInFlight = 3,
    copyRows = false,
    ...readOptions
  } = options;
  const path = flatFileName(file);
  // A stream (a download) is read in the worker as its bytes arrive, passed over a port.
  const size = typeof file === 'string' ? await sizeOf(file) : file.totalBytes;
  const threshold = idleWorkers.length > 0 ? Math.min(idleWorkerThreshold, workerThreshold) : workerThreshold;
  const wanted = size !== undefined && size >= threshold;
  const spec = wanted ? workerSpec() : null;
  if (spec === null) {
    if (wanted) workerUnavailable('no worker file next to the reader');
    flatFileReaderStats.inThread++;
    return yield* readFlatFile(file, readOptions);
  }

  let taken: { worker: Worker; fresh: boolean };
  try {
    taken = takeWorker(spec);
  } catch (err) {
    workerUnavailable((err as Error).message);
    flatFileReaderStats.inThread++;
    return yield* readFlatFile(file, readOptions);
  }
  const { worker, fresh } = taken;

  const { onReject, onProgress } = readOptions;
  const credits = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  const channel = typeof file === 'string' ? undefined : new MessageChannel();
  const input: WorkerInput = {
    path,
    bytes: channel?.port2,
    totalBytes: size,
    tickers: readOptions.tickers ? [...readOptions.tickers] : undefined,
    kindHint: readOptions.kindHint,
    skipBadRows: readOptions.skipBadRows === true,
    batchSize: readOptions.batchSize,
    rejects: onReject !== undefined,
    progress: onProgress !== undefined,
    credits,
    maxInFlight: Math.max(1, maxInFlight),
    copyRows,
  };

  const inbox: WorkerMessage[] = [];
  let failure: Error | undefined;
  let exitCode: number | undefined;
  let wake: (() => void) | undefined;
  const onMessage = (m: WorkerMessage): void => {
    inbox.push(m);
    if (inbox.length > flatFileReaderStats.maxQueued) flatFileReaderStats.maxQueued = inbox.length;
    wake?.();
  };
  const onError = (err: Error): void => {
    failure = err;
    wake?.();
  };
  const onExit = (code: number): void => {
    exitCode = code;
    wake?.();
  };
  worker.on('message', onMessage);
  worker.on('error', onError);
  worker.on('exit', onExit);
  worker.postMessage({ read: input }, channel ? [channel.port2] : []);
  const pump = channel && typeof file !== 'string' ? pumpToPort(file, channel.port1) : undefined;

  let received = 0;
  /** The worker sent its last message for this file: it can take the next. */
  let finished = false;
  try {
    for (;;) {
      if (inbox.length === 0 && failure === undefined && exitCode === undefined) {
        worker.ref();
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        worker.unref();
      }
      const m = inbox.shift();
      if (m === undefined) {
        if (failure === undefined && exitCode === undefined) continue;
        if (received === 0) {
          // It failed before reading anything (a new worker that could not load): read here.
          if (fresh) workerUnavailable(failure?.message ?? `worker exited with code ${exitCode}`);
          flatFileReaderStats.inThread++;
          pump?.stop(); // a stream is opened again for this thread
          return yield* readFlatFile(file, readOptions);
        }
        const why = failure?.message ?? `reader thread exited with code ${exitCode}`;
        throw new FlatFileError(path, 0, `read failed: ${why}`, 'read_failed');
      }
      if (received++ === 0) flatFileReaderStats.worker++;
      if (m.credit) {
        Atomics.sub(credits, IN_FLIGHT, 1);
        Atomics.notify(credits, IN_FLIGHT);
      } else {
        finished = true;
      }
      for (const event of m.events) {
        try {
          if ('reject' in event) onReject?.(event.reject);
          else onProgress?.(event.progress);
        } catch (err) {
          // As readFlatFile reports a callback's failure (its line is only near: the worker's count
          // of lines is not sent).
          if (err instanceof FlatFileError) throw err;
          const line = 'reject' in event ? event.reject.line : 0;
          throw new FlatFileError(path, line, `read failed: ${err instanceof Error ? err.message : String(err)}`, 'read_failed');
        }
      }
      switch (m.type) {
        case 'batch': {
          const started = performance.now();
          const batch = decodeBatch(m.batch);
          flatFileReaderStats.decodeMs += performance.now() - started;
          flatFileReaderStats.decodedRows += m.batch.count;
          yield batch;
          break;
        }
        case 'copy':
          flatFileReaderStats.decodedRows += m.copy.count;
          yield m.copy;
          break;
        case 'events':
          break;
        case 'done':
          return m.summary;
        case 'error':
          throw revive(path, m.error);
      }
    }
  } finally {
    pump?.stop();
    worker.off('message', onMessage);
    worker.off('error', onError);
    worker.off('exit', onExit);
    if (finished && failure === undefined && exitCode === undefined) {
      releaseWorker(worker);
    } else {
      // Left mid-file (or dead): stop it wherever it is, blocked on credits included.
      Atomics.store(credits, CANCELLED, 1);
      Atomics.notify(credits, IN_FLIGHT);
      await worker.terminate();
    }
  }
}
