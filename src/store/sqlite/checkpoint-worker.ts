// The WAL checkpoints of a SQLite file the live feed writes to, on a thread of their own, started
// by the write thread (write-worker.ts). SQLite's automatic checkpoint runs inside the commit that
// takes the WAL past 1,000 pages: on the write thread that made every such publish wait for the
// copy of 4 MB of pages into the database file and its fsync (200-trade publishes: p50 0.7 ms,
// p99 8.8 ms, longest 27 ms, and 150,000 rows/s stored against 230,000 without). The write
// thread's connection has it off while this thread runs; this one checkpoints (PASSIVE: never
// waiting for a reader or a writer) at most every CHECKPOINT_EVERY_MS after the write thread
// says it committed, on a connection of its own, beside the writes. Other connections keep the
// automatic checkpoint, which then finds little or nothing left to copy.
//
// No top-level await: under tsx (tests, benches) this file is loaded through tsx's CommonJS hook.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

/** Longest wait from a commit to the checkpoint that copies it: a few MB of pages at 50,000 trades/s. */
export const CHECKPOINT_EVERY_MS = 200;

const db = new Database((workerData as { file: string }).file, { fileMustExist: true });
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let due: NodeJS.Timeout | undefined;

function run(): void {
  due = undefined;
  try {
    checkpoint.run();
  } catch {
    // busy or locked: the next commit asks again, and the WAL keeps every page meanwhile
  }
}

// any message: the write thread committed
parentPort!.on('message', () => {
  due ??= setTimeout(run, CHECKPOINT_EVERY_MS);
});
