// The load generator of bench/stream-fanout.ts, in its own process: opens N WebSocket clients
// (authenticated and subscribed to T.* on Tickerbase; plain on the bare server), counts the
// events they receive and the publish→receive latency of events that carry `lt` (a wall-clock
// time in ms with a fraction). Talks to the parent over IPC: 'ready', then on 'report' sends
// counts and latencies since the last 'reset'.
import { WebSocket } from 'ws';

const [url, countArg, key] = process.argv.slice(2);
const count = Number(countArg);
let events = 0;
let latencies: number[] = [];
const clients: WebSocket[] = [];

function onFrame(data: Buffer): void {
  const text = data.toString();
  if (text.startsWith('[{"ev":"status"')) return;
  // count events without a full parse (every event starts with {"ev":), and sample latency
  let i = text.indexOf('{"ev":');
  while (i >= 0) {
    events++;
    i = text.indexOf('{"ev":', i + 6);
  }
  const lt = /"lt":(\d+(?:\.\d+)?)/.exec(text);
  if (lt) latencies.push(performance.timeOrigin + performance.now() - Number(lt[1]));
}

async function open(): Promise<void> {
  const ws = new WebSocket(url!, { perMessageDeflate: false });
  clients.push(ws);
  await new Promise<void>((resolve, reject) => {
    let authed = !key;
    ws.on('message', (data: Buffer) => {
      if (!authed) {
        const text = data.toString();
        if (text.includes('"auth_success"')) {
          authed = true;
          ws.send(JSON.stringify({ action: 'subscribe', params: 'T.*' }));
        } else if (text.includes('"auth_failed"')) reject(new Error(text));
        return;
      }
      if (key && data.toString().includes('subscribed to: T.*')) {
        ws.on('message', onFrame);
        ws.removeAllListeners('message');
        ws.on('message', onFrame);
        resolve();
      }
    });
    ws.on('open', () => {
      if (key) ws.send(JSON.stringify({ action: 'auth', params: key }));
      else {
        ws.removeAllListeners('message');
        ws.on('message', onFrame);
        resolve();
      }
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
      latencies = [];
    } else if (m.type === 'report') {
      process.send!({ type: 'report', events, latencies });
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
