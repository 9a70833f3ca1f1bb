// `node --import tsx bench/silent-db.ts [--src <checkout>] [--seconds 15] [--connections 10]`:
// request latency while PostgreSQL is reachable but silent. The server (`serve`, from the
// sources under --src, default this checkout) runs in its own process against PostgreSQL
// ($DATABASE_URL) through a TCP fault proxy; the load generator (autocannon) runs here. Phases:
// healthy, blackholed (the proxy accepts and forwards nothing), healed. Prints p50/p99/max,
// statuses and client timeouts per phase, and the ratio of the blackholed p99 to the client
// timeout measured in the same run. Not a test. To measure an older commit:
//   git archive <commit> src | tar -x -C /tmp/old && ln -s "$PWD/node_modules" /tmp/old/node_modules
//   node --import tsx bench/silent-db.ts --src /tmp/old
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../src/store/index.js';
import { PostgresDriver } from '../src/store/postgres/driver.js';
import { FaultProxy } from '../test/helpers/fault-proxy.js';

interface Result {
  requests: { total: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  statusCodeStats?: Record<string, { count: number }>;
}
type Autocannon = (o: { url: string; connections: number; duration: number; timeout: number; headers: Record<string, string>; requests: { method: 'GET'; path: string }[] }) => Promise<Result>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const { values: args } = parseArgs({ options: { src: { type: 'string', default: '.' }, seconds: { type: 'string', default: '15' }, connections: { type: 'string', default: '10' } } });
const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) {
  console.log('silent-db: DATABASE_URL is not set; nothing to measure');
  process.exit(0);
}
const seconds = Number(args.seconds);
const connections = Number(args.connections);
const CLIENT_TIMEOUT_S = 10;
const src = resolve(args.src!);

const schema = `tb_bench_${randomBytes(5).toString('hex')}`;
const setup = await openStore({ databaseUrl: DATABASE_URL, schema });
const tickers = ['AAPL', 'MSFT', 'SPY', 'QQQ', 'IBM'].map((t) => ({ ticker: t, name: `${t} Inc.`, market: 'stocks' as const, locale: 'us' as const, active: true, primary_exchange: 'XNAS', type: 'CS', currency_name: 'usd', last_updated_utc: '2026-11-20T00:00:00Z', valid_from: '2000-01-01' }));
await setup.reference.upsertTickers(tickers);
const { key } = await setup.keys.create({ plan: 'demo', label: 'bench' });
const db = new URL(DATABASE_URL);
const proxy = await new FaultProxy(db.hostname, Number(db.port || 5432)).start();
const via = new URL(proxy.url(DATABASE_URL));
via.searchParams.set('options', `-c search_path=${schema}`);

// the server from the chosen sources, in its own process
const child = spawn(process.execPath, ['--import', 'tsx', 'bench/targets/serve-from.ts', src, 'serve', '--database-url', via.toString(), '--port', '0', '--host', '127.0.0.1', '--demo', 'no', '--response-cache', '0'], {
  env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise<string>((res, rej) => {
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    const m = /listening on (http:\/\/\S+)/.exec(out);
    if (m) res(m[1]!);
  });
  child.once('exit', (code) => rej(new Error(`serve exited with ${code}`)));
});

const requests = tickers.flatMap((t) => [{ method: 'GET' as const, path: `/v3/reference/tickers/${t.ticker}` }, { method: 'GET' as const, path: `/v3/reference/tickers?limit=3&ticker.gte=${t.ticker}` }]);
async function phase(name: string, duration: number): Promise<Result> {
  const r = await autocannon({ url, connections, duration, timeout: CLIENT_TIMEOUT_S, headers: { 'x-api-key': key }, requests });
  const statuses = Object.entries(r.statusCodeStats ?? {}).map(([s, v]) => `${s}: ${v.count}`).join(', ') || 'none';
  console.log(`${name.padEnd(10)} requests ${String(r.requests.total).padStart(6)}  p50 ${String(r.latency.p50).padStart(5)} ms  p99 ${String(r.latency.p99).padStart(5)} ms  max ${String(r.latency.max).padStart(5)} ms  timeouts ${r.timeouts}  errors ${r.errors - r.timeouts}  statuses ${statuses}`);
  return r;
}

try {
  console.log(`silent-db: ${src === resolve('.') ? 'this checkout' : src}, ${connections} connections, client timeout ${CLIENT_TIMEOUT_S} s, loopback`);
  await phase('healthy', 3);
  proxy.blackhole();
  const dark = await phase('blackhole', seconds);
  proxy.pass();
  await phase('healed', 5);
  console.log(`blackholed p99 / client timeout: ${(dark.latency.p99 / (CLIENT_TIMEOUT_S * 1000)).toFixed(2)} (1.00 = every request hung until the client gave up)`);
} finally {
  child.kill('SIGKILL');
  await proxy.stop();
  await setup.close();
  const admin = PostgresDriver.open(DATABASE_URL, { max: 1 });
  await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => admin.close());
}
process.exit(0);
