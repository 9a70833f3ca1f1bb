// Large tick and bar pages under load, against a bare node:http server sending the same bytes.
// For each case the Tickerbase server (its own process) and a bare server (its own process,
// answering every request with the body Tickerbase gave for that path) are driven in turn by
// wrk (its own process), ROUNDS times each, alternating so that other load on the shared
// machine hits both alike. Prints, per side, the median round: req/s, p99 latency and server
// CPU per request (utime+stime of the server process over the round / requests served), and the
// ratio Tickerbase / bare of req/s.
//
// Data (generated, deterministic): 60,000 AAPL trades and 60,000 AAPL quotes over one session
// (ns times, sequence numbers, conditions, some absent optional fields) and 50,880 minute bars.
// SQLite by default; PostgreSQL (schema bench_ticks_wrk, dropped afterwards) when
// BENCH_ENGINE=postgres and DATABASE_URL is set.
// Run: `npx tsx bench/ticks-wrk.ts` (env: ROUNDS=3, SECONDS=10, CONNECTIONS=4, CASES=trades,aggs1m).
// On a loaded machine a round may finish no request of a large page: its CPU is still printed.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sessionOn } from '../src/domain/calendar.js';
import type { QuoteRow, TradeRow } from '../src/domain/market-records.js';
import { openStore } from '../src/store/index.js';
import { sqlOf } from '../src/store/inspect.js';
import { PostgresDriver } from '../src/store/postgres/driver.js';
import { SERVER_ENV, SERVER_NODE_FLAGS, serveStore } from './lib.js';
import { minuteBars, rng, sessions } from './market-rows.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 4);
const PG_URL = process.env.BENCH_ENGINE === 'postgres' ? process.env.DATABASE_URL : undefined;
const PG_SCHEMA = 'bench_ticks_wrk';
const TICKER = 'AAPL';
const TICKS = 60_000;
const SESSION = '2026-11-20';
const NS_PER_MS = 1_000_000n;
const CLK_TCK = 100;

const open = (dir: string) => openStore(PG_URL ? { databaseUrl: PG_URL, schema: PG_SCHEMA } : { dataDir: dir });

function trades(): TradeRow[] {
  const rnd = rng(7);
  const s = sessionOn(SESSION)!;
  const out: TradeRow[] = [];
  let price = 190;
  for (let i = 0; i < TICKS; i++) {
    const sip = BigInt(s.open) * NS_PER_MS + BigInt(i) * 390_000_000n + BigInt(Math.floor(rnd() * 1e6));
    price = Math.max(1, Math.round(price * (1 + (rnd() - 0.5) * 0.0004) * 100) / 100);
    const odd = rnd();
    out.push({
      ticker: TICKER, sip_timestamp: sip, participant_timestamp: sip - BigInt(Math.floor(rnd() * 50_000)),
      trf_timestamp: odd < 0.2 ? sip - 1000n : undefined, price, size: odd < 0.1 ? 0.5 : 1 + Math.floor(rnd() * 500),
      exchange: 1 + Math.floor(rnd() * 20), id: String(10_000 + i), conditions: odd < 0.5 ? [12, 37] : undefined,
      correction: undefined, sequence_number: BigInt(1000 + i), tape: 3, trf_id: odd < 0.2 ? 201 : undefined,
    });
  }
  return out;
}

function quotes(): QuoteRow[] {
  const rnd = rng(11);
  const s = sessionOn(SESSION)!;
  const out: QuoteRow[] = [];
  let mid = 190;
  for (let i = 0; i < TICKS; i++) {
    const sip = BigInt(s.open) * NS_PER_MS + BigInt(i) * 390_000_000n + BigInt(Math.floor(rnd() * 1e6));
    mid = Math.max(1, Math.round(mid * (1 + (rnd() - 0.5) * 0.0004) * 100) / 100);
    out.push({
      ticker: TICKER, sip_timestamp: sip, participant_timestamp: sip - 7000n, trf_timestamp: undefined,
      ask_price: mid + 0.01, ask_size: 1 + Math.floor(rnd() * 9), ask_exchange: 1 + Math.floor(rnd() * 20),
      bid_price: mid - 0.01, bid_size: 1 + Math.floor(rnd() * 9), bid_exchange: 1 + Math.floor(rnd() * 20),
      conditions: [1], indicators: rnd() < 0.1 ? [604] : undefined, sequence_number: BigInt(5000 + i), tape: 3,
    });
  }
  return out;
}

interface Child {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** `node <flags> --import tsx bench/ticks-wrk.ts <args>`, resolved once it prints LISTENING <url>. */
function child(args: string[]): Promise<Child> {
  return new Promise((resolve, reject) => {
    const p: ChildProcess = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', 'bench/ticks-wrk.ts', ...args], {
      env: { ...process.env, ...SERVER_ENV },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buf = '';
    p.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /LISTENING (\S+)/.exec(buf);
      if (m) resolve({ url: m[1]!, pid: p.pid!, stop: () => new Promise((r) => (p.once('exit', () => r()), p.kill('SIGTERM'))) });
    });
    p.once('exit', (code) => reject(new Error(`child ${args[0]} exited with ${code}`)));
  });
}

/** utime + stime of a process, in seconds. */
function cpuSeconds(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / CLK_TCK;
}

interface Round {
  rps: number;
  p99ms: number;
  cpuMsPerReq: number;
  cpuSeconds: number;
  requests: number;
  errors: number;
}

function ms(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === 'us' ? v / 1000 : m[2] === 'ms' ? v : m[2] === 's' ? v * 1000 : v * 60_000;
}

function wrk(url: string, pid: number, key: string): Round {
  const before = cpuSeconds(pid);
  const r = spawnSync('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--timeout', '10s', '--latency', '-H', `x-api-key: ${key}`, url], { encoding: 'utf8' });
  const cpu = cpuSeconds(pid) - before;
  if (r.status !== 0) throw new Error(`wrk failed: ${r.stderr}`);
  const out = r.stdout;
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const errors = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0)
    + [...out.matchAll(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/g)].reduce((n, m) => n + Number(m[1]) + Number(m[2]) + Number(m[3]) + Number(m[4]), 0);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    p99ms: ms(/\s99%\s+(\S+)/.exec(out)?.[1] ?? ''),
    cpuMsPerReq: requests ? (cpu * 1000) / requests : NaN,
    cpuSeconds: cpu,
    requests,
    errors,
  };
}

const medianBy = (rounds: Round[]): Round => [...rounds].sort((a, b) => a.rps - b.rps)[Math.floor(rounds.length / 2)]!;

async function serve(dir: string): Promise<void> {
  const store = await open(dir);
  await serveStore(store);
}

/** The bare baseline: every request answered with the bytes of `file`, as JSON. */
function bare(file: string): void {
  const body = readFileSync(file);
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => {
    const a = server.address() as { port: number };
    process.stdout.write(`LISTENING http://127.0.0.1:${a.port}\n`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tb-bench-ticks-wrk-'));
  try {
    const store = await open(dir);
    if (PG_URL) for (const t of ['trades', 'quotes', 'minute_bars']) await sqlOf(store).exec(`DELETE FROM ${t}`);
    await store.market.insertTrades(trades());
    await store.market.insertQuotes(quotes());
    const days = sessions(SESSION, 53);
    const bars = minuteBars(TICKER, days);
    for (let i = 0; i < bars.length; i += 10_000) await store.market.insertBars('minute', bars.slice(i, i + 10_000));
    const { key } = await store.keys.create({ plan: 'demo', label: 'bench' });
    await store.close();

    const all = [
      { name: 'trades', path: `/v3/trades/${TICKER}?limit=50000` },
      { name: 'quotes', path: `/v3/quotes/${TICKER}?limit=50000` },
      { name: 'aggs1m', path: `/v2/aggs/ticker/${TICKER}/range/1/minute/${days[0]}/${SESSION}?limit=50000` },
      { name: 'aggs1h', path: `/v2/aggs/ticker/${TICKER}/range/1/hour/${days[0]}/${SESSION}?limit=50000` },
    ];
    const wanted = process.env.CASES?.split(',');
    const cases = wanted ? all.filter((c) => wanted.includes(c.name)) : all;
    const server = await child(['serve', dir]);
    console.log(`large pages under wrk (-t1 -c${CONNECTIONS}, ${SECONDS} s × ${ROUNDS} rounds per side, alternating), ${PG_URL ? 'PostgreSQL' : 'SQLite'}, envelope native`);
    for (const c of cases) {
      const res = await fetch(`${server.url}${c.path}`, { headers: { 'x-api-key': key } });
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200) throw new Error(`${c.path}: HTTP ${res.status} ${body.toString().slice(0, 300)}`);
      const file = join(dir, `${c.name}.json`);
      writeFileSync(file, body);
      const baseline = await child(['bare', file]);
      const tb: Round[] = [];
      const br: Round[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        tb.push(wrk(`${server.url}${c.path}`, server.pid, key));
        br.push(wrk(`${baseline.url}${c.path}`, baseline.pid, key));
      }
      await baseline.stop();
      const [t, b] = [medianBy(tb), medianBy(br)];
      const line = (label: string, r: Round) =>
        console.log(`  ${label.padEnd(10)} ${r.rps.toFixed(1).padStart(8)} req/s  p99 ${r.p99ms.toFixed(0).padStart(5)} ms  CPU ${r.cpuMsPerReq.toFixed(2).padStart(6)} ms/req  (${r.requests} requests, ${r.errors} errors, ${r.cpuSeconds.toFixed(1)} CPU s)`);
      console.log(`${c.name}: ${c.path} — ${(body.length / 1024).toFixed(0)} KiB`);
      line('tickerbase', t);
      line('bare', b);
      console.log(`  ratio ${(t.rps / b.rps).toFixed(3)}x of bare (goal >= 0.2x), p99 ${t.p99ms <= 1000 ? '<=' : '>'} 1 s`);
    }
    await server.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (PG_URL) {
      const admin = PostgresDriver.open(PG_URL, { max: 1 });
      await admin.exec(`DROP SCHEMA IF EXISTS ${PG_SCHEMA} CASCADE`);
      await admin.close();
    }
  }
}

if (process.argv[2] === 'serve') await serve(process.argv[3]!);
else if (process.argv[2] === 'bare') bare(process.argv[3]!);
else await main();
