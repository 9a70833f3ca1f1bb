// The progress of a flat-file sync on stderr: files done of those to fetch, bytes, rows/s and
// an ETA at the byte rate so far. On a terminal one line redrawn in place (at most 10 times a
// second); elsewhere a plain line every few seconds. Lines about single files (fetched, failed)
// are written between redraws.
import { formatBytes, formatCount, formatDuration, type ProgressOutput } from './progress.js';

export interface SyncProgressState {
  filesDone: number;
  filesTotal: number;
  /** Bytes downloaded, in-flight files included. */
  bytes: number;
  bytesTotal: number;
  rows: number;
}

/** `3/10 files, 12.0 MiB/40.0 MiB, 1.20M rows, 950k rows/s, ETA 0:12` */
export function formatSyncProgress(s: SyncProgressState, elapsedMs: number): string {
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? s.rows / seconds : 0;
  const eta = s.bytes > 0 && seconds > 0 ? Math.max(0, s.bytesTotal - s.bytes) / (s.bytes / seconds) : undefined;
  return [
    `${s.filesDone}/${s.filesTotal} files`,
    `${formatBytes(s.bytes)}/${formatBytes(s.bytesTotal)}`,
    `${formatCount(s.rows)} rows`,
    `${formatCount(rate)} rows/s`,
    `ETA ${formatDuration(eta)}`,
  ].join(', ');
}

export class SyncProgress {
  private readonly tty: boolean;
  private readonly interval: number;
  private readonly started = performance.now();
  private lastDrawn = this.started;
  private barShown = false;

  constructor(
    private readonly output: ProgressOutput,
    private readonly state: () => SyncProgressState,
  ) {
    this.tty = output.isTTY === true;
    this.interval = this.tty ? 100 : 5000;
  }

  elapsedMs(): number {
    return performance.now() - this.started;
  }

  /** Redraws (terminal) or logs (elsewhere) when it is time to. */
  tick(): void {
    const now = performance.now();
    if (now - this.lastDrawn < this.interval) return;
    this.lastDrawn = now;
    const text = formatSyncProgress(this.state(), now - this.started);
    if (this.tty) {
      const width = this.output.columns ?? 80;
      this.output.write(`\r${text.length >= width ? text.slice(0, width - 1) : text}\x1b[K`);
      this.barShown = true;
    } else {
      this.output.write(`progress: ${text}\n`);
    }
  }

  /** A line of its own, above the redrawn line on a terminal. */
  line(text: string): void {
    if (this.barShown) this.output.write('\r\x1b[K');
    this.barShown = false;
    this.output.write(`${text}\n`);
  }

  /** Ends the redrawn line. */
  done(): void {
    if (this.barShown) this.output.write('\r\x1b[K');
    this.barShown = false;
  }
}
