// Import throughput (issue 3 §7): `tickerbase import` of minute aggregates and trades CSV.gz
// generated on the fly, side by side with the sqlite3 shell's `.import` of the same rows
// (decompressed beforehand, which favours the shell) into an equivalent table: same columns,
// same keys and indexes, same journal settings (WAL, synchronous=NORMAL), one transaction.
// Each side runs RUNS times (default 2), alternating, and the best run counts: on a shared
// machine that keeps other load from deciding the ratio.
// Run alone with `npx tsx bench/import.ts [rows]` (default 1,500,000 minute bars and 1,000,000 trades).
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { openStore } from '../src/store/index.js';
import { importFile } from '../src/ingest/load.js';
import { flatFileReaderStats } from '../src/ingest/flatfile-threaded.js';
import { MINUTE_HEADER, minuteLines, TRADES_HEADER, tradeLines, writeGzip } from './import-files.js';

const MINUTE_ROWS = Number(process.argv[2] ?? 1_500_000);
const RUNS = Number(process.env.RUNS ?? 2);
const TRADE_ROWS = Math.round(MINUTE_ROWS * (2 / 3));
const dir = mkdtempSync(join(tmpdir(), 'tb-bench-import-'));

// Tables the shell loads: the file's columns in the file's order, with our keys and indexes.
const SHELL_TABLES = {
  minute: `CREATE TABLE t (ticker TEXT NOT NULL, volume REAL, open REAL NOT NULL, close REAL NOT NULL, high REAL NOT NULL,
      low REAL NOT NULL, window_start INTEGER NOT NULL, transactions INTEGER, PRIMARY KEY (ticker, window_start)) WITHOUT ROWID;`,
  trades: `CREATE TABLE t (ticker TEXT NOT NULL, conditions TEXT, correction INTEGER, exchange INTEGER NOT NULL, id TEXT NOT NULL,
      participant_timestamp INTEGER, price REAL NOT NULL, sequence_number INTEGER NOT NULL, sip_timestamp INTEGER NOT NULL,
      size REAL NOT NULL, tape INTEGER, trf_id INTEGER, trf_timestamp INTEGER);
    CREATE UNIQUE INDEX t_key ON t (ticker, sip_timestamp, sequence_number, exchange, id, price, size);`,
};

function hasSqliteShell(): string | undefined {
  const r = spawnSync('sqlite3', ['-version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim().split(' ')[0] : undefined;
}

async function gunzipTo(src: string, dest: string): Promise<void> {
  await pipeline(createReadStream(src), createGunzip(), createWriteStream(dest));
}

/** CPU seconds used by waited-for children (Linux /proc; undefined elsewhere). */
function childCpuSeconds(): number | undefined {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // After the command name: cutime and cstime are fields 16 and 17 of stat(5), in clock ticks (100/s).
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

interface Timing {
  seconds: number;
  /** CPU seconds (all threads): a figure that other load on the machine does not inflate. */
  cpu?: number;
}

function shellImport(csv: string, ddl: string): Timing {
  const db = join(dir, `shell-${Date.now()}.db`);
  const setup = spawnSync('sqlite3', [db], { input: `PRAGMA journal_mode=WAL;\nPRAGMA synchronous=NORMAL;\n${ddl}\n`, encoding: 'utf8' });
  if (setup.status !== 0) throw new Error(setup.stderr);
  const cpu0 = childCpuSeconds();
  const t0 = performance.now();
  const r = spawnSync('sqlite3', [db], {
    input: `PRAGMA synchronous=NORMAL;\nPRAGMA cache_size=-65536;\n.import --csv --skip 1 ${csv} t\n`,
    encoding: 'utf8',
  });
  const seconds = (performance.now() - t0) / 1000;
  const cpu1 = childCpuSeconds();
  if (r.status !== 0 || r.stderr) throw new Error(`sqlite3 .import failed: ${r.stderr}`);
  rmSync(db, { force: true });
  return { seconds, cpu: cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0 };
}

async function ourImport(file: string): Promise<Timing & { rows: number; notes: string[]; worker?: { decodeMs: number } }> {
  const dataDir = join(dir, `data-${Date.now()}`);
  const store = await openStore({ dataDir });
  try {
    const workers0 = flatFileReaderStats.worker;
    const decodeMs0 = flatFileReaderStats.decodeMs;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await importFile(store, file);
    const cpu = process.cpuUsage(cpu0);
    const worker = flatFileReaderStats.worker > workers0 ? { decodeMs: flatFileReaderStats.decodeMs - decodeMs0 } : undefined;
    return { seconds: (performance.now() - t0) / 1000, cpu: (cpu.user + cpu.system) / 1e6, rows: r.rows, notes: r.notes ?? [], worker };
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main(): Promise<void> {
  const shell = hasSqliteShell();
  console.log(`import benchmark: ${fmt(MINUTE_ROWS)} minute bars, ${fmt(TRADE_ROWS)} trades (CSV.gz), SQLite engine, best of ${RUNS}`);
  if (!shell) console.log('sqlite3 shell not found (Debian: apt-get install -y sqlite3): shell side skipped');
  else console.log(`sqlite3 shell ${shell} (.import of the decompressed CSV; decompression not timed)`);

  const cases = [
    { name: 'minute aggs', file: join(dir, 'minute_aggs_v1', '2024-03-08.csv.gz'), header: MINUTE_HEADER, lines: minuteLines(MINUTE_ROWS), ddl: SHELL_TABLES.minute },
    { name: 'trades', file: join(dir, 'trades_v1', '2024-03-08.csv.gz'), header: TRADES_HEADER, lines: tradeLines(TRADE_ROWS), ddl: SHELL_TABLES.trades },
  ];
  const rowsOut: string[][] = [['data set', 'rows', 'gz MiB', 'tickerbase rows/s', 'sqlite3 .import rows/s', 'ratio', 'our cpu s', 'shell cpu s', 'cpu ratio']];
  for (const c of cases) {
    mkdirSync(dirname(c.file), { recursive: true });
    await writeGzip(c.file, c.header, c.lines);
    const csv = c.file.replace(/\.gz$/, '');
    if (shell) await gunzipTo(c.file, csv);
    let ours = await ourImport(c.file);
    let theirs: Timing | undefined;
    for (let run = 0; run < RUNS; run++) {
      if (run > 0) {
        const again = await ourImport(c.file);
        if (again.seconds < ours.seconds) ours = again;
      }
      if (shell) {
        const t = shellImport(csv, c.ddl);
        if (theirs === undefined || t.seconds < theirs.seconds) theirs = t;
      }
    }
    if (shell) rmSync(csv);
    const rate = (t: Timing | undefined) => (t === undefined ? '-' : fmt(ours.rows / t.seconds));
    const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? '-' : `${(b / a).toFixed(2)}x`);
    rowsOut.push([
      c.name,
      fmt(ours.rows),
      (statSync(c.file).size / 2 ** 20).toFixed(1),
      rate(ours),
      rate(theirs),
      ratio(ours.seconds, theirs?.seconds),
      ours.cpu === undefined ? '-' : ours.cpu.toFixed(2),
      theirs?.cpu === undefined ? '-' : theirs.cpu.toFixed(2),
      ratio(ours.cpu, theirs?.cpu),
    ]);
    if (ours.notes.length) console.log(`  ${c.name}: tickerbase also did: ${ours.notes.join('; ')} (included in its time)`);
    console.log(
      ours.worker
        ? `  ${c.name}: read by a worker thread; decoding its batches took ${Math.round(ours.worker.decodeMs)} ms of the importing thread`
        : `  ${c.name}: read in the importing thread (no worker)`,
    );
    rmSync(c.file);
  }
  const widths = rowsOut[0]!.map((_, i) => Math.max(...rowsOut.map((r) => r[i]!.length)));
  for (const r of rowsOut) console.log(r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
  console.log('ratio = our rows/s ÷ the shell\'s (wall clock, best run); cpu ratio = shell CPU s ÷ ours (all threads; gunzip runs on a');
  console.log('libuv thread, so on an idle multi-core machine the wall ratio is the one a user sees). Target: ≥ 1.0x');
}

try {
  await main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
