// The publisher of bench/live.ts, in its own process: POSTs trades to /admin/publish at a fixed
// rate (events/s, a batch every 20 ms) or, with rate 0, as fast as the server takes batches of
// 5,000 (two requests in flight), cycling over the given tickers. Each trade's `t` is the wall
// clock (ms) when its batch was sent, which the subscribers read latency from. Over IPC: 'report'
// answers { sent, stored, refused, publishMs: [p50, p99] } since the last 'reset'; 'stop' ends.
// Args: <server url> <admin token> <rate> <comma-separated tickers>.
const [url, token, rateArg, tickerArg] = process.argv.slice(2);
const rate = Number(rateArg);
const tickers = tickerArg!.split(',');
let seq = 0;
let sent = 0;
let stored = 0;
let refused = 0;
let times: number[] = [];
let stopped = false;

function batch(n: number): string {
  const t = Date.now();
  let out = '';
  for (let i = 0; i < n; i++) {
    const k = seq++;
    const sym = tickers[k % tickers.length];
    out += `{"ev":"T","sym":"${sym}","x":4,"i":"b${process.pid}-${k}","p":${(100 + (k % 997) / 100).toFixed(2)},"s":${1 + (k % 300)},"t":${t},"q":${k}}\n`;
  }
  return out;
}

async function post(n: number): Promise<void> {
  const started = performance.now();
  try {
    const res = await fetch(`${url}/admin/publish`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' }, body: batch(n) });
    const body = (await res.json()) as { trades_stored?: number; data?: { trades_stored?: number } };
    if (res.status !== 200) refused += n;
    else {
      sent += n;
      stored += body.trades_stored ?? body.data?.trades_stored ?? 0;
    }
  } catch {
    refused += n;
  }
  times.push(performance.now() - started);
}

async function paced(): Promise<void> {
  const start = performance.now();
  let due = 0;
  while (!stopped) {
    const want = Math.floor(((performance.now() - start) / 1000) * rate) - due;
    if (want > 0) {
      due += want;
      void post(want);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function flat(): Promise<void> {
  const lane = async () => {
    while (!stopped) await post(5000);
  };
  await Promise.all([lane(), lane()]);
}

const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]! : NaN);
process.on('message', (m) => {
  if (m === 'reset') {
    sent = stored = refused = 0;
    times = [];
  } else if (m === 'report') process.send!({ sent, stored, refused, publishMs: [pct(times, 0.5), pct(times, 0.99)] });
  else if (m === 'stop') {
    stopped = true;
    setTimeout(() => process.exit(0), 200);
  }
});
process.send!('ready');
void (rate > 0 ? paced() : flat());
