import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importFile, resolveImportPaths } from '../../src/ingest/load.js';
import { runImport } from '../../src/cli/import.js';
import { nyMidnight } from '../../src/domain/calendar.js';
import { engines } from '../helpers/engines.js';
import { FOREX_QUOTES_HEADER, MINUTE_HEADER, PREMARKET_NS, TRADES_HEADER, minuteLines, tradeLines } from './import-files.js';
import { countRows, useImportSandbox } from './import-sandbox.js';

const quiet = { isTTY: false, write: () => true };

for (const engine of engines()) {
  describe(`import (${engine.name})`, () => {
    const { store, dir } = useImportSandbox(engine);

    it('imports minute aggregates (CSV.gz) and derives their ET day bars, extended hours included', async () => {
      const file = dir.write('minute_aggs_v1/2024-03-08.csv.gz', MINUTE_HEADER, minuteLines(12_000));
      const r = await importFile(store, file);
      expect(r).toMatchObject({ kind: 'minute_aggs', rows: 12_000, written: 12_000, rejected: 0 });
      expect(await countRows(store, 'minute_bars')).toBe(12_000);
      // 6,000 minutes per ticker from 04:00 ET run past midnight into the next ET day.
      const days = await store.market.readBars('day', { ticker: 'AAPL', fromMs: 0, toMs: Date.UTC(2030, 0), order: 'asc', limit: 10 });
      expect(days.map((d) => d.t)).toEqual([nyMidnight('2024-03-08'), nyMidnight('2024-03-09'), nyMidnight('2024-03-10'), nyMidnight('2024-03-11'), nyMidnight('2024-03-12')]);
      const minutes = await store.market.readBars('minute', { ticker: 'AAPL', fromMs: days[0]!.t, toMs: days[1]!.t, order: 'asc', limit: 50_000 });
      expect(minutes.length).toBe(20 * 60); // 04:00 to midnight
      expect(days[0]).toMatchObject({
        o: minutes[0]!.o,
        c: minutes.at(-1)!.c,
        h: Math.max(...minutes.map((m) => m.h)),
        l: Math.min(...minutes.map((m) => m.l)),
        v: minutes.reduce((s, m) => s + m.v!, 0),
        n: minutes.reduce((s, m) => s + m.n!, 0),
      });
    });

    it('is idempotent: importing the same files twice leaves the same rows', async () => {
      dir.write('a/minute.csv.gz', MINUTE_HEADER, minuteLines(300));
      dir.write('a/trades.csv', TRADES_HEADER, tradeLines(300));
      const files = resolveImportPaths([dir.root]);
      await runImport(store, files, { output: quiet });
      const before = await Promise.all(['minute_bars', 'day_bars', 'trades'].map((t) => countRows(store, t)));
      const again = await runImport(store, files, { output: quiet });
      expect(again.written).toBe(0);
      expect(again.rows).toBe(600);
      expect(await Promise.all(['minute_bars', 'day_bars', 'trades'].map((t) => countRows(store, t)))).toEqual(before);
      expect(before).toEqual([300, 2, 300]); // two tickers, one ET day
    });

    it('keeps nanosecond timestamps above 2^53 exact from the file to the store', async () => {
      const ts = 9_007_199_254_740_993_123n; // 2^53 * 1000 + 993,123: lost by any float on the way
      const file = dir.write('trades.csv', TRADES_HEADER, [`AAPL,"12,37",,4,52983525034825,${ts - 1n},189.015,9007199254740995,${ts},0.5,3,201,${ts + 1n}`]);
      await importFile(store, file);
      const t = await store.market.lastTrade('AAPL');
      expect(t).toMatchObject({ sip_timestamp: ts, participant_timestamp: ts - 1n, trf_timestamp: ts + 1n, sequence_number: 9_007_199_254_740_995n, conditions: [12, 37], size: 0.5, trf_id: 201 });
      const [paged] = await store.market.readTrades({ ticker: 'AAPL', gte: ts, lte: ts, order: 'asc', limit: 1 });
      expect(paged!.position.ts).toBe(ts.toString());
    });

    it('imports forex quotes, which carry only the participant time', async () => {
      const file = dir.write('quotes.csv', FOREX_QUOTES_HEADER, [`C:EURUSD,48,1.0851,48,1.0849,${PREMARKET_NS}`, `C:EURUSD,48,1.0852,48,1.085,${PREMARKET_NS + 5n}`]);
      expect((await importFile(store, file)).kind).toBe('quotes');
      const q = await store.market.lastQuote('C:EURUSD');
      expect(q).toMatchObject({ sip_timestamp: undefined, participant_timestamp: PREMARKET_NS + 5n, ask_price: 1.0852, bid_price: 1.085 });
    });

    it('imports a directory recursively in name order, leaving rejects files and other files alone', async () => {
      dir.write('2024/03/b.csv', MINUTE_HEADER, minuteLines(4, ['MSFT']));
      dir.write('2024/03/a.csv.gz', MINUTE_HEADER, minuteLines(4, ['AAPL']));
      dir.write('2024/03/a.csv.gz.rejects.csv', 'line,reason,row', ['3,"x","y"']);
      dir.writeRaw('2024/03/README.txt', 'not data');
      dir.write('top.csv', TRADES_HEADER, tradeLines(2));
      const files = resolveImportPaths([dir.root]);
      expect(files.map((f) => f.slice(dir.root.length))).toEqual(['/2024/03/a.csv.gz', '/2024/03/b.csv', '/top.csv']);
      const summary = await runImport(store, files, { output: quiet });
      expect(summary.failures).toEqual([]);
      expect(summary.rows).toBe(10);
      expect(await store.market.tickersWithBars('minute')).toEqual(['AAPL', 'MSFT']);
    });

    it('--skip-bad-rows imports the rest and writes the rejects next to the file', async () => {
      const lines = minuteLines(10);
      lines[2] = 'AAPL,1000,abc,1,1,1,1709888400000000000,3';
      lines[6] = 'MSFT,1000,1,1,1';
      const file = dir.write('m.csv', MINUTE_HEADER, lines);
      const r = await importFile(store, file, { skipBadRows: true });
      expect(r).toMatchObject({ rows: 8, rejected: 2, rejectsFile: `${file}.rejects.csv` });
      expect(await countRows(store, 'minute_bars')).toBe(8);
      expect(readFileSync(`${file}.rejects.csv`, 'utf8')).toBe(
        'line,reason,row\n' +
          '4,"open: not a number: ""abc""","AAPL,1000,abc,1,1,1,1709888400000000000,3"\n' +
          '8,"expected 8 columns, found 5","MSFT,1000,1,1,1"\n',
      );
    });

    it('writes no rejects file when every row is good', async () => {
      const file = dir.write('m.csv', MINUTE_HEADER, minuteLines(3));
      const r = await importFile(store, file, { skipBadRows: true });
      expect(r.rejectsFile).toBeUndefined();
      expect(existsSync(`${file}.rejects.csv`)).toBe(false);
    });

    it('never replaces an imported day bar with one derived from minutes', async () => {
      const day = dir.write('day_aggs_v1/2024-03-08.csv', MINUTE_HEADER, ['AAPL,5,1,2,3,0.5,1709874000000000000,1']);
      await importFile(store, day);
      await importFile(store, dir.write('minute_aggs_v1/2024-03-08.csv', MINUTE_HEADER, minuteLines(20, ['AAPL'])));
      const [bar] = await store.market.readBars('day', { ticker: 'AAPL', fromMs: nyMidnight('2024-03-08'), toMs: nyMidnight('2024-03-09'), order: 'asc', limit: 1 });
      expect(bar).toMatchObject({ o: 1, c: 2, h: 3, l: 0.5, v: 5, n: 1 });
    });
  });
}
