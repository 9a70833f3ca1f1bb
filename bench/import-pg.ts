// PostgreSQL import throughput: `tickerbase import` of generated minute aggregates and trades
// (CSV.gz) into a PostgreSQL store, side by side with psql's `\copy` of the same rows
// (decompressed beforehand, which favours psql) into an equivalent table: the file's columns,
// our keys and indexes (trades: a bigserial primary key and the unique natural key). Each side
// runs RUNS times (default 2), alternating, and the best run counts: on a shared machine that
// keeps other load from deciding the ratio. Our time includes what an import does besides
// loading (day bars derived from the minute bars), as a user waits for it.
// Run: `DATABASE_URL=postgres://… npx tsx bench/import-pg.ts [rows]` (default 1,000,000 of each).
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { importFile } from '../src/ingest/load.js';
import { openStore } from '../src/store/index.js';
import { PostgresDriver } from '../src/store/postgres/driver.js';
import { MINUTE_HEADER, minuteLines, TRADES_HEADER, tradeLines, writeGzip } from './import-files.js';

const URL = process.env.DATABASE_URL;
const ROWS = Number(process.argv[2] ?? 1_000_000);
const RUNS = Number(process.env.RUNS ?? 2);
const OURS = 'bench_import_pg';
const PSQL = 'bench_import_pg_psql';

const TABLES = {
  minute: `CREATE TABLE t (ticker TEXT COLLATE "C" NOT NULL, volume DOUBLE PRECISION, open DOUBLE PRECISION NOT NULL,
      close DOUBLE PRECISION NOT NULL, high DOUBLE PRECISION NOT NULL, low DOUBLE PRECISION NOT NULL, window_start BIGINT NOT NULL,
      transactions BIGINT, PRIMARY KEY (ticker, window_start))`,
  trades: `CREATE TABLE t (pk BIGSERIAL PRIMARY KEY, ticker TEXT COLLATE "C" NOT NULL, conditions TEXT, correction INTEGER,
      exchange INTEGER NOT NULL, id TEXT COLLATE "C" NOT NULL, participant_timestamp BIGINT, price DOUBLE PRECISION NOT NULL,
      sequence_number BIGINT NOT NULL, sip_timestamp BIGINT NOT NULL, size DOUBLE PRECISION NOT NULL, tape INTEGER, trf_id INTEGER,
      trf_timestamp BIGINT);
    CREATE UNIQUE INDEX t_key ON t (ticker, sip_timestamp, sequence_number, exchange, id, price, size)`,
};

async function admin(sql: string): Promise<void> {
  const db = PostgresDriver.open(URL!, { max: 1 });
  try {
    await db.exec(sql);
  } finally {
    await db.close();
  }
}

async function ours(file: string): Promise<number> {
  await admin(`DROP SCHEMA IF EXISTS ${OURS} CASCADE`);
  const store = await openStore({ databaseUrl: URL!, schema: OURS });
  try {
    const t0 = performance.now();
    const r = await importFile(store, file);
    const seconds = (performance.now() - t0) / 1000;
    if (r.rows !== ROWS) throw new Error(`imported ${r.rows} rows of ${ROWS}`);
    return seconds;
  } finally {
    await store.close();
  }
}

async function psql(csv: string, header: string, ddl: string): Promise<number> {
  await admin(`DROP SCHEMA IF EXISTS ${PSQL} CASCADE; CREATE SCHEMA ${PSQL}; SET search_path = ${PSQL}; ${ddl}`);
  const copy = `\\copy ${PSQL}.t (${header}) FROM '${csv}' WITH (FORMAT csv, HEADER true)`;
  const t0 = performance.now();
  const r = spawnSync('psql', [URL!, '-v', 'ON_ERROR_STOP=1', '-q', '-c', copy], { encoding: 'utf8' });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`psql \\copy failed: ${r.stderr}`);
  return seconds;
}

async function main(): Promise<void> {
  if (!URL) {
    console.log('DATABASE_URL is not set: nothing to measure');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'tb-bench-import-pg-'));
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(`PostgreSQL import: ${fmt(ROWS)} rows per data set (CSV.gz), best of ${RUNS}, alternating with psql \\copy of the decompressed CSV`);
  try {
    const cases = [
      { name: 'minute aggs', file: join(dir, 'minute_aggs_v1', '2024-03-08.csv.gz'), header: MINUTE_HEADER, lines: minuteLines(ROWS), ddl: TABLES.minute },
      { name: 'trades', file: join(dir, 'trades_v1', '2024-03-08.csv.gz'), header: TRADES_HEADER, lines: tradeLines(ROWS), ddl: TABLES.trades },
    ];
    for (const c of cases) {
      mkdirSync(dirname(c.file), { recursive: true });
      await writeGzip(c.file, c.header, c.lines);
      const csv = c.file.replace(/\.gz$/, '');
      await pipeline(createReadStream(c.file), createGunzip(), createWriteStream(csv));
      const a: number[] = [];
      const b: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        a.push(await ours(c.file));
        b.push(await psql(csv, c.header, c.ddl));
      }
      const best = (s: number[]) => Math.min(...s);
      const each = (s: number[]) => s.map((x) => fmt(ROWS / x)).join(', ');
      console.log(`  ${c.name.padEnd(12)} tickerbase ${fmt(ROWS / best(a)).padStart(9)} rows/s   psql \\copy ${fmt(ROWS / best(b)).padStart(9)} rows/s   ratio ${(best(b) / best(a)).toFixed(2)}x (goal >= 0.80x)`);
      console.log(`  ${''.padEnd(12)} runs: tickerbase ${each(a)}; psql ${each(b)}; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await admin(`DROP SCHEMA IF EXISTS ${OURS} CASCADE; DROP SCHEMA IF EXISTS ${PSQL} CASCADE`);
  }
}

await main();
