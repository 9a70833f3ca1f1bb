// Tick store at scale: N generated trades (default 100,000,000) over DAYS trading sessions for
// TICKERS tickers, written through the import path's write call (store.market.insertTrades, in
// batches as a flat-file import makes them), plus minute bars of the busiest tickers. Then, through the
// HTTP server in its own process, the latency of a one-day trades page (/v3/trades, limit 50000)
// and of 1-minute aggregates over one day for one ticker, requests one at a time over varying
// tickers and days (p50/p99 over REQUESTS each). Prints import rows/s, store size and latencies;
// drops the data afterwards (--keep keeps it).
//
// Trades are skewed as a real tape is: the 10 busiest tickers take half of all trades (at 100M
// rows over 20 days: 250,000 per ticker-day, so a one-day page is a full 50,000 rows), the
// others share the rest. Rows of a day come in upstream's file order (ticker, then time).
//
// PostgreSQL (DATABASE_URL, schema bench_pg_scale) by default; `--engine sqlite` for the same
// run on SQLite (a temporary directory), to compare at sizes both can hold.
// Run: `DATABASE_URL=postgres://… npx tsx bench/pg-scale.ts [--rows N] [--days 20] [--tickers 300]
//       [--engine postgres|sqlite] [--requests 40] [--keep]`
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sessionOn } from '../src/domain/calendar.js';
import type { TradeRow } from '../src/domain/market-records.js';
import { openStore, type Store } from '../src/store/index.js';
import { sqlOf } from '../src/store/inspect.js';
import { PostgresDriver } from '../src/store/postgres/driver.js';
import { serveStore, startChild } from './lib.js';
import { minuteBars, rng, sessions } from './market-rows.js';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000000' },
    days: { type: 'string', default: '20' },
    tickers: { type: 'string', default: '300' },
    engine: { type: 'string', default: 'postgres' },
    requests: { type: 'string', default: '40' },
    keep: { type: 'boolean', default: false },
    serve: { type: 'string' },
  },
});

const PG_URL = process.env.DATABASE_URL;
const SCHEMA = 'bench_pg_scale';
const LAST_SESSION = '2026-11-20';
const BATCH = 100_000;
const HEAVY = 10;
const NS_PER_MS = 1_000_000n;

const openBench = (engine: string, dir: string): Promise<Store> =>
  engine === 'postgres' ? openStore({ databaseUrl: PG_URL!, schema: SCHEMA, poolSize: 4 }) : openStore({ dataDir: dir });

const tickerName = (i: number) => (i < HEAVY ? `H${String(i).padStart(2, '0')}` : `T${String(i).padStart(4, '0')}`);

/** Trades per ticker per day: half of a day's trades to the HEAVY busiest tickers, the rest shared. */
function tradesPerTickerDay(rows: number, days: number, tickers: number): number[] {
  const perDay = Math.floor(rows / days);
  const heavy = Math.floor(perDay / 2 / HEAVY);
  const light = Math.floor((perDay - heavy * HEAVY) / (tickers - HEAVY));
  const out = Array.from({ length: tickers }, (_, i) => (i < HEAVY ? heavy : light));
  out[tickers - 1]! += perDay - out.reduce((a, b) => a + b, 0);
  return out;
}

/** One ticker's trades of one session, spread over 04:00-20:00 ET, in time order. */
function* dayTrades(ticker: string, session: string, n: number, seed: number): Generator<TradeRow> {
  const s = sessionOn(session)!;
  const start = BigInt(s.preOpen) * NS_PER_MS;
  const step = (BigInt(s.postClose - s.preOpen) * NS_PER_MS) / BigInt(Math.max(1, n));
  const rnd = rng(seed);
  let price = 50 + (seed % 200);
  for (let i = 0; i < n; i++) {
    const sip = start + BigInt(i) * step + BigInt(Math.floor(rnd() * Number(step > 1000n ? 1000n : step)));
    price = Math.max(1, Math.round(price * (1 + (rnd() - 0.5) * 0.0004) * 100) / 100);
    const odd = rnd();
    yield {
      ticker, sip_timestamp: sip, participant_timestamp: sip - 20_000n, trf_timestamp: odd < 0.2 ? sip - 1000n : undefined,
      price, size: odd < 0.1 ? 0.5 : 1 + Math.floor(rnd() * 500), exchange: 1 + Math.floor(odd * 20), id: String(i + 1),
      conditions: odd < 0.5 ? [12, 37] : undefined, correction: undefined, sequence_number: BigInt(i + 1), tape: 3,
      trf_id: odd < 0.2 ? 201 : undefined,
    };
  }
}

async function load(store: Store, rows: number, days: string[], tickers: number): Promise<{ trades: number; seconds: number; bars: number; barSeconds: number }> {
  const per = tradesPerTickerDay(rows, days.length, tickers);
  let written = 0;
  let batch: TradeRow[] = [];
  let inFlight: Promise<number> | undefined;
  const t0 = performance.now();
  let lastReport = t0;
  // The next batch is generated while the previous one is being written.
  const flush = async () => {
    if (inFlight) written += await inFlight;
    inFlight = batch.length > 0 ? store.market.insertTrades(batch) : undefined;
    batch = [];
    const now = performance.now();
    if (now - lastReport > 30_000) {
      lastReport = now;
      console.log(`  ${written.toLocaleString('en-US')} trades, ${Math.round(written / ((now - t0) / 1000)).toLocaleString('en-US')} rows/s`);
    }
  };
  for (const [d, session] of days.entries()) {
    for (let i = 0; i < tickers; i++) {
      for (const t of dayTrades(tickerName(i), session, per[i]!, d * 100_003 + i + 1)) {
        batch.push(t);
        if (batch.length === BATCH) await flush();
      }
    }
  }
  await flush();
  await flush();
  const seconds = (performance.now() - t0) / 1000;
  const b0 = performance.now();
  let bars = 0;
  for (let i = 0; i < Math.min(HEAVY, tickers); i++) bars += await store.market.insertBars('minute', minuteBars(tickerName(i), days));
  return { trades: written, seconds, bars, barSeconds: (performance.now() - b0) / 1000 };
}

async function storeBytes(store: Store, engine: string): Promise<number> {
  const db = sqlOf(store);
  if (engine === 'postgres') {
    const r = await db.get(`SELECT SUM(pg_total_relation_size(c.oid)) AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = ? AND c.relkind = 'r'`, [SCHEMA]);
    return Number(r?.n ?? 0);
  }
  const pages = await db.get('PRAGMA page_count');
  const size = await db.get('PRAGMA page_size');
  return Number(Object.values(pages ?? {})[0]) * Number(Object.values(size ?? {})[0]);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Latency of `n` GETs made one at a time, each on a path from `pathOf(i)`; checks each answer. */
async function latency(base: string, key: string, n: number, pathOf: (i: number) => string, minResults: number): Promise<{ p50: number; p99: number; results: number }> {
  const times: number[] = [];
  let results = 0;
  for (let i = 0; i < n + 2; i++) {
    const t0 = performance.now();
    const res = await fetch(`${base}${pathOf(i)}`, { headers: { 'x-api-key': key } });
    const body = (await res.json()) as { results?: unknown[] };
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`${pathOf(i)}: HTTP ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    const count = body.results?.length ?? 0;
    if (count < minResults) throw new Error(`${pathOf(i)}: ${count} results, expected at least ${minResults}`);
    if (i >= 2) {
      times.push(ms); // the first two warm the server up
      results += count;
    }
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), results: results / n };
}

async function serve(engine: string, dir: string): Promise<void> {
  const store = await openBench(engine, dir);
  await serveStore(store);
}

async function dropPg(): Promise<void> {
  const admin = PostgresDriver.open(PG_URL!, { max: 1 });
  try {
    await admin.exec(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  } finally {
    await admin.close();
  }
}

async function main(): Promise<void> {
  const engine = args.engine!;
  if (args.serve !== undefined) return serve(engine, args.serve);
  if (engine === 'postgres' && !PG_URL) {
    console.log('DATABASE_URL is not set: nothing to measure (or pass --engine sqlite)');
    return;
  }
  const rows = Number(args.rows);
  const tickers = Number(args.tickers);
  const days = sessions(LAST_SESSION, Number(args.days));
  const requests = Number(args.requests);
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const dir = mkdtempSync(join(tmpdir(), 'tb-bench-pg-scale-'));
  if (engine === 'postgres') await dropPg();
  try {
    console.log(`${engine}: ${fmt(rows)} trades over ${days.length} sessions (${days[0]} to ${days.at(-1)}), ${tickers} tickers, batches of ${fmt(BATCH)}`);
    const store = await openBench(engine, dir);
    let key: string;
    try {
      const r = await load(store, rows, days, tickers);
      console.log(`import: ${fmt(r.trades)} trades in ${r.seconds.toFixed(1)} s = ${fmt(r.trades / r.seconds)} rows/s; ${fmt(r.bars)} minute bars in ${r.barSeconds.toFixed(1)} s`);
      if (engine === 'postgres') await sqlOf(store).exec('ANALYZE trades; ANALYZE minute_bars');
      console.log(`store size: ${(await storeBytes(store, engine) / 2 ** 30).toFixed(2)} GiB`);
      key = (await store.keys.create({ plan: 'demo', label: 'bench' })).key;
    } finally {
      await store.close();
    }

    const server = await startChild('bench/pg-scale.ts', ['--engine', engine, '--serve', dir]);
    try {
      const busy = (i: number) => tickerName(i % HEAVY);
      const day = (i: number) => days[(i * 7) % days.length]!;
      const page = await latency(server.url, key, requests, (i) => `/v3/trades/${busy(i)}?timestamp=${day(i)}&limit=50000`, 1);
      console.log(`one-day trades page (/v3/trades, limit 50000, ${fmt(page.results)} rows on average): p50 ${page.p50.toFixed(1)} ms, p99 ${page.p99.toFixed(1)} ms`);
      const aggs = await latency(server.url, key, requests, (i) => `/v2/aggs/ticker/${busy(i)}/range/1/minute/${day(i)}/${day(i)}?limit=50000`, 1);
      console.log(`1-minute aggregates over one day (${fmt(aggs.results)} bars on average): p50 ${aggs.p50.toFixed(1)} ms, p99 ${aggs.p99.toFixed(1)} ms`);
    } finally {
      await server.stop();
    }
  } finally {
    if (!args.keep) {
      if (engine === 'postgres') await dropPg();
      rmSync(dir, { recursive: true, force: true });
    } else console.log(`data kept: ${engine === 'postgres' ? `schema ${SCHEMA}` : dir}`);
  }
}

await main();
