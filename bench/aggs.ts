// Range aggregates end to end (HTTP request → JSON body received, server in its own process)
// side by side with the time to only read the same base bars from the store (readBars).
// Target: end to end at most 2x the raw read. Printed twice: without compression (the API's own
// work) and with gzip as clients negotiate it (adds the compression plugin's cost).
//
// Data: one ticker with minute bars over 04:00-20:00 ET for the last 53 sessions before the demo
// date (50,880 bars). Queries: `1/hour` over the last 20 sessions (19,200 base bars → 320 bars)
// and `1/minute` with limit=50000 (50,000 bars out). SQLite by default; PostgreSQL (schema
// bench_aggs, dropped afterwards) when DATABASE_URL is set. BENCH_RUNS sets the sample count.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { dayOfDate, localDayStart } from '../src/domain/calendar.js';
import { openStore } from '../src/store/index.js';
import { PostgresDriver } from '../src/store/postgres/driver.js';
import { serveStore, startChild } from './lib.js';
import { minuteBars, sessions } from './market-rows.js';
import { sqlOf } from '../src/store/inspect.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const TICKER = 'BENCH';
const NY = 'America/New_York';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Times several operations round-robin (so load changes on the machine hit them alike). */
async function timeInterleaved(runs: number, fns: Array<() => Promise<unknown>>): Promise<Array<{ p50: number; p99: number }>> {
  for (let i = 0; i < 3; i++) for (const fn of fns) await fn();
  const times = fns.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    for (const [k, fn] of fns.entries()) {
      const t0 = performance.now();
      await fn();
      times[k]!.push(performance.now() - t0);
    }
  }
  return times.map((t) => {
    t.sort((x, y) => x - y);
    return { p50: percentile(t, 50), p99: percentile(t, 99) };
  });
}

/** Child mode: serve the prepared store in a process of its own, as a deployment would. */
/** SQLite in a temporary directory, or PostgreSQL (schema bench_aggs) when DATABASE_URL is set. */
const DATABASE_URL = process.env.DATABASE_URL;
const PG_SCHEMA = 'bench_aggs';
const open = (dataDir: string) => openStore(DATABASE_URL ? { databaseUrl: DATABASE_URL, schema: PG_SCHEMA } : { dataDir });

async function serve(dataDir: string): Promise<void> {
  const store = await open(dataDir);
  await serveStore(store);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tickerbase-bench-aggs-'));
  try {
    const store = await open(dir);
    if (DATABASE_URL) await sqlOf(store).exec('DELETE FROM minute_bars');
    const days = sessions('2026-11-20', 53);
    const bars = minuteBars(TICKER, days);
    for (let i = 0; i < bars.length; i += 10_000) await store.market.insertBars('minute', bars.slice(i, i + 10_000));
    const { key } = await store.keys.create({ plan: 'demo', label: 'bench' });
    const server = await startChild('bench/aggs.ts', ['serve', dir]);
    const headers = { 'x-api-key': key };

    const last20 = days.slice(-20);
    const dayStart = (d: string) => localDayStart(dayOfDate(d), NY);
    const cases = [
      {
        name: '1/hour, 20 sessions',
        path: `/v2/aggs/ticker/${TICKER}/range/1/hour/${last20[0]}/${last20[19]}?limit=50000`,
        range: { fromMs: dayStart(last20[0]!), toMs: dayStart(last20[19]!) + 86_400_000, limit: 50_001 },
      },
      {
        name: '1/minute, limit 50000',
        path: `/v2/aggs/ticker/${TICKER}/range/1/minute/${days[0]}/${days[days.length - 1]}?limit=50000`,
        range: { fromMs: dayStart(days[0]!), toMs: dayStart(days[days.length - 1]!) + 86_400_000, limit: 50_001 },
      },
    ];

    console.log(`range aggregates over HTTP (server in its own process), ${DATABASE_URL ? 'PostgreSQL' : 'SQLite'}, ${bars.length} minute bars stored, ${RUNS} sequential requests per case and variant`);
    for (const c of cases) {
      let bytes = 0;
      const request = (encoding: string) => async () => {
        const res = await fetch(`${server.url}${c.path}`, { headers: { ...headers, 'accept-encoding': encoding } });
        const buf = await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${c.path}: HTTP ${res.status} ${Buffer.from(buf).toString()}`);
        bytes = buf.byteLength;
      };
      const [plain, gzip, raw] = await timeInterleaved(RUNS, [
        request('identity'),
        request('gzip'),
        async () => {
          await store.market.readBars('minute', { ticker: TICKER, ...c.range, order: 'asc' });
        },
      ]);
      const body = (await (await fetch(`${server.url}${c.path}`, { headers })).json()) as { resultsCount: number; queryCount: number };
      const line = (label: string, r: { p50: number; p99: number }) =>
        console.log(`  ${label.padEnd(22)} p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  ${r === raw ? '' : `${(r.p50 / raw.p50).toFixed(2)}x the read`}`);
      console.log(`${c.name}: ${body.queryCount} base bars read → ${body.resultsCount} bars, ${(bytes / 1024).toFixed(0)} KiB of JSON`);
      line('store read only', raw);
      line('end to end, identity', plain);
      line('end to end, gzip', gzip);
      console.log(`  target: end to end (identity) <= 2.00x the read: ${plain!.p50 / raw!.p50 <= 2 ? 'met' : 'NOT met'}`);
    }
    await server.stop();
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (DATABASE_URL) {
      const admin = PostgresDriver.open(DATABASE_URL, { max: 1 });
      await admin.exec(`DROP SCHEMA IF EXISTS ${PG_SCHEMA} CASCADE`);
      await admin.close();
    }
  }
}

if (process.argv[2] === 'serve') await serve(process.argv[3]!);
else await main();
