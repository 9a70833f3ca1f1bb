// Latency of a SQLite server while `tickerbase import` writes into its data dir. Three processes:
// `tickerbase serve` on a temporary data dir, a load generator (this file with --load) sending
// /health and a minute-aggregates request at a fixed rate each (open loop: a stalled server shows
// as late answers and timeouts, not as fewer requests), and `tickerbase import` of a generated
// minute_aggs file (2,000,000 rows by default). Prints p50/p99/max and timeouts per endpoint while
// the import runs, with the ratio of p99 to the 200 ms limit, and the import's own time.
//
//   npx tsx bench/import-contention.ts [rows] [--src <checkout>]
//
// --src runs serve and import from another checkout's src/ (e.g. an older commit extracted with
// `git archive <commit> src | tar -x -C /tmp/old`), to compare before and after a change; the data
// dir is prepared by this checkout (the schema is the same).
//
// Measured on the shared 2-core machine (other jobs running), 2,000,000 rows, 40 req/s per
// endpoint, 5 s request timeout, the import running 6.5-9 s:
//   before (83ef743, usage flush waits for the write lock): /health p50 5.1 ms, p99 4927 ms,
//     max 4992 ms, 5 timeouts; aggs p50 13.3 ms, p99 4897 ms, max 4989 ms, 7 timeouts
//     (control run into another data dir: p99 168 / 141 ms).
//   after: /health p50 1.5 ms, p99 40.8 ms, max 151 ms; aggs p50 3.0 ms, p99 78.3 ms, max 254 ms;
//     0 timeouts (control: p99 70 / 88 ms), i.e. p99/limit 0.20 and 0.39.
// On a busier run of the machine (load average ~15) the "after" p99 reached 309 / 450 ms with no
// timeouts; the control run is there to show how much of such a figure is CPU contention.

import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createInterface } from 'node:readline';
import { MINUTE_HEADER, START_NS, minuteLines } from './import-files.js';

const SELF = fileURLToPath(import.meta.url);
const LIMIT_MS = 200;
const TIMEOUT_MS = 5000;
const RATE_PER_ENDPOINT = 40; // requests per second, each endpoint

interface Stats {
  sent: number;
  answered: number;
  non2xx: number;
  timeouts: number;
  errors: number;
  latencies: number[];
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** --load <base url> <key>: fires requests until "stop" arrives on stdin, then prints JSON stats. */
async function runLoad(base: string, key: string): Promise<void> {
  const from = Number(START_NS / 1_000_000n);
  const targets: Record<string, string> = {
    health: `${base}/health`,
    aggs: `${base}/v2/aggs/ticker/SEED/range/1/minute/${from}/${from + 3_600_000}?apiKey=${key}`,
  };
  const stats: Record<string, Stats> = {};
  const timers: NodeJS.Timeout[] = [];
  for (const [name, url] of Object.entries(targets)) {
    const s: Stats = (stats[name] = { sent: 0, answered: 0, non2xx: 0, timeouts: 0, errors: 0, latencies: [] });
    timers.push(
      setInterval(() => {
        s.sent++;
        const started = performance.now();
        fetch(url, { headers: { 'x-api-key': key }, signal: AbortSignal.timeout(TIMEOUT_MS) })
          .then(async (res) => {
            await res.arrayBuffer();
            s.answered++;
            if (res.status !== 200) s.non2xx++;
            s.latencies.push(performance.now() - started);
          })
          .catch((err: Error) => {
            if (err.name === 'TimeoutError') s.timeouts++;
            else s.errors++;
          });
      }, 1000 / RATE_PER_ENDPOINT),
    );
  }
  await new Promise<void>((done) => createInterface({ input: process.stdin }).on('line', (l) => l === 'stop' && done()));
  for (const t of timers) clearInterval(t);
  await new Promise((r) => setTimeout(r, TIMEOUT_MS + 100)); // let requests in flight finish or time out
  process.stdout.write(`${JSON.stringify(stats)}\n`);
  process.exit(0);
}

/** --cli <src root> ...: runs the tickerbase CLI of that checkout. */
async function runCli(root: string, args: string[]): Promise<void> {
  const { main } = (await import(pathToFileURL(join(root, 'src/cli/index.ts')).href)) as { main(argv: string[]): Promise<void> };
  await main([process.execPath, 'tickerbase', ...args]);
}

function child(args: string[], stdio: ('pipe' | 'ignore' | 'inherit')[] = ['ignore', 'pipe', 'pipe']): ChildProcess {
  return spawn(process.execPath, ['--max-semi-space-size=8', '--import', 'tsx', SELF, ...args], { stdio: stdio as never });
}

async function writeCsv(path: string, header: string, lines: Iterable<string>): Promise<void> {
  const out = createWriteStream(path);
  out.write(`${header}\n`);
  let buf = '';
  for (const line of lines) {
    buf += line + '\n';
    if (buf.length > 1 << 16) {
      if (!out.write(buf)) await new Promise<void>((r) => out.once('drain', () => r()));
      buf = '';
    }
  }
  await new Promise<void>((r) => out.end(buf, () => r()));
}

function summarise(name: string, s: Stats): string {
  const sorted = [...s.latencies].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  const p99 = percentile(sorted, 99);
  const max = sorted.at(-1) ?? NaN;
  return `${name.padEnd(7)} sent ${String(s.sent).padStart(5)}  p50 ${p50.toFixed(1).padStart(7)} ms  p99 ${p99.toFixed(1).padStart(7)} ms  max ${max.toFixed(1).padStart(7)} ms  timeouts ${s.timeouts}  errors ${s.errors}  non-2xx ${s.non2xx}  p99/limit ${(p99 / LIMIT_MS).toFixed(2)}`;
}

function p99(s: Stats): number {
  return percentile([...s.latencies].sort((a, b) => a - b), 99);
}

/** Serves `dataDir` under load while `tickerbase import` loads `file` into `importDir`; prints and returns the load's stats. */
async function measure(root: string, dataDir: string, importDir: string, key: string, file: string, rows: number, label: string): Promise<Record<string, Stats>> {
  const serve = child(['--cli', root, 'serve', '--data-dir', dataDir, '--port', '0', '--host', '127.0.0.1', '--demo', 'no']);
  const url = await new Promise<string>((ok, fail) => {
    let out = '';
    const on = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/[\d.:]+)/.exec(out);
      if (m) ok(m[1]!);
    };
    serve.stdout!.on('data', on);
    serve.stderr!.on('data', on);
    serve.once('exit', (code) => fail(new Error(`serve exited with ${code}: ${out}`)));
  });
  serve.stdout!.resume();
  serve.stderr!.resume();

  const loader = child(['--load', url, key], ['pipe', 'pipe', 'inherit']);
  let loadOut = '';
  loader.stdout!.on('data', (d: Buffer) => (loadOut += d.toString()));
  await new Promise((r) => setTimeout(r, 2000)); // warm up

  const started = performance.now();
  const importer = child(['--cli', root, 'import', file, '--data-dir', importDir], ['ignore', 'ignore', 'pipe']);
  let importErr = '';
  importer.stderr!.on('data', (d: Buffer) => (importErr += d.toString()));
  const code = await new Promise<number | null>((r) => importer.once('exit', r));
  const importSeconds = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 1000));
  loader.stdin!.write('stop\n');
  await new Promise((r) => loader.once('exit', r));
  serve.removeAllListeners('exit');
  serve.kill('SIGTERM');
  await new Promise((r) => serve.once('exit', r));

  const summary = importErr.split('\n').find((l) => l.startsWith('summary:')) ?? importErr.trim().split('\n').at(-1);
  console.log(`${label}: import exit ${code} in ${importSeconds.toFixed(1)} s (${(rows / importSeconds).toFixed(0)} rows/s): ${summary}`);
  const stats = JSON.parse(loadOut) as Record<string, Stats>;
  for (const [name, s] of Object.entries(stats)) console.log(`  ${summarise(name, s)}`);
  return stats;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--load') return runLoad(argv[1]!, argv[2]!);
  if (argv[0] === '--cli') return runCli(argv[1]!, argv.slice(2));
  const srcAt = argv.indexOf('--src');
  const root = srcAt >= 0 ? resolve(argv[srcAt + 1]!) : resolve(SELF, '../..');
  const rows = Number(argv.find((a, i) => /^\d+$/.test(a) && argv[i - 1] !== '--src') ?? 2_000_000);

  const dir = mkdtempSync(join(tmpdir(), 'tb-bench-contention-'));
  const dataDir = join(dir, 'data');
  try {
    // The data dir: a few bars of SEED for the data endpoint, and a key (plan without rate limit).
    const { openStore } = await import('../src/store/index.js');
    const { importFile } = await import('../src/ingest/load.js');
    const seed = join(dir, 'seed.csv');
    await writeCsv(seed, MINUTE_HEADER, [...minuteLines(60)].map((l) => l.replace(/^T00000/, 'SEED')));
    const store = await openStore({ dataDir });
    await importFile(store, seed);
    const { key } = await store.keys.create({ plan: 'demo', label: 'bench' });
    await store.close();

    const file = join(dir, 'minute_aggs_v1', 'big.csv');
    mkdirSync(join(dir, 'minute_aggs_v1'));
    await writeCsv(file, MINUTE_HEADER, minuteLines(rows));
    console.log(`source ${root}; ${rows.toLocaleString('en-US')} rows, ${(statSync(file).size / 2 ** 20).toFixed(0)} MiB; load ${RATE_PER_ENDPOINT} req/s per endpoint, timeout ${TIMEOUT_MS} ms`);

    // Control: the same import into another data dir, so only CPU and disk are shared with the
    // server; then into the served data dir, sharing its write lock and WAL too.
    const control = await measure(root, dataDir, join(dir, 'other'), key, file, rows, 'control (import into another data dir)');
    const shared = await measure(root, dataDir, dataDir, key, file, rows, 'shared (import into the served data dir)');
    for (const name of Object.keys(shared)) {
      const ratio = p99(shared[name]!) / p99(control[name]!);
      console.log(`${name}: p99 shared/control ${ratio.toFixed(2)}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
