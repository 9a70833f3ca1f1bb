// The load generator of bench/stream-fanout.ts, in its own process: opens N WebSocket clients
// (authenticated and subscribed to T.* on Tickerbase; plain on the bare server) and counts what
// they receive without parsing frames, so that reading 2,000,000 events a second costs this
// process little and the figures measure the server:
// - the first event of every published batch carries `"~":<events in the batch>,"lt":<publish
//   time>` (µs of the monotonic clock, which every process on the machine shares). `~` appears
//   nowhere else in the bench's frames, so one memchr per frame finds the batch heads; events are
//   counted from them and latency is read from `lt` (digits read from the bytes);
// - the first connection of the process is also counted event by event (`{` bytes: the bench's
//   events hold no nested objects), and that count is reported beside its batch-head count: once
//   every frame has arrived they are equal, which shows the batch heads count what was received
//   (a batch cut across frames by the frame cap is counted with its head);
// - UTF-8 validation is skipped (the bytes are never decoded).
// Talks to the parent over IPC: 'ready', then on 'report' sends counts, latencies and this
// process's CPU time since the last 'reset'.
import { WebSocket } from 'ws';

const [url, countArg, key] = process.argv.slice(2);
const count = Number(countArg);
const TILDE = 0x7e;
const BRACE = 0x7b;

let events = 0;
let frames = 0;
/** The audited connection: events counted from batch heads, and counted one by one. */
let auditHeads = 0;
let auditEvents = 0;
let latencies: number[] = [];
let cpuAtReset = process.cpuUsage();
let wallAtReset = performance.now();
const clients: WebSocket[] = [];

/** The unsigned integer whose digits start at `at`, and where it ends. */
function readInt(buf: Buffer, at: number): [number, number] {
  let n = 0;
  let i = at;
  for (; i < buf.length; i++) {
    const c = buf[i]! - 48;
    if (c < 0 || c > 9) break;
    n = n * 10 + c;
  }
  return [n, i];
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

function onFrame(this: WebSocket, data: Buffer): void {
  // status frames start [{"ev":"status": byte 8 is 's' only for them
  if (data[8] === 0x73) return;
  const now = nowUs();
  let inFrame = 0;
  // `~":<n>,"lt":<us>`: the key's closing quote and colon are 2 bytes after the tilde
  for (let i = data.indexOf(TILDE); i >= 0; i = data.indexOf(TILDE, i + 1)) {
    const [n, end] = readInt(data, i + 3);
    const [lt] = readInt(data, end + 6);
    inFrame += n;
    latencies.push((now - lt) / 1000);
  }
  events += inFrame;
  frames++;
  if (this === clients[0]) {
    auditHeads += inFrame;
    for (let i = data.indexOf(BRACE); i >= 0; i = data.indexOf(BRACE, i + 1)) auditEvents++;
  }
}

async function open(): Promise<void> {
  const ws = new WebSocket(url!, { perMessageDeflate: false, skipUTF8Validation: true });
  clients.push(ws);
  await new Promise<void>((resolve, reject) => {
    const ready = () => {
      ws.removeAllListeners('message');
      ws.on('message', onFrame);
      resolve();
    };
    ws.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text.includes('"auth_success"')) ws.send(JSON.stringify({ action: 'subscribe', params: 'T.*' }));
      else if (text.includes('"auth_failed"')) reject(new Error(text));
      else if (text.includes('subscribed to: T.*')) ready();
    });
    ws.on('open', () => {
      if (key) ws.send(JSON.stringify({ action: 'auth', params: key }));
      else ready();
    });
    ws.on('error', reject);
  });
}

async function main(): Promise<void> {
  const batch = 200;
  for (let i = 0; i < count; i += batch) await Promise.all(Array.from({ length: Math.min(batch, count - i) }, () => open()));
  process.send!({ type: 'ready' });
  process.on('message', (m: { type: string }) => {
    if (m.type === 'reset') {
      events = 0;
      frames = 0;
      auditHeads = 0;
      auditEvents = 0;
      latencies = [];
      cpuAtReset = process.cpuUsage();
      wallAtReset = performance.now();
    } else if (m.type === 'report') {
      const cpu = process.cpuUsage(cpuAtReset);
      const cpuMicros = cpu.user + cpu.system;
      const cpuShare = cpuMicros / 1000 / (performance.now() - wallAtReset);
      process.send!({ type: 'report', events, frames, auditHeads, auditEvents, latencies, cpuShare, cpuMicros });
    } else if (m.type === 'exit') {
      for (const c of clients) c.terminate();
      process.exit(0);
    }
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`stream-clients: ${(err as Error).message}\n`);
  process.exit(1);
});
