// The subscribers of bench/live.ts, in their own process: N WebSocket clients of /stocks, each
// subscribed to T.*, reading every frame and timing each trade from its `t` (the wall clock when
// the publisher sent it, ms) to its arrival. Over IPC: 'ready' once all are subscribed; on
// 'report' { events, p50, p99 } (ms) since the last 'reset'.
// Args: <ws url> <key> <clients>.
import { WebSocket } from 'ws';

const [url, key, countArg] = process.argv.slice(2);
let latencies: number[] = [];
let events = 0;

function client(): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url!, { perMessageDeflate: false });
    ws.on('error', reject);
    ws.on('message', (data: Buffer) => {
      const now = Date.now();
      for (const e of JSON.parse(data.toString()) as { ev: string; status?: string; t?: number }[]) {
        if (e.ev === 'status') {
          if (e.status === 'auth_success') ws.send(JSON.stringify({ action: 'subscribe', params: 'T.*' }));
          else if (e.status === 'success') resolve();
          else if (e.status !== 'connected') reject(new Error(`feed: ${JSON.stringify(e)}`));
          else ws.send(JSON.stringify({ action: 'auth', params: key }));
        } else if (e.ev === 'T' && e.t !== undefined) {
          events++;
          latencies.push(now - e.t);
        }
      }
    });
  });
}

await Promise.all(Array.from({ length: Number(countArg) }, client));
const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]! : NaN);
process.on('message', (m) => {
  if (m === 'reset') {
    latencies = [];
    events = 0;
  } else if (m === 'report') process.send!({ events, p50: pct(latencies, 0.5), p99: pct(latencies, 0.99) });
});
process.send!('ready');
