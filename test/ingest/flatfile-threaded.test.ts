// The worker-thread reader (readFlatFileThreaded) against the in-thread one (readFlatFile): the
// codec that carries rows between the threads, and the same batches, rejects, progress reports,
// summaries and errors, in the same order, for every kind of file and of bad input.
import { writeFile } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeBatch, encodeBatch, transferables } from '../../src/ingest/flatfile-codec.js';
import {
  closeIdleWorkers,
  flatFileReaderSettings,
  flatFileReaderStats,
  readFlatFileThreaded,
  type ThreadedReadOptions,
} from '../../src/ingest/flatfile-threaded.js';
import { readFlatFile, type FlatFileBatch, type FlatFileSummary, type ReadFlatFileOptions } from '../../src/ingest/flatfile.js';
import { importFile } from '../../src/ingest/load.js';
import type { BarRow, QuoteRow, TradeRow } from '../../src/domain/market-records.js';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { AGGS, CRYPTO_TRADES, FOREX_QUOTES, INDEX_AGGS, NS, OPTION_TRADES, STOCK_QUOTES, STOCK_TRADES } from './flatfile-headers.js';
import { MINUTE_HEADER, TempDir, TRADES_HEADER, minuteLines, tradeLines } from './import-files.js';
import { sqlOf } from '../../src/store/inspect.js';

const INT64_MAX = 9_223_372_036_854_775_807n;

const FORCE: ThreadedReadOptions = { workerThreshold: 0 };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickerbase-threaded-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function fixture(name: string, lines: string[], gzip = name.endsWith('.gz')): Promise<string> {
  const path = join(dir, name);
  const text = lines.join('\n') + '\n';
  await writeFile(path, gzip ? gzipSync(text) : text);
  return path;
}

// ---------------------------------------------------------------------------------------------
// The codec.

/** Encodes, moves the buffers as postMessage would (transferred, so the originals detach), decodes. */
function roundTrip(batch: FlatFileBatch): FlatFileBatch {
  const encoded = encodeBatch(batch);
  const moved = structuredClone(encoded, { transfer: transferables(encoded) });
  expect(encoded.nums.byteLength).toBe(0); // transferred, not copied
  return decodeBatch(moved);
}

describe('flat-file batch codec', () => {
  it('round-trips trades exactly: ns above 2^53, absent optionals, lists, fractions, empty vs absent ids', () => {
    const full: TradeRow = {
      ticker: 'AAPL',
      sip_timestamp: NS,
      participant_timestamp: NS - 77n,
      trf_timestamp: INT64_MAX,
      price: 190.1234,
      size: 0.000123,
      exchange: 4,
      id: '52983525029461',
      conditions: [12, 37],
      correction: 0,
      sequence_number: 9_007_199_254_740_993n, // 2^53 + 1
      tape: 3,
      trf_id: 202,
    };
    const bare: TradeRow = {
      ticker: 'X:BTC-USD',
      sip_timestamp: 0n,
      participant_timestamp: undefined,
      trf_timestamp: undefined,
      price: 0,
      size: 1e300,
      exchange: 0,
      id: undefined,
      conditions: undefined,
      correction: undefined,
      sequence_number: undefined,
      tape: undefined,
      trf_id: undefined,
    };
    const batch: FlatFileBatch = {
      kind: 'trades',
      batch: [
        full,
        bare,
        { ...full, id: '', conditions: [] },
        { ...bare, ticker: 'O:SPY241220C00400000', id: 'é"x,y"', conditions: [14] },
        { ...full, ticker: 'AAPL', conditions: [0, 999_999_999_999_999] },
        { ...bare, ticker: 'AAPL', price: -0, size: 5e-324 },
      ],
    };
    expect(roundTrip(batch)).toStrictEqual(batch);
  });

  it('round-trips quotes exactly, forex quotes without a SIP time included', () => {
    const full: QuoteRow = {
      ticker: 'MSFT',
      sip_timestamp: NS,
      participant_timestamp: NS - 1n,
      trf_timestamp: NS + 1n,
      ask_price: 410.5,
      ask_size: 2.5,
      ask_exchange: 11,
      bid_price: 410.25,
      bid_size: 0,
      bid_exchange: 12,
      conditions: [1],
      indicators: [604, 607],
      sequence_number: INT64_MAX,
      tape: 3,
    };
    const forex: QuoteRow = {
      ticker: 'C:EUR-USD',
      sip_timestamp: undefined,
      participant_timestamp: NS,
      trf_timestamp: undefined,
      ask_price: 1.08915,
      ask_size: undefined,
      ask_exchange: 48,
      bid_price: 1.0891,
      bid_size: undefined,
      bid_exchange: undefined,
      conditions: undefined,
      indicators: [],
      sequence_number: undefined,
      tape: undefined,
    };
    const batch: FlatFileBatch = { kind: 'quotes', batch: [full, forex, { ...full, conditions: [], indicators: undefined }, forex] };
    expect(roundTrip(batch)).toStrictEqual(batch);
  });

  it('round-trips bars of both kinds, index bars without volume included', () => {
    const bar: BarRow = { ticker: 'SPY', t: 1_704_204_000_000, o: 1.5, h: 2.25, l: 0.125, c: 2, v: 1234.5, vw: undefined, n: 17 };
    const index: BarRow = { ticker: 'I:SPX', t: 0, o: 4700.12, h: 4701, l: 4699.99, c: 4700, v: undefined, vw: undefined, n: undefined };
    for (const kind of ['minute_aggs', 'day_aggs'] as const) {
      const batch: FlatFileBatch = { kind, batch: [bar, index, { ...bar, vw: 1.75, v: 0 }, bar] };
      expect(roundTrip(batch)).toStrictEqual(batch);
    }
  });

  it('round-trips an empty batch', () => {
    expect(roundTrip({ kind: 'trades', batch: [] })).toStrictEqual({ kind: 'trades', batch: [] });
  });
});

// ---------------------------------------------------------------------------------------------
// The threaded reader against the in-thread reader.

type Event =
  | ['batch', string, unknown[]]
  | ['reject', unknown]
  | ['progress', unknown]
  | ['summary', FlatFileSummary]
  | ['error', { name: string; message: string; file: string; line: number; reason: string; code: string }];

type Reader = (path: string, options: ReadFlatFileOptions) => AsyncGenerator<FlatFileBatch, FlatFileSummary>;

/** Everything a reader hands out, in order: batches, rejects, progress, then summary or error. */
async function record(read: Reader, path: string, options: ReadFlatFileOptions = {}): Promise<Event[]> {
  const log: Event[] = [];
  const reader = read(path, { ...options, onReject: (r) => log.push(['reject', r]), onProgress: (p) => log.push(['progress', p]) });
  try {
    for (;;) {
      const step = await reader.next();
      if (step.done) {
        log.push(['summary', step.value]);
        return log;
      }
      log.push(['batch', step.value.kind, step.value.batch]);
    }
  } catch (err) {
    const e = err as Error & { file: string; line: number; reason: string; code: string };
    log.push(['error', { name: e.name, message: e.message, file: e.file, line: e.line, reason: e.reason, code: e.code }]);
    return log;
  }
}

const threaded: Reader = (path, options) => readFlatFileThreaded(path, { ...options, ...FORCE });

async function expectSameAsInThread(path: string, options: ReadFlatFileOptions = {}, viaWorker = true): Promise<Event[]> {
  const workers = flatFileReaderStats.worker;
  const expected = await record(readFlatFile, path, options);
  const actual = await record(threaded, path, options);
  expect(flatFileReaderStats.worker).toBe(workers + (viaWorker ? 1 : 0));
  expect(actual).toStrictEqual(expected);
  return actual;
}

function stockTrades(n: number): string[] {
  const lines = [STOCK_TRADES];
  for (let i = 0; i < n; i++) {
    const sip = NS + BigInt(i) * 1000n;
    const conditions = i % 3 === 0 ? '"12,37"' : i % 3 === 1 ? '14' : '';
    lines.push(`${i < n / 2 ? 'AAPL' : 'MSFT'},${conditions},${i % 50 === 0 ? 1 : ''},4,${i % 7 === 0 ? '' : 1000 + i},${sip - 77n},${(190 + i / 100).toFixed(2)},${i},${sip},${i % 4 === 0 ? '0.5' : 100},3,${i % 5 === 0 ? 202 : ''},${i % 5 === 0 ? sip - 9n : ''}`);
  }
  return lines;
}

function bars(header: string, n: number, stepNs: bigint, tickers = ['A', 'B', 'C']): string[] {
  const lines = [header];
  const perTicker = Math.ceil(n / tickers.length);
  for (let i = 0; i < n; i++) {
    const ticker = tickers[Math.floor(i / perTicker)]!;
    const t = 1_704_204_000_000_000_000n + BigInt(i % perTicker) * stepNs;
    const p = (100 + (i % 300) / 8).toFixed(3);
    lines.push(header === INDEX_AGGS ? `I:${ticker},${p},${p},${p},${p},${t}` : `${ticker},${i % 9 === 0 ? '12.5' : i},${p},${p},${p},${p},${t},${i % 40}`);
  }
  return lines;
}

const MINUTE_NS = 60_000_000_000n;
const DAY_NS = 86_400_000_000_000n;

describe('readFlatFileThreaded gives what readFlatFile gives', () => {
  // Small batches for many batches per file; > 64 KiB of text for several progress reports.
  const batchSize = 97;

  it.each([
    ['stock trades (gzip)', 'trades_v1/stock.csv.gz', () => stockTrades(3000)],
    [
      'option trades',
      'trades_v1/options.csv',
      () => [OPTION_TRADES, ...Array.from({ length: 1500 }, (_, i) => `O:SPY241220C00${400 + (i % 3)}000,${i % 2 ? '209' : ''},,${300 + (i % 5)},${NS + BigInt(i)},${(1 + i / 1000).toFixed(3)},${NS + BigInt(i) + 5n},${1 + (i % 9)}`)],
    ],
    [
      'crypto trades (participant time only)',
      'trades_v1/crypto.csv.gz',
      () => [CRYPTO_TRADES, ...Array.from({ length: 1500 }, (_, i) => `X:BTC-USD,${i % 2 ? '"1,2"' : ''},1,${i % 4 ? `id${i}` : ''},${NS + BigInt(i)},${(42000 + i / 3).toFixed(5)},${(i / 10000).toFixed(8)}`)],
    ],
    [
      'stock quotes',
      'quotes_v1/stock.csv.gz',
      () => [STOCK_QUOTES, ...Array.from({ length: 1500 }, (_, i) => `SPY,${i % 3 ? 11 : ''},${(470 + i / 100).toFixed(2)},${i % 5},12,${(469.99 + i / 100).toFixed(2)},${i % 6 ? 3 : ''},${i % 2 ? '1' : ''},${i % 3 ? '"604,607"' : ''},${NS + BigInt(i)},${i},${NS + BigInt(i) + 3n},3,${i % 8 ? '' : NS}`)],
    ],
    [
      'forex quotes',
      'quotes_v1/forex.csv',
      () => [FOREX_QUOTES, ...Array.from({ length: 1500 }, (_, i) => `C:EUR-USD,48,${(1.08 + i / 1e5).toFixed(5)},48,${(1.079 + i / 1e5).toFixed(5)},${NS + BigInt(i) * 1000n}`)],
    ],
    ['minute aggs', 'minute_aggs_v1/2024-01-02.csv.gz', () => bars(AGGS, 3000, MINUTE_NS)],
    ['day aggs', 'day_aggs_v1/2024-01-02.csv', () => bars(AGGS, 900, DAY_NS, ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I'])],
    ['aggs told apart by their spacing', 'unnamed/aggs.csv.gz', () => bars(AGGS, 2000, MINUTE_NS)],
    ['index aggs (no volume)', 'minute_aggs_v1/index.csv', () => bars(INDEX_AGGS, 2000, MINUTE_NS)],
  ])('%s', async (_name, file, lines) => {
    const path = await fixture(file.replaceAll('/', '-'), lines());
    const events = await expectSameAsInThread(path, { batchSize });
    expect(events.filter((e) => e[0] === 'batch').length).toBeGreaterThan(5);
    expect(events.at(-1)![0]).toBe('summary');
  });

  it('takes the kind hint and the default batch size the same way', async () => {
    const path = await fixture('hinted.csv.gz', bars(AGGS, 12_000, DAY_NS, Array.from({ length: 40 }, (_, i) => `T${i}`)));
    await expectSameAsInThread(path, { kindHint: 'day_aggs' });
    await expectSameAsInThread(path, { kindHint: 'trades' }); // a header error
  });

  const good = (i: number) => `A,"12,37",,21,${i},${NS},137.9,${i},${NS + BigInt(i)},45,1,,`;
  const badRows: Array<[string, string, string]> = [
    ['wrong column count', `A,,,21,1,${NS},137.9,1129,${NS},45,1,`, 'expected 13 columns'],
    ['non-numeric price', `A,,,21,1,${NS},abc,1129,${NS},45,1,,`, 'price: not a number'],
    ['negative size', `A,,,21,1,${NS},137.9,1129,${NS},-5,1,,`, 'size: negative'],
    ['unparsable timestamp', `A,,,21,1,${NS},137.9,1129,2024-01-01T00:00:00Z,45,1,,`, 'sip_timestamp: not a non-negative integer'],
  ];
  for (const [name, bad, reason] of badRows) {
    for (const skipBadRows of [false, true]) {
      it(`${name}, ${skipBadRows ? 'skipped (--skip-bad-rows)' : 'failing the file'}`, async () => {
        // Bad rows before the first batch, between batches and in the last one.
        const lines = [STOCK_TRADES];
        for (let i = 0; i < 1200; i++) lines.push(i === 3 || i === 500 || i === 1190 ? bad : good(i));
        const path = await fixture(`bad-${name.replaceAll(' ', '-')}.csv.gz`, lines);
        const events = await expectSameAsInThread(path, { skipBadRows, batchSize: 100 });
        const last = events.at(-1)!;
        if (skipBadRows) {
          expect(events.filter((e) => e[0] === 'reject')).toHaveLength(3);
          expect(last).toMatchObject(['summary', { rows: 1197, rejected: 3 }]);
        } else {
          expect(last).toMatchObject(['error', { name: 'FlatFileError', line: 5, code: 'bad_row' }]);
          expect((last[1] as { message: string }).message).toContain(`${path}:5: ${reason}`);
        }
      });
    }
  }

  it('truncated gzip, failing the file with or without --skip-bad-rows', async () => {
    const whole = gzipSync(bars(AGGS, 20_000, MINUTE_NS).join('\n') + '\n');
    const path = join(dir, 'truncated_minute_aggs.csv.gz');
    await writeFile(path, whole.subarray(0, Math.floor(whole.length * 0.6)));
    for (const skipBadRows of [false, true]) {
      const events = await expectSameAsInThread(path, { skipBadRows });
      expect(events.at(-1)).toMatchObject(['error', { code: 'corrupt_gzip', reason: 'truncated or corrupt gzip stream' }]);
    }
  });

  it('files that cannot be read: missing, empty, a bad header', async () => {
    await expectSameAsInThread(join(dir, 'nope.csv'), {}, false); // no size to judge by: read in this thread
    await expectSameAsInThread(await fixture('empty.csv', []));
    await expectSameAsInThread(await fixture('bad_header.csv', ['ticker,"open', 'A']), { skipBadRows: true });
    await expectSameAsInThread(await fixture('unknown.csv', ['name,colour', 'x,red']));
  });

  it('a failing onReject fails the file as FlatFileError naming it', async () => {
    const path = await fixture('failing-callback.csv', [STOCK_TRADES, good(0), `A,,,21,1,${NS},x,1,${NS},45,1,,`, good(1)]);
    const onReject = (): void => {
      throw new Error('disk full');
    };
    for (const read of [readFlatFile, threaded]) {
      const err = await (async () => {
        for await (const _ of read(path, { skipBadRows: true, onReject }));
      })().catch((e: unknown) => e);
      expect(err).toMatchObject({ name: 'FlatFileError', file: path, code: 'read_failed', reason: 'read failed: disk full' });
    }
  });

  it('more rejects between two batches than one message holds', async () => {
    const lines = [STOCK_TRADES, good(0)];
    for (let i = 0; i < 3000; i++) lines.push(`A,,,21,1,${NS},x${i},1,${NS},45,1,,`);
    lines.push(good(1));
    const path = await fixture('many-rejects.csv.gz', lines);
    const events = await expectSameAsInThread(path, { skipBadRows: true });
    expect(events.filter((e) => e[0] === 'reject')).toHaveLength(3000);
  });
});

describe('readFlatFileThreaded: threads', () => {
  it('holds at most maxInFlight batches for a slow consumer', async () => {
    const path = await fixture('slow_minute_aggs.csv', bars(AGGS, 3000, MINUTE_NS));
    let rows = 0;
    const before = flatFileReaderStats.maxQueued;
    flatFileReaderStats.maxQueued = 0;
    for await (const { batch } of readFlatFileThreaded(path, { ...FORCE, batchSize: 100, maxInFlight: 2 })) {
      rows += batch.length;
      await sleep(5);
    }
    expect(rows).toBe(3000);
    // The batches posted and not yet taken, plus the final message (which takes no credit).
    expect(flatFileReaderStats.maxQueued).toBeGreaterThan(0);
    expect(flatFileReaderStats.maxQueued).toBeLessThanOrEqual(3);
    flatFileReaderStats.maxQueued = Math.max(before, flatFileReaderStats.maxQueued);
  });

  it('stops the worker when the consumer leaves early, and reads again afterwards', async () => {
    const path = await fixture('early_minute_aggs.csv.gz', bars(AGGS, 3000, MINUTE_NS));
    for (let i = 0; i < 2; i++) {
      for await (const { batch } of readFlatFileThreaded(path, { ...FORCE, batchSize: 10, maxInFlight: 1 })) {
        expect(batch).toHaveLength(10);
        break;
      }
    }
    await expectSameAsInThread(path);
  });

  it('one worker reads file after file; one left mid-file is not used again', async () => {
    const a = await fixture('reuse-a_minute_aggs.csv', bars(AGGS, 2000, MINUTE_NS));
    const b = await fixture('reuse-b_trades.csv.gz', stockTrades(2000));
    const drain = async (path: string) => {
      for await (const _ of readFlatFileThreaded(path, FORCE));
    };
    await drain(a);
    const started = flatFileReaderStats.workersStarted;
    await drain(b);
    await expectSameAsInThread(a);
    expect(flatFileReaderStats.workersStarted).toBe(started);
    for await (const _ of readFlatFileThreaded(a, { ...FORCE, batchSize: 10 })) break;
    await expectSameAsInThread(b);
    expect(flatFileReaderStats.workersStarted).toBe(started + 1);
  });

  it('reads a mid-sized file by a worker only when one is idle (started and warm)', async () => {
    const path = await fixture('mid_minute_aggs.csv', bars(AGGS, 500, MINUTE_NS));
    const midSized: ThreadedReadOptions = { workerThreshold: 1e9, idleWorkerThreshold: 1 };
    const readBy = async (options: ThreadedReadOptions) => {
      const before = flatFileReaderStats.worker;
      for await (const _ of readFlatFileThreaded(path, options));
      return flatFileReaderStats.worker > before ? 'worker' : 'this thread';
    };
    await closeIdleWorkers();
    expect(await readBy(midSized)).toBe('this thread');
    expect(await readBy(FORCE)).toBe('worker');
    expect(await readBy(midSized)).toBe('worker');
  });

  it('reads small files in this thread by default', async () => {
    const path = await fixture('small_minute_aggs.csv', bars(AGGS, 10, MINUTE_NS));
    const before = { ...flatFileReaderStats };
    for await (const _ of readFlatFileThreaded(path));
    expect(flatFileReaderStats.inThread).toBe(before.inThread + 1);
    expect(flatFileReaderStats.worker).toBe(before.worker);
  });
});

// ---------------------------------------------------------------------------------------------
// Imports through the worker.

for (const engine of engines()) {
  describe(`import through the reader thread (${engine.name})`, () => {
    let store: Store;
    let files: TempDir;
    const threshold = flatFileReaderSettings.workerThreshold;
    beforeAll(async () => {
      store = await engine.open();
      flatFileReaderSettings.workerThreshold = 0;
    });
    afterAll(async () => {
      flatFileReaderSettings.workerThreshold = threshold;
      await store.close();
      files?.remove();
    });
    beforeEach(async () => {
      files?.remove();
      files = new TempDir();
      for (const t of ['minute_bars', 'day_bars', 'trades', 'quotes']) await sqlOf(store).run(`DELETE FROM ${t}`);
    });
    const count = async (table: string) => Number((await sqlOf(store).get(`SELECT COUNT(*) AS n FROM ${table}`))!.n);

    it('is atomic: a bad row after several batches leaves nothing of the file', async () => {
      const lines = tradeLines(12_500);
      lines[12_000] = lines[12_000]!.split(',').slice(0, 9).join(',');
      const file = files.write('trades.csv.gz', TRADES_HEADER, lines);
      const workers = flatFileReaderStats.worker;
      await expect(importFile(store, file)).rejects.toThrow(`${file}:12002: expected 13 columns, found 8`);
      expect(flatFileReaderStats.worker).toBe(workers + 1);
      expect(await count('trades')).toBe(0);
    });

    it('is idempotent, and derives day bars from minute bars', async () => {
      const minutes = files.write('minute_aggs_v1/2024-03-08.csv.gz', MINUTE_HEADER, minuteLines(12_000));
      const trades = files.write('trades_v1/2024-03-08.csv', TRADES_HEADER, tradeLines(11_000));
      const workers = flatFileReaderStats.worker;
      const first = [await importFile(store, minutes), await importFile(store, trades)];
      expect(flatFileReaderStats.worker).toBe(workers + 2);
      expect(first.map((r) => [r.kind, r.rows, r.written])).toEqual([['minute_aggs', 12_000, 12_000], ['trades', 11_000, 11_000]]);
      expect(first[0]!.notes).toEqual(['10 day bars derived from minute bars']);
      const counts = [await count('minute_bars'), await count('day_bars'), await count('trades')];
      const again = [await importFile(store, minutes), await importFile(store, trades)];
      expect(again.map((r) => [r.rows, r.written])).toEqual([[12_000, 0], [11_000, 0]]);
      expect([await count('minute_bars'), await count('day_bars'), await count('trades')]).toEqual(counts);
    });

    it('writes rejects under --skip-bad-rows as in-thread reading does', async () => {
      const lines = tradeLines(6000);
      lines[10] = lines[10]!.replace(/,190\.\d\d,/, ',x,');
      lines[5500] = 'AAPL,1,2';
      const file = files.write('trades.csv.gz', TRADES_HEADER, lines);
      const r = await importFile(store, file, { skipBadRows: true });
      expect([r.rows, r.rejected]).toEqual([5998, 2]);
      expect(await count('trades')).toBe(5998);
    });
  });
}
