// Benchmark of the upstream relay (not a test): 100 subscribers of T.* receive 20,000 trade
// events a second from a fake upstream (bench/relay-upstream.ts, its own process), once connected
// to the fake upstream directly and once through a Tickerbase relaying it (in this process,
// recording to an in-memory SQLite store unless --record no). Prints throughput and the latency
// from upstream's send to the client's receive (p50/p99) of both, and the relay's added latency
// at p99 against the goal of 5 ms, measured in the same run. The subscribers run in a process of
// their own (bench/stream-clients.ts).
// Usage: node --import tsx bench/relay.ts [--quick] [--rate N] [--seconds N] [--record no]
import { fork, type ChildProcess } from 'node:child_process';
import { buildApp } from '../src/app.js';
import { PlanCatalog } from '../src/server/plans.js';
import { openStore } from '../src/store/index.js';
import { attachStreaming } from '../src/stream/index.js';
import { Relay } from '../src/stream/relay/index.js';
import { clients } from './stream-client-procs.js';

const option = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const quick = process.argv.includes('--quick');
const RATE = Number(option('--rate', '20000'));
const SECONDS = Number(option('--seconds', quick ? '2' : '5'));
const RECORD = option('--record', 'yes') === 'yes';
const SUBSCRIBERS = 100;
const GOAL_MS = 5;

function request<T>(child: ChildProcess, msg: object, reply: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: { type: string }) => {
      if (m.type !== reply) return;
      child.off('message', on);
      resolve(m as T);
    };
    child.on('message', on);
    child.send(msg);
  });
}

async function startUpstream(): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(new URL('./relay-upstream.ts', import.meta.url).pathname, [], { execArgv: ['--import', 'tsx'] });
  const { port } = await new Promise<{ port: number }>((resolve) => child.once('message', (m: { port: number }) => resolve(m)));
  return { child, url: `ws://127.0.0.1:${port}` };
}

async function waitSubscribers(upstream: ChildProcess, count: number): Promise<void> {
  for (;;) {
    const { count: n } = await request<{ count: number }>(upstream, { type: 'subscribers' }, 'subscribers');
    if (n >= count) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Figures {
  p50: number;
  p99: number;
  delivered: number;
}

async function measure(upstream: ChildProcess, url: string, key: string | undefined, upstreamSubscribers: number): Promise<Figures> {
  const c = await clients(url, SUBSCRIBERS, key, 1);
  await waitSubscribers(upstream, upstreamSubscribers);
  c.reset();
  await request(upstream, { type: 'run', rate: RATE, seconds: SECONDS }, 'done');
  await new Promise((r) => setTimeout(r, 500));
  const r = await c.report();
  c.exit();
  const latencies = r.latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), delivered: r.events / SECONDS };
}

async function main(): Promise<void> {
  const upstream = await startUpstream();
  console.log(`relay bench: ${SUBSCRIBERS} subscribers of T.*, ${RATE.toLocaleString('en-US')} events/s for ${SECONDS} s; recording ${RECORD ? 'on (in-memory SQLite)' : 'off'}. The machine is shared: figures vary with other load.`);
  const direct = await measure(upstream.child, `${upstream.url}/stocks`, 'upstream-key', SUBSCRIBERS);

  const store = await openStore({ sqliteFile: ':memory:' });
  const app = await buildApp({ store, config: { envelope: 'native' }, production: { plans: PlanCatalog.builtin(), usage: false, metrics: false } });
  const streaming = await attachStreaming(app, { auth: app.ctx.auth, connectionLimit: 100_000, store });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { key } = await store.keys.create({ plan: 'demo' });
  const relay = await Relay.start({
    hub: streaming.hub, broker: streaming.broker, markets: ['stocks'], feedUrl: upstream.url, key: 'upstream-key', record: RECORD, store,
    log: { info: () => {}, warn: (m) => console.error(m), error: (m) => console.error(m) },
  });
  const port = (app.server.address() as { port: number }).port;
  const relayed = await measure(upstream.child, `ws://127.0.0.1:${port}/stocks`, key, 1);
  await relay.close();
  await app.close();
  await store.close();
  upstream.child.send({ type: 'exit' });

  const line = (name: string, f: Figures) => `  ${name.padEnd(8)} p50 ${f.p50.toFixed(2)} ms, p99 ${f.p99.toFixed(2)} ms; ${Math.round(f.delivered).toLocaleString('en-US')} events/s delivered of ${(RATE * SUBSCRIBERS).toLocaleString('en-US')} sent`;
  console.log(line('direct', direct));
  console.log(line('relayed', relayed));
  const added = relayed.p99 - direct.p99;
  console.log(`  added by the relay: p50 ${(relayed.p50 - direct.p50).toFixed(2)} ms, p99 ${added.toFixed(2)} ms (goal <= ${GOAL_MS} ms at p99: ${(added / GOAL_MS).toFixed(2)} of it)`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
