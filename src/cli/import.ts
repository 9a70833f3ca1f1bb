import { Command } from 'commander';
import type { Store } from '../store/index.js';
import { importFile, resolveImportPaths, type FileImportResult } from '../ingest/load.js';
import { createProgressReporter, formatCount, type ProgressOutput } from '../ingest/progress.js';
import '../ingest/datasets.js';
import '../ingest/futures-market.js';
import '../ingest/news-social.js';
import '../ingest/crypto-book.js';
import '../ingest/options-contracts.js';
import '../ingest/tickers.js';
import { openStoreFromFlags, withStoreOptions, type StoreFlags } from './options.js';

export interface ImportRunOptions {
  skipBadRows?: boolean;
  /** `--dataset`: the data set of every file (default: detected per file). */
  dataset?: string;
  /** Where progress, per-file lines and the summary go (stderr). */
  output?: ProgressOutput;
}

export interface ImportSummary {
  files: FileImportResult[];
  /** `file:line: reason` of each file that was not imported. */
  failures: string[];
  rows: number;
  written: number;
  rejected: number;
  seconds: number;
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Imports files (from resolveImportPaths) each atomically; a failing file is reported and the
 * others go on.
 */
export async function runImport(store: Store, files: readonly string[], opts: ImportRunOptions = {}): Promise<ImportSummary> {
  const out = opts.output ?? process.stderr;
  const started = performance.now();
  const summary: ImportSummary = { files: [], failures: [], rows: 0, written: 0, rejected: 0, seconds: 0 };
  for (const file of files) {
    const progress = createProgressReporter({ output: out, label: file.split(/[\\/]/).pop() });
    // A terminal's bar line is ended; elsewhere the per-file line below says it all.
    const endBar = () => {
      if (out.isTTY) progress.done();
    };
    try {
      const r = await importFile(store, file, { skipBadRows: opts.skipBadRows, dataset: opts.dataset, onProgress: (_f, p) => progress.update(p) });
      endBar();
      summary.files.push(r);
      summary.rows += r.rows;
      summary.written += r.written;
      summary.rejected += r.rejected;
      const parts = [r.kind, `${plural(r.rows, 'row')} (${r.written.toLocaleString('en-US')} new or changed)`];
      if (r.rejected > 0) parts.push(`${plural(r.rejected, 'rejected row')} written to ${r.rejectsFile}`);
      parts.push(...(r.notes ?? []), `${r.seconds.toFixed(1)} s`);
      out.write(`imported ${file}: ${parts.join(', ')}\n`);
    } catch (err) {
      endBar();
      const message = (err as Error).message;
      summary.failures.push(message);
      out.write(`error: ${message} (nothing of this file was imported)\n`);
    }
  }
  summary.seconds = (performance.now() - started) / 1000;
  const rate = summary.seconds > 0 ? summary.rows / summary.seconds : 0;
  const failed = summary.failures.length > 0 ? ` (${summary.failures.length} failed)` : '';
  out.write(
    `summary: ${plural(files.length, 'file')}${failed}, ${plural(summary.rows, 'row')} (${summary.written.toLocaleString('en-US')} new or changed), ` +
      `${plural(summary.rejected, 'reject')}, ${summary.seconds.toFixed(1)} s, ${formatCount(rate)} rows/s\n`,
  );
  return summary;
}

export function importCommand(): Command {
  return withStoreOptions(
    new Command('import')
      .description('import upstream flat files (trades, quotes, minute and day aggregates; CSV or CSV.gz) and data sets in JSON, NDJSON or CSV with the API\'s field names (news, social posts, options contracts, dividends, splits, financials, filings, economy, futures trades, quotes and minute bars), or directories of them')
      .argument('<paths...>', 'files or directories (walked recursively for .csv, .json, .ndjson and .jsonl files, gzipped or not)'),
  )
    .option('--skip-bad-rows', 'import the rest of a file with bad rows, writing them to <file>.rejects.csv', false)
    .option('--dataset <name>', 'data set of the files when their fields do not tell (dividends, splits, balance-sheets, cash-flow-statements, income-statements, ratios, float, short-interest, short-volume, risk-factors, risk-categories, inflation, inflation-expectations, treasury-yields, ipos, related-companies, crypto-book, futures-trades, futures-quotes, futures-bars, …)')
    .action(async (paths: string[], opts: StoreFlags & { skipBadRows: boolean; dataset?: string }) => {
      // Bad arguments fail before the store is opened or anything is imported.
      const files = resolveImportPaths(paths);
      const store = await openStoreFromFlags(opts);
      try {
        const summary = await runImport(store, files, { skipBadRows: opts.skipBadRows, dataset: opts.dataset });
        if (summary.written > 0) await store.refreshStatistics();
        if (summary.failures.length > 0) process.exitCode = 1;
      } finally {
        await store.close();
      }
    });
}
