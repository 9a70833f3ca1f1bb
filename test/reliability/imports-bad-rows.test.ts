// Rows that would store nonsense are refused with file:line and a reason: the whole file is left
// out, or with --skip-bad-rows the row alone, counted in the summary and listed in the rejects file.
import { sqlOf } from '../../src/store/inspect.js';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { importFile, resolveImportPaths } from '../../src/ingest/load.js';
import { runImport } from '../../src/cli/import.js';
import { engines } from '../helpers/engines.js';
import { MINUTE_HEADER, PREMARKET_NS, TRADES_HEADER, TempDir, minuteLines, tradeLines } from '../ingest/import-files.js';

async function count(store: Store, table: string): Promise<number> {
  return Number((await sqlOf(store).get(`SELECT COUNT(*) AS n FROM ${table}`))!.n);
}

// After two full 5,000-row batches, so "nothing kept" means the file's transaction rolled back.
const GOOD_BEFORE = 10_500;
const BAD_LINE = GOOD_BEFORE + 2; // the header is line 1
const NS = PREMARKET_NS.toString();
const MS = (PREMARKET_NS / 1_000_000n).toString();

// Minute bar columns: ticker,volume,open,close,high,low,window_start,transactions
const BAD_BARS: [string, string, RegExp][] = [
  ['high below low', `AAPL,100,10,10,9,11,${NS},1`, /high 9 is below low 11/],
  ['open above high', `AAPL,100,12,10,11,9,${NS},1`, /open 12 is outside \[low 9, high 11\]/],
  ['close below low', `AAPL,100,10,8,11,9,${NS},1`, /close 8 is outside \[low 9, high 11\]/],
  ['negative volume', `AAPL,-100,10,10,11,9,${NS},1`, /volume: negative: "-100"/],
  ['window_start in milliseconds', `AAPL,100,10,10,11,9,${MS},1`, /window_start: before 1973: expected nanoseconds/],
  ['ticker with a space', `AA PL,100,10,10,11,9,${NS},1`, /ticker: contains a space: "AA PL"/],
  ['ticker with a control character', `AA\u0007PL,100,10,10,11,9,${NS},1`, /ticker: contains a control character/],
  ['ticker of 5,000 characters', `${'A'.repeat(5000)},100,10,10,11,9,${NS},1`, /ticker: longer than 64 characters \(5000\)/],
];

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

for (const engine of engines()) {
  describe(`import refuses bad rows (${engine.name})`, () => {
    let store: Store;
    let dir: TempDir;
    beforeAll(async () => {
      store = await engine.open();
    });
    afterAll(async () => {
      await store.close();
      dir?.remove();
    });
    beforeEach(async () => {
      dir?.remove();
      dir = new TempDir();
      for (const t of ['minute_bars', 'day_bars', 'trades', 'quotes']) await sqlOf(store).run(`DELETE FROM ${t}`);
    });

    for (const [name, line, reason] of BAD_BARS) {
      it(`${name}: the file is refused at file:line and nothing of it is written`, async () => {
        const lines = minuteLines(GOOD_BEFORE + 300);
        lines[GOOD_BEFORE] = line;
        const file = dir.write('minute_aggs_v1/2024-03-08.csv.gz', MINUTE_HEADER, lines);
        const err = await importFile(store, file).catch((e: Error) => e);
        expect((err as Error).message).toMatch(new RegExp(`^${escape(file)}:${BAD_LINE}: `));
        expect((err as Error).message).toMatch(reason);
        expect(await count(store, 'minute_bars')).toBe(0);
        expect(await count(store, 'day_bars')).toBe(0);
      });
    }

    it('a ticker with a space in a trades file is refused too', async () => {
      const lines = tradeLines(50);
      lines[20] = lines[20]!.replace(/^AAPL/, 'AAPL X');
      const file = dir.write('trades.csv', TRADES_HEADER, lines);
      const err = await importFile(store, file).catch((e: Error) => e);
      expect((err as Error).message).toBe(`${file}:22: ticker: contains a space: "AAPL X"`);
      expect(await count(store, 'trades')).toBe(0);
    });

    it('a trade time in milliseconds is refused (it would be stored as January 1970)', async () => {
      const lines = tradeLines(50);
      const sipNs = /,(\d{19}),(?:0\.5|100),/.exec(lines[30]!)![1]!;
      lines[30] = lines[30]!.replace(`,${sipNs},`, `,${BigInt(sipNs) / 1_000_000n},`);
      const file = dir.write('trades.csv', TRADES_HEADER, lines);
      const err = await importFile(store, file).catch((e: Error) => e);
      expect((err as Error).message).toMatch(new RegExp(`^${escape(file)}:32: sip_timestamp: before 1973: expected nanoseconds`));
      expect(await count(store, 'trades')).toBe(0);
    });

    it('with --skip-bad-rows each bad row is left out, counted and listed; the good rows are written', async () => {
      const good = minuteLines(40);
      const lines = [...good.slice(0, 20), ...BAD_BARS.map(([, line]) => line), ...good.slice(20)];
      const file = dir.write('minute_aggs_v1/2024-03-08.csv', MINUTE_HEADER, lines);
      const out: string[] = [];
      const summary = await runImport(store, resolveImportPaths([file]), {
        skipBadRows: true,
        output: { write: (s: string) => out.push(s) > 0 },
      });
      expect(summary.failures).toEqual([]);
      expect(summary.rejected).toBe(BAD_BARS.length);
      expect(summary.rows).toBe(40);
      expect(out.join('')).toMatch(new RegExp(`${BAD_BARS.length} rejected rows written to ${escape(file)}\\.rejects\\.csv`));
      expect(out.join('')).toMatch(new RegExp(`summary: 1 file, 40 rows .*, ${BAD_BARS.length} rejects`));
      expect(await count(store, 'minute_bars')).toBe(40);
      const rejects = readFileSync(`${file}.rejects.csv`, 'utf8').trim().split('\n');
      expect(rejects[0]).toBe('line,reason,row');
      expect(rejects.slice(1).map((r) => Number(r.split(',')[0]))).toEqual(BAD_BARS.map((_, i) => 22 + i));
      // The rejects file is CSV: quotes inside a field are doubled.
      BAD_BARS.forEach(([, , reason], i) => expect(rejects[i + 1]!.replace(/""/g, '"')).toMatch(reason));
      expect(existsSync(`${file}.rejects.csv.partial`)).toBe(false);
    });
  });
}
