// The fake upstream of bench/relay.ts, in its own process: a `ws` server speaking the feed's
// protocol (connected, auth with any key, subscription acknowledgements) that, on 'run', sends
// trade events at a fixed rate to every connection subscribed to T.*, each frame encoded once.
// The first event of every batch carries `"~":<events in the batch>,"lt":<send time, µs of the
// monotonic clock>` for bench/stream-clients.ts to count and time (see there).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

const http = createServer();
const wss = new WebSocketServer({ server: http, perMessageDeflate: false });
const subscribed = new Set<WebSocket>();
const status = (s: string, message: string) => JSON.stringify([{ ev: 'status', status: s, message }]);

wss.on('connection', (ws) => {
  ws.send(status('connected', 'Connected Successfully'));
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data)) as { action: string; params: string };
    if (msg.action === 'auth') return ws.send(status('auth_success', 'authenticated'));
    for (const t of msg.params.split(',')) {
      if (msg.action === 'subscribe' && t === 'T.*') subscribed.add(ws);
      if (msg.action === 'unsubscribe' && t === 'T.*') subscribed.delete(ws);
      ws.send(status('success', `${msg.action === 'subscribe' ? 'subscribed' : 'unsubscribed'} to: ${t}`));
    }
  });
  ws.on('close', () => subscribed.delete(ws));
});

const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
let seq = 0;

function frame(n: number): Buffer {
  const lt = nowUs();
  const parts: string[] = [];
  for (let k = 0; k < n; k++) {
    seq++;
    const head = k === 0 ? `"~":${n},"lt":${lt},` : '';
    parts.push(`{${head}"ev":"T","sym":"S${seq % 500}","x":4,"i":"${seq}","z":3,"p":${100 + (seq % 100) / 100},"s":100,"t":${1749825067412 + seq},"q":${seq}}`);
  }
  return Buffer.from(`[${parts.join(',')}]`);
}

/** Sends `rate` events a second for `seconds`, in batches every millisecond or so. */
async function run(rate: number, seconds: number): Promise<number> {
  const start = Date.now();
  let sent = 0;
  while (Date.now() - start < seconds * 1000) {
    const due = Math.floor(((Date.now() - start) * rate) / 1000);
    if (due > sent) {
      const f = frame(due - sent);
      for (const ws of subscribed) ws.send(f, { binary: false });
      sent = due;
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  return sent;
}

http.listen(0, '127.0.0.1', () => {
  process.send!({ type: 'ready', port: (http.address() as AddressInfo).port });
});
process.on('message', (m: { type: string; rate?: number; seconds?: number }) => {
  if (m.type === 'cpu') process.send!({ type: 'cpu', micros: cpuMicros() });
  else if (m.type === 'subscribers') process.send!({ type: 'subscribers', count: subscribed.size });
  else if (m.type === 'run') void run(m.rate!, m.seconds!).then((sent) => process.send!({ type: 'done', sent }));
  else if (m.type === 'exit') process.exit(0);
});
