// `tickerbase sync flatfiles`: brings the store up to date with upstream's flat-file bucket.
//
// 1. Plan: list each data set's prefix; the objects whose file-name date is within from..to are
//    the days upstream published (holidays and days not yet out are simply not there). Each is
//    compared with the manifest: up to date when an entry has its ETag and covers the requested
//    tickers (an entry for every ticker covers any filter; one for some tickers covers the same
//    or fewer), else fetched.
// 2. Fetch: each object's body is streamed from the bucket straight into the flat-file importer
//    (parsed in a worker thread as it arrives, never held whole or written to disk), filtered by
//    ticker in flight, inside one store transaction per object that also writes its manifest
//    entry: a run killed at any moment leaves each object either stored with its entry or not at
//    all, and the next run takes up what is missing.
// 3. Replace: an object stored before (republished upstream, or stored for other tickers) first
//    has its day's rows deleted, for the tickers being loaded (every ticker of the data set's
//    market without a filter), so rows the new version dropped are gone; a first sync of a day
//    upserts over whatever is there, as `tickerbase import` does.
//
// A 403 on an object is reported and the others go on; bad credentials stop the run at once.
import { dayOfDate, localDayStart } from '../domain/calendar.js';
import type { Store } from '../store/index.js';
import { FlatFilesBucketError, type FlatFilesBucket } from '../upstream/flatfiles-bucket.js';
import { dateOfKey, flatFileDataset, type FlatFileDataset } from './flatfile-datasets.js';
import type { FlatFileSource } from './flatfile.js';
import { flatFileImporter } from './load.js';
import { recordImportRows } from './metrics.js';
import { formatBytes, formatCount, type ProgressOutput } from './progress.js';
import { SyncProgress } from './flatfile-sync-progress.js';

/** What the sync needs of the bucket (FlatFilesBucket, or a stand-in). */
export type FlatFileBucketReader = Pick<FlatFilesBucket, 'list' | 'open'>;

export interface FlatFileSyncOptions {
  /** Data sets as the bucket's prefixes name them: `us_stocks_sip/minute_aggs_v1`. */
  datasets: readonly string[];
  /** First and last day, `YYYY-MM-DD`, inclusive. */
  from: string;
  to: string;
  /** Only rows of these tickers (as the files spell them). */
  tickers?: readonly string[];
  /** Objects fetched at once (default 1). SQLite still commits them one at a time. */
  parallel?: number;
  /** Print what would be fetched; write nothing. */
  dryRun?: boolean;
  /** Progress, per-object lines and the summary (stderr by default). */
  output?: ProgressOutput;
}

export type PlanAction = 'fetch' | 'up_to_date' | 'unsupported';

export interface PlannedObject {
  key: string;
  date: string;
  size: number;
  etag: string;
  action: PlanAction;
  /** The object was stored before (another version, or other tickers): its day is replaced. */
  storedBefore: boolean;
  dataset: FlatFileDataset | { name: string; unsupported: string };
}

export interface FlatFileSyncFailure {
  key: string;
  message: string;
}

export interface FlatFileSyncSummary {
  /** Objects in the date range. */
  objects: number;
  upToDate: number;
  fetched: number;
  rows: number;
  bytes: number;
  failures: FlatFileSyncFailure[];
  seconds: number;
}

/** The manifest's spelling of a ticker filter: sorted, comma-separated; '' for none. */
export function tickerFilterKey(tickers: readonly string[] | undefined): string {
  return tickers === undefined ? '' : [...new Set(tickers)].sort().join(',');
}

/** Whether an entry stored for `stored` tickers covers a request for `wanted` ('' = every ticker). */
function covers(stored: string, wanted: string): boolean {
  if (stored === '') return true;
  if (wanted === '') return false;
  const have = new Set(stored.split(','));
  return wanted.split(',').every((t) => have.has(t));
}

/** The objects of the data sets within the date range, each with what the sync will do about it. */
export async function planFlatFileSync(store: Store, bucket: FlatFileBucketReader, opts: FlatFileSyncOptions): Promise<PlannedObject[]> {
  const filter = tickerFilterKey(opts.tickers);
  const planned: PlannedObject[] = [];
  for (const name of opts.datasets) {
    const found = flatFileDataset(name);
    const dataset = 'unsupported' in found ? { name, unsupported: found.unsupported } : found;
    const manifest = new Map<string, { etag: string; tickers: string }[]>();
    for (const e of await store.flatFileManifest.entries(`${name}/`)) {
      const list = manifest.get(e.key) ?? [];
      list.push(e);
      manifest.set(e.key, list);
    }
    for await (const o of bucket.list(`${name}/`)) {
      const date = dateOfKey(o.key);
      if (date === undefined || date < opts.from || date > opts.to) continue;
      const entries = manifest.get(o.key) ?? [];
      const upToDate = entries.some((e) => e.etag === o.etag && covers(e.tickers, filter));
      const action: PlanAction = 'unsupported' in dataset ? 'unsupported' : upToDate ? 'up_to_date' : 'fetch';
      planned.push({ key: o.key, date, size: o.size, etag: o.etag, action, storedBefore: entries.length > 0, dataset });
    }
  }
  return planned;
}

/** Runs one after another what is given to it (SQLite's one connection takes one transaction at a time). */
function oneAtATime(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (fn) => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => {});
    return run;
  };
}

/** Plans and runs a sync; throws FlatFilesBucketError (`bad_credentials`, ...) when the run cannot go on. */
export async function syncFlatFiles(store: Store, bucket: FlatFileBucketReader, opts: FlatFileSyncOptions): Promise<FlatFileSyncSummary> {
  const out = opts.output ?? process.stderr;
  const started = performance.now();
  const plan = await planFlatFileSync(store, bucket, opts);
  const toFetch = plan.filter((p) => p.action === 'fetch');
  const summary: FlatFileSyncSummary = {
    objects: plan.length,
    upToDate: plan.filter((p) => p.action === 'up_to_date').length,
    fetched: 0,
    rows: 0,
    bytes: 0,
    failures: plan
      .filter((p) => p.action === 'unsupported')
      .map((p) => ({ key: p.key, message: `${p.key}: ${(p.dataset as { unsupported: string }).unsupported}` })),
    seconds: 0,
  };
  for (const name of opts.datasets) {
    if (!plan.some((p) => p.key.startsWith(`${name}/`))) out.write(`${name}: no files from ${opts.from} to ${opts.to} in the bucket\n`);
  }
  if (opts.dryRun) {
    for (const p of toFetch) out.write(`would fetch ${p.key} (${formatBytes(p.size)}${p.storedBefore ? ', replacing the stored version' : ''})\n`);
    for (const f of summary.failures) out.write(`error: ${f.message}\n`);
    const bytes = toFetch.reduce((s, p) => s + p.size, 0);
    out.write(`dry run: ${toFetch.length} of ${plan.length} files to fetch, ${formatBytes(bytes)}; ${summary.upToDate} up to date\n`);
    summary.seconds = (performance.now() - started) / 1000;
    return summary;
  }

  const tickers = opts.tickers === undefined ? undefined : new Set(opts.tickers);
  const filter = tickerFilterKey(opts.tickers);
  const inFlight = new Map<string, { bytes: number; rows: number }>();
  let fetchesFailed = 0;
  const bytesTotal = toFetch.reduce((s, p) => s + p.size, 0);
  const progress = new SyncProgress(out, () => {
    let bytes = summary.bytes;
    let rows = summary.rows;
    for (const f of inFlight.values()) {
      bytes += f.bytes;
      rows += f.rows;
    }
    return { filesDone: summary.fetched + fetchesFailed, filesTotal: toFetch.length, bytes, bytesTotal, rows };
  });
  const writeSlot = store.engine === 'sqlite' ? oneAtATime() : <T>(fn: () => Promise<T>) => fn();
  let fatal: FlatFilesBucketError | undefined;

  const fetchOne = async (p: PlannedObject): Promise<void> => {
    const dataset = p.dataset as FlatFileDataset;
    const objectStarted = performance.now();
    // A failure of the bucket surfaces from the reader as a read error; this keeps its code.
    let bucketError: unknown;
    const source: FlatFileSource = {
      name: p.key,
      totalBytes: p.size,
      async open() {
        try {
          return remembering((await bucket.open(p.key, p.etag)).body, (err) => (bucketError = err));
        } catch (err) {
          bucketError = err;
          throw err;
        }
      },
    };
    try {
      const result = await writeSlot(() =>
        store.transaction(async (tx) => {
          inFlight.set(p.key, { bytes: 0, rows: 0 });
          if (p.storedBefore) await tx.flatFileManifest.deleteDayRows({ ...dayOf(dataset, p.date), tickers: opts.tickers });
          const r = await flatFileImporter.run({
            store: tx,
            path: p.key,
            source,
            tickers,
            kindHint: dataset.kind,
            skipBadRows: false,
            reject: () => {},
            progress: (fp) => {
              inFlight.set(p.key, { bytes: fp.bytes, rows: fp.rows });
              progress.tick();
            },
          });
          await tx.flatFileManifest.record({ key: p.key, tickers: filter, etag: p.etag, size: p.size, rows: r.rows, completed: new Date().toISOString() });
          return r;
        }),
      );
      recordImportRows(result.kind, result.written);
      summary.fetched++;
      summary.rows += result.rows;
      summary.bytes += p.size;
      const seconds = (performance.now() - objectStarted) / 1000;
      progress.line(`fetched ${p.key}: ${result.kind}, ${result.rows.toLocaleString('en-US')} rows (${result.written.toLocaleString('en-US')} new or changed), ${formatBytes(p.size)}, ${seconds.toFixed(1)} s`);
    } catch (err) {
      const cause = bucketError ?? err;
      if (cause instanceof FlatFilesBucketError && cause.code === 'bad_credentials') fatal ??= cause;
      const message = (cause as Error).message ?? String(cause);
      const named = message.startsWith(p.key) ? message : `${p.key}: ${message}`;
      fetchesFailed++;
      summary.failures.push({ key: p.key, message: named });
      progress.line(`error: ${named} (nothing of this file was stored)`);
    } finally {
      inFlight.delete(p.key);
    }
  };

  const queue = [...toFetch];
  const lanes = Math.max(1, Math.min(opts.parallel ?? 1, queue.length));
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let p = queue.shift(); p !== undefined && fatal === undefined; p = queue.shift()) await fetchOne(p);
    }),
  );
  progress.done();
  if (fatal) throw fatal;

  summary.seconds = (performance.now() - started) / 1000;
  const rate = summary.seconds > 0 ? summary.rows / summary.seconds : 0;
  out.write(
    `summary: ${plan.length} file${plan.length === 1 ? '' : 's'} from ${opts.from} to ${opts.to}: ${summary.fetched} fetched, ${summary.upToDate} up to date, ` +
      `${summary.failures.length} failed; ${summary.rows.toLocaleString('en-US')} rows, ${formatBytes(summary.bytes)}, ` +
      `${summary.seconds.toFixed(1)} s, ${formatCount(rate)} rows/s\n`,
  );
  for (const f of summary.failures) out.write(`  failed: ${f.message}\n`);
  return summary;
}

/** The stored rows a flat file of `date` stands for: its data set's market, kind and calendar day. */
function dayOf(dataset: FlatFileDataset, date: string) {
  const day = dayOfDate(date);
  return { kind: dataset.kind, market: dataset.market, fromMs: localDayStart(day, dataset.zone), toMs: localDayStart(day + 1, dataset.zone) };
}

/** The body, telling `onError` of a failure before passing it on. */
async function* remembering(body: AsyncIterable<Uint8Array>, onError: (err: unknown) => void): AsyncGenerator<Uint8Array> {
  try {
    yield* body;
  } catch (err) {
    onError(err);
    throw err;
  }
}
