// Shared pieces of the benchmarks: child servers on loopback and autocannon runs.
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { buildApp } from '../src/app.js';
import type { Store } from '../src/store/index.js';

export interface Target {
  url: string;
  stop(): Promise<void>;
}

/**
 * The V8 flags bin/tickerbase and `npm start` run the server with (see bin/tickerbase), or
 * BENCH_NODE_FLAGS (space-separated) to compare others; every target gets the same.
 */
export const SERVER_NODE_FLAGS = process.env.BENCH_NODE_FLAGS !== undefined ? process.env.BENCH_NODE_FLAGS.split(' ').filter(Boolean) : ['--max-semi-space-size=8', '--heap-growing-percent=20'];

/**
 * The environment bin/tickerbase and `npm start` add for the server (see bin/tickerbase): glibc's
 * malloc held to two arenas. Every target gets it, the bare baselines too.
 */
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/**
 * Starts `node <SERVER_NODE_FLAGS> --import tsx <script> ...args` and resolves once it prints
 * `LISTENING <url>`. Every target gets the same flags, the bare baselines too.
 */
export function startChild(script: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Target> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', script, ...args], {
      env: { ...process.env, ...SERVER_ENV, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`${script} did not start in 120 s`)), 120_000);
    child.stdout?.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /LISTENING (\S+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1],
          stop: () =>
            new Promise((res) => {
              child.once('exit', () => res());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}`));
    });
  });
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  bytesPerRequest: number;
}

export async function load(url: string, opts: { seconds?: number; connections?: number; headers?: Record<string, string> } = {}): Promise<LoadResult> {
  const r = await autocannon({
    url,
    connections: opts.connections ?? 10,
    duration: opts.seconds ?? 8,
    headers: opts.headers,
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    bytesPerRequest: r.requests.total ? r.throughput.total / r.requests.total : 0,
  };
}

export function fmt(r: LoadResult): string {
  return `${r.rps.toFixed(0).padStart(7)} req/s  p50 ${String(r.p50).padStart(3)} ms  p99 ${String(r.p99).padStart(3)} ms  errors ${r.errors}  non-2xx ${r.non2xx}`;
}

/** The run with the median requests/s (of an odd count; the upper middle otherwise). */
export function median(runs: readonly LoadResult[]): LoadResult {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Serves `store` on a free loopback port as a child of startChild: prints `LISTENING <url>` and
 * closes the server and the store on SIGTERM. `now` pins the server's clock.
 */
export async function serveStore(store: Store, now?: () => number): Promise<void> {
  const app = await buildApp({ store, config: { envelope: 'native' }, ...(now ? { now } : {}) });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`LISTENING ${url}\n`);
  process.once('SIGTERM', async () => {
    await app.close();
    await store.close();
    process.exit(0);
  });
}
