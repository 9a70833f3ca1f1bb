// Memory of a server publishing for a long time: the real `tickerbase serve` (compiled from this
// checkout, over the demo data set), trades published at BENCH_RATE events/s (default 2,000) by
// bench/live-publisher.ts in its own process, 10 subscribers of T.* (bench/live-subscribers.ts)
// and REST load from wrk (three processes: the AAPL snapshot, AAPL's first trades page and
// AAPL's 1/minute bars of the last 5 days, 10 connections each) for BENCH_MINUTES (default 15).
// Every minute it prints the server's RSS, V8 heap used and external memory, the publish and
// feed latency of that minute and the trades published; at the end, RSS at the end ÷ RSS after
// the first minute against the goal (≤ 1.2×, issue "Speed while the market is live").
//
// BENCH_ENGINES (sqlite, postgres: PostgreSQL when DATABASE_URL is set; default sqlite),
// BENCH_DIR (default $TMPDIR/tickerbase-bench-live, shared with bench/live.ts: the demo is loaded
// once and kept), BENCH_SERVER_ARGS (more `serve` flags, space-separated, e.g. --stream-history 60).
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forkChild, type Published } from './live-children.js';
import { benchDatabase, openBenchStore, startServer } from './wrk-servers.js';

const minutes = Number(process.env.BENCH_MINUTES ?? 15);
const rate = Number(process.env.BENCH_RATE ?? 2000);
const engines = (process.env.BENCH_ENGINES ?? 'sqlite').split(',');
const benchDir = process.env.BENCH_DIR ?? join(tmpdir(), 'tickerbase-bench-live');
const serverArgs = process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? [];
const TOKEN = 'bench-live-admin-token-0123456789abcdef';
const SUBSCRIBERS = 10;
const GOAL = 1.2;
/** The tickers the publisher trades (as bench/live.ts): AAPL among them. */
const TRADED = ['AAPL', 'AMZN', 'NVDA', 'TSLA', 'GOOGL', 'META', 'AMD', 'NFLX', 'INTC', 'CSCO', 'ORCL', 'IBM', 'QCOM', 'ADBE', 'CRM', 'PYPL', 'UBER', 'SHOP', 'SQ', 'PLTR'];

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0).padStart(5)} MiB`;

const memoryOf = (proc: ChildProcess) =>
  new Promise<NodeJS.MemoryUsage>((resolve) => {
    proc.once('message', (m) => resolve((m as { now: NodeJS.MemoryUsage }).now));
    proc.send('memory');
  });

/**
 * wrk on `path` for `secs`; the requests answered. Spawned here rather than through runWrk, which
 * asks the server for its CPU time over the same IPC channel the memory readings use.
 */
function restLoad(url: string, path: string, key: string, secs: number): Promise<number> {
  return new Promise((resolve) => {
    const p = spawn('wrk', ['-t1', '-c10', `-d${secs}s`, '--timeout', '60s', '-H', `x-api-key: ${key}`, `${url}${path}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.once('exit', () => resolve(Number(/(\d+) requests in/.exec(out)?.[1] ?? 0)));
  });
}

async function benchEngine(engine: string, databaseUrl?: string): Promise<void> {
  const dataDir = join(benchDir, engine);
  const { store, storeArgs } = await openBenchStore(dataDir, databaseUrl);
  const { key } = await store.keys.create({ plan: 'demo', label: 'bench-live-memory' });
  const server = await startServer(['--admin-token', TOKEN, '--stream-connections', String(SUBSCRIBERS * 2), ...serverArgs, ...storeArgs], join(dataDir, 'access-memory.log'), process.cwd());
  const subscribers = await forkChild<{ events: number; p50: number; p99: number }>('./live-subscribers.ts', [server.url.replace('http', 'ws') + '/stocks', key, String(SUBSCRIBERS)]);
  const publisher = await forkChild<Published>('./live-publisher.ts', [server.url, TOKEN, String(rate), TRADED.join(',')]);
  const today = new Date().toISOString().slice(0, 10);
  const from5 = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
  const paths = ['/v2/snapshot/locale/us/markets/stocks/tickers/AAPL', '/v3/trades/AAPL?limit=1000', `/v2/aggs/ticker/AAPL/range/1/minute/${from5}/${today}`];
  const loads = paths.map((p) => restLoad(server.url, p, key, minutes * 60 + 2));
  try {
    const start = await memoryOf(server.proc);
    console.log(`\n${engine}: ${rate} events/s published, ${SUBSCRIBERS} subscribers, wrk on ${paths.length} paths (10 connections each), ${minutes} minutes`);
    console.log(`start        RSS ${mib(start.rss)}  heap used ${mib(start.heapUsed)}  external ${mib(start.external)}`);
    let afterFirst: number | undefined;
    let end = start;
    for (let m = 1; m <= minutes; m++) {
      publisher.tell('reset');
      subscribers.tell('reset');
      await new Promise((r) => setTimeout(r, 60_000));
      const p = await publisher.ask('report');
      const feed = await subscribers.ask('report');
      end = await memoryOf(server.proc);
      afterFirst ??= end.rss;
      console.log(
        `minute ${String(m).padStart(2)}    RSS ${mib(end.rss)}  heap used ${mib(end.heapUsed)}  external ${mib(end.external)}  ` +
          `(${p.sent} trades, ${p.refused} refused, publish p99 ${p.publishMs[1].toFixed(0)} ms, feed p99 ${feed.p99} ms)`,
      );
    }
    const ratio = end.rss / afterFirst!;
    console.log(`RSS at the end ÷ RSS after the first minute: ${ratio.toFixed(2)}x (goal ≤ ${GOAL}x: ${ratio <= GOAL ? 'met' : 'NOT met'})`);
  } finally {
    publisher.tell('stop');
    subscribers.proc.kill();
    const requests = await Promise.all(loads);
    console.log(`REST requests answered: ${requests.map((n, i) => `${paths[i]} ${n}`).join(', ')}`);
    await server.stop();
    await store.close();
  }
}

for (const engine of engines) {
  if (engine === 'postgres') {
    if (process.env.DATABASE_URL) await benchEngine('postgres', await benchDatabase(process.env.DATABASE_URL));
    else console.log('\npostgres: skipped (DATABASE_URL is not set)');
  } else await benchEngine(engine);
}
