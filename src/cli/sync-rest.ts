// `tickerbase sync rest`: back-fill from upstream's REST API into the store, fetching only what
// the ledger does not have, within a rate budget (--rate 5/min is upstream's free tier).
import { Command, InvalidArgumentError } from 'commander';
import { parseDate } from '../domain/calendar.js';
import { estimateCalls, planBackfill, runBackfill } from '../ingest/rest-backfill.js';
import { UpstreamCallTally } from '../upstream/call-tally.js';
import { parseRate, RateBudget } from '../upstream/rate-budget.js';
import { UpstreamRestClient } from '../upstream/rest-client.js';
import { parseRestDatasets, REST_DATASET_SPECS, REST_DATASETS, type RestDatasetName } from '../upstream/rest-datasets.js';
import { UpstreamError } from '../upstream/rest-errors.js';
import { openStoreFromFlags, withStoreOptions, type StoreFlags } from './options.js';
import { upstreamKeyOption, upstreamUrlOption } from './upstream-options.js';

interface SyncRestFlags extends StoreFlags {
  upstreamUrl: string;
  upstreamKey?: string;
  tickers?: string;
  allTickers: boolean;
  from?: string;
  to?: string;
  datasets: RestDatasetName[];
  rate?: string;
  timeout: number;
  refresh: boolean;
  dryRun: boolean;
}

function dateFlag(name: string) {
  return (v: string): string => {
    if (parseDate(v) === null) throw new InvalidArgumentError(`${name} must be a date YYYY-MM-DD`);
    return v;
  };
}

function datasetsFlag(v: string): RestDatasetName[] {
  try {
    return parseRestDatasets(v);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message.replace(/^--datasets: /, ''));
  }
}

export function syncRestCommand(): Command {
  return withStoreOptions(
    new Command('rest').description(
      "back-fill from upstream's REST API: fetches what the store lacks (a ledger records what is complete), page by page at upstream's largest page, within --rate",
    ),
  )
    .addOption(upstreamUrlOption())
    .addOption(upstreamKeyOption())
    .option('--tickers <list>', 'tickers, comma-separated (AAPL,MSFT)')
    .option('--all-tickers', 'every ticker: whole lists for reference data, every stored active ticker for bars, trades and quotes', false)
    .option('--from <date>', 'first day (YYYY-MM-DD) of bars, trades, quotes and news', dateFlag('--from'))
    .option('--to <date>', 'last day (YYYY-MM-DD); days not yet ended in New York are left out', dateFlag('--to'))
    .requiredOption('--datasets <list>', `comma-separated: ${REST_DATASETS.join(', ')}, or all`, datasetsFlag)
    .option('--rate <budget>', 'upstream calls allowed: N/sec, N/min or N/hour (the free tier is 5/min; default: no budget, 429s are still honoured)')
    .option('--timeout <ms>', 'deadline of one upstream call', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 100 || n > 600_000) throw new InvalidArgumentError('--timeout must be an integer from 100 to 600000');
      return n;
    }, 30_000)
    .option('--refresh', 'fetch undated data sets (reference data, corporate actions, financials) again even when the ledger has them', false)
    .option('--dry-run', 'print the calls that would be made and how long they take at --rate, and fetch nothing', false)
    .action(async (opts: SyncRestFlags) => {
      const rate = opts.rate !== undefined ? parseRate(opts.rate) : undefined;
      const tickers = (opts.tickers ?? '').split(',').map((t) => t.trim().toUpperCase()).filter((t) => t !== '');
      const perTicker = opts.datasets.filter((d) => REST_DATASET_SPECS[d].perTicker === 'always');
      if (perTicker.length > 0 && tickers.length === 0 && !opts.allTickers) throw new Error(`${perTicker.join(', ')} need --tickers or --all-tickers`);
      if (opts.from && opts.to && opts.to < opts.from) throw new Error('--to is before --from');
      if (!opts.dryRun && !opts.upstreamKey) throw new Error('--upstream-key (or TICKERBASE_UPSTREAM_KEY) is required');
      const store = await openStoreFromFlags(opts);
      const out = process.stderr;
      try {
        const plan = await planBackfill(store, { datasets: opts.datasets, tickers, allTickers: opts.allTickers, from: opts.from, to: opts.to, refresh: opts.refresh, now: Date.now });
        for (const n of plan.notes) out.write(`note: ${n}\n`);
        if (opts.dryRun) {
          printDryRun(plan.units, plan.skipped, rate, opts.upstreamUrl);
          return;
        }
        const tally = new UpstreamCallTally();
        const client = new UpstreamRestClient({
          baseUrl: opts.upstreamUrl,
          key: opts.upstreamKey!,
          rate: rate ? new RateBudget(rate) : undefined,
          timeoutMs: opts.timeout,
          onEvent: (e) => {
            tally.onEvent(e);
            if (e.kind === 'refused') out.write(`upstream said 429 (too many requests) for ${e.url}; waiting ${e.retryAfterS} s as it asks\n`);
            else if (e.kind === 'failed') out.write(`upstream call failed: ${e.url}: ${e.reason}\n`);
          },
        });
        out.write(`sync rest: ${plan.units.length} unit${plan.units.length === 1 ? '' : 's'} to fetch, ${plan.skipped} already complete${rate ? `, at most ${rate.text}` : ''}\n`);
        let summary;
        try {
          summary = await runBackfill(store, client, plan, { now: Date.now, tally, log: (l) => out.write(`${l}\n`) });
        } catch (err) {
          if (err instanceof UpstreamError && err.kind === 'unauthorized') throw new Error(`stopped: ${err.message}`);
          throw err;
        }
        if (summary.rows > 0) await store.refreshStatistics();
        out.write(
          `summary: ${summary.completed} of ${summary.units} units complete, ${summary.failures.length} failed, ${summary.rows.toLocaleString('en-US')} records, ` +
            `${summary.calls} upstream calls (${summary.refused} refused with 429), ${summary.seconds.toFixed(1)} s\n`,
        );
        if (summary.failures.length > 0) {
          out.write(`failed (a re-run fetches them again):\n${summary.failures.map((f) => `  ${f}`).join('\n')}\n`);
          process.exitCode = 1;
        }
      } finally {
        await store.close();
      }
    });
}

function printDryRun(units: { dataset: string; ticker: string; from: string; to: string }[], skipped: number, rate: ReturnType<typeof parseRate> | undefined, baseUrl: string): void {
  let calls = 0;
  for (const u of units) {
    const spec = REST_DATASET_SPECS[u.dataset as RestDatasetName];
    const n = estimateCalls(u);
    calls += n;
    for (const r of spec.requests(u)) process.stdout.write(`GET ${baseUrl.replace(/\/+$/, '')}${r.path}\n`);
    if (n > spec.requests(u).length) process.stdout.write(`  (and about ${n - spec.requests(u).length} more pages)\n`);
  }
  const time = rate ? new RateBudget(rate).secondsFor(calls) : 0;
  process.stdout.write(
    `${units.length} units (${skipped} already complete), at least ${calls} upstream calls (trades, quotes and long lists take more pages)` +
      (rate ? `; at ${rate.text} about ${formatDuration(time)}` : '') + '\n',
  );
}

function formatDuration(s: number): string {
  if (s < 60) return `${Math.round(s)} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 86_400) return `${(s / 3600).toFixed(1)} h`;
  return `${(s / 86_400).toFixed(1)} days`;
}
