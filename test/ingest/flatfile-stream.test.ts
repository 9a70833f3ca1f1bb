import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';

const MEASURE = fileURLToPath(new URL('../helpers/flatfile-read-memory.ts', import.meta.url));
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

  // measured in a fresh process (see the helper)
  const child = spawnSync(process.execPath, ['--import', 'tsx', MEASURE, path], { encoding: 'utf8', timeout: 120_000 });
  expect(child.status, child.stderr).toBe(0);
  const { rows, seconds, kinds, rssGrowth } = JSON.parse(child.stdout) as { rows: number; seconds: number; kinds: string[]; rssGrowth: number };
  console.log(`streamed ${rows} rows in ${seconds.toFixed(2)} s (${Math.round(rows / seconds)} rows/s); rss +${(rssGrowth / 2 ** 20).toFixed(0)} MiB`);

  expect(kinds).toEqual(['minute_aggs']);
  expect(rows).toBe(expectedRows);
  expect(rssGrowth).toBeLessThan(150 * 1024 * 1024);
});
