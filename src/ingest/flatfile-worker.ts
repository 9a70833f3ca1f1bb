// The reader thread of readFlatFileThreaded (flatfile-threaded.ts): runs readFlatFile on each file
// it is sent, one at a time, and posts each batch encoded (flatfile-codec.ts) with its buffers
// transferred, the rejects and progress reports that came before it riding along in the same
// message, so the importing thread replays them in the order the in-thread reader made them.
//
// Backpressure: `credits[IN_FLIGHT]` counts messages posted and not yet taken by the importing
// thread; at `maxInFlight` this thread blocks (Atomics.wait: a worker may) until one is taken,
// even inside onReject, so a file of nothing but bad rows cannot pile up messages either.
//
// No top-level await: under tsx (tests, benches) this file is loaded through tsx's CommonJS hook.
import { parentPort, workerData } from 'node:worker_threads';
import {
  CANCELLED,
  copyEncoderFor,
  encodeBatch,
  IN_FLIGHT,
  transferables,
  type CopyRowsBatch,
  type ReaderEvent,
  type SerializedError,
  type WorkerInput,
  type WorkerMessage,
} from './flatfile-codec.js';
import { FlatFileError, readFlatFile, type FlatFileBatch } from './flatfile.js';
import { portSource } from './flatfile-byte-port.js';

/** Events held back are sent on their own past these (long runs of rejects between batches). */
const MAX_HELD_EVENTS = 512;
const MAX_HELD_RAW_CHARS = 1 << 20;

class Cancelled extends Error {}

function run(input: WorkerInput): void {
  const port = parentPort!;
  const { credits, maxInFlight } = input;
  let events: ReaderEvent[] = [];
  let heldRawChars = 0;

  const waitForCredit = (): void => {
    for (;;) {
      if (Atomics.load(credits, CANCELLED) !== 0) throw new Cancelled();
      const inFlight = Atomics.load(credits, IN_FLIGHT);
      if (inFlight < maxInFlight) return;
      Atomics.wait(credits, IN_FLIGHT, inFlight, 1000);
    }
  };
  const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []): void => {
    if (message.credit) {
      waitForCredit();
      Atomics.add(credits, IN_FLIGHT, 1);
    }
    port.postMessage(message, transfer);
  };
  const takeEvents = (): ReaderEvent[] => {
    const taken = events;
    events = [];
    heldRawChars = 0;
    return taken;
  };
  const hold = (event: ReaderEvent, rawChars: number): void => {
    events.push(event);
    heldRawChars += rawChars;
    if (events.length >= MAX_HELD_EVENTS || heldRawChars >= MAX_HELD_RAW_CHARS) {
      post({ type: 'events', events: takeEvents(), credit: true });
    }
  };

  const file = input.bytes ? portSource(input.path, input.totalBytes ?? 0, input.bytes) : input.path;
  const reader = readFlatFile(file, {
    kindHint: input.kindHint,
    tickers: input.tickers ? new Set(input.tickers) : undefined,
    skipBadRows: input.skipBadRows,
    batchSize: input.batchSize,
    onReject: input.rejects ? (reject) => hold({ reject }, reject.raw.length) : undefined,
    onProgress: input.progress ? (progress) => hold({ progress }, 0) : undefined,
  });

  void (async () => {
    try {
      // undefined until the first batch tells; null: batches go as rows.
      let toCopy: ((b: FlatFileBatch) => CopyRowsBatch) | null | undefined = input.copyRows ? undefined : null;
      let step = await reader.next();
      while (!step.done) {
        if (toCopy === undefined) toCopy = copyEncoderFor(step.value);
        if (toCopy !== null) {
          const copy = toCopy(step.value);
          post({ type: 'copy', copy, events: takeEvents(), credit: true }, [copy.tuples.buffer as ArrayBuffer]);
        } else {
          const batch = encodeBatch(step.value);
          post({ type: 'batch', batch, events: takeEvents(), credit: true }, transferables(batch));
        }
        step = await reader.next();
      }
      post({ type: 'done', summary: step.value, events: takeEvents(), credit: false });
    } catch (err) {
      if (err instanceof Cancelled || (err instanceof FlatFileError && isCancelled(credits))) return;
      post({ type: 'error', error: serializeError(err), events: takeEvents(), credit: false });
    }
  })();
}

function isCancelled(credits: Int32Array): boolean {
  return Atomics.load(credits, CANCELLED) !== 0;
}

function serializeError(err: unknown): SerializedError {
  if (err instanceof FlatFileError) {
    return { flatFile: true, file: err.file, line: err.line, reason: err.reason, code: err.code, message: err.message };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { flatFile: false, file: '', line: 0, reason: message, code: 'read_failed', message };
}

// One file at a time: the importing thread sends the next only after this one's last message.
if (parentPort !== null && (workerData as { flatFileReader?: boolean } | undefined)?.flatFileReader === true) {
  parentPort.on('message', (m: { read?: WorkerInput }) => {
    if (m.read !== undefined) run(m.read);
  });
}
