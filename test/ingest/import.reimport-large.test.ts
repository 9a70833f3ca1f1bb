// Files of several batches imported again with corrections, or repeating a key: what a user sees
// is the same on both engines, whichever way the store loads them (PostgreSQL first streams a
// file's rows as new with one COPY and, when one meets a stored or repeated key, reads the file
// again into the upserting inserts: the corrected rows win, nothing is counted or reported twice).
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { importFile, type ImportProgress } from '../../src/ingest/load.js';
import { flatFileReaderSettings, DEFAULT_WORKER_THRESHOLD } from '../../src/ingest/flatfile-threaded.js';
import { nyMidnight } from '../../src/domain/calendar.js';
import { engines } from '../helpers/engines.js';
import { MINUTE_HEADER, TRADES_HEADER, minuteLines, tradeLines } from './import-files.js';
import { countRows, useImportSandbox } from './import-sandbox.js';

const ROWS = 12_000; // three batches of the reader

for (const engine of engines()) {
  for (const reader of ['in-thread', 'worker'] as const) {
    describe(`re-importing large files (${engine.name}, reader ${reader})`, () => {
      const { store, dir } = useImportSandbox(engine);
      afterEach(() => {
        flatFileReaderSettings.workerThreshold = DEFAULT_WORKER_THRESHOLD;
      });
      const useReader = () => {
        flatFileReaderSettings.workerThreshold = reader === 'worker' ? 0 : Number.MAX_SAFE_INTEGER;
      };
      const aapl = (fromMs: number, toMs: number, kind: 'minute' | 'day' = 'minute') =>
        store.market.readBars(kind, { ticker: 'AAPL', fromMs, toMs, order: 'asc', limit: 50_000 });

      it('a corrected minute file: the corrections win, only they count as written, the day bars follow', async () => {
        useReader();
        const lines = minuteLines(ROWS);
        const path = dir.write('minute_aggs_v1/2024-03-08.csv', MINUTE_HEADER, lines);
        expect(await importFile(store, path)).toMatchObject({ rows: ROWS, written: ROWS, rejected: 0 });
        const day = nyMidnight('2024-03-08');
        const before = (await aapl(day, day + 1, 'day'))[0]!;

        // Three rows of the third batch corrected (close and high of AAPL's last minute of the day among them).
        const lastOfDay = 2 * (20 * 60 - 1); // AAPL's 23:59 ET bar
        const corrected = [...lines];
        for (const i of [lastOfDay, 10_001, 11_999]) {
          const f = corrected[i]!.split(',');
          f[3] = '120.25'; // close
          f[4] = '121'; // high
          corrected[i] = f.join(',');
        }
        dir.write('minute_aggs_v1/2024-03-08.csv', MINUTE_HEADER, corrected);
        const again = await importFile(store, path);
        expect(again).toMatchObject({ rows: ROWS, written: 3, rejected: 0 });
        expect(await countRows(store, 'minute_bars')).toBe(ROWS);
        const minutes = await aapl(day, day + 86_400_000);
        expect(minutes.at(-1)).toMatchObject({ c: 120.25, h: 121 });
        expect((await aapl(day, day + 1, 'day'))[0]).toEqual({ ...before, c: 120.25, h: 121 });
      });

      it('a file repeating a key in a later batch keeps its last row', async () => {
        useReader();
        const lines = tradeLines(ROWS);
        const repeat = lines[5]!.replace(',3,,', ',1,,'); // the same key, tape 1
        const path = dir.write('trades_v1/2024-03-08.csv', TRADES_HEADER, [...lines, repeat]);
        // The later row changes the stored one: it counts as written too.
        expect(await importFile(store, path)).toMatchObject({ rows: ROWS + 1, written: ROWS + 1 });
        expect(await countRows(store, 'trades')).toBe(ROWS);
        const trades = await store.market.readTrades({ ticker: 'AAPL', order: 'asc', limit: 10 });
        expect(trades[5]!.row.tape).toBe(1);
        expect(trades[4]!.row.tape).toBe(3);
      });

      it('a bad row in a later batch stops the file with its line, and none of its rows are kept', async () => {
        useReader();
        const lines = minuteLines(ROWS);
        lines[11_000] = lines[11_000]!.replace(/^AAPL,/, 'AA PL,');
        const path = dir.write('minute_aggs_v1/2024-03-08.csv.gz', MINUTE_HEADER, lines);
        await expect(importFile(store, path)).rejects.toThrow(`${path}:11002: ticker: contains a space`);
        expect(await countRows(store, 'minute_bars')).toBe(0);
        expect(await countRows(store, 'day_bars')).toBe(0);
        // The store is usable at once: the same rows without the bad one import.
        lines[11_000] = lines[11_000]!.replace(/^AA PL,/, 'AAPL,');
        dir.write('minute_aggs_v1/2024-03-08.csv.gz', MINUTE_HEADER, lines);
        expect(await importFile(store, path)).toMatchObject({ rows: ROWS, written: ROWS });
      });

      it('progress and rejected rows of a re-import are those of the first import, each once', async () => {
        useReader();
        const lines = tradeLines(ROWS);
        lines[2_000] = lines[2_000]!.replace(/,19\d\.\d\d,/, ',-1,');
        lines[9_000] = lines[9_000]!.replace(/,19\d\.\d\d,/, ',x,');
        const path = dir.write('trades_v1/2024-03-08.csv.gz', TRADES_HEADER, lines);
        const run = async () => {
          const progress: ImportProgress[] = [];
          const r = await importFile(store, path, { skipBadRows: true, onProgress: (_, p) => progress.push({ ...p }) });
          return { r, progress, rejects: readFileSync(r.rejectsFile!, 'utf8') };
        };
        const first = await run();
        expect(first.r).toMatchObject({ rows: ROWS - 2, written: ROWS - 2, rejected: 2 });
        // no report repeats the one before it (the last chunk's and the end's were the same)
        expect(first.progress.filter((p, i) => i > 0 && JSON.stringify(p) === JSON.stringify(first.progress[i - 1]))).toEqual([]);
        const second = await run();
        expect(second.r).toMatchObject({ rows: ROWS - 2, written: 0, rejected: 2 });
        expect(second.progress).toEqual(first.progress);
        expect(second.rejects).toBe(first.rejects);
        expect(second.rejects.split('\n').filter((l) => /^\d+,/.test(l)).map((l) => l.split(',')[0])).toEqual(['2002', '9002']);
      });
    });
  }
}
