// readFlatFile with the reading (gunzip callbacks, CSV tokenising, row parsing) done in a worker
// thread, so that it overlaps the store's writes on this thread instead of taking turns with
// them. Same contract as readFlatFile: same batches, summary, errors, rejects and progress
// reports, in the same order; only the thread that does the work differs.
//
// The worker (flatfile-worker.ts) posts each batch encoded as typed arrays whose buffers are
// transferred (flatfile-codec.ts); this thread decodes it into row objects, which costs a small
// fraction of parsing. At most `maxInFlight` messages are posted and not yet taken, so memory
// stays constant however far the writes lag. Leaving the loop early (or an error here) stops
// the worker.
//
// Small files are read in this thread: a worker takes tens of ms to start (more under tsx).
// So are all files where no worker can be had (no worker file next to this module, a worker that
// fails to load); `flatFileReaderStats` tells which way files went.
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  CANCELLED,
  decodeBatch,
  IN_FLIGHT,
  type SerializedError,
  type WorkerInput,
  type WorkerMessage,
} from './flatfile-codec.js';
import { FlatFileError, readFlatFile, type FlatFileBatch, type FlatFileSummary, type ReadFlatFileOptions } from './flatfile.js';

/**
 * Files smaller than this on disk (compressed bytes for .gz) are read in this thread. A worker
 * costs ~30 ms to start and load the reader when compiled; reading in it pays off from about
 * this size on (see the measurements in bench/import-threaded.ts).
 */
export const DEFAULT_WORKER_THRESHOLD = 1 << 20;

/** Process-wide defaults of readFlatFileThreaded (tests force the worker with workerThreshold 0). */
export const flatFileReaderSettings = {
  workerThreshold: DEFAULT_WORKER_THRESHOLD,
};

export interface ThreadedReadOptions extends ReadFlatFileOptions {
  /**
   * Bytes on disk from which a worker reads the file; 0 always uses one (when it can).
   * `flatFileReaderSettings.workerThreshold` by default.
   */
  workerThreshold?: number;
  /** Messages (batches) the worker may have posted and this thread not yet taken; 3 by default. */
  maxInFlight?: number;
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
};

interface WorkerSpec {
  filename: string | URL;
  eval: boolean;
}

let cachedSpec: WorkerSpec | null | undefined;

/**
 * How to start the worker: the compiled flatfile-worker.js next to this module, or, when this
 * module is the TypeScript source (vitest, tsx), flatfile-worker.ts loaded through tsx's
 * CommonJS hook (on Node 20 a worker cannot take `--import tsx`: tsx registers its ESM hooks on
 * the main thread only). Null when neither is there.
 */
function workerSpec(): WorkerSpec | null {
  if (cachedSpec !== undefined) return cachedSpec;
  cachedSpec = null;
  try {
    const here = import.meta.url;
    if (fileURLToPath(here).endsWith('.ts')) {
      const worker = fileURLToPath(new URL('./flatfile-worker.ts', here));
      const tsx = createRequire(here).resolve('tsx/cjs/api');
      if (existsSync(worker)) {
        cachedSpec = { filename: `require(${JSON.stringify(tsx)}).register();\nrequire(${JSON.stringify(worker)});`, eval: true };
      }
    } else {
      const worker = new URL('./flatfile-worker.js', here);
      if (existsSync(worker)) cachedSpec = { filename: worker, eval: false };
    }
  } catch {
    // No tsx (a .ts module without its dev dependencies) or no file URL: read in this thread.
  }
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

/** readFlatFile, read by a worker thread when the file is large enough and a worker can be had. */
export async function* readFlatFileThreaded(
  path: string,
  options: ThreadedReadOptions = {},
): AsyncGenerator<FlatFileBatch, FlatFileSummary> {
  const { workerThreshold = flatFileReaderSettings.workerThreshold, maxInFlight = 3, ...readOptions } = options;
  const size = await sizeOf(path);
  const spec = size !== undefined && size >= workerThreshold ? workerSpec() : null;
  if (spec === null) {
    if (size !== undefined && size >= workerThreshold) workerUnavailable('no worker file next to the reader');
    flatFileReaderStats.inThread++;
    return yield* readFlatFile(path, readOptions);
  }

  const { onReject, onProgress } = readOptions;
  const credits = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  const input: WorkerInput = {
    path,
    kindHint: readOptions.kindHint,
    skipBadRows: readOptions.skipBadRows === true,
    batchSize: readOptions.batchSize,
    rejects: onReject !== undefined,
    progress: onProgress !== undefined,
    credits,
    maxInFlight: Math.max(1, maxInFlight),
  };
  let worker: Worker;
  try {
    // execArgv []: not this process's `--import tsx` and the like, which would cost the worker
    // 100 ms to load and do nothing there (the .ts worker registers tsx itself).
    worker = new Worker(spec.filename, { eval: spec.eval, execArgv: [], workerData: { flatFileReader: input } });
  } catch (err) {
    workerUnavailable((err as Error).message);
    flatFileReaderStats.inThread++;
    return yield* readFlatFile(path, readOptions);
  }
  // Referenced only while this thread waits for it: a reader left unfinished does not keep the
  // process alive.
  worker.unref();

  const inbox: WorkerMessage[] = [];
  let failure: Error | undefined;
  let exitCode: number | undefined;
  let wake: (() => void) | undefined;
  worker.on('message', (m: WorkerMessage) => {
    inbox.push(m);
    if (inbox.length > flatFileReaderStats.maxQueued) flatFileReaderStats.maxQueued = inbox.length;
    wake?.();
  });
  worker.on('error', (err) => {
    failure = err;
    wake?.();
  });
  worker.on('exit', (code) => {
    exitCode = code;
    wake?.();
  });

  let received = 0;
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
          // It failed before reading anything (could not load): read here instead.
          workerUnavailable(failure?.message ?? `worker exited with code ${exitCode}`);
          flatFileReaderStats.inThread++;
          return yield* readFlatFile(path, readOptions);
        }
        const why = failure?.message ?? `reader thread exited with code ${exitCode}`;
        throw new FlatFileError(path, 0, `read failed: ${why}`, 'read_failed');
      }
      if (received++ === 0) flatFileReaderStats.worker++;
      if (m.credit) {
        Atomics.sub(credits, IN_FLIGHT, 1);
        Atomics.notify(credits, IN_FLIGHT);
      }
      for (const event of m.events) {
        if ('reject' in event) onReject?.(event.reject);
        else onProgress?.(event.progress);
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
        case 'events':
          break;
        case 'done':
          return m.summary;
        case 'error':
          throw revive(path, m.error);
      }
    }
  } finally {
    Atomics.store(credits, CANCELLED, 1);
    Atomics.notify(credits, IN_FLIGHT);
    await worker.terminate();
  }
}
