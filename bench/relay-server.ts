// The relaying Tickerbase of bench/relay.ts, in its own process as `serve --relay stocks` runs:
// the app, the feed and the relay over a store of its own: a SQLite file in a temp directory (its
// live writes run on a thread of their own, which an in-memory store cannot share), or in memory. Tells
// the parent its port and a local key over IPC, tells its CPU time on 'cpu' (and, given a profile
// directory, profiles each run, from one ask to the next), closes on 'exit'.
// Usage (forked by bench/relay.ts): relay-server.ts <upstream ws url> <record yes|no> <store memory|file> [profile dir]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { PlanCatalog } from '../src/server/plans.js';
import { openStore } from '../src/store/index.js';
import { attachStreaming } from '../src/stream/index.js';
import { Relay } from '../src/stream/relay/index.js';

const [feedUrl, recordArg, storeArg, profDir] = process.argv.slice(2);

const inspector = new Session();
let profiling = false;
let connected = false;

/** Starts the CPU profile at a run's start and writes it at its end (the start-up left out). */
async function toggleProfile(dir: string): Promise<void> {
  const post = (method: string) => new Promise<unknown>((resolve, reject) => inspector.post(method, (err, res) => (err ? reject(err) : resolve(res))));
  if (!profiling) {
    profiling = true;
    if (!connected) {
      connected = true;
      inspector.connect();
      await post('Profiler.enable');
    }
    await post('Profiler.start');
    return;
  }
  profiling = false;
  const { profile } = (await post('Profiler.stop')) as { profile: object };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `relay-${process.argv[3]}-${Date.now()}.cpuprofile`), JSON.stringify(profile));
}

/** Event-loop delay and GC pauses since the last take: what holds deliveries back in this process. */
function loopWatch() {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let gcMax = 0;
  let gcTotal = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcMax = Math.max(gcMax, e.duration);
      gcTotal += e.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  return {
    take() {
      const out = { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6, gcMax, gcTotal };
      delay.reset();
      gcMax = gcTotal = 0;
      return out;
    },
  };
}
const loop = loopWatch();

async function main(): Promise<void> {
  const dir = storeArg === 'file' ? mkdtempSync(join(tmpdir(), 'tickerbase-relay-bench-')) : undefined;
  const store = await openStore(dir ? { dataDir: dir } : { sqliteFile: ':memory:' });
  const app = await buildApp({ store, config: { envelope: 'native' }, production: { plans: PlanCatalog.builtin(), usage: false, metrics: false } });
  const streaming = await attachStreaming(app, { auth: app.ctx.auth, connectionLimit: 100_000, store });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { key } = await store.keys.create({ plan: 'demo' });
  const relay = await Relay.start({
    hub: streaming.hub, broker: streaming.broker, markets: ['stocks'], feedUrl: feedUrl!, key: 'upstream-key', record: recordArg === 'yes', store,
    log: { info: () => {}, warn: (m) => console.error(m), error: (m) => console.error(m) },
  });
  const port = (app.server.address() as { port: number }).port;
  process.send!({ type: 'ready', port, key });
  process.on('message', (m: { type: string }) => {
    if (m.type === 'cpu') {
      const u = process.cpuUsage();
      process.send!({ type: 'cpu', micros: u.user + u.system, loop: loop.take() });
      if (profDir) void toggleProfile(profDir);
    }
    if (m.type !== 'exit') return;
    void (async () => {
      await relay.close();
      const counts = relay.recorder?.counts;
      await app.close();
      await store.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
      process.send!({ type: 'closed', counts }, () => process.exit(0));
    })();
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
