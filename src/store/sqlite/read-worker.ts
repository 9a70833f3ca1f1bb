// The reader thread of a SQLite store (read-thread.ts): a read-only connection of its own to the
// store's file, running the long reads it is sent (pages of thousands of rows joined into one
// text) one at a time and posting their rows back, BLOBs transferred, not copied. In WAL mode its
// reads see every commit made before they start and never wait for a writer.
//
// No top-level await: under tsx (tests, benches) this file is loaded through tsx's CommonJS hook.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

export interface ReadRequest {
  id: number;
  sql: string;
  params: unknown[];
}

export type ReadReply = { id: number; rows: unknown[][] } | { id: number; error: { message: string; code?: string } };

const db = new Database((workerData as { file: string }).file, { readonly: true, fileMustExist: true });
db.pragma('cache_size = -16384'); // 16 MiB: the pages of the hot ranges; the OS caches the rest
const statements = new Map<string, Database.Statement>();

parentPort!.on('message', (req: ReadRequest) => {
  let reply: ReadReply;
  const transfer: ArrayBuffer[] = [];
  try {
    let s = statements.get(req.sql);
    if (s === undefined) {
      s = db.prepare(req.sql);
      statements.set(req.sql, s);
    }
    const rows = s.raw(true).all(...req.params) as unknown[][];
    for (const row of rows) {
      for (const v of row) {
        // a BLOB with a buffer of its own is handed over; one in a shared pool is copied
        if (Buffer.isBuffer(v) && v.byteOffset === 0 && v.byteLength === v.buffer.byteLength && !transfer.includes(v.buffer as ArrayBuffer)) transfer.push(v.buffer as ArrayBuffer);
      }
    }
    reply = { id: req.id, rows };
  } catch (err) {
    const e = err as { message?: string; code?: unknown };
    reply = { id: req.id, error: { message: String(e?.message ?? err), code: typeof e?.code === 'string' ? e.code : undefined } };
  }
  parentPort!.postMessage(reply, transfer);
});
