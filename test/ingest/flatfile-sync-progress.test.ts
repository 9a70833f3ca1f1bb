// What the flat-file sync shows while it runs: on a terminal one line redrawn in place with
// files, bytes, rows/s and ETA; elsewhere plain lines; per-file lines never mixed into the bar.
import { describe, expect, it, vi } from 'vitest';
import { formatSyncProgress, SyncProgress, type SyncProgressState } from '../../src/ingest/flatfile-sync-progress.js';

const state: SyncProgressState = { filesDone: 3, filesTotal: 10, bytes: 12 * 2 ** 20, bytesTotal: 40 * 2 ** 20, rows: 1_200_000 };

function capture(isTTY: boolean) {
  const written: string[] = [];
  return { written, output: { isTTY, columns: 200, write: (s: string) => written.push(s) } };
}

describe('flat-file sync progress', () => {
  it('shows files, bytes, rows, rows/s and the ETA at the byte rate so far', () => {
    // 12 MiB in 4 s: 28 MiB left take 9.3 s more.
    expect(formatSyncProgress(state, 4000)).toBe('3/10 files, 12.0 MiB/40.0 MiB, 1.20M rows, 300k rows/s, ETA 0:09');
    expect(formatSyncProgress({ ...state, bytes: 0, rows: 0 }, 0)).toContain('ETA --:--');
  });

  it('redraws one line on a terminal, and writes file lines above it', () => {
    vi.useFakeTimers();
    try {
      const { written, output } = capture(true);
      const p = new SyncProgress(output, () => state);
      vi.advanceTimersByTime(150);
      p.tick();
      p.line('fetched a.csv.gz: ...');
      vi.advanceTimersByTime(150);
      p.tick();
      p.done();
      expect(written[0]).toMatch(/^\r3\/10 files, .*ETA .*\x1b\[K$/);
      expect(written.slice(1, 3)).toEqual(['\r\x1b[K', 'fetched a.csv.gz: ...\n']);
      expect(written[3]).toMatch(/^\r3\/10 files/);
      expect(written.at(-1)).toBe('\r\x1b[K');
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes plain lines, every few seconds, where stderr is not a terminal', () => {
    vi.useFakeTimers();
    try {
      const { written, output } = capture(false);
      const p = new SyncProgress(output, () => state);
      vi.advanceTimersByTime(1000);
      p.tick(); // too soon for a log line
      vi.advanceTimersByTime(5000);
      p.tick();
      p.done();
      expect(written).toEqual([expect.stringMatching(/^progress: 3\/10 files, 12\.0 MiB\/40\.0 MiB, 1\.20M rows, [\d.]+k rows\/s, ETA \d+:\d\d\n$/)]);
      expect(written.join('')).not.toContain('\r');
    } finally {
      vi.useRealTimers();
    }
  });
});
