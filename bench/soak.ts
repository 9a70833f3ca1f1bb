// `npm run soak -- --duration 30 --rate 200`: mixed-route load at a fixed request rate against a
// Tickerbase it starts on loopback (demo data, SQLite), for a bounded time and request count.
// Reports errors, statuses, latency percentiles and the server's RSS at start, peak and end.
// Not a test: it prints figures and exits non-zero only on server errors (5xx, resets, timeouts).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startChild } from './lib.js';

interface AutocannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p90: number; p99: number; max: number; average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  resets?: number;
  statusCodeStats?: Record<string, { count: number }>;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  overallRate: number;
  timeout: number;
  headers: Record<string, string>;
  requests: { method: 'GET'; path: string }[];
}
const autocannon = createRequire(import.meta.url)('autocannon') as (o: AutocannonOptions) => Promise<AutocannonResult>;

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '30' },
    rate: { type: 'string', default: '200' },
    connections: { type: 'string', default: '20' },
    envelope: { type: 'string', default: 'native' },
  },
});
function bounded(name: string, value: string | undefined, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer from ${min} to ${max}`);
  return n;
}
const duration = bounded('duration', args.duration, 1, 3600);
const rate = bounded('rate', args.rate, 1, 20_000);
const connections = bounded('connections', args.connections, 1, 1000);
const envelope = args.envelope === 'wrapped' ? 'wrapped' : 'native';

// A mix of cheap and heavy reads across the API; routes not present (or not answering 200 on the
// demo data) are dropped after a warm-up request.
const CANDIDATES = [
  '/v3/reference/tickers?limit=100',
  '/v3/reference/tickers?limit=1000&market=stocks',
  '/v3/reference/tickers/AAPL',
  '/v3/reference/tickers/MSFT',
  '/v3/reference/tickers/types',
  '/v3/reference/exchanges',
  '/v3/reference/conditions?limit=50',
  '/v3/reference/dividends?ticker=AAPL',
  '/v3/reference/splits',
  '/v2/aggs/ticker/AAPL/range/1/day/2026-01-01/2026-11-20',
  '/v2/aggs/ticker/MSFT/range/5/minute/2026-11-19/2026-11-20',
  '/v2/aggs/ticker/SPY/prev',
  '/v2/aggs/grouped/locale/us/market/stocks/2026-11-19',
  '/v1/open-close/AAPL/2026-11-19',
  '/v3/trades/AAPL?limit=100',
  '/v3/quotes/AAPL?limit=100',
  '/v2/last/trade/AAPL',
  '/v2/last/nbbo/AAPL',
  '/v2/snapshot/locale/us/markets/stocks/tickers/AAPL',
  '/v2/snapshot/locale/us/markets/stocks/gainers',
  '/v3/snapshot/options/AAPL?limit=50',
  '/v1/indicators/sma/AAPL?window=20',
  '/v1/indicators/macd/AAPL',
  '/v1/marketstatus/now',
  '/v1/marketstatus/upcoming',
  '/v2/reference/news?ticker=AAPL&limit=20',
  '/v1/conversion/EUR/USD?amount=100',
  '/fed/v1/treasury-yields',
  '/v3/reference/tickers/NOSUCHTICKER', // a 404 in the mix
];

/** The server's resident set size in MiB, from its own /metrics. */
async function serverRss(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('tickerbase_process_resident_memory_bytes '));
  return line ? Number(line.split(' ')[1]) / 2 ** 20 : NaN;
}

const dir = mkdtempSync(join(tmpdir(), 'tickerbase-soak-'));
let exitCode = 0;
try {
  process.stderr.write('starting the server (demo data on first start)…\n');
  const server = await startChild('bench/targets/tickerbase.ts', [dir, envelope]);
  try {
    const { openStore } = await import('../src/store/index.js');
    const store = await openStore({ dataDir: dir });
    const { key } = await store.keys.create({ plan: 'demo', label: 'soak' });
    await store.close();
    const headers = { 'x-api-key': key };
    const paths: string[] = [];
    for (const p of CANDIDATES) {
      const res = await fetch(`${server.url}${p}`, { headers });
      await res.arrayBuffer();
      if (res.status === 200 || (res.status === 404 && p.includes('NOSUCH'))) paths.push(p);
    }
    const rssStart = await serverRss(server.url);
    let rssPeak = rssStart;
    const sampler = setInterval(() => {
      void serverRss(server.url).then((r) => (rssPeak = Math.max(rssPeak, r)), () => {});
    }, 2000);
    console.log(`soak: ${duration} s at ${rate} req/s (at most ${duration * rate} requests), ${connections} connections, ${paths.length} routes, ${envelope} envelope, loopback`);
    const r = await autocannon({
      url: server.url,
      connections,
      duration,
      overallRate: rate,
      timeout: 10,
      headers,
      requests: paths.map((path) => ({ method: 'GET', path })),
    });
    clearInterval(sampler);
    const rssEnd = await serverRss(server.url);
    const statuses = Object.entries(r.statusCodeStats ?? {}).map(([s, v]) => `${s}: ${v.count}`).join(', ');
    const serverErrors = Object.entries(r.statusCodeStats ?? {}).filter(([s]) => Number(s) >= 500).reduce((n, [, v]) => n + v.count, 0);
    console.log(`requests   ${r.requests.total} (${r.requests.average.toFixed(0)} req/s)   statuses ${statuses}`);
    console.log(`errors     ${r.errors} connection errors, ${r.timeouts} timeouts, ${serverErrors} 5xx (404s are part of the mix)`);
    console.log(`latency    p50 ${r.latency.p50} ms  p90 ${r.latency.p90} ms  p99 ${r.latency.p99} ms  max ${r.latency.max} ms  mean ${r.latency.average.toFixed(1)} ms`);
    console.log(`server RSS start ${rssStart.toFixed(0)} MiB  peak ${rssPeak.toFixed(0)} MiB  end ${rssEnd.toFixed(0)} MiB  (${(rssEnd - rssStart >= 0 ? '+' : '')}${(rssEnd - rssStart).toFixed(0)} MiB)`);
    console.log(`routes     ${paths.join('  ')}`);
    if (r.errors + r.timeouts + serverErrors > 0) exitCode = 1;
  } finally {
    await server.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
