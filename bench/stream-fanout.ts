// Benchmarks of the WebSocket feed (not a test). Prints, for each figure, the value and its
// ratio to the limit measured in the same run:
//   1. fan-out: events/s delivered to 100 and 1,000 subscribers of T.*, against a bare `ws`
//      server broadcasting the same frames to the same clients (goal ≥ 0.5× the bare server);
//   2. latency publish → client receive, p50/p99, at 20,000 events/s to 100 subscribers
//      (goal p99 ≤ 50 ms);
//   3. RSS of the server process with 10,000 idle authenticated connections (goal ≤ 500 MB).
// The clients run in their own process (bench/stream-clients.ts). The server runs here: the
// publisher is in-process, as POST /admin/publish's handler is.
// Usage: node --import tsx bench/stream-fanout.ts [--quick]
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { buildApp } from '../src/app.js';
import { PlanCatalog } from '../src/server/plans.js';
import { openStore } from '../src/store/index.js';
import { encodeEvent } from '../src/stream/json.js';
import { attachStreaming } from '../src/stream/index.js';

const quick = process.argv.includes('--quick');
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

/** The limit: a bare `ws` server that sends each batch as one frame to every client. */
async function bare(): Promise<Server> {
  const http = createServer();
  const wss = new WebSocketServer({ server: http, perMessageDeflate: false });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  return {
    url: `ws://127.0.0.1:${(http.address() as { port: number }).port}/stocks`,
    publish(events) {
      const frame = `[${events.map((e) => encodeEvent(e as never)).join(',')}]`;
      for (const c of wss.clients) c.send(frame);
    },
    async close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
      await new Promise((r) => http.close(r));
    },
  };
}

function clients(url: string, n: number, key?: string): Promise<ChildProcess> {
  const child = fork(new URL('./stream-clients.ts', import.meta.url).pathname, [url, String(n), ...(key ? [key] : [])], {
    execArgv: ['--import', 'tsx'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { type: string }) => (m.type === 'ready' ? resolve(child) : reject(new Error(String(m.type)))));
    child.once('exit', (code) => reject(new Error(`clients exited with ${code}`)));
  });
}

function ask(child: ChildProcess, type: string): Promise<{ events: number; latencies: number[] }> {
  return new Promise((resolve) => {
    const on = (m: { type: string; events: number; latencies: number[] }) => {
      if (m.type !== 'report') return;
      child.off('message', on);
      resolve(m);
    };
    child.on('message', on);
    child.send({ type });
  });
}

let seq = 0;
function batch(withTime: boolean): Record<string, unknown>[] {
  const now = withTime ? performance.timeOrigin + performance.now() : 0;
  return Array.from({ length: BATCH }, () => {
    seq++;
    const e: Record<string, unknown> = { ev: 'T', sym: `S${seq % 500}`, x: 4, i: String(seq), z: 3, p: 100 + (seq % 100) / 100, s: 100, t: 1749825067412 + seq, q: seq };
    if (withTime) e.lt = now;
    return e;
  });
}

/** Publishes as fast as delivery keeps up (a batch per event-loop turn) and counts deliveries. */
async function fanout(server: Server, n: number): Promise<number> {
  const child = await clients(server.url, n, server.key);
  child.send({ type: 'reset' });
  const until = Date.now() + SECONDS * 1000;
  while (Date.now() < until) {
    server.publish(batch(false));
    await new Promise((r) => setImmediate(r));
  }
  await new Promise((r) => setTimeout(r, 500)); // let queued frames arrive
  const { events } = await ask(child, 'report');
  child.send({ type: 'exit' });
  return events / SECONDS;
}

async function latency(server: Server, n: number, rate: number): Promise<{ p50: number; p99: number; delivered: number }> {
  const child = await clients(server.url, n, server.key);
  child.send({ type: 'reset' });
  const tickMs = 10;
  const perTick = Math.round((rate * tickMs) / 1000);
  const start = Date.now();
  let sent = 0;
  while (Date.now() - start < SECONDS * 1000) {
    const due = Math.floor((Date.now() - start) / tickMs) * perTick;
    while (sent < due) {
      server.publish(batch(true).slice(0, Math.min(BATCH, due - sent)));
      sent += Math.min(BATCH, due - sent);
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await new Promise((r) => setTimeout(r, 500));
  const { events, latencies } = await ask(child, 'report');
  child.send({ type: 'exit' });
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), delivered: events / SECONDS };
}

async function idleMemory(n: number): Promise<number> {
  const server = await tickerbase();
  const child = await clients(server.url, n, server.key);
  global.gc?.();
  await new Promise((r) => setTimeout(r, 1000));
  const rss = process.memoryUsage().rss;
  child.send({ type: 'exit' });
  await server.close();
  return rss;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main(): Promise<void> {
  console.log(`stream fan-out (${SECONDS} s per figure, ${BATCH}-event batches, clients in their own process)`);
  for (const n of quick ? [100] : [100, 1000]) {
    const b = await bare();
    const bareRate = await fanout(b, n);
    await b.close();
    const t = await tickerbase();
    const tbRate = await fanout(t, n);
    await t.close();
    console.log(`  ${n} subscribers of T.*: tickerbase ${fmt(tbRate)} events/s delivered, bare ws ${fmt(bareRate)} events/s; ratio ${(tbRate / bareRate).toFixed(2)}x (goal >= 0.5x)`);
  }
  for (const [name, make] of [['bare ws', bare], ['tickerbase', tickerbase]] as const) {
    const s = await make();
    const l = await latency(s, 100, 20_000);
    await s.close();
    console.log(`  latency at 20,000 events/s to 100 subscribers, ${name}: p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms (goal p99 <= 50 ms: ${(l.p99 / 50).toFixed(2)} of it); ${fmt(l.delivered)} events/s delivered of 2,000,000 asked`);
  }
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
