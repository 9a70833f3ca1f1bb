// Flat-file sync throughput: rows/s of `sync flatfiles` from a local S3 server against
// `tickerbase import` of the same files from disk, each into a fresh store (SQLite; PostgreSQL
// too when DATABASE_URL is set). Goal: the sync at ≥ 0.8× the import's rows/s.
//
// The S3 server (test/helpers/fake-s3.ts, which checks each request's SigV4 signature) runs in a
// process of its own, started by this script with `--serve-s3 <dir>`, so serving the bytes does
// not take this process's CPU. Each side runs RUNS times (default 2), alternating, and the best
// run counts, so that other load on a shared machine does not decide the ratio.
// Run alone with `npx tsx bench/sync-flatfiles.ts [files] [rows per file]` (default 4 × 300,000 minute bars).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { dateOfDay, dayOfDate } from '../src/domain/calendar.js';
import { syncFlatFiles } from '../src/ingest/flatfile-sync.js';
import { importFile } from '../src/ingest/load.js';
import { openStore, type Store } from '../src/store/index.js';
import { FlatFilesBucket } from '../src/upstream/flatfiles-bucket.js';
import { openPostgresStore } from '../test/helpers/engines.js';
import { FakeS3 } from '../test/helpers/fake-s3.js';
import { dayKey, gzipCsv, MINUTE_HEADER, minuteBarLines } from '../test/helpers/flatfile-days.js';

const DATASET = 'us_stocks_sip/minute_aggs_v1';
const GOAL = 0.8;

/** The S3 server's process: serves every file under `dir` (keys = relative paths) and prints its URL. */
async function serveS3(dir: string, keys: string[]): Promise<void> {
  const s3 = await new FakeS3().start();
  for (const key of keys) s3.put(key, readFileSync(join(dir, key)));
  console.log(JSON.stringify({ url: s3.url, accessKey: s3.accessKey, secretKey: s3.secretKey }));
}

interface S3Process {
  url: string;
  accessKey: string;
  secretKey: string;
  stop(): void;
}

function startS3Process(dir: string, keys: string[]): Promise<S3Process> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve-s3', dir, ...keys], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the S3 process exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      const info = JSON.parse(line) as Omit<S3Process, 'stop'>;
      resolve({ ...info, stop: () => child.kill('SIGTERM') });
    });
  });
}

interface Engine {
  name: string;
  open(): Promise<Store>;
}

function engines(root: string): Engine[] {
  let n = 0;
  const list: Engine[] = [{ name: 'sqlite', open: () => openStore({ dataDir: join(root, `store-${n++}`) }) }];
  const url = process.env.DATABASE_URL;
  if (url) list.push({ name: 'postgres', open: () => openPostgresStore(url) });
  return list;
}

async function timed(engine: Engine, run: (store: Store) => Promise<number>): Promise<{ rows: number; seconds: number }> {
  const store = await engine.open();
  try {
    const started = performance.now();
    const rows = await run(store);
    return { rows, seconds: (performance.now() - started) / 1000 };
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  const files = Number(process.argv[2] ?? 4);
  const rowsPerFile = Number(process.argv[3] ?? 300_000);
  const runs = Number(process.env.RUNS ?? 2);
  const root = mkdtempSync(join(tmpdir(), 'tb-bench-sync-'));
  const minutes = 960;
  const tickers = Array.from({ length: Math.ceil(rowsPerFile / minutes) }, (_, i) => `T${String(i).padStart(5, '0')}`);
  const keys: string[] = [];
  let bytes = 0;
  let day = dayOfDate('2024-03-04');
  for (let f = 0; f < files; f++, day++) {
    const key = dayKey(DATASET, dateOfDay(day));
    const body = gzipCsv(MINUTE_HEADER, minuteBarLines(dateOfDay(day), { tickers, minutes }));
    mkdirSync(dirname(join(root, 'files', key)), { recursive: true });
    writeFileSync(join(root, 'files', key), body);
    keys.push(key);
    bytes += body.length;
  }
  const rows = files * tickers.length * minutes;
  const s3 = await startS3Process(join(root, 'files'), keys);
  const quiet = { isTTY: false, write: () => true };
  console.log(`flat-file sync benchmark: ${files} files of ${(tickers.length * minutes).toLocaleString('en-US')} minute bars (${(bytes / 2 ** 20).toFixed(1)} MiB gz), best of ${runs}; S3 server in its own process`);
  console.log(`machine: ${(await import('node:os')).cpus().length} cores, load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')} (shared: other load lowers both sides)`);
  try {
    for (const engine of engines(root)) {
      const best = { import: Infinity, sync: Infinity, sync4: Infinity };
      for (let r = 0; r < runs; r++) {
        const imported = await timed(engine, async (store) => {
          let n = 0;
          for (const key of keys) n += (await importFile(store, join(root, 'files', key))).rows;
          return n;
        });
        best.import = Math.min(best.import, imported.seconds);
        for (const parallel of [1, 4] as const) {
          const synced = await timed(engine, async (store) => {
            const bucket = new FlatFilesBucket({ endpoint: s3.url, bucket: 'flatfiles', accessKey: s3.accessKey, secretKey: s3.secretKey });
            try {
              const summary = await syncFlatFiles(store, bucket, { datasets: [DATASET], from: '2000-01-01', to: '2100-01-01', parallel, output: quiet });
              if (summary.failures.length > 0) throw new Error(summary.failures.map((f) => f.message).join('\n'));
              return summary.rows;
            } finally {
              bucket.destroy();
            }
          });
          if (synced.rows !== rows || imported.rows !== rows) throw new Error(`rows: sync ${synced.rows}, import ${imported.rows}, expected ${rows}`);
          if (parallel === 1) best.sync = Math.min(best.sync, synced.seconds);
          else best.sync4 = Math.min(best.sync4, synced.seconds);
        }
      }
      const rate = (s: number) => Math.round(rows / s);
      const fmt = (n: number) => n.toLocaleString('en-US');
      console.log(`${engine.name}: tickerbase import from disk  ${fmt(rate(best.import))} rows/s (${best.import.toFixed(2)} s)`);
      console.log(`${engine.name}: sync flatfiles from S3        ${fmt(rate(best.sync))} rows/s (${best.sync.toFixed(2)} s)  ratio ${(best.import / best.sync).toFixed(2)}x (goal ≥ ${GOAL}x)`);
      console.log(`${engine.name}: sync flatfiles --parallel 4   ${fmt(rate(best.sync4))} rows/s (${best.sync4.toFixed(2)} s)  ratio ${(best.import / best.sync4).toFixed(2)}x`);
    }
  } finally {
    s3.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--serve-s3') {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  await serveS3(process.argv[3]!, process.argv.slice(4));
} else {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  await main();
  process.exit(0);
}
