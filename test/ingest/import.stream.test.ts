// Stream proof for the whole import (parser → store): importing a file far bigger than the
// memory it is allowed leaves the JS heap flat. SQLite only: the engine's own page cache is
// bounded by its settings, and PostgreSQL runs in another process.
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { afterAll, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { MINUTE_HEADER, TempDir } from './import-files.js';
import { sqlOf } from '../../src/store/inspect.js';

const MEASURE = fileURLToPath(new URL('../helpers/import-heap.ts', import.meta.url));
const UNCOMPRESSED_BYTES = 120 * 1024 * 1024;
const HEAP_BUDGET = 48 * 1024 * 1024;

const dir = new TempDir();
afterAll(() => dir.remove());

it('imports a 120 MB (uncompressed) minute file with the heap staying within 48 MB of where it started', async () => {
  const path = dir.path('minute_aggs_v1/big.csv.gz');
  let rows = 0;
  async function* content(): AsyncGenerator<string> {
    yield `${MINUTE_HEADER}\n`;
    let bytes = 0;
    for (let ticker = 0; bytes < UNCOMPRESSED_BYTES; ticker++) {
      const lines: string[] = [];
      for (let minute = 0; minute < 960; minute++) {
        const p = (100 + ((ticker * 7 + minute) % 500) / 100).toFixed(2);
        lines.push(`S${ticker},${minute * 10},${p},${p},${p},${p},${1704186000000000000n + BigInt(minute) * 60_000_000_000n},${minute % 300}`);
      }
      const text = `${lines.join('\n')}\n`;
      bytes += text.length;
      rows += lines.length;
      yield text;
    }
  }
  mkdirSync(dirname(path), { recursive: true });
  await pipeline(Readable.from(content()), createGzip({ level: 1 }), createWriteStream(path));

  // imported and measured in a fresh process (see the helper)
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', MEASURE, dir.path('store.db'), path], { encoding: 'utf8', timeout: 170_000 });
  expect(child.status, child.stderr).toBe(0);
  const measured = JSON.parse(child.stdout) as { rows: number; heapGrowth: number };
  expect(measured.rows).toBe(rows);
  expect(measured.heapGrowth).toBeLessThan(HEAP_BUDGET);
  expect(UNCOMPRESSED_BYTES).toBeGreaterThan(2 * HEAP_BUDGET);
  const store = await openStore({ sqliteFile: dir.path('store.db') });
  try {
    expect(Number((await sqlOf(store).get('SELECT COUNT(*) AS n FROM minute_bars'))!.n)).toBe(rows);
  } finally {
    await store.close();
  }
}, 180_000);
