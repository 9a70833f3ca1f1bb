// The subscribers of bench/live.ts, in their own process: N WebSocket clients of /stocks, each
// subscribed to T.*, reading every frame and timing each trade from its `t` (the wall clock when
// the publisher sent it, ms) to its arrival. Over IPC: 'ready' once all are subscribed; on
// 'report' { events, p50, p99 } (ms) since the last 'reset', and `ours` { events, p50, p99 } of the
// events received between 'ours-start' and 'ours-end' (while the REST load runs against the
// server itself, not the bare one); on 'case' { events, p50, p99 } of those since the last 'case'.
// Latencies are whole milliseconds (Date.now() on both sides), counted in histograms of 1 ms
// bins: exact percentiles, and nothing in this process grows or is sorted while it measures (an
// array of millions of latencies, copied as it grew and sorted when asked, stalled this process
// and showed as feed latency).
// Args: <ws url> <key> <clients>.
import { WebSocket } from 'ws';

/** Counts of whole-millisecond latencies, 0 to 60 s (longer ones in the last bin). */
class Histogram {
  private counts = new Float64Array(60_001);
  n = 0;

  add(ms: number): void {
    this.counts[Math.max(0, Math.min(this.counts.length - 1, Math.round(ms)))]!++;
    this.n++;
  }

  /** The latency at or below which a share `p` of the counted ones lie; null when none. */
  pct(p: number): number | null {
    if (this.n === 0) return null;
    const rank = Math.min(this.n - 1, Math.floor(this.n * p));
    let seen = 0;
    for (let ms = 0; ms < this.counts.length; ms++) {
      seen += this.counts[ms]!;
      if (seen > rank) return ms;
    }
    return this.counts.length - 1;
  }

  summary(): { events: number; p50: number | null; p99: number | null } {
    return { events: this.n, p50: this.pct(0.5), p99: this.pct(0.99) };
  }
}

const [url, key, countArg] = process.argv.slice(2);
let latencies = new Histogram();
/** Latencies while the REST load targets the server itself. */
let ours = new Histogram();
/** The same, since the last 'case' (one case's rounds). */
let ofCase = new Histogram();
let inOurs = false;

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
          latencies.add(now - e.t);
          if (inOurs) {
            ours.add(now - e.t);
            ofCase.add(now - e.t);
          }
        }
      }
    });
  });
}

await Promise.all(Array.from({ length: Number(countArg) }, client));
process.on('message', (m) => {
  if (m === 'reset') {
    latencies = new Histogram();
    ours = new Histogram();
    ofCase = new Histogram();
  } else if (m === 'ours-start') inOurs = true;
  else if (m === 'ours-end') inOurs = false;
  else if (m === 'case') {
    process.send!(ofCase.summary());
    ofCase = new Histogram();
  } else if (m === 'report') process.send!({ ...latencies.summary(), ours: ours.summary() });
});
process.send!('ready');
