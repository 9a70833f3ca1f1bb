// Benchmarks of the WebSocket feed (not a test). Prints, for each figure, the value and its
// ratio to the limit measured in the same run:
//   1. fan-out: events/s delivered to 100 and 1,000 subscribers of T.*, against a bare `ws`
//      server broadcasting the same frames to the same clients (goal ≥ 0.5× the bare server);
//   2. latency publish → client receive, p50/p99, at 20,000 events/s to 100 subscribers
//      (goal p99 ≤ 50 ms), with the CPU share of the server process and of the clients, so a
//      saturated client (which would make the tail measure the load generator) shows;
//   3. RSS of the server process with 10,000 idle authenticated connections (goal ≤ 500 MB).
// The clients run in processes of their own (bench/stream-clients.ts, which counts without
// parsing). The server runs here: the publisher is in-process, as POST /admin/publish's handler is.
// Usage: node --import tsx bench/stream-fanout.ts [--quick] [--latency] [--runs N] [--client-procs N]
//   --latency: only the latency figure; --runs N: N runs of it and their median (default 1);
//   --client-procs N: spread the subscribers over N client processes (default 1);
//   --only tickerbase|bare: the latency of one server (to profile it with node --cpu-prof);
//   --rate N: events/s of the latency figure (default 20,000, the goal's).
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { buildApp } from '../src/app.js';
import { PlanCatalog } from '../src/server/plans.js';
import { openStore } from '../src/store/index.js';
import { encodeEvent } from '../src/stream/json.js';
import { attachStreaming } from '../src/stream/index.js';
import { clients, type Report } from './stream-client-procs.js';

const quick = process.argv.includes('--quick');
const latencyOnly = process.argv.includes('--latency');
const option = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = option('--runs', 1);
const CLIENT_PROCS = option('--client-procs', 1);
const RATE = option('--rate', 20_000);
const ONLY = process.argv[process.argv.indexOf('--only') + 1];
const SECONDS = quick ? 2 : 5;
const BATCH = 100; // events per publish call

interface Server {
  url: string;
  key?: string;
  /** Sends one batch of events to every subscriber. */
  publish(events: Record<string, unknown>[]): void;
  close(): Promise<void>;
}

async function tickerbase(): Promise<Server> {
  const store = await openStore({ sqliteFile: ':memory:' });
  const app = await buildApp({ store, config: { envelope: 'native' }, production: { plans: PlanCatalog.builtin(), usage: false, metrics: false } });
  const streaming = await attachStreaming(app, { auth: app.ctx.auth, connectionLimit: 100_000, limits: { authTimeoutMs: 120_000 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { key } = await store.keys.create({ plan: 'demo' });
  return {
    url: `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/stocks`,
    key,
    publish: (events) => void streaming.publish(events as never),
    async close() {
      await app.close();
      await store.close();
    },
  };
}

/**
 * The limit: a bare `ws` server that sends what was published in one event-loop turn as one
 * frame, encoded once, to every client (the frames Tickerbase sends its subscribers of T.*).
 */
async function bare(): Promise<Server> {
  const http = createServer();
  const wss = new WebSocketServer({ server: http, perMessageDeflate: false });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  let pending: string[] = [];
  const flush = () => {
    const frame = Buffer.from(`[${pending.join(',')}]`);
    pending = [];
    for (const c of wss.clients) c.send(frame, { binary: false });
  };
  return {
    url: `ws://127.0.0.1:${(http.address() as { port: number }).port}/stocks`,
    publish(events) {
      if (pending.length === 0) setImmediate(flush);
      for (const e of events) pending.push(encodeEvent(e as never));
    },
    async close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
      await new Promise((r) => http.close(r));
    },
  };
}

/** µs of the monotonic clock, which the client processes read too. */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

let seq = 0;
/** n trade events; the first carries the batch size and the publish time for the clients. */
function batch(n: number): Record<string, unknown>[] {
  const lt = nowUs();
  return Array.from({ length: n }, (_, k) => {
    seq++;
    const e: Record<string, unknown> = { ev: 'T', sym: `S${seq % 500}`, x: 4, i: String(seq), z: 3, p: 100 + (seq % 100) / 100, s: 100, t: 1749825067412 + seq, q: seq };
    if (k === 0) {
      e['~'] = n;
      e.lt = lt;
    }
    return e;
  });
}

function checked(r: Report): Report {
  if (r.auditHeads !== r.auditEvents) {
    console.log(`  (audited connections: ${r.auditEvents} events received, ${r.auditHeads} counted from batch heads; frames were still in flight at the report)`);
  }
  return r;
}

/** Publishes as fast as delivery keeps up (a batch per event-loop turn) and counts deliveries. */
async function fanout(server: Server, n: number): Promise<number> {
  const c = await clients(server.url, n, server.key, CLIENT_PROCS);
  c.reset();
  const until = Date.now() + SECONDS * 1000;
  while (Date.now() < until) {
    server.publish(batch(BATCH));
    await new Promise((r) => setImmediate(r));
  }
  await new Promise((r) => setTimeout(r, 500)); // let queued frames arrive
  const { events } = checked(await c.report());
  c.exit();
  return events / SECONDS;
}

interface Latency {
  p50: number;
  p99: number;
  delivered: number;
  clientCpu: number;
  serverCpu: number;
  /** CPU time of the server process per 1,000 deliveries, µs (less sensitive to other load on the machine than latency). */
  serverUsPerK: number;
  /** The same for the client processes: what reading 2,000,000 events/s would take of a core. */
  clientUsPerK: number;
  frames: number;
}

async function latency(server: Server, n: number, rate: number): Promise<Latency> {
  const c = await clients(server.url, n, server.key, CLIENT_PROCS);
  c.reset();
  const cpu0 = process.cpuUsage();
  const tickMs = 10;
  const perTick = Math.round((rate * tickMs) / 1000);
  const start = Date.now();
  let sent = 0;
  while (Date.now() - start < SECONDS * 1000) {
    const due = Math.floor((Date.now() - start) / tickMs) * perTick;
    while (sent < due) {
      const size = Math.min(BATCH, due - sent);
      server.publish(batch(size));
      sent += size;
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await new Promise((r) => setTimeout(r, 500));
  const cpu = process.cpuUsage(cpu0);
  const wall = Date.now() - start;
  const r = checked(await c.report());
  c.exit();
  const latencies = r.latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    p50: at(0.5),
    p99: at(0.99),
    delivered: r.events / SECONDS,
    // both windows include the 500 ms drain
    clientCpu: r.cpuShare,
    serverCpu: (cpu.user + cpu.system) / 1000 / wall,
    serverUsPerK: ((cpu.user + cpu.system) * 1000) / r.events,
    clientUsPerK: (r.cpuMicros * 1000) / r.events,
    frames: r.frames,
  };
}

async function idleMemory(n: number): Promise<number> {
  const server = await tickerbase();
  const c = await clients(server.url, n, server.key, CLIENT_PROCS);
  global.gc?.();
  await new Promise((r) => setTimeout(r, 1000));
  const rss = process.memoryUsage().rss;
  c.exit();
  await server.close();
  return rss;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function describe(name: string, l: Latency): string {
  return `${name}: p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms (goal p99 <= 50 ms: ${(l.p99 / 50).toFixed(2)} of it); ${fmt(l.delivered)} events/s delivered of ${fmt(RATE * 100)} asked in ${fmt(l.frames / SECONDS)} frames/s; CPU: server ${(l.serverCpu * 100).toFixed(0)} % (${l.serverUsPerK.toFixed(0)} µs per 1,000 deliveries), clients ${(l.clientCpu * 100).toFixed(0)} % (${l.clientUsPerK.toFixed(0)} µs per 1,000)`;
}

async function latencyRuns(): Promise<void> {
  const runs: Record<string, Latency[]> = { 'bare ws': [], tickerbase: [] };
  for (let run = 1; run <= RUNS; run++) {
    for (const [name, make] of [['bare ws', bare], ['tickerbase', tickerbase]] as const) {
      if (process.argv.includes('--only') && !name.startsWith(ONLY!)) continue;
      const s = await make();
      const l = await latency(s, 100, RATE);
      await s.close();
      runs[name]!.push(l);
      console.log(`  latency at ${fmt(RATE)} events/s to 100 subscribers${RUNS > 1 ? ` (run ${run})` : ''}, ${describe(name, l)}`);
    }
  }
  if (RUNS < 2) return;
  const mid = (name: string): Latency => {
    const ls = runs[name]!;
    const pick = (k: keyof Latency) => median(ls.map((l) => l[k]));
    return { p50: pick('p50'), p99: pick('p99'), delivered: pick('delivered'), clientCpu: pick('clientCpu'), serverCpu: pick('serverCpu'), serverUsPerK: pick('serverUsPerK'), clientUsPerK: pick('clientUsPerK'), frames: pick('frames') };
  };
  for (const name of Object.keys(runs)) if (runs[name]!.length) console.log(`  median of ${RUNS} runs, ${describe(name, mid(name))}`);
  if (runs['bare ws']!.length && runs.tickerbase!.length) {
    console.log(`  tickerbase p99 / bare ws p99: ${(mid('tickerbase').p99 / mid('bare ws').p99).toFixed(2)}x`);
  }
}

async function main(): Promise<void> {
  console.log(`stream fan-out (${SECONDS} s per figure, ${BATCH}-event batches, clients in ${CLIENT_PROCS} process(es) of their own)`);
  if (latencyOnly) return latencyRuns();
  for (const n of quick ? [100] : [100, 1000]) {
    const b = await bare();
    const bareRate = await fanout(b, n);
    await b.close();
    const t = await tickerbase();
    const tbRate = await fanout(t, n);
    await t.close();
    console.log(`  ${n} subscribers of T.*: tickerbase ${fmt(tbRate)} events/s delivered, bare ws ${fmt(bareRate)} events/s; ratio ${(tbRate / bareRate).toFixed(2)}x (goal >= 0.5x)`);
  }
  await latencyRuns();
  const idle = quick ? 1000 : 10_000;
  const rss = await idleMemory(idle);
  console.log(`  RSS with ${fmt(idle)} idle authenticated connections: ${(rss / 1e6).toFixed(0)} MB (goal <= 500 MB: ${(rss / 500e6).toFixed(2)} of it)`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
