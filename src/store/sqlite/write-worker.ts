// The write thread of a SQLite store (write-thread.ts): a connection of its own to the store's
// file, running the live feed's writes it is sent (live-writes.ts, the same functions the event
// loop runs on other stores) one at a time, in the order they are sent, and answering each once
// committed. Before each job it reads PRAGMA data_version, which changes when any other
// connection has committed since its last look, and says so in its answer: the serving
// connection cannot tell this thread's commits from other writers' (see SqliteDriver).
//
// No top-level await: under tsx (tests, benches) this file is loaded through tsx's CommonJS hook.
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { storeOnDriver } from '../index.js';
import { unpackTicks, writeFuturesMinuteBars, writeMinuteBars, writeTicks } from '../live-writes.js';
import { SqliteDriver } from './driver.js';
import { workerSource } from '../worker-source.js';
import type { WriteReply, WriteRequest } from './write-thread.js';

const { file, busyTimeoutMs } = workerData as { file: string; busyTimeoutMs: number };
// Its own page cache: the index pages the inserts touch; no reader thread, no write thread.
const driver = SqliteDriver.open(file, { busyTimeoutMs, cacheMiB: 16, readThread: false, writeThread: false });
const store = storeOnDriver(driver);
const dataVersion = driver.db.prepare<[], number>('PRAGMA data_version').pluck();
const checkpoints = startCheckpoints();

/**
 * The WAL's checkpoints on a thread of their own (checkpoint-worker.ts), this connection's
 * automatic one off meanwhile; undefined where that thread cannot be started (this connection
 * then checkpoints in its commits as before, and again if that thread ends).
 */
function startCheckpoints(): Worker | undefined {
  const where = workerSource(import.meta.url, 'checkpoint-worker');
  if (where === null) return undefined;
  let w: Worker;
  try {
    w = new Worker(where.filename, { eval: where.eval, execArgv: [], workerData: { file }, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
  } catch {
    return undefined; // no thread to be had: this connection's commits checkpoint
  }
  w.unref();
  driver.db.pragma('wal_autocheckpoint = 0');
  const lost = () => {
    if (driver.db.open) driver.db.pragma('wal_autocheckpoint = 1000');
  };
  w.on('error', lost);
  w.on('exit', lost);
  return w;
}

/** data_version at the last look; none before the first, which reports a foreign commit since nobody looked before it. */
let seen: number | undefined;

async function run(req: WriteRequest): Promise<WriteReply> {
  const now = dataVersion.get()!;
  const foreign = seen === undefined || now !== seen;
  seen = now;
  try {
    const job = req.job;
    if (job.kind === 'ticks') {
      return { id: req.id, foreign, stored: await writeTicks(store, unpackTicks(job.ticks)) };
    }
    if (job.kind === 'minuteBars') await writeMinuteBars(store, job.bars);
    else if (job.kind === 'futuresMinuteBars') await writeFuturesMinuteBars(store, job.bars);
    return { id: req.id, foreign };
  } catch (err) {
    const e = err as { message?: string; code?: unknown; name?: string };
    const code = typeof e?.code === 'string' ? e.code : e?.name === 'StoreBusyError' ? 'SQLITE_BUSY' : undefined;
    return { id: req.id, foreign, error: { message: String(e?.message ?? err), code } };
  }
}

// one job at a time, in order: a job's transaction commits before the next one begins
let queue: Promise<void> = Promise.resolve();
parentPort!.on('message', (req: WriteRequest) => {
  queue = queue.then(async () => {
    const reply = await run(req);
    parentPort!.postMessage(reply);
    if (req.job.kind !== 'look' && !('error' in reply)) checkpoints?.postMessage('committed');
  });
});
