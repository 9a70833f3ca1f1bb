// The worker-thread flat-file reader (src/ingest/flatfile-threaded.ts), measured in parts:
// 1. what reading costs in one thread (readFlatFile: gunzip, CSV, rows), and what the codec
//    adds: encoding (the worker's extra) and decoding (the importing thread's only reading cost);
// 2. smaller files: importing with and without a worker, to place the sizes from which a worker
//    pays: a new one in a fresh process, as `tickerbase import FILE` (DEFAULT_WORKER_THRESHOLD),
//    and an idle, warm one, as in a directory import (DEFAULT_IDLE_WORKER_THRESHOLD).
// `npx tsx bench/import-threaded.ts [--dist] [--small-only]`: --dist measures the compiled reader
// (npm run build first), whose worker starts as in production; without it the worker loads
// through tsx (slower).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { MINUTE_HEADER, minuteLines, TRADES_HEADER, tradeLines, writeGzip } from './import-files.js';

type Modules = {
  flatfile: typeof import('../src/ingest/flatfile.js');
  threaded: typeof import('../src/ingest/flatfile-threaded.js');
  codec: typeof import('../src/ingest/flatfile-codec.js');
  load: typeof import('../src/ingest/load.js');
  store: typeof import('../src/store/index.js');
};

const DIST = process.argv.includes('--dist');
const RUNS = Number(process.env.RUNS ?? 5);

async function modules(): Promise<Modules> {
  const base = DIST ? '../dist' : '../src';
  const at = (name: string) => import(`${base}/${name}.js`);
  return {
    flatfile: await at('ingest/flatfile'),
    threaded: await at('ingest/flatfile-threaded'),
    codec: await at('ingest/flatfile-codec'),
    load: await at('ingest/load'),
    store: await at('store/index'),
  };
}

const dir = mkdtempSync(join(tmpdir(), 'tb-bench-threaded-'));
const ms = (t0: number) => performance.now() - t0;
const f1 = (n: number) => n.toFixed(1);

async function makeFile(kind: 'trades' | 'minute', rows: number): Promise<string> {
  const path = join(dir, kind === 'trades' ? 'trades_v1' : 'minute_aggs_v1', `${rows}.csv.gz`);
  mkdirSync(dirname(path), { recursive: true });
  await writeGzip(path, kind === 'trades' ? TRADES_HEADER : MINUTE_HEADER, kind === 'trades' ? tradeLines(rows) : minuteLines(rows));
  return path;
}

async function codecCost(m: Modules, name: string, path: string): Promise<void> {
  let best = { parse: Infinity, encode: Infinity, decode: Infinity, threaded: Infinity, threadedDecode: Infinity };
  let rows = 0;
  for (let run = 0; run < Math.min(RUNS, 3); run++) {
    let t0 = performance.now();
    for await (const b of m.flatfile.readFlatFile(path)) rows = b.batch.length;
    const parse = ms(t0);
    let encode = 0;
    let decode = 0;
    rows = 0;
    for await (const b of m.flatfile.readFlatFile(path)) {
      t0 = performance.now();
      const e = m.codec.encodeBatch(b);
      encode += ms(t0);
      t0 = performance.now();
      const back = m.codec.decodeBatch(e);
      decode += ms(t0);
      rows += back.batch.length;
    }
    const decode0 = m.threaded.flatFileReaderStats.decodeMs;
    t0 = performance.now();
    for await (const _ of m.threaded.readFlatFileThreaded(path, { workerThreshold: 0 }));
    const threaded = ms(t0);
    const threadedDecode = m.threaded.flatFileReaderStats.decodeMs - decode0;
    best = {
      parse: Math.min(best.parse, parse),
      encode: Math.min(best.encode, encode),
      decode: Math.min(best.decode, decode),
      threaded: Math.min(best.threaded, threaded),
      threadedDecode: Math.min(best.threadedDecode, threadedDecode),
    };
  }
  const per = (t: number) => `${Math.round((t * 1e6) / rows)} ms/1M rows`;
  console.log(
    `${name} (${rows.toLocaleString('en-US')} rows): read in one thread ${per(best.parse)}; encode ${per(best.encode)} (worker); ` +
      `decode ${per(best.decode)} (importing thread) = ${((100 * best.decode) / best.parse).toFixed(0)}% of reading; ` +
      `read through the worker ${per(best.threaded)}, of which decoding ${per(best.threadedDecode)}`,
  );
}

/** Imports `path` into a new SQLite store; ms. Threshold 0 forces a worker, Infinity forbids one. */
async function importMs(m: Modules, path: string, threshold: number): Promise<number> {
  const dataDir = join(dir, `data-${Date.now()}-${Math.random()}`);
  const store = await m.store.openStore({ dataDir });
  m.threaded.flatFileReaderSettings.workerThreshold = threshold;
  m.threaded.flatFileReaderSettings.idleWorkerThreshold = threshold;
  try {
    const t0 = performance.now();
    await m.load.importFile(store, path);
    return ms(t0);
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The same in a fresh process: cold code, and a worker to start. */
function coldImportMs(path: string, threshold: number): number {
  const args = ['--import', 'tsx', process.argv[1]!, '--child', path, String(threshold), ...(DIST ? ['--dist'] : [])];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return Number(r.stdout.trim());
}

async function smallFiles(m: Modules): Promise<void> {
  const sizes = { fresh: [20_000, 100_000, 200_000, 500_000], warm: [5_000, 20_000, 50_000, 100_000, 200_000] };
  for (const mode of ['fresh', 'warm'] as const) {
    console.log(
      mode === 'fresh'
        ? `\none file in a fresh process, best of ${RUNS} (ms): in this thread / through a new worker`
        : `\nfile after file in one process, best of ${RUNS} (ms): in this thread / through the idle worker`,
    );
    for (const kind of ['trades', 'minute'] as const) {
      for (const rows of sizes[mode]) {
        const path = await makeFile(kind, rows);
        let inThread = Infinity;
        let worker = Infinity;
        for (let run = 0; run < RUNS; run++) {
          inThread = Math.min(inThread, mode === 'fresh' ? coldImportMs(path, Infinity) : await importMs(m, path, Infinity));
          worker = Math.min(worker, mode === 'fresh' ? coldImportMs(path, 0) : await importMs(m, path, 0));
        }
        const kib = statSync(path).size / 1024;
        console.log(
          `  ${kind} ${rows.toLocaleString('en-US').padStart(7)} rows, ${f1(kib).padStart(7)} KiB gz: ${f1(inThread).padStart(7)} / ${f1(worker).padStart(7)}  (${worker < inThread ? 'worker' : 'in thread'} wins)`,
        );
        rmSync(path);
      }
    }
  }
  m.threaded.flatFileReaderSettings.workerThreshold = m.threaded.DEFAULT_WORKER_THRESHOLD;
  m.threaded.flatFileReaderSettings.idleWorkerThreshold = m.threaded.DEFAULT_IDLE_WORKER_THRESHOLD;
}

const child = process.argv.indexOf('--child');
if (child > 0) {
  // One import for coldImportMs: print its ms.
  const m = await modules();
  console.log(await importMs(m, process.argv[child + 1]!, Number(process.argv[child + 2])));
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

try {
  const m = await modules();
  console.log(
    `flat-file reader thread (${DIST ? 'compiled dist/' : 'sources through tsx'}); thresholds: ${m.threaded.DEFAULT_WORKER_THRESHOLD} bytes, ` +
      `${m.threaded.DEFAULT_IDLE_WORKER_THRESHOLD} with a worker idle`,
  );
  // Worker start-up alone: a file holding just a header.
  const empty = await makeFile('trades', 0);
  let startup = Infinity;
  for (let run = 0; run < RUNS; run++) {
    await m.threaded.closeIdleWorkers();
    const t0 = performance.now();
    for await (const _ of m.threaded.readFlatFileThreaded(empty, { workerThreshold: 0 }));
    startup = Math.min(startup, ms(t0));
  }
  console.log(`a new worker's start-up (reading a header-only file, best of ${RUNS}): ${f1(startup)} ms`);
  if (!process.argv.includes('--small-only')) {
    await codecCost(m, 'trades', await makeFile('trades', 1_000_000));
    await codecCost(m, 'minute aggs', await makeFile('minute', 1_500_000));
  }
  await smallFiles(m);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
