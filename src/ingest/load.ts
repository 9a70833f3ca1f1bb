// Loading files into the store: file → parser (streaming) → store (batched, one transaction per
// file). Each data set plugs in an Importer; importFile() picks the one that recognises the
// file, runs it inside a transaction (so a failing file leaves nothing behind) and writes the
// rows it was told to skip to `<file>.rejects.csv`.
//
// Another data set plugs in by calling registerImporter() from its own module and importing that
// module for its side effect in src/cli/import.ts (this file must not import it: no cycles).
import { closeSync, openSync, readSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { constants as zlibConstants, gunzipSync } from 'node:zlib';
// metrics.ts holds the process's prom-client registry only (no Fastify): cheap for the CLI.
import { recordImportRows } from './metrics.js';
import type { Store } from '../store/index.js';
import type { FlatFileBatch, FlatFileProgress, FlatFileSource, FlatFileSummary } from './flatfile.js';
import { readFlatFileThreaded } from './flatfile-threaded.js';
import type { BarRow, FlatFileKind, QuoteRow, TradeRow } from '../domain/market-records.js';
import { KeyConflictError } from '../store/driver.js';
import type { NewRowsLoader } from '../store/repos/market-port.js';
import { newRowsOf, type CopyRowsBatch } from './flatfile-codec.js';

/** A file that cannot be imported; `message` names it (`file:line: reason` for a bad row). */
export class ImportError extends Error {
  override readonly name = 'ImportError';
}

export interface ImportRejection {
  line: number;
  reason: string;
  /** The rejected line as it is in the (decompressed) file. */
  raw: string;
}

export interface ImportProgress {
  /** Bytes of the file on disk read so far (compressed bytes for .gz). */
  bytes: number;
  totalBytes: number;
  rows: number;
  rejected: number;
}

/** What an importer is handed. `store` is bound to the file's transaction. */
export interface ImportContext {
  store: Store;
  path: string;
  skipBadRows: boolean;
  /** The data set named by `--dataset`, when the user gave one (importers that have several). */
  dataset?: string;
  /**
   * The file's bytes when they are a stream rather than the file at `path` (a download from the
   * flat-file bucket; `path` is then its name). Only the flat-file importer reads streams.
   */
  source?: FlatFileSource;
  /** Only rows of these tickers are imported (flat files). */
  tickers?: ReadonlySet<string>;
  /** The kind of rows the file must hold (flat files: a header of another kind fails it). */
  kindHint?: FlatFileKind;
  /** Record a bad row left out under skipBadRows (importFile writes the rejects file). */
  reject(row: ImportRejection): void;
  progress(p: ImportProgress): void;
}

export interface ImporterResult {
  /** What the file held, e.g. `trades`, `minute_aggs`, `news`. */
  kind: string;
  /** Rows read and accepted. */
  rows: number;
  /** Rows new to the store or whose values changed (the rest were stored as they are). */
  written: number;
  /** Anything else worth a line in the summary (e.g. derived day bars). */
  notes?: string[];
}

export interface Importer {
  name: string;
  /** File name endings a directory import picks up for this importer, lower case (`.csv.gz`). */
  extensions: readonly string[];
  /**
   * Whether this importer reads the file. `head` holds its first bytes (up to 64 KiB),
   * decompressed when the file is gzip.
   */
  detect(path: string, head: Buffer, opts?: { dataset?: string }): boolean;
  /** Reads the whole file into ctx.store; throws (ImportError, FlatFileError, ...) to reject it. */
  run(ctx: ImportContext): Promise<ImporterResult>;
}

const importers: Importer[] = [];

/** Adds an importer; later registrations are asked first, so a data set can claim a special case. */
export function registerImporter(importer: Importer): void {
  const at = importers.findIndex((i) => i.name === importer.name);
  if (at >= 0) importers.splice(at, 1);
  importers.unshift(importer);
}

export function registeredImporters(): readonly Importer[] {
  return importers;
}

export interface ImportOptions {
  skipBadRows?: boolean;
  /** `--dataset`: the data set of the file, for importers that tell several apart by fields. */
  dataset?: string;
  onProgress?: (file: string, p: ImportProgress) => void;
}

export interface FileImportResult extends ImporterResult {
  file: string;
  importer: string;
  rejected: number;
  /** Where the rejected rows went, when there were any. */
  rejectsFile?: string;
  seconds: number;
}

const HEAD_BYTES = 64 * 1024;

/** The first bytes of a file, gunzipped when it is gzip (a truncated stream gives what it can). */
export function readHead(path: string): Buffer {
  const fd = openSync(path, 'r');
  let head: Buffer;
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    head = buf.subarray(0, readSync(fd, buf, 0, HEAD_BYTES, 0));
  } finally {
    closeSync(fd);
  }
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
    try {
      return gunzipSync(head, { finishFlush: zlibConstants.Z_SYNC_FLUSH }).subarray(0, HEAD_BYTES);
    } catch {
      return Buffer.alloc(0);
    }
  }
  return head;
}

/** One CSV field, quoted when it needs to be (RFC 4180). */
function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Collects rejects into `<file>.rejects.csv` (line, reason, row); the file appears only on success. */
class RejectsWriter {
  private fd: number | undefined;
  count = 0;
  readonly target: string;
  private readonly temp: string;

  constructor(path: string) {
    this.target = `${path}.rejects.csv`;
    this.temp = `${this.target}.partial`;
  }

  add(r: ImportRejection): void {
    if (this.fd === undefined) {
      this.fd = openSync(this.temp, 'w');
      writeSync(this.fd, 'line,reason,row\n');
    }
    writeSync(this.fd, `${r.line},${csvField(r.reason)},${csvField(r.raw.replace(/\r?\n$/, ''))}\n`);
    this.count++;
  }

  /** Keeps the file (when there were rejects) or throws it away. */
  finish(keep: boolean): string | undefined {
    if (this.fd === undefined) return undefined;
    closeSync(this.fd);
    this.fd = undefined;
    if (!keep) {
      rmSync(this.temp, { force: true });
      return undefined;
    }
    renameSync(this.temp, this.target);
    return this.target;
  }
}

/**
 * Imports one file with the importer that recognises it, atomically: the file's rows are
 * committed together or not at all. Throws ImportError/FlatFileError naming the file.
 */
export async function importFile(store: Store, path: string, opts: ImportOptions = {}): Promise<FileImportResult> {
  const started = performance.now();
  let head: Buffer;
  try {
    head = readHead(path);
  } catch (err) {
    throw new ImportError(`${path}: cannot read: ${(err as Error).message}`);
  }
  const importer = importers.find((i) => i.detect(path, head, { dataset: opts.dataset }));
  if (!importer) {
    const firstLine = head.toString('utf8', 0, Math.min(head.length, 200)).split(/\r?\n/)[0];
    throw new ImportError(`${path}:1: unrecognised file (no importer for it); it starts with: ${JSON.stringify(firstLine)}`);
  }
  const rejects = new RejectsWriter(path);
  const skipBadRows = opts.skipBadRows === true;
  let result: ImporterResult;
  try {
    result = await store.transaction((tx) =>
      importer.run({
        store: tx,
        path,
        skipBadRows,
        dataset: opts.dataset,
        reject: (r) => rejects.add(r),
        progress: (p) => opts.onProgress?.(path, p),
      }),
    );
  } catch (err) {
    rejects.finish(false);
    throw namingTheFile(err, path);
  }
  const rejectsFile = rejects.finish(true);
  // Counted once the file's transaction has committed: rows a failed file wrote are gone.
  recordImportRows(result.kind, result.written);
  return {
    file: path,
    importer: importer.name,
    ...result,
    rejected: rejects.count,
    rejectsFile,
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * The error as an ImportError naming the file, unless its message already does (parse errors
 * give `file:line: reason`). Store failures (a full disk, a lost connection) say so in a line.
 */
function namingTheFile(err: unknown, path: string): unknown {
  if (!(err instanceof Error) || err.message.startsWith(`${path}:`)) return err;
  const code = (err as { code?: unknown }).code;
  // SQLITE_FULL: the disk, or the database's max_page_count; PostgreSQL: 53100 disk_full.
  const reason =
    code === 'SQLITE_FULL' || code === '53100'
      ? `the store is full (${err.message}); free disk space and import the file again`
      : `the store refused the rows: ${err.message}`;
  return new ImportError(`${path}: ${reason}`, { cause: err });
}

function extensionsWanted(): string[] {
  return [...new Set(importers.flatMap((i) => i.extensions))];
}

function wanted(name: string, exts: readonly string[]): boolean {
  const lower = name.toLowerCase();
  return !lower.endsWith('.rejects.csv') && !name.startsWith('.') && exts.some((e) => lower.endsWith(e));
}

function walk(dir: string, exts: readonly string[], out: string[]): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.')) walk(full, exts, out);
    } else if (wanted(entry.name, exts)) {
      // Symbolic links to files count; links to directories are not followed (no cycles).
      if (entry.isFile() || (entry.isSymbolicLink() && statSync(full, { throwIfNoEntry: false })?.isFile())) out.push(full);
    }
  }
}

/**
 * The files named by the user's arguments: files as given, directories walked recursively for
 * files an importer handles (upstream's layout nests them by year and month), in name order.
 * Throws ImportError listing every argument that is missing or neither file nor directory.
 */
export function resolveImportPaths(args: readonly string[]): string[] {
  const problems: string[] = [];
  const files: string[] = [];
  const exts = extensionsWanted();
  for (const arg of args) {
    const full = resolve(arg);
    const st = statSync(full, { throwIfNoEntry: false });
    if (!st) problems.push(`${arg}: no such file or directory`);
    else if (st.isFile()) files.push(full);
    else if (st.isDirectory()) {
      const found: string[] = [];
      walk(full, exts, found);
      if (found.length === 0) problems.push(`${arg}: directory holds no importable files (${exts.join(', ')})`);
      files.push(...found);
    } else problems.push(`${arg}: not a regular file or directory`);
  }
  if (problems.length > 0) throw new ImportError(problems.join('\n'));
  return [...new Set(files)];
}

// ---------------------------------------------------------------------------------------------
// Upstream flat files: trades_v1, quotes_v1, minute_aggs_v1, day_aggs_v1 (CSV or CSV.gz).

const FLAT_FILE_COLUMNS = /(^|,)"?(window_start|sip_timestamp|participant_timestamp|ask_price|price)"?(,|\r?\n|$)/;

function isFlatFileHead(head: Buffer): boolean {
  const firstLine = head.toString('utf8', 0, Math.min(head.length, 4096)).replace(/^\uFEFF/, '').split('\n')[0]!;
  return /(^|,)"?ticker"?(,|\r|$)/.test(firstLine) && FLAT_FILE_COLUMNS.test(firstLine);
}

export const flatFileImporter: Importer = {
  name: 'flat-file',
  extensions: ['.csv', '.csv.gz'],
  detect(_path, head) {
    return isFlatFileHead(head);
  },
  async run(ctx) {
    // The rows are first loaded as new, where the store has a faster path for those (PostgreSQL:
    // one COPY for the whole file). Should one meet a stored or repeated key (a re-import, a
    // corrected file, a file repeating a row), none of that load is kept and the file is read
    // again into the upserting inserts; what the first reading reported is not reported twice.
    const reported: Reported = { bytes: -1, rows: -1, rejected: -1, rejectLine: 0 };
    try {
      return await loadFlatFile(ctx, true, reported);
    } catch (err) {
      if (!(err instanceof KeyConflictError)) throw err;
    }
    return loadFlatFile(ctx, false, reported);
  },
};

/** How far the progress and rejects of a file's earlier reading went. */
interface Reported {
  bytes: number;
  rows: number;
  rejected: number;
  rejectLine: number;
}

async function loadFlatFile(ctx: ImportContext, asNew: boolean, reported: Reported): Promise<ImporterResult> {
  const market = ctx.store.market;
  // Reading the file again: reports up to where the first reading got are left out.
  let again = !asNew;
  let kind: FlatFileKind | undefined;
  let written = 0;
  // Minute bars: which tickers and days to derive day bars for afterwards.
  const minuteTickers = new Set<string>();
  let minT = Infinity;
  let maxT = -Infinity;
  // Parsed in a worker thread (large files), overlapping the inserts made here; one that loads
  // the rows as new gets them encoded for COPY there.
  const batches = readFlatFileThreaded(ctx.source ?? ctx.path, {
    copyRows: asNew && market.loadsNewRows(),
    skipBadRows: ctx.skipBadRows,
    tickers: ctx.tickers,
    kindHint: ctx.kindHint,
    onReject: (r) => {
      if (!asNew && r.line <= reported.rejectLine) return;
      reported.rejectLine = r.line;
      ctx.reject({ line: r.line, reason: r.reason, raw: r.raw });
    },
    onProgress: (p: FlatFileProgress) => {
      // The reader reports after each chunk and at the end, which repeats the last chunk's report;
      // a report equal to the last one made says nothing new. (When a reading that met stored
      // rows started again, whether the first one got to its end report was a matter of timing.)
      if (p.bytes === reported.bytes && p.rows === reported.rows && p.rejected === reported.rejected) return;
      if (again && (p.bytes < reported.bytes || (p.bytes === reported.bytes && p.rows <= reported.rows))) return;
      again = false;
      reported.bytes = p.bytes;
      reported.rows = p.rows;
      reported.rejected = p.rejected;
      ctx.progress(p);
    },
  });
  // undefined: not asked for yet (the first batch tells the kind); null: none, insert instead.
  let loader: NewRowsLoader<BarRow | TradeRow | QuoteRow> | null | undefined = asNew ? undefined : null;
  let step: IteratorResult<FlatFileBatch | CopyRowsBatch, FlatFileSummary>;
  try {
    step = await batches.next();
    while (!step.done) {
      const b = step.value;
      kind = b.kind;
      if ('tuples' in b) {
        loader ??= await market.newRowsLoader(b.rows);
        if (!loader) throw new Error('the store took rows encoded for COPY, then had no loader for them');
        for (const ticker of b.tickers) minuteTickers.add(ticker);
        if (b.minT < minT) minT = b.minT;
        if (b.maxT > maxT) maxT = b.maxT;
        await loader.addEncoded(b.tuples, b.days);
        step = await batches.next();
        continue;
      }
      if (loader === undefined) {
        const rows = newRowsOf(b);
        loader = rows === undefined ? null : ((await market.newRowsLoader(rows)) ?? null);
      }
      if (b.kind === 'minute_aggs') {
        for (const bar of b.batch) {
          minuteTickers.add(bar.ticker);
          if (bar.t < minT) minT = bar.t;
          if (bar.t > maxT) maxT = bar.t;
        }
      }
      if (loader !== null) {
        await loader.add(b.batch);
      } else {
        switch (b.kind) {
          case 'trades':
            written += await market.insertTrades(b.batch);
            break;
          case 'quotes':
            written += await market.insertQuotes(b.batch);
            break;
          case 'minute_aggs':
            written += await market.insertBars('minute', b.batch);
            break;
          case 'day_aggs':
            written += await market.insertBars('day', b.batch);
            break;
        }
      }
      step = await batches.next();
    }
    if (loader) written += await loader.end();
  } catch (err) {
    await loader?.abort();
    // Stops the reader thread where it is.
    await batches.return(undefined as never).catch(() => {});
    throw err;
  }
  const summary = step.value;
  const notes: string[] = [];
  if (minuteTickers.size > 0) {
    // Day bars for the days these minutes fall on; an imported day bar is never replaced.
    const derived = await market.deriveDayBars([...minuteTickers].sort(), { fromMs: minT, toMs: maxT });
    notes.push(`${derived} day bars derived from minute bars`);
  }
  return { kind: kind ?? summary.kind ?? 'aggs', rows: summary.rows, written, notes };
}

registerImporter(flatFileImporter);

