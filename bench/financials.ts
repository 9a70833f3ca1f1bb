// Financial statement list pages at the maximum limit (50,000) over 50,000 rows per statement
// (SQLite by default, PostgreSQL too when DATABASE_URL is set; native envelope, loopback):
// income statements and balance sheets whole, a filtered page, a multi-key sort, and the
// 1,000-row pages a client typically asks for (first and a deep one reached by cursor).
// Rows are the demo's statements copied onto synthetic filers until there are enough.
// Run: node --import tsx bench/financials.ts   (BENCH_SECONDS, BENCH_ROWS to change the run)
// The same file is the server child: bench/financials.ts --serve <dataDir> [databaseUrl schema].
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildFundamentals } from '../src/demo/fundamentals.js';
import { openStore, type Store } from '../src/store/index.js';
import { BALANCE_SHEETS, INCOME_STATEMENTS } from '../src/store/repos/dataset-catalog.js';
import type { DatasetRecord } from '../src/store/repos/datasets.js';
import { fmt, type LoadResult, serveStore, startChild } from './lib.js';
import { sqlOf } from '../src/store/inspect.js';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  throughput: { total: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
// autocannon ships no types; a 50,000-row page can take longer than its default 10 s timeout.
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: object) => Promise<AutocannonResult>;

async function load(url: string, opts: { seconds: number; connections: number; headers: Record<string, string> }): Promise<LoadResult & { completed: number }> {
  const r = await autocannon({ url, connections: opts.connections, duration: opts.seconds, headers: opts.headers, timeout: 120 });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    bytesPerRequest: r.requests.total ? r.throughput.total / r.requests.total : 0,
    completed: r.requests.total,
  };
}

const AS_OF = '2026-11-20';

function openBenchStore(dataDir: string, databaseUrl?: string, schema?: string): Promise<Store> {
  return databaseUrl ? openStore({ databaseUrl, schema }) : openStore({ dataDir });
}

/** `n` rows: the demo rows, then copies on synthetic CIKs 9000000001… and tickers Sxxxx. */
function enlarge(rows: readonly DatasetRecord[], n: number): DatasetRecord[] {
  const filerIndex = new Map<string, number>();
  for (const r of rows) if (!filerIndex.has(String(r.cik))) filerIndex.set(String(r.cik), filerIndex.size);
  const out: DatasetRecord[] = [];
  for (let copy = 0; out.length < n; copy++) {
    for (const r of rows) {
      if (out.length >= n) break;
      if (copy === 0) out.push(r);
      else out.push({ ...r, cik: String(9_000_000_000 + copy * 1000 + filerIndex.get(String(r.cik))!), tickers: (r.tickers as string[]).map((t) => `${t}${copy}`) });
    }
  }
  return out;
}

if (process.argv[2] === '--serve') {
  const store = await openBenchStore(process.argv[3]!, process.argv[4], process.argv[5]);
  await serveStore(store);
} else {
  const seconds = Number(process.env.BENCH_SECONDS ?? 8);
  const rowsWanted = Number(process.env.BENCH_ROWS ?? 50_000);
  const engines: { name: string; url?: string; schema?: string }[] = [{ name: 'SQLite' }];
  if (process.env.DATABASE_URL) engines.push({ name: 'PostgreSQL', url: process.env.DATABASE_URL, schema: `tb_bench_fin_${process.pid}` });

  for (const engine of engines) {
    const dir = mkdtempSync(join(tmpdir(), 'tickerbase-bench-financials-'));
    try {
      const store = await openBenchStore(dir, engine.url, engine.schema);
      const t0 = performance.now();
      const demo = await buildFundamentals(store, { asOf: AS_OF, shortVolumeDays: 1 });
      const income = enlarge(demo.income, rowsWanted);
      const balance = enlarge(demo.balance, rowsWanted);
      for (let i = 0; i < income.length; i += 5000) await store.datasets.upsert(INCOME_STATEMENTS, income.slice(i, i + 5000));
      for (let i = 0; i < balance.length; i += 5000) await store.datasets.upsert(BALANCE_SHEETS, balance.slice(i, i + 5000));
      const { key } = await store.keys.create({ plan: 'demo', label: 'bench-client' });
      const counts = [await store.datasets.count(INCOME_STATEMENTS), await store.datasets.count(BALANCE_SHEETS)];
      const loadSeconds = (performance.now() - t0) / 1000;
      await store.close();

      const server = await startChild('bench/financials.ts', ['--serve', dir, ...(engine.url ? [engine.url, engine.schema!] : [])]);
      const headers = { 'x-api-key': key };
      let deep = '/stocks/financials/v1/income-statements?limit=1000';
      for (let i = 0; i < 20; i++) {
        const body = (await (await fetch(`${server.url}${deep}`, { headers })).json()) as { next_url?: string };
        if (!body.next_url) break;
        const u = new URL(body.next_url);
        deep = u.pathname + u.search;
      }
      const IS = '/stocks/financials/v1/income-statements';
      const BS = '/stocks/financials/v1/balance-sheets';
      const cases: [string, string, number][] = [
        ['income, limit=50000', `${IS}?limit=50000`, 1],
        ['balance, limit=50000', `${BS}?limit=50000`, 1],
        ['income quarterly, period_end range, limit=50000', `${IS}?timeframe=quarterly&period_end.gte=2024-01-01&limit=50000`, 1],
        ['balance sort=fiscal_year.desc,cik, limit=50000', `${BS}?sort=fiscal_year.desc,cik&limit=50000`, 1],
        ['income, limit=1000 (first page)', `${IS}?limit=1000`, 10],
        ['income, 21st page of 1000 (cursor)', deep, 10],
        ['income, tickers.any_of=AAPL,MSFT', `${IS}?tickers.any_of=AAPL,MSFT&limit=1000`, 10],
      ];
      console.log(`\nfinancial statements on ${engine.name}: ${counts[0]} income-statement and ${counts[1]} balance-sheet rows (loaded in ${loadSeconds.toFixed(1)} s); ${seconds} s per case, loopback, native envelope`);
      for (const [name, path, connections] of cases) {
        const probe = (await (await fetch(`${server.url}${path}`, { headers })).json()) as { count: number };
        const r = await load(`${server.url}${path}`, { seconds, headers, connections });
        // autocannon averages requests/s per second of the run; slow pages show as 0, so also give completed/elapsed.
        const rps = r.rps >= 1 ? r.rps.toFixed(0) : (r.completed / seconds).toFixed(2);
        console.log(`${name.padEnd(48)} ${fmt(r)}  (${connections} conn, ${rps} req/s exact, ${probe.count} rows, ${(r.bytesPerRequest / 1024 / 1024).toFixed(2)} MiB/req)`);
      }
      await server.stop();
      if (engine.url) {
        const admin = await openStore({ databaseUrl: engine.url, migrate: false });
        await sqlOf(admin).exec(`DROP SCHEMA IF EXISTS ${engine.schema} CASCADE`);
        await admin.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
