// Import progress on stderr: on a terminal, one line redrawn in place (at most 10 times a
// second); elsewhere (CI, a log file), a plain line every few seconds. The formatting
// functions are pure so that tests can pin what a user sees.

export interface ProgressSnapshot {
  /** Bytes read from disk so far (compressed bytes for .gz). */
  bytes: number;
  totalBytes: number;
  rows: number;
  rejected?: number;
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** `0 B`, `512 B`, `1.5 KiB`, `120.3 MiB`. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** `950`, `12.3k`, `4.56M`, `1.20G`: three significant digits from 1,000 up. */
export function formatCount(n: number): string {
  if (n < 1000) return String(Math.round(n));
  for (const [size, suffix] of [[1e9, 'G'], [1e6, 'M'], [1e3, 'k']] as const) {
    if (n >= size) {
      const v = n / size;
      return `${v.toFixed(v >= 100 ? 0 : v >= 10 ? 1 : 2)}${suffix}`;
    }
  }
  return String(n);
}

/** `0:07`, `12:34`, `1:02:03`; `--:--` when unknown. */
export function formatDuration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Seconds left at the byte rate seen so far; undefined before there is a rate to go on. */
export function estimateRemainingSeconds(p: ProgressSnapshot, elapsedMs: number): number | undefined {
  if (p.bytes <= 0 || elapsedMs <= 0 || p.totalBytes <= 0) return undefined;
  const remaining = Math.max(0, p.totalBytes - p.bytes);
  return remaining / (p.bytes / (elapsedMs / 1000));
}

function fraction(p: ProgressSnapshot): number {
  return p.totalBytes > 0 ? Math.min(1, p.bytes / p.totalBytes) : 0;
}

function summary(p: ProgressSnapshot, elapsedMs: number): string[] {
  const rate = elapsedMs > 0 ? p.rows / (elapsedMs / 1000) : 0;
  const parts = [
    `${formatCount(p.rows)} rows`,
    `${formatCount(rate)} rows/s`,
    `${formatBytes(p.bytes)}/${formatBytes(p.totalBytes)}`,
  ];
  if (p.rejected) parts.push(`${formatCount(p.rejected)} rejected`);
  return parts;
}

/** The terminal line: `label [#####-----]  45.0%  1.23M rows  ...  ETA 0:12`, cut to `width`. */
export function formatProgressBar(p: ProgressSnapshot, elapsedMs: number, label = '', width = 80): string {
  const f = fraction(p);
  const barWidth = 20;
  const filled = Math.round(f * barWidth);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}]`;
  const eta = `ETA ${formatDuration(estimateRemainingSeconds(p, elapsedMs))}`;
  const line = [label, bar, `${(f * 100).toFixed(1).padStart(5)}%`, ...summary(p, elapsedMs), eta]
    .filter((part) => part !== '')
    .join('  ');
  return line.length > width ? line.slice(0, Math.max(0, width - 1)) : line;
}

/** The log line: `label: 45.0%, 1.23M rows, 1.10M rows/s, 120.0 MiB/260.0 MiB, ETA 0:12`. */
export function formatProgressLog(p: ProgressSnapshot, elapsedMs: number, label = ''): string {
  const eta = `ETA ${formatDuration(estimateRemainingSeconds(p, elapsedMs))}`;
  const body = [`${(fraction(p) * 100).toFixed(1)}%`, ...summary(p, elapsedMs), eta].join(', ');
  return label === '' ? body : `${label}: ${body}`;
}

/** The least of a stream the reporter needs (process.stderr fits). */
export interface ProgressOutput {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export interface ProgressReporterOptions {
  output?: ProgressOutput;
  label?: string;
  /** Minimum time between redraws on a terminal; 100 ms. */
  redrawIntervalMs?: number;
  /** Time between log lines elsewhere; 5 s. */
  logIntervalMs?: number;
  now?: () => number;
}

export interface ProgressReporter {
  update(progress: ProgressSnapshot): void;
  /** Draws the final state and ends the line. */
  done(progress?: ProgressSnapshot): void;
}

export function createProgressReporter(options: ProgressReporterOptions = {}): ProgressReporter {
  const output = options.output ?? process.stderr;
  const now = options.now ?? (() => performance.now());
  const label = options.label ?? '';
  const tty = output.isTTY === true;
  const interval = tty ? (options.redrawIntervalMs ?? 100) : (options.logIntervalMs ?? 5000);
  const started = now();
  let lastDrawn = started;
  let latest: ProgressSnapshot = { bytes: 0, totalBytes: 0, rows: 0 };
  let drewBar = false;

  const draw = (t: number): void => {
    const elapsed = t - started;
    if (tty) {
      // \r back to column 0, then erase to end of line in case the new line is shorter.
      output.write(`\r${formatProgressBar(latest, elapsed, label, output.columns ?? 80)}\x1b[K`);
      drewBar = true;
    } else {
      output.write(`${formatProgressLog(latest, elapsed, label)}\n`);
    }
    lastDrawn = t;
  };

  return {
    update(progress) {
      latest = progress;
      const t = now();
      if (t - lastDrawn >= interval) draw(t);
    },
    done(progress) {
      if (progress !== undefined) latest = progress;
      draw(now());
      if (tty && drewBar) output.write('\n');
    },
  };
}
