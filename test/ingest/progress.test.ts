import { describe, expect, it } from 'vitest';
import {
  createProgressReporter,
  estimateRemainingSeconds,
  formatBytes,
  formatCount,
  formatDuration,
  formatProgressBar,
  formatProgressLog,
} from '../../src/ingest/progress.js';

const MiB = 1024 * 1024;

describe('formatting', () => {
  it('formats byte sizes in binary units', () => {
    expect([0, 512, 1536, 120.25 * MiB, 3 * 1024 * MiB].map(formatBytes)).toEqual(['0 B', '512 B', '1.5 KiB', '120.3 MiB', '3.0 GiB']);
  });

  it('formats counts with three significant digits', () => {
    expect([0, 950, 12_345, 1_234_567, 123_456_789, 2_000_000_000].map(formatCount)).toEqual([
      '0',
      '950',
      '12.3k',
      '1.23M',
      '123M',
      '2.00G',
    ]);
  });

  it('formats durations as m:ss or h:mm:ss, and unknown as --:--', () => {
    expect([7, 754, 3723, undefined, Infinity].map(formatDuration)).toEqual(['0:07', '12:34', '1:02:03', '--:--', '--:--']);
  });

  it('estimates the time left from the byte rate so far', () => {
    expect(estimateRemainingSeconds({ bytes: 25, totalBytes: 100, rows: 1 }, 10_000)).toBe(30);
    expect(estimateRemainingSeconds({ bytes: 0, totalBytes: 100, rows: 0 }, 10_000)).toBeUndefined();
  });

  it('draws a bar line with percentage, rows, rate, bytes and ETA', () => {
    const line = formatProgressBar({ bytes: 50 * MiB, totalBytes: 200 * MiB, rows: 3_000_000, rejected: 2 }, 2000, 'day.csv.gz', 200);
    expect(line).toBe(
      'day.csv.gz  [#####---------------]   25.0%  3.00M rows  1.50M rows/s  50.0 MiB/200.0 MiB  2 rejected  ETA 0:06',
    );
  });

  it('cuts the bar line to the terminal width', () => {
    expect(formatProgressBar({ bytes: 1, totalBytes: 2, rows: 1 }, 1000, 'x', 30)).toHaveLength(29);
  });

  it('writes a log line', () => {
    expect(formatProgressLog({ bytes: 100 * MiB, totalBytes: 100 * MiB, rows: 5000 }, 1000, 'f.csv')).toBe(
      'f.csv: 100.0%, 5.00k rows, 5.00k rows/s, 100.0 MiB/100.0 MiB, ETA 0:00',
    );
  });
});

describe('createProgressReporter', () => {
  function fakeOutput(isTTY: boolean) {
    const writes: string[] = [];
    return { writes, output: { isTTY, columns: 120, write: (s: string) => writes.push(s) } };
  }

  it('on a terminal redraws one line at most every 100 ms and ends it when done', () => {
    let now = 0;
    const { writes, output } = fakeOutput(true);
    const reporter = createProgressReporter({ output, now: () => now });
    for (now = 10; now <= 1000; now += 10) reporter.update({ bytes: now, totalBytes: 1000, rows: now });
    expect(writes).toHaveLength(10);
    expect(writes.every((w) => w.startsWith('\r') && w.endsWith('\x1b[K'))).toBe(true);
    reporter.done();
    expect(writes.at(-1)).toBe('\n');
    expect(writes.at(-2)).toContain('100.0%');
  });

  it('elsewhere writes a plain line every few seconds', () => {
    let now = 0;
    const { writes, output } = fakeOutput(false);
    const reporter = createProgressReporter({ output, now: () => now, logIntervalMs: 5000, label: 'f' });
    for (now = 100; now <= 12_000; now += 100) reporter.update({ bytes: now, totalBytes: 12_000, rows: now });
    reporter.done();
    expect(writes).toHaveLength(3);
    expect(writes.every((w) => w.startsWith('f: ') && w.endsWith('\n') && !w.includes('\r'))).toBe(true);
  });
});
