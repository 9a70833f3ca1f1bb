// Importing futures trades, quotes and minute bars (CSV, JSON arrays, upstream response bodies,
// NDJSON) on both engines: exact nanosecond times, the trading date filled in, corrections
// replacing stored rows, and a bad row failing the whole file with its line named.
import { describe, expect, it } from 'vitest';
import '../../src/ingest/datasets.js';
import { futuresKindOf } from '../../src/ingest/futures-market.js';
import { importFile } from '../../src/ingest/load.js';
import { parseJsonExact } from '../../src/ingest/source-records.js';
import { engines } from '../helpers/engines.js';
import { countRows, useImportSandbox } from './import-sandbox.js';

/** The message of the error an import fails with. */
const failure = (p: Promise<unknown>): Promise<string> => p.then(() => { throw new Error('the import was expected to fail'); }, (err: Error) => err.message);

// 2026-11-20 21:59:58.000509213 UTC (16:59 ET: the session ending on the 20th) and a second later
const T1 = 1795211998000509213n;
const T2 = 1795212001999999999n; // 17:00:01 ET: after the close, still the 20th's trading date
const EVENING = 1795215600000000001n; // 18:20 ET: the session ending on the 23rd (a Monday) has begun

describe('telling futures files apart', () => {
  it('claims trades, quotes and bars by their fields, and leaves stock flat files alone', () => {
    expect(futuresKindOf(['ticker', 'timestamp', 'price', 'size', 'sequence_number'])).toBe('futures-trades');
    expect(futuresKindOf(['ticker', 'timestamp', 'bid_price', 'ask_price', 'sequence_number'])).toBe('futures-quotes');
    expect(futuresKindOf(['ticker', 'window_start', 'open', 'high', 'low', 'close', 'volume', 'transactions', 'dollar_volume'])).toBe('futures-bars');
    // upstream's stock minute aggregates flat file and v3 trades
    expect(futuresKindOf(['ticker', 'volume', 'open', 'close', 'high', 'low', 'window_start', 'transactions'])).toBeUndefined();
    expect(futuresKindOf(['ticker', 'sip_timestamp', 'timestamp', 'price', 'size'])).toBeUndefined();
  });

  it('reads integers of 16 digits or more from JSON as their exact text', () => {
    expect(parseJsonExact(`{"timestamp":${T1},"price":6052.25,"n":123,"s":"12345678901234567890"}`)).toEqual({ timestamp: String(T1), price: 6052.25, n: 123, s: '12345678901234567890' });
  });
});

for (const engine of engines()) {
  describe(`futures market data import (${engine.name})`, () => {
    const { store, dir } = useImportSandbox(engine, ['futures_trades', 'futures_quotes', 'futures_minute_bars']);
    const file = (name: string, content: string) => dir.writeRaw(name, content);
    const count = (table: string) => countRows(store, table);
    const trades = () => store.futures.readTrades({ ticker: 'ESZ6', order: 'asc', limit: 100 });

    it('imports a trades CSV with exact times, filling in the trading date, and lets a corrected row replace the stored one', async () => {
      const csv = (price: string) => `ticker,timestamp,sequence_number,price,size,report_sequence,channel
ESZ6,${T1},27317882,6052,3,12033289,310
ESZ6,${T2},27317883,${price},1,,
esz6,${EVENING},27317900,6050.5,2,12033300,310
`;
      const r = await importFile(store, file('trades.csv', csv('6051.75')));
      expect(r).toMatchObject({ importer: 'futures-market', kind: 'futures-trades', rows: 3, written: 3 });
      expect(await trades()).toEqual([
        { ticker: 'ESZ6', timestamp: T1, sequence_number: 27317882n, session_end_date: '2026-11-20', price: 6052, size: 3, report_sequence: 12033289n, channel: 310 },
        { ticker: 'ESZ6', timestamp: T2, sequence_number: 27317883n, session_end_date: '2026-11-20', price: 6051.75, size: 1, report_sequence: undefined, channel: undefined },
        { ticker: 'ESZ6', timestamp: EVENING, sequence_number: 27317900n, session_end_date: '2026-11-23', price: 6050.5, size: 2, report_sequence: 12033300n, channel: 310 },
      ]);
      const again = await importFile(store, file('trades-corrected.csv', csv('6051.5')));
      expect(again).toMatchObject({ rows: 3, written: 1 });
      expect((await trades()).map((t) => t.price)).toEqual([6052, 6051.5, 6050.5]);
      expect(await count('futures_trades')).toBe(3);
    });

    it('imports an upstream quotes body with its nanosecond integers intact', async () => {
      const body = `{"status":"OK","request_id":"x","results":[
  {"ask_price":2686,"ask_size":1,"ask_timestamp":${T1},"bid_price":2684.7,"bid_size":1,"bid_timestamp":${T1 - 5n},"channel":360,"report_sequence":2249866,"sequence_number":15355476,"session_end_date":"2026-11-20","ticker":"GCZ6","timestamp":${T1}},
  {"ask_size":0,"ask_timestamp":${T2},"bid_price":2660,"bid_size":1,"bid_timestamp":${T2},"channel":360,"report_sequence":2250337,"sequence_number":15357766,"ticker":"GCZ6","timestamp":${T2}}
]}`;
      expect(await importFile(store, file('quotes.json', body))).toMatchObject({ kind: 'futures-quotes', rows: 2 });
      const quotes = await store.futures.readQuotes({ ticker: 'GCZ6', order: 'asc', limit: 10 });
      expect(quotes.map((q) => [q.timestamp, q.bid_timestamp, q.ask_price, q.session_end_date])).toEqual([
        [T1, T1 - 5n, 2686, '2026-11-20'],
        [T2, T2, undefined, '2026-11-20'],
      ]);
    });

    it('imports minute bars from NDJSON', async () => {
      const start = 1795211940000000000n; // 16:59 ET
      const lines = [
        { ticker: 'CLZ6', window_start: String(start - 60_000_000_000n), open: 62.1, high: 62.2, low: 62, close: 62.15, volume: 40, transactions: 12, dollar_volume: 2485.2 },
        { ticker: 'CLZ6', window_start: String(start), session_end_date: '2026-11-20', open: 62.15, high: 62.3, low: 62.1, close: 62.25, volume: 10, transactions: 4, dollar_volume: 622.1 },
      ].map((l) => JSON.stringify(l)).join('\n');
      expect(await importFile(store, file('bars.ndjson', lines))).toMatchObject({ kind: 'futures-bars', rows: 2, written: 2 });
      const bars = await store.futures.readMinuteBars({ ticker: 'CLZ6', order: 'desc', limit: 10 });
      expect(bars.map((b) => [b.window_start, b.session_end_date, b.close, b.volume])).toEqual([[start, '2026-11-20', 62.25, 10], [start - 60_000_000_000n, '2026-11-20', 62.15, 40]]);
    });

    it('fails a file with a bad row, naming the file, line, field and reason, and writes nothing of it', async () => {
      const path = file('bad-trades.csv', `ticker,timestamp,sequence_number,price,size
ESZ6,${T1},1,6052,3
ESZ6,${T2},2,six thousand,1
ESZ6,2026-11-20,3,6052,-1
`);
      const message = await failure(importFile(store, path));
      expect(message.split('\n')).toEqual([
        `${path}:3: price: must be a number`,
        `${path}:4: timestamp: must be a non-negative integer (Unix ns for times)`,
        `${path}:4: size: must be a non-negative integer`,
      ]);
      expect(await count('futures_trades')).toBe(0);
      // with --skip-bad-rows the good rows go in and the bad ones to <file>.rejects.csv
      expect(await importFile(store, path, { skipBadRows: true })).toMatchObject({ rows: 1, rejected: 2, rejectsFile: `${path}.rejects.csv` });
      expect(await count('futures_trades')).toBe(1);
      const bars = file('bad-bars.json', JSON.stringify([{ ticker: 'ESZ6', window_start: '1795211940000000001', open: 1, high: 2, low: 1, close: 2, volume: 1, transactions: 1, dollar_volume: 2 }]));
      expect(await failure(importFile(store, bars, { dataset: 'futures-bars' }))).toBe(`${bars}:1: window_start: must be the start of a minute in Unix ns (a multiple of 60,000,000,000)`);
      expect(await count('futures_minute_bars')).toBe(0);
    });
  });
}
