import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readFlatFile } from '../../src/ingest/flatfile.js';

const UNCOMPRESSED_BYTES = 200 * 1024 * 1024;
const HEADER = 'ticker,volume,open,close,high,low,window_start,transactions\n';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tickerbase-stream-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A full session of minute bars per ticker, one block of CSV per ticker, until `minBytes`. */
function* minuteBars(minBytes: number): Generator<{ text: string; rows: number }> {
  let written = 0;
  for (let ticker = 0; written < minBytes; ticker++) {
    const lines: string[] = [];
    for (let minute = 0; minute < 960; minute++) {
      const price = (100 + ((ticker * 7 + minute) % 500) / 100).toFixed(2);
      const ns = 1704186000000000000n + BigInt(minute) * 60_000_000_000n;
      lines.push(`TICK${ticker},${(minute * 37) % 10_000}.5,${price},${price},${price},${price},${ns},${minute % 300}`);
    }
    const text = lines.join('\n') + '\n';
    written += text.length;
    yield { text, rows: lines.length };
  }
}

it('streams a 200 MB (uncompressed) file in bounded memory', async () => {
  const path = join(dir, 'big_minute_aggs.csv.gz');
  let expectedRows = 0;
  async function* content(): AsyncGenerator<string> {
    yield HEADER;
    for (const block of minuteBars(UNCOMPRESSED_BYTES)) {
      expectedRows += block.rows;
      yield block.text;
    }
  }
  await pipeline(Readable.from(content()), createGzip({ level: 1 }), createWriteStream(path));
  expect((await stat(path)).size).toBeLessThan(UNCOMPRESSED_BYTES / 2);

  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  let rows = 0;
  const started = performance.now();
  for await (const { kind, batch } of readFlatFile(path)) {
    expect(kind).toBe('minute_aggs');
    rows += batch.length;
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`streamed ${rows} rows in ${seconds.toFixed(2)} s (${Math.round(rows / seconds)} rows/s); rss +${((peak - baseline) / 2 ** 20).toFixed(0)} MiB`);

  expect(rows).toBe(expectedRows);
  expect(peak - baseline).toBeLessThan(150 * 1024 * 1024);
});
