// The machinery the HTTP benchmarks share: the real `tickerbase serve` (compiled from a checkout,
// run by plain Node from dist/) and a bare node:http server sending recorded bytes, each a child
// process answering CPU and memory questions over IPC; wrk runs in a process of its own.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { openSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { mkdirSync } from 'node:fs';
import { openStore, type Store } from '../src/store/index.js';
import { SERVER_ENV, SERVER_NODE_FLAGS } from './lib.js';

/** A wrk case: the paths asked in turn (one for a fixed URL). */
export interface Case {
  name: string;
  paths: string[];
  /**
   * Connections for answers of a megabyte or more (default the run's): with 50 such requests in
   * flight none finishes within a round, and wrk would count none.
   */
  connections?: number;
}

export interface Child {
  proc: ChildProcess;
  url: string;
  cpu(): Promise<number>;
  stop(): Promise<void>;
}

export function cpuOf(proc: ChildProcess): () => Promise<number> {
  return () =>
    new Promise((resolve) => {
      proc.once('message', (m) => {
        const u = m as NodeJS.CpuUsage;
        resolve((u.user + u.system) / 1000); // ms
      });
      proc.send('cpu');
    });
}

/**
 * Where a serve-cpu.mjs child's memory is now and at its highest sampled RSS: RSS, V8's heap
 * (committed, used) and memory outside it, in MiB.
 */
export function memoryNow(proc: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    proc.once('message', (m) => {
      const { now, peak } = m as { now: NodeJS.MemoryUsage; peak: NodeJS.MemoryUsage };
      const mib = (n: number) => (n / 2 ** 20).toFixed(0);
      const of = (u: NodeJS.MemoryUsage) => `RSS ${mib(u.rss)}, V8 heap ${mib(u.heapTotal)} (${mib(u.heapUsed)} used), outside the heap ${mib(u.external)} (buffers ${mib(u.arrayBuffers)}) MiB`;
      resolve(`now ${of(now)}; at the highest sampled ${of(peak)}`);
    });
    proc.send('memory');
  });
}

/** The peak RSS of a serve-cpu.mjs child so far, in bytes. */
export function peakRss(proc: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    proc.once('message', (m) => resolve(m as number));
    proc.send('rss');
  });
}

export function stopOf(proc: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((res) => {
      if (proc.exitCode !== null) return res();
      proc.once('exit', () => res());
      proc.kill('SIGTERM');
    });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * The environment of the CLI children, with what bin/tickerbase adds (SERVER_ENV): the store is
 * named by flags only (DATABASE_URL, which the bench reads to find the PostgreSQL server, would
 * otherwise send the SQLite run there).
 */
export function childEnv(): NodeJS.ProcessEnv {
  return { ...process.env, ...SERVER_ENV, DATABASE_URL: '', TICKERBASE_DATA_DIR: '', LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' };
}

export async function startServer(storeArgs: string[], logFile: string, serverSrc: string): Promise<Child> {
  const port = await freePort();
  const args = ['serve', '--host', '127.0.0.1', '--port', String(port), '--demo', 'no', '--live-demo', 'no', ...storeArgs];
  for (const script of ['scripts/compile.mjs', 'scripts/copy-sql.mjs']) {
    const built = spawnSync(process.execPath, [join(serverSrc, script)], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error(`${script} exited with ${built.status}`);
  }
  const proc = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'bench/targets/serve-cpu.mjs', serverSrc, ...args], {
    env: childEnv(),
    stdio: ['ignore', openSync(logFile, 'w'), 'inherit', 'ipc'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`tickerbase serve exited with ${proc.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('tickerbase serve did not start in 120 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  return { proc, url, cpu: cpuOf(proc), stop: stopOf(proc) };
}

export async function startBare(file: string): Promise<Child> {
  const proc = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', 'bench/targets/bare-cpu.ts', file], { env: { ...process.env, ...SERVER_ENV }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    proc.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /LISTENING (\S+)/.exec(buf);
      if (m) resolve(m[1]!);
    });
    proc.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return { proc, url, cpu: cpuOf(proc), stop: stopOf(proc) };
}

export interface WrkResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx/3xx answers and socket errors. */
  bad: number;
  cpuPerRequestMs: number;
}

/** wrk's latency as milliseconds ("812.00us", "1.20ms", "2.01s"). */
function ms(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === 'us' ? v / 1000 : m[2] === 'ms' ? v : m[2] === 's' ? v * 1000 : v * 60_000;
}

export function parseWrk(out: string): Omit<WrkResult, 'cpuPerRequestMs'> {
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const p50 = ms(/^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? '');
  const p99 = ms(/^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? '');
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socketErrors = sock ? sock.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  return { requests, rps, p50, p99, bad: non2xx + socketErrors };
}

/** A wrk Lua script asking `paths` in turn, each connection starting at its own place. */
export function rotationScript(file: string, paths: string[]): string {
  const list = paths.map((p) => JSON.stringify(p)).join(',\n');
  writeFileSync(
    file,
    `local paths = {\n${list}\n}\nlocal i = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format(nil, paths[i])\nend\n`,
  );
  return file;
}

export async function runWrk(target: Child, c: Case, script: string | undefined, headers: Record<string, string>, secs: number, connections: number): Promise<WrkResult> {
  const args = ['-t1', `-c${c.connections ?? connections}`, `-d${secs}s`, '--timeout', '60s', '--latency'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  if (script) args.push('-s', script);
  args.push(`${target.url}${c.paths[0]}`);
  const before = await target.cpu();
  const r = await new Promise<{ status: number | null; out: string }>((resolve) => {
    const p = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.once('exit', (status) => resolve({ status, out }));
  });
  const after = await target.cpu();
  if (r.status !== 0) throw new Error(`wrk exited with ${r.status}: ${r.out}`);
  const parsed = parseWrk(r.out);
  return { ...parsed, cpuPerRequestMs: parsed.requests > 0 ? (after - before) / parsed.requests : NaN };
}

export function median(runs: WrkResult[]): WrkResult {
  return [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!;
}

export function line(who: string, r: WrkResult, bytes?: number): string {
  const size = bytes === undefined ? '' : `  ${bytes >= 10_240 ? `${(bytes / 1024).toFixed(0)} KiB` : `${bytes} B`}`;
  return `  ${who.padEnd(11)}${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2).padStart(7)} ms  p99 ${r.p99.toFixed(2).padStart(7)} ms  CPU ${(r.cpuPerRequestMs * 1000).toFixed(0).padStart(6)} µs/req${r.bad ? `  BAD ${r.bad}` : ''}${size}`;
}

/** Loads the demo into the store once (kept for later runs). */
export async function ensureDemo(store: Store, storeArgs: string[]): Promise<void> {
  if ((await store.meta.get('demo_loaded')) !== undefined) return;
  console.log(`loading the demo data set (${storeArgs.join(' ')}), once…`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/targets/serve-from.ts', process.cwd(), 'demo', '--no-key', ...storeArgs], { stdio: 'inherit', env: childEnv() });
  if (r.status !== 0) throw new Error(`tickerbase demo exited with ${r.status}`);
}

/** A database of the bench's own on the server of `url` (created when missing). */
export async function benchDatabase(url: string): Promise<string> {
  const u = new URL(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', ['tickerbase_bench']);
    if (exists.rowCount === 0) await client.query('CREATE DATABASE tickerbase_bench');
  } finally {
    await client.end();
  }
  u.pathname = '/tickerbase_bench';
  return u.toString();
}


/**
 * The bench's store under `dataDir` (or on PostgreSQL at `databaseUrl`) with the demo loaded (once,
 * kept for later runs), and the CLI flags naming it.
 */
export async function openBenchStore(dataDir: string, databaseUrl?: string): Promise<{ store: Store; storeArgs: string[] }> {
  mkdirSync(dataDir, { recursive: true });
  const storeArgs = ['--data-dir', dataDir, ...(databaseUrl ? ['--database-url', databaseUrl] : [])];
  const loading = await openStore({ dataDir, databaseUrl });
  await ensureDemo(loading, storeArgs);
  await loading.close();
  return { store: await openStore({ dataDir, databaseUrl }), storeArgs };
}
