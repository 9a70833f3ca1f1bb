// Benchmark of the upstream relay (not a test): 100 subscribers of T.* receive 20,000 trade
// events a second from a fake upstream (bench/relay-upstream.ts, its own process), once connected
// to the fake upstream directly and once through a Tickerbase relaying it (bench/relay-server.ts,
// a process of its own as `serve --relay stocks` is). The relay records to a SQLite file in a temp
// directory, whose writes run on the store's write thread (--store memory: an in-memory store,
// written on the event loop; --record no: not at all). Prints throughput and the latency from
// upstream's send to the client's receive (p50/p99) of both, the relaying process's CPU, event-loop
// delay and GC pauses, and the relay's added latency at p99 against the goal of 5 ms, measured in
// the same run. The subscribers run in a process of their own (bench/stream-clients.ts).
// --rounds N measures direct and relayed N times in turn and gives the medians (a shared machine's
// load shifts between runs); --prof DIR writes the relaying process's CPU profile of each relayed run;
// RELAY_FLAGS='--trace-gc' (say) passes node flags to the relaying process.
// Usage: node --import tsx bench/relay.ts [--quick] [--rate N] [--seconds N] [--rounds N] [--record no] [--store memory] [--prof DIR]
import { fork, type ChildProcess } from 'node:child_process';
import { clients } from './stream-client-procs.js';

const option = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const quick = process.argv.includes('--quick');
const RATE = Number(option('--rate', '20000'));
const SECONDS = Number(option('--seconds', quick ? '2' : '5'));
const RECORD = option('--record', 'yes') === 'yes';
const STORE = option('--store', 'file') === 'memory' ? 'memory' : 'file';
const PROF = option('--prof', '');
const ROUNDS = Number(option('--rounds', '1'));
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

/** Waits until exactly `count` connections hold T.* upstream (the relay lets go of it once its clients leave). */
async function waitSubscribers(upstream: ChildProcess, count: number): Promise<void> {
  for (;;) {
    const { count: n } = await request<{ count: number }>(upstream, { type: 'subscribers' }, 'subscribers');
    if (n === count) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Figures {
  p50: number;
  p99: number;
  delivered: number;
  /** CPU time of the serving process over the run's wall time (1 = one core busy). */
  cpuShare: number;
  clientCpuShare: number;
  /** The relaying process's event-loop delay and GC pauses during the run. */
  loop?: LoopFigures;
}

interface LoopFigures {
  p99: number;
  max: number;
  gcMax: number;
  gcTotal: number;
}

async function measure(upstream: ChildProcess, server: ChildProcess, url: string, key: string | undefined, upstreamSubscribers: number): Promise<Figures> {
  const c = await clients(url, SUBSCRIBERS, key, 1);
  await waitSubscribers(upstream, upstreamSubscribers);
  c.reset();
  const cpu = () => request<{ micros: number; loop?: LoopFigures }>(server, { type: 'cpu' }, 'cpu');
  const [cpu0, t0] = [await cpu(), performance.now()];
  await request(upstream, { type: 'run', rate: RATE, seconds: SECONDS }, 'done');
  await new Promise((r) => setTimeout(r, 500));
  const cpu1 = await cpu();
  const cpuShare = (cpu1.micros - cpu0.micros) / 1000 / (performance.now() - t0);
  const r = await c.report();
  c.exit();
  const latencies = r.latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), delivered: r.events / SECONDS, cpuShare, clientCpuShare: r.cpuShare, loop: cpu1.loop };
}

/** The relaying Tickerbase in a process of its own; the subscribers connect to it. */
async function startRelay(upstreamUrl: string) {
  const args = [upstreamUrl, RECORD ? 'yes' : 'no', STORE, ...(PROF ? [PROF] : [])];
  const server = fork(new URL('./relay-server.ts', import.meta.url).pathname, args, { execArgv: ['--import', 'tsx', ...(process.env.RELAY_FLAGS ? process.env.RELAY_FLAGS.split(' ') : [])] });
  const { port, key } = await new Promise<{ port: number; key: string }>((resolve, reject) => {
    server.once('message', (m: { port: number; key: string }) => resolve(m));
    server.once('exit', (code) => reject(new Error(`relay server exited with ${code}`)));
  });
  return {
    server,
    url: `ws://127.0.0.1:${port}/stocks`,
    key,
    async close(): Promise<void> {
      const closed = await request<{ counts?: { recorded: number; refused: number; dropped: number } }>(server, { type: 'exit' }, 'closed');
      if (closed.counts) console.log(`  recorded ${closed.counts.recorded.toLocaleString('en-US')} events (${closed.counts.dropped} dropped, ${closed.counts.refused} refused)`);
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const upstream = await startUpstream();
  console.log(`relay bench: ${SUBSCRIBERS} subscribers of T.*, ${RATE.toLocaleString('en-US')} events/s for ${SECONDS} s, direct then relayed, ${ROUNDS} round(s); recording ${RECORD ? `on (${STORE === 'file' ? 'SQLite file' : 'in-memory SQLite'})` : 'off'}. The machine is shared: figures vary with other load.`);
  const relay = await startRelay(upstream.url);
  const line = (name: string, f: Figures) => `  ${name.padEnd(8)} p50 ${f.p50.toFixed(2)} ms, p99 ${f.p99.toFixed(2)} ms; ${Math.round(f.delivered).toLocaleString('en-US')} events/s delivered of ${(RATE * SUBSCRIBERS).toLocaleString('en-US')} sent; CPU of a core: server ${f.cpuShare.toFixed(2)}, clients ${f.clientCpuShare.toFixed(2)}`;
  const added = { p50: [] as number[], p99: [] as number[] };
  for (let round = 1; round <= ROUNDS; round++) {
    const direct = await measure(upstream.child, upstream.child, `${upstream.url}/stocks`, 'upstream-key', SUBSCRIBERS);
    const relayed = await measure(upstream.child, relay.server, relay.url, relay.key, 1);
    if (ROUNDS > 1) console.log(`  round ${round}:`);
    console.log(line('direct', direct));
    console.log(line('relayed', relayed));
    const l = relayed.loop;
    if (l) console.log(`  relay process: event-loop delay p99 ${l.p99.toFixed(2)} ms, max ${l.max.toFixed(2)} ms; GC pauses ${l.gcTotal.toFixed(0)} ms in all, longest ${l.gcMax.toFixed(2)} ms`);
    added.p50.push(relayed.p50 - direct.p50);
    added.p99.push(relayed.p99 - direct.p99);
  }
  await relay.close();
  upstream.child.send({ type: 'exit' });
  const p99 = median(added.p99);
  console.log(`  added by the relay${ROUNDS > 1 ? ` (median of ${ROUNDS} rounds)` : ''}: p50 ${median(added.p50).toFixed(2)} ms, p99 ${p99.toFixed(2)} ms (goal <= ${GOAL_MS} ms at p99: ${(p99 / GOAL_MS).toFixed(2)} of it)`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
