import { Worker } from 'node:worker_threads';
import { workerSource, type WorkerSource } from '../worker-source.js';
import type { ReadReply, ReadRequest } from './read-worker.js';

// Long reads of a SQLite store on a thread of their own. better-sqlite3 runs a statement on the
// calling thread: a page of 12,000 trades written as JSON held the event loop for 30-40 ms, during
// which the server answered nothing else, and on a machine of two cores or more left the others
// idle. Reads sent here run on one worker thread with its own read-only connection (read-worker.ts),
// in the order they are sent, while the event loop goes on.

interface Pending {
  resolve(rows: unknown[][]): void;
  reject(err: Error): void;
}

/**
 * The reader's young generation. Its statements hand back few, large values (pages joined into
 * one BLOB) or, rarely, many small rows (a list read whole); with the server's own young
 * generation (`--max-semi-space-size`, a process-wide V8 flag, was 32 then) one read of 11,000 rows
 * grew the thread's to 64 MiB, which it then kept: 80 MB more resident for the process.
 */
const READER_YOUNG_GENERATION_MB = 8;

/** How to start the reader's worker, found once (null: none can be started). */
let source: WorkerSource | null | undefined;

/** BLOBs arrive as Uint8Arrays (a Buffer crosses threads as one): Buffers again, over the same memory. */
function asBuffers(rows: unknown[][]): unknown[][] {
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      const v = row[i];
      if (v instanceof Uint8Array && !Buffer.isBuffer(v)) row[i] = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    }
  }
  return rows;
}

export class ReadThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  private constructor(private readonly file: string, private readonly where: WorkerSource) {}

  /** A reader of `file`, or undefined where no worker can be started (the caller reads itself). */
  static for(file: string): ReadThread | undefined {
    if (source === undefined) source = workerSource(import.meta.url, 'read-worker');
    return source === null ? undefined : new ReadThread(file, source);
  }

  /** The rows of a read (raw rows: arrays of values); rejects with the engine's error. */
  run(sql: string, params: readonly unknown[]): Promise<unknown[][]> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) worker.ref(); // a read in flight keeps the process up
      worker.postMessage({ id, sql, params: [...params] } satisfies ReadRequest);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const w = this.worker;
    this.worker = undefined;
    this.fail(new Error('the store is closed'));
    if (w) await w.terminate();
  }

  private start(): Worker {
    const w = new Worker(this.where.filename, { eval: this.where.eval, execArgv: [], workerData: { file: this.file }, resourceLimits: { maxYoungGenerationSizeMb: READER_YOUNG_GENERATION_MB } });
    w.unref();
    w.on('message', (m: ReadReply) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (this.pending.size === 0) w.unref();
      if ('rows' in m) p.resolve(asBuffers(m.rows));
      else p.reject(Object.assign(new Error(m.error.message), m.error.code ? { code: m.error.code } : {}));
    });
    // a worker that failed (or was ended) fails its reads; the next read starts another
    const lost = (err: Error) => {
      if (this.worker !== w) return;
      this.worker = undefined;
      this.fail(err);
    };
    w.on('error', lost);
    w.on('exit', (code) => lost(new Error(`the SQLite reader thread ended (exit code ${code})`)));
    this.worker = w;
    return w;
  }

  private fail(err: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(err);
  }
}
