import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  detectKind,
  FlatFileError,
  kindFromSpacing,
  readFlatFile,
  type FlatFileProgress,
  type FlatFileSummary,
  type ReadFlatFileOptions,
  type RejectedRow,
} from '../../src/ingest/flatfile.js';
import type { BarRow, FlatFileKind, QuoteRow, TradeRow } from '../../src/domain/market-records.js';
import {
  AGGS,
  CRYPTO_TRADES,
  FOREX_QUOTES,
  INDEX_AGGS,
  NS,
  OPTION_QUOTES,
  OPTION_TRADES,
  STOCK_QUOTES,
  STOCK_TRADES,
} from './flatfile-headers.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tickerbase-flatfile-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fixture(name: string, lines: string[], { gzip = false, eol = '\n' } = {}): Promise<string> {
  const path = join(dir, name);
  const text = lines.join(eol) + eol;
  await writeFile(path, gzip ? gzipSync(text) : text);
  return path;
}

interface ReadResult {
  kinds: FlatFileKind[];
  rows: unknown[];
  batchSizes: number[];
  summary: FlatFileSummary;
}

async function readAll(path: string, options?: ReadFlatFileOptions): Promise<ReadResult> {
  const result: Omit<ReadResult, 'summary'> = { kinds: [], rows: [], batchSizes: [] };
  const reader = readFlatFile(path, options);
  for (;;) {
    const next = await reader.next();
    if (next.done) return { ...result, summary: next.value };
    result.kinds.push(next.value.kind);
    result.rows.push(...next.value.batch);
    result.batchSizes.push(next.value.batch.length);
  }
}

async function readError(path: string, options?: ReadFlatFileOptions): Promise<FlatFileError> {
  try {
    await readAll(path, options);
  } catch (err) {
    expect(err).toBeInstanceOf(FlatFileError);
    return err as FlatFileError;
  }
  throw new Error(`expected ${path} to fail`);
}

describe('detectKind', () => {
  it('recognises each upstream header', () => {
    expect(detectKind(STOCK_TRADES.split(','), 'x.csv')).toBe('trades');
    expect(detectKind(OPTION_TRADES.split(','), 'x.csv')).toBe('trades');
    expect(detectKind(CRYPTO_TRADES.split(','), 'x.csv')).toBe('trades');
    expect(detectKind(STOCK_QUOTES.split(','), 'x.csv')).toBe('quotes');
    expect(detectKind(OPTION_QUOTES.split(','), 'x.csv')).toBe('quotes');
    expect(detectKind(FOREX_QUOTES.split(','), 'x.csv')).toBe('quotes');
    expect(detectKind(AGGS.split(','), 'x.csv')).toBe('aggs');
    expect(detectKind(INDEX_AGGS.split(','), 'x.csv')).toBe('aggs');
  });

  it('tells minute from day aggregates by the nearest path segment that names one', () => {
    const header = AGGS.split(',');
    expect(detectKind(header, 'us_stocks_sip/minute_aggs_v1/2024/01/2024-01-02.csv.gz')).toBe('minute_aggs');
    expect(detectKind(header, '/data/day_aggs_v1/2024/01/2024-01-02.csv.gz')).toBe('day_aggs');
    expect(detectKind(header, '/data/minute_aggs_v1/2024-01-02_day_aggs.csv')).toBe('day_aggs');
  });

  it('accepts columns in any order and ignores unknown ones', () => {
    expect(detectKind(['window_start', 'low', 'high', 'close', 'open', 'ticker', 'vwap'], 'x')).toBe('aggs');
  });

  it('names the missing mandatory columns', () => {
    expect(() => detectKind(['ticker', 'price', 'size'], 'f.csv')).toThrow(
      'f.csv:1: trades header lacks column(s): exchange, sip_timestamp or participant_timestamp',
    );
    expect(() => detectKind(['ticker', 'open', 'window_start'], 'f.csv')).toThrow(
      'f.csv:1: aggs header lacks column(s): close, high, low',
    );
    expect(() => detectKind(['date', 'symbol'], 'f.csv')).toThrow(/^f\.csv:1: unrecognised header/);
  });
});

describe('kindFromSpacing', () => {
  const bar = (ticker: string, t: number): BarRow => ({ ticker, t, o: 1, h: 1, l: 1, c: 1 });
  it('says minute when a ticker has bars less than a day apart, day otherwise', () => {
    expect(kindFromSpacing([bar('A', 0), bar('B', 0), bar('A', 60_000)])).toBe('minute_aggs');
    expect(kindFromSpacing([bar('A', 0), bar('A', 86_400_000), bar('A', 3 * 86_400_000)])).toBe('day_aggs');
    expect(kindFromSpacing([bar('A', 0), bar('B', 0), bar('C', 0)])).toBe('day_aggs');
  });
});

describe('readFlatFile: trades', () => {
  it('reads stock trades with quoted conditions, empty optional columns, fractional sizes and exact ns', async () => {
    const path = await fixture('stock_trades.csv', [
      STOCK_TRADES,
      `A,"12,37",,21,1,${NS},137.9,1129,${NS + 1n},45,1,,`,
      'AAPL,12,1,4,52983525028174,1704186000014734816,185.5,4350,1704186000015008534,0.5,3,201,1704186000014000000',
      'MSFT,,,4,,,1.25,,1704186000015008535,0.001234,,,',
    ]);
    const { kinds, rows } = await readAll(path);
    expect(kinds).toEqual(['trades']);
    expect(rows).toEqual<TradeRow[]>([
      {
        ticker: 'A',
        conditions: [12, 37],
        exchange: 21,
        id: '1',
        participant_timestamp: NS,
        price: 137.9,
        sequence_number: 1129n,
        sip_timestamp: NS + 1n,
        size: 45,
        tape: 1,
      },
      {
        ticker: 'AAPL',
        conditions: [12],
        correction: 1,
        exchange: 4,
        id: '52983525028174',
        participant_timestamp: 1704186000014734816n,
        price: 185.5,
        sequence_number: 4350n,
        sip_timestamp: 1704186000015008534n,
        size: 0.5,
        tape: 3,
        trf_id: 201,
        trf_timestamp: 1704186000014000000n,
      },
      { ticker: 'MSFT', exchange: 4, price: 1.25, sip_timestamp: 1704186000015008535n, size: 0.001234 },
    ]);
    const first = rows[0] as TradeRow;
    expect(first.participant_timestamp!.toString()).toBe('1704067200123456789');
    expect(first.correction).toBeUndefined();
  });

  it('reads options trades with OPRA tickers', async () => {
    const path = await fixture('options_trades.csv', [
      OPTION_TRADES,
      `O:MU240119C00080000,209,0,312,,1.58,${NS},3`,
      `O:SPY251219P00650000,"227,229",,302,${NS - 5n},12.05,${NS + 9n},10`,
    ]);
    const { rows } = await readAll(path);
    expect(rows).toEqual([
      { ticker: 'O:MU240119C00080000', conditions: [209], correction: 0, exchange: 312, price: 1.58, sip_timestamp: NS, size: 3 },
      {
        ticker: 'O:SPY251219P00650000',
        conditions: [227, 229],
        exchange: 302,
        participant_timestamp: NS - 5n,
        price: 12.05,
        sip_timestamp: NS + 9n,
        size: 10,
      },
    ]);
  });

  it('reads crypto trades, whose only time is the participant time', async () => {
    const path = await fixture('crypto_trades.csv', [CRYPTO_TRADES, `X:BTC-USD,"1",1,191450340,${NS},42283.58,0.00012`]);
    const { rows } = await readAll(path);
    expect(rows).toEqual([
      {
        ticker: 'X:BTC-USD',
        conditions: [1],
        exchange: 1,
        id: '191450340',
        participant_timestamp: NS,
        sip_timestamp: NS,
        price: 42283.58,
        size: 0.00012,
      },
    ]);
  });
});

describe('readFlatFile: quotes', () => {
  it('reads stock quotes', async () => {
    const path = await fixture('stock_quotes.csv', [
      STOCK_QUOTES,
      `AAPL,12,185.52,200,11,185.5,100,1,"601,602",${NS},7,${NS + 1n},3,`,
      `AAPL,12,185.53,0.5,11,0,,,,,8,${NS + 2n},3,${NS}`,
    ]);
    const { kinds, rows } = await readAll(path);
    expect(kinds).toEqual(['quotes']);
    expect(rows).toEqual<QuoteRow[]>([
      {
        ticker: 'AAPL',
        ask_exchange: 12,
        ask_price: 185.52,
        ask_size: 200,
        bid_exchange: 11,
        bid_price: 185.5,
        bid_size: 100,
        conditions: [1],
        indicators: [601, 602],
        participant_timestamp: NS,
        sequence_number: 7n,
        sip_timestamp: NS + 1n,
        tape: 3,
      },
      {
        ticker: 'AAPL',
        ask_exchange: 12,
        ask_price: 185.53,
        ask_size: 0.5,
        bid_exchange: 11,
        bid_price: 0,
        sequence_number: 8n,
        sip_timestamp: NS + 2n,
        tape: 3,
        trf_timestamp: NS,
      },
    ]);
  });

  it('reads options quotes', async () => {
    const path = await fixture('options_quotes.csv', [OPTION_QUOTES, `O:MU240119C00080000,301,1.6,10,302,1.55,25,99,${NS}`]);
    expect((await readAll(path)).rows).toEqual([
      {
        ticker: 'O:MU240119C00080000',
        ask_exchange: 301,
        ask_price: 1.6,
        ask_size: 10,
        bid_exchange: 302,
        bid_price: 1.55,
        bid_size: 25,
        sequence_number: 99n,
        sip_timestamp: NS,
      },
    ]);
  });

  it('reads forex quotes, which have no sizes and only a participant time', async () => {
    const path = await fixture('forex_quotes.csv', [FOREX_QUOTES, `C:EUR-USD,48,1.10451,48,1.10441,${NS}`]);
    const { rows } = await readAll(path);
    expect(rows).toEqual([
      { ticker: 'C:EUR-USD', ask_exchange: 48, ask_price: 1.10451, bid_exchange: 48, bid_price: 1.10441, participant_timestamp: NS },
    ]);
    expect((rows[0] as QuoteRow).sip_timestamp).toBeUndefined();
  });

  it('requires the participant time on forex quotes', async () => {
    const path = await fixture('forex_quotes_no_time.csv', [FOREX_QUOTES, 'C:EUR-USD,48,1.10451,48,1.10441,']);
    expect((await readError(path)).message).toBe(`${path}:2: participant_timestamp: missing`);
  });
});

describe('readFlatFile: aggregates', () => {
  const minute = 1704204000000000000n; // 2024-01-02T14:00:00Z in ns

  it('reads minute aggregates named so by their path, converting window_start to ms', async () => {
    const path = await fixture('2024-01-02.minute_aggs_v1.csv.gz', [
      AGGS,
      `AAPL,4930,186.9,186.91,186.95,186.85,${minute},129`,
      `AAPL,1024.5,186.91,186.9,186.92,186.88,${minute + 60_000_000_000n},`,
    ], { gzip: true });
    const { kinds, rows } = await readAll(path);
    expect(kinds).toEqual(['minute_aggs']);
    expect(rows).toEqual<BarRow[]>([
      { ticker: 'AAPL', t: 1704204000000, v: 4930, o: 186.9, c: 186.91, h: 186.95, l: 186.85, n: 129 },
      { ticker: 'AAPL', t: 1704204060000, v: 1024.5, o: 186.91, c: 186.9, h: 186.92, l: 186.88 },
    ]);
    expect((rows[0] as BarRow).vw).toBeUndefined();
  });

  it('reads index aggregates, which have no volume or transactions', async () => {
    const path = await fixture('index_day_aggs.csv', [INDEX_AGGS, `I:SPX,4742.83,4769.83,4793.3,4742.83,1704171600000000000`]);
    const { kinds, rows } = await readAll(path);
    expect(kinds).toEqual(['day_aggs']);
    expect(rows).toEqual([{ ticker: 'I:SPX', o: 4742.83, c: 4769.83, h: 4793.3, l: 4742.83, t: 1704171600000 }]);
  });

  it('tells minute from day by the spacing of bars when the name does not say', async () => {
    const minutes = await fixture('bars-a.csv', [
      AGGS,
      `A,1,1,1,1,1,${minute},1`,
      `B,1,1,1,1,1,${minute},1`,
      `B,1,1,1,1,1,${minute + 60_000_000_000n},1`,
    ]);
    const days = await fixture('bars-b.csv', [AGGS, `A,1,1,1,1,1,${minute},1`, `B,1,1,1,1,1,${minute},1`]);
    expect((await readAll(minutes)).kinds).toEqual(['minute_aggs']);
    expect((await readAll(days)).kinds).toEqual(['day_aggs']);
    expect((await readAll(minutes, { kindHint: 'day_aggs' })).kinds).toEqual(['day_aggs']);
  });

  it('decides from the first batch and keeps that kind for the whole file', async () => {
    const lines = [AGGS];
    for (let i = 0; i < 25; i++) lines.push(`T${i % 5},1,1,1,1,1,${minute + BigInt(i) * 60_000_000_000n},1`);
    const { kinds, batchSizes, summary } = await readAll(await fixture('bars-c.csv', lines), { batchSize: 10 });
    expect(batchSizes).toEqual([10, 10, 5]);
    expect(kinds).toEqual(['minute_aggs', 'minute_aggs', 'minute_aggs']);
    expect(summary).toEqual({ file: join(dir, 'bars-c.csv'), kind: 'minute_aggs', rows: 25, rejected: 0, lines: 26 });
  });

  it('refuses a hint that contradicts the header', async () => {
    const path = await fixture('hint.csv', [AGGS, `A,1,1,1,1,1,${minute},1`]);
    expect((await readError(path, { kindHint: 'trades' })).message).toBe(`${path}:1: header is for aggs, not trades`);
  });
});

describe('readFlatFile: file forms', () => {
  const rows = [AGGS, 'A,1,2,3,4,1,1704204000000000000,5', 'B,1,2,3,4,1,1704204060000000000,5'];

  it('reads CRLF files', async () => {
    const path = await fixture('crlf_minute_aggs.csv', rows, { eol: '\r\n' });
    const { rows: read } = await readAll(path);
    expect(read.map((r) => (r as BarRow).ticker)).toEqual(['A', 'B']);
    expect((read[1] as BarRow).n).toBe(5);
  });

  it('recognises gzip by magic bytes when the name does not end in .gz', async () => {
    const path = await fixture('gzipped_minute_aggs.csv', rows, { gzip: true });
    expect((await readAll(path)).rows).toHaveLength(2);
  });

  it('reports progress in bytes of the file on disk and rows', async () => {
    const path = await fixture('progress_minute_aggs.csv.gz', rows, { gzip: true });
    const seen: FlatFileProgress[] = [];
    await readAll(path, { onProgress: (p) => seen.push(p) });
    const last = seen.at(-1)!;
    expect(last.rows).toBe(2);
    expect(last.bytes).toBe(last.totalBytes);
    expect(last.totalBytes).toBeLessThan(Buffer.byteLength(rows.join('\n')) + 30);
  });

  it.runIf(existsSync('/proc/self/fd'))('closes the file when the reader stops early or fails', async () => {
    const openFiles = (): string[] =>
      readdirSync('/proc/self/fd').flatMap((fd) => {
        try {
          return [readlinkSync(`/proc/self/fd/${fd}`)].filter((target) => target.startsWith(dir));
        } catch {
          return [];
        }
      });
    const many = [AGGS, ...Array.from({ length: 30_000 }, (_, i) => `T${i},1,2,3,4,1,1704204000000000000,5`)];
    const gz = await fixture('early_minute_aggs.csv.gz', many, { gzip: true });
    const plain = await fixture('early_minute_aggs.csv', many);
    const bad = await fixture('failing_minute_aggs.csv', [...many.slice(0, 20_000), 'bad', ...many.slice(1)]);
    for (const path of [gz, plain]) {
      for await (const { batch } of readFlatFile(path)) {
        expect(openFiles()).toEqual([path]);
        expect(batch).toHaveLength(5000);
        break;
      }
    }
    await expect(readAll(bad)).rejects.toThrow(`${bad}:20001: expected 8 columns, found 1`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(openFiles()).toEqual([]);
  });

  it('fails on an empty file or a missing one', async () => {
    const empty = await fixture('empty.csv', []);
    expect((await readError(empty)).message).toBe(`${empty}:0: empty file: no header`);
    const missing = join(dir, 'nope.csv');
    const err = await readError(missing);
    expect(err.code).toBe('read_failed');
    expect(err.message).toMatch(new RegExp(`^${missing}:0: cannot open: ENOENT`));
  });
});

describe('readFlatFile: bad rows', () => {
  const header = STOCK_TRADES;
  const good = `A,"12,37",,21,1,${NS},137.9,1129,${NS},45,1,,`;
  const cases: Array<[string, string, string]> = [
    ['wrong column count', `A,,,21,1,${NS},137.9,1129,${NS},45,1,`, 'expected 13 columns, found 12'],
    ['non-numeric price', `A,,,21,1,${NS},abc,1129,${NS},45,1,,`, 'price: not a number: "abc"'],
    ['empty price', `A,,,21,1,${NS},,1129,${NS},45,1,,`, 'price: missing'],
    ['negative size', `A,,,21,1,${NS},137.9,1129,${NS},-5,1,,`, 'size: negative: "-5"'],
    ['exponent timestamp', `A,,,21,1,${NS},137.9,1129,1.5e18,45,1,,`, 'sip_timestamp: not a non-negative integer: "1.5e18"'],
    ['empty required timestamp', `A,,,21,1,${NS},137.9,1129,,45,1,,`, 'sip_timestamp: missing'],
    ['word for a timestamp', `A,,,21,1,abc,137.9,1129,${NS},45,1,,`, 'participant_timestamp: not a non-negative integer: "abc"'],
    ['timestamp beyond int64', `A,,,21,1,${NS},137.9,1129,9223372036854775808,45,1,,`, 'sip_timestamp: out of range: "9223372036854775808"'],
    ['fractional exchange', `A,,,21.5,1,${NS},137.9,1129,${NS},45,1,,`, 'exchange: not a non-negative integer: "21.5"'],
    ['bad conditions', `A,"12,x",,21,1,${NS},137.9,1129,${NS},45,1,,`, 'conditions: not a list of integers: "12,x"'],
    ['empty ticker', `,,,21,1,${NS},137.9,1129,${NS},45,1,,`, 'ticker: missing'],
    ['unterminated quote', `A,"12,37,,21,1,${NS},137.9,1129,${NS},45,1,,`, 'unterminated quoted field'],
  ];

  it.each(cases)('%s → file:line: reason', async (name, bad, reason) => {
    const path = await fixture(`bad-${name.replaceAll(' ', '-')}.csv`, [header, good, '', bad, good]);
    const err = await readError(path);
    expect(err.message).toBe(`${path}:4: ${reason}`);
    expect([err.file, err.line, err.reason, err.code]).toEqual([path, 4, reason, 'bad_row']);
  });

  it('rejects a non-numeric bar price and a bad window_start', async () => {
    const path = await fixture('bad_minute_aggs.csv', [AGGS, 'A,1,x,1,1,1,1704204000000000000,1']);
    expect((await readError(path)).message).toBe(`${path}:2: open: not a number: "x"`);
    const path2 = await fixture('bad2_minute_aggs.csv', [AGGS, 'A,1,1,1,1,1,2024-01-02,1']);
    expect((await readError(path2)).message).toBe(`${path2}:2: window_start: not a non-negative integer: "2024-01-02"`);
  });

  it('with skipBadRows, reports each reject with its raw line and keeps the good rows', async () => {
    const lines = [header, good, ...cases.map(([, bad]) => bad), good];
    const path = await fixture('mixed.csv.gz', lines, { gzip: true });
    const rejects: RejectedRow[] = [];
    const { rows, summary } = await readAll(path, { skipBadRows: true, onReject: (r) => rejects.push(r) });
    expect(rows).toHaveLength(2);
    expect(summary.rejected).toBe(cases.length);
    expect(summary.rows).toBe(2);
    expect(rejects.map((r) => r.message)).toEqual(cases.map(([, , reason], i) => `${path}:${i + 3}: ${reason}`));
    expect(rejects.map((r) => r.raw)).toEqual(cases.map(([, bad]) => bad));
  });

  it('fails on a bad header even with skipBadRows', async () => {
    const path = await fixture('bad_header.csv', ['ticker,"open', 'A']);
    const err = await readError(path, { skipBadRows: true });
    expect([err.message, err.code]).toEqual([`${path}:1: header: unterminated quoted field`, 'bad_header']);
  });
});

describe('readFlatFile: damaged gzip', () => {
  const lines = [AGGS];
  for (let i = 0; i < 20_000; i++) lines.push(`T${i % 97},${i},1.5,1.5,1.5,1.5,${1704204000000000000n + BigInt(i) * 60_000_000_000n},${i % 50}`);
  const whole = gzipSync(lines.join('\n') + '\n');

  it('raises FlatFileError for a truncated stream, at the line after the last one read', async () => {
    const path = join(dir, 'truncated_minute_aggs.csv.gz');
    await writeFile(path, whole.subarray(0, Math.floor(whole.length * 0.6)));
    const err = await readError(path, { skipBadRows: true });
    expect(err.reason).toBe('truncated or corrupt gzip stream');
    expect(err.code).toBe('corrupt_gzip');
    expect(err.line).toBeGreaterThan(1000);
    expect(err.line).toBeLessThan(lines.length);
    expect(err.message).toBe(`${path}:${err.line}: truncated or corrupt gzip stream`);
  });

  it('raises FlatFileError at line 0 when the gzip header itself is damaged', async () => {
    const path = join(dir, 'corrupt_minute_aggs.csv.gz');
    const bad = Buffer.from(whole);
    bad[3] = 0xff; // reserved flag bits
    await writeFile(path, bad);
    const err = await readError(path);
    expect(err.message).toBe(`${path}:0: truncated or corrupt gzip stream`);
  });

  it('raises FlatFileError for a stream cut inside the header', async () => {
    const path = join(dir, 'tiny_minute_aggs.csv.gz');
    await writeFile(path, whole.subarray(0, 12));
    expect((await readError(path)).message).toBe(`${path}:0: truncated or corrupt gzip stream`);
  });
});
