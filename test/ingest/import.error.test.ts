import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { importFile, resolveImportPaths } from '../../src/ingest/load.js';
import { runImport } from '../../src/cli/import.js';
import { engines } from '../helpers/engines.js';
import { MINUTE_HEADER, TRADES_HEADER, TempDir, minuteLines, tradeLines } from './import-files.js';
import { countRows, useImportSandbox } from './import-sandbox.js';

// The bad row sits after several full batches (5,000 rows each) have gone to the store, so
// "nothing kept" proves the file's transaction was rolled back, not that the row came first.
const GOOD_BEFORE = 12_000;
const BAD_LINE = GOOD_BEFORE + 2; // header is line 1

const BAD_TRADES: [string, (good: string) => string, RegExp][] = [
  ['wrong column count', (g) => g.split(',').slice(0, 9).join(','), /expected 13 columns, found 8/],
  ['non-numeric price', (g) => g.replace(/,190\.\d\d,/, ',12..5,'), /price: not a number: "12\.\.5"/],
  ['negative size', (g) => g.replace(/,(100|0\.5),3,,$/, ',-5,3,,'), /size: negative: "-5"/],
  ['unparsable timestamp', (g) => g.replace(/,(\d{19}),(0\.5|100),/, ',2024-03-08T09:00:00Z,$2,'), /sip_timestamp: not a non-negative integer/],
];

for (const engine of engines()) {
  describe(`import rejects bad files atomically (${engine.name})`, () => {
    const { store, dir } = useImportSandbox(engine);

    for (const [name, spoil, reason] of BAD_TRADES) {
      it(`${name}: stops the file at file:line and keeps nothing of it`, async () => {
        const lines = tradeLines(GOOD_BEFORE + 500);
        lines[GOOD_BEFORE] = spoil(lines[GOOD_BEFORE]!);
        const file = dir.write('trades.csv.gz', TRADES_HEADER, lines);
        const err = await importFile(store, file).catch((e: Error) => e);
        expect(err).toBeInstanceOf(Error);
        expect((err as Error).message).toMatch(new RegExp(`^${file.replace(/[.]/g, '\\.')}:${BAD_LINE}: `));
        expect((err as Error).message).toMatch(reason);
        expect(await countRows(store, 'trades')).toBe(0);
        expect(existsSync(`${file}.rejects.csv`)).toBe(false);
      });
    }

    it('truncated gzip: stops the file, keeps nothing, even with --skip-bad-rows', async () => {
      const whole = gzipSync(`${MINUTE_HEADER}\n${minuteLines(40_000).join('\n')}\n`);
      const file = dir.writeRaw('minute_aggs_v1/cut.csv.gz', whole.subarray(0, Math.floor(whole.length * 0.8)));
      for (const skipBadRows of [false, true]) {
        const err = await importFile(store, file, { skipBadRows }).catch((e: Error) => e);
        expect((err as Error).message).toMatch(new RegExp(`^${file.replace(/[.]/g, '\\.')}:\\d+: truncated or corrupt gzip stream`));
        expect(await countRows(store, 'minute_bars')).toBe(0);
        expect(await countRows(store, 'day_bars')).toBe(0);
      }
    });

    it('a failing file leaves the other files of the run imported', async () => {
      const bad = tradeLines(20);
      bad[10] = 'AAPL,,,4,1,1,1,1,1';
      dir.write('1-good.csv', MINUTE_HEADER, minuteLines(6));
      dir.write('2-bad.csv', TRADES_HEADER, bad);
      dir.write('3-good.csv', TRADES_HEADER, tradeLines(5, 'MSFT'));
      const summary = await runImport(store, resolveImportPaths([dir.root]), { output: { write: () => true } });
      expect(summary.failures).toEqual([`${dir.path('2-bad.csv')}:12: expected 13 columns, found 9`]);
      expect(summary.files.map((f) => f.rows)).toEqual([6, 5]);
      expect(await countRows(store, 'minute_bars')).toBe(6);
      expect(await countRows(store, 'trades')).toBe(5);
    });

    it('rejects a file no importer recognises, naming it', async () => {
      const file = dir.writeRaw('notes.csv', 'name,colour\nx,red\n');
      await expect(importFile(store, file)).rejects.toThrow(`${file}:1: unrecognised file (no importer for it); it starts with: "name,colour"`);
    });
  });
}

describe('import paths', () => {
  it('refuses missing paths and empty directories before importing anything, naming each', () => {
    const dir = new TempDir();
    try {
      dir.writeRaw('empty/readme.txt', 'x');
      expect(() => resolveImportPaths([dir.path('nope.csv'), dir.path('empty')])).toThrow(
        new RegExp(`^${dir.path('nope.csv')}: no such file or directory\n${dir.path('empty')}: directory holds no importable files \\(.*\\.csv\\.gz`),
      );
    } finally {
      dir.remove();
    }
  });
});
