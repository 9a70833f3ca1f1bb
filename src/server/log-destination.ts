import { writeSync } from 'node:fs';

// Where the server's JSON log lines go when stdout is not a terminal: each line is encoded on
// arrival into one buffer, which is written with one write(2) once a batch is full, on the event
// loop. The access line of every request goes through here, so its cost is per request: pino's
// own asynchronous destination (sonic-boom) measured 2.8-3.6 µs of CPU per line, building the line
// included (it measures the byte length of the string it appends to on every write, and hands each
// 4 KiB to the thread pool). Holding the lines as strings and joining them per batch cost 1.3 µs
// a line; the access line is now encoded into the buffer straight from its fields (logger.ts).
// Writing a batch to a file or pipe takes tens of microseconds, once per some hundred lines. A
// crash loses at most one batch (and one second: the logger writes what it holds every second).

/** Bytes held before they are written. */
export const LOG_BATCH_BYTES = 64 * 1024;

/** Room past a full batch, so a line that starts before the batch is full always fits. */
const LINE_ROOM = 16 * 1024;

/** Tries, a millisecond apart, of a write that stdout refused for now (a full non-blocking pipe). */
const EAGAIN_TRIES = 100;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

export class BatchedLogDestination {
  /** The batch being filled: bytes [0, at) are held lines. */
  readonly bytes: Buffer;
  private at = 0;
  /** Batches dropped because the descriptor could not be written (a closed pipe, a full disk). */
  dropped = 0;

  constructor(
    private readonly fd: number,
    private readonly batchBytes = LOG_BATCH_BYTES,
  ) {
    this.bytes = Buffer.allocUnsafe(batchBytes + LINE_ROOM);
  }

  /** Holds `line` (pino's: one JSON line with its newline); writes the batch once it is full. */
  write(line: string): boolean {
    const most = line.length * 3; // UTF-8 bytes of a UTF-16 string, at most
    const at = this.reserve(most);
    if (at < 0) this.writeOut(Buffer.from(line)); // longer than the buffer: on its own, after what was held
    else this.commit(at + this.bytes.write(line, at));
    return true;
  }

  /**
   * Where a line of at most `size` bytes may be encoded into `bytes` (writing what is held first
   * if it would not fit), or -1 when no line that long fits the buffer (what was held is written).
   * Follow with commit(the end of the line).
   */
  reserve(size: number): number {
    if (this.at + size <= this.bytes.length) return this.at;
    this.flushSync();
    return size <= this.bytes.length ? 0 : -1;
  }

  /** The line encoded from reserve()'s offset ends at `end`; writes the batch once it is full. */
  commit(end: number): void {
    this.at = end;
    if (end >= this.batchBytes) this.flushSync();
  }

  /** Writes every held line now. */
  flushSync(): void {
    if (this.at === 0) return;
    const held = this.bytes.subarray(0, this.at);
    this.at = 0;
    this.writeOut(held);
  }

  /** pino calls flush() on logger.flush(). */
  flush(): void {
    this.flushSync();
  }

  private writeOut(bytes: Uint8Array): void {
    let at = 0;
    let tries = 0;
    while (at < bytes.length) {
      try {
        at += writeSync(this.fd, bytes, at, bytes.length - at);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN' && ++tries < EAGAIN_TRIES) {
          Atomics.wait(sleeper, 0, 0, 1);
          continue;
        }
        this.dropped++; // a log that cannot be written must not take the server down
        return;
      }
    }
  }
}
