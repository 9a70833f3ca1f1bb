import { Command, InvalidArgumentError, Option } from 'commander';
import { parseDate } from '../domain/calendar.js';
import { DATASET_NAME, SUPPORTED_FLAT_FILE_DATASETS } from '../ingest/flatfile-datasets.js';
import { syncFlatFiles } from '../ingest/flatfile-sync.js';
import { DEFAULT_FLATFILES_BUCKET, DEFAULT_FLATFILES_ENDPOINT, FlatFilesBucket, FlatFilesBucketError } from '../upstream/flatfiles-bucket.js';
import { openStoreFromFlags, parseIntFlag, withStoreOptions, type StoreFlags } from './options.js';

interface SyncFlatFilesFlags extends StoreFlags {
  datasets: string[];
  from: string;
  to?: string;
  tickers?: string[];
  parallel: number;
  dryRun: boolean;
  s3Endpoint: string;
  s3Bucket: string;
  s3AccessKey?: string;
  s3SecretKey?: string;
}

function dateFlag(name: string) {
  return (value: string): string => {
    if (parseDate(value) === null) throw new InvalidArgumentError(`${name} must be a date YYYY-MM-DD (got "${value}")`);
    return value;
  };
}

function listFlag(name: string, check?: (item: string) => string | undefined) {
  return (value: string): string[] => {
    const items = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
    if (items.length === 0) throw new InvalidArgumentError(`${name} needs at least one value`);
    for (const item of items) {
      const problem = check?.(item);
      if (problem) throw new InvalidArgumentError(`${name}: ${problem}`);
    }
    return [...new Set(items)];
  };
}

const datasetProblem = (d: string) =>
  DATASET_NAME.test(d) ? undefined : `"${d}" is not a data set of the bucket (e.g. us_stocks_sip/minute_aggs_v1, us_stocks_sip/trades_v1)`;
const tickerProblem = (t: string) => (/^[\x21-\x7e]{1,64}$/.test(t) ? undefined : `"${t}" is not a ticker`);

export function syncFlatFilesCommand(): Command {
  return withStoreOptions(
    new Command('flatfiles').description(
      `fetch upstream's flat files (one gzipped CSV per data set and day) from its S3 bucket into the store; ` +
        `a re-run fetches only new and republished files. Reads ${SUPPORTED_FLAT_FILE_DATASETS}`,
    ),
  )
    .requiredOption('--datasets <list>', 'data sets, comma-separated, as the bucket names them (us_stocks_sip/minute_aggs_v1,us_stocks_sip/trades_v1)', listFlag('--datasets', datasetProblem))
    .requiredOption('--from <date>', 'first day, YYYY-MM-DD', dateFlag('--from'))
    .option('--to <date>', 'last day, YYYY-MM-DD (default: today, UTC)', dateFlag('--to'))
    .option('--tickers <list>', 'only rows of these tickers, comma-separated, as the files spell them (AAPL,MSFT; O:AAPL261120C00150000)', listFlag('--tickers', tickerProblem))
    .option('--parallel <n>', 'files downloaded and parsed at once (SQLite still commits one at a time)', parseIntFlag('--parallel', 1, 32), 1)
    .option('--dry-run', 'list the files that would be fetched, with sizes and total, and write nothing', false)
    .addOption(new Option('--s3-endpoint <url>', "the flat files' S3 endpoint (path-style: ENDPOINT/BUCKET/KEY)").env('TICKERBASE_S3_ENDPOINT').default(DEFAULT_FLATFILES_ENDPOINT))
    .addOption(new Option('--s3-bucket <name>', 'the bucket').env('TICKERBASE_S3_BUCKET').default(DEFAULT_FLATFILES_BUCKET))
    .addOption(new Option('--s3-access-key <key>', "your upstream account's S3 access key (not the REST API key)").env('TICKERBASE_S3_ACCESS_KEY'))
    .addOption(new Option('--s3-secret-key <key>', "your upstream account's S3 secret key").env('TICKERBASE_S3_SECRET_KEY'))
    .action(async (opts: SyncFlatFilesFlags) => {
      const to = opts.to ?? new Date().toISOString().slice(0, 10);
      if (opts.from > to) throw new Error(`--from ${opts.from} is after --to ${to}`);
      if (!opts.s3AccessKey || !opts.s3SecretKey) {
        throw new Error('--s3-access-key and --s3-secret-key (or TICKERBASE_S3_ACCESS_KEY and TICKERBASE_S3_SECRET_KEY) are required: the S3 keys shown in your upstream account\'s dashboard');
      }
      let endpoint: URL;
      try {
        endpoint = new URL(opts.s3Endpoint);
      } catch {
        throw new Error(`--s3-endpoint must be a URL (got "${opts.s3Endpoint}")`);
      }
      // The SDK warns on stderr that its releases from 2027 will need Node 22; a user of the
      // command can do nothing about it, and the line would sit among the progress lines.
      process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
      const bucket = new FlatFilesBucket({ endpoint: endpoint.toString().replace(/\/$/, ''), bucket: opts.s3Bucket, accessKey: opts.s3AccessKey, secretKey: opts.s3SecretKey });
      const store = await openStoreFromFlags(opts);
      try {
        const summary = await syncFlatFiles(store, bucket, {
          datasets: opts.datasets,
          from: opts.from,
          to,
          tickers: opts.tickers,
          parallel: opts.parallel,
          dryRun: opts.dryRun,
        });
        if (summary.fetched > 0) await store.refreshStatistics();
        if (summary.failures.length > 0) process.exitCode = 1;
      } catch (err) {
        if (!(err instanceof FlatFilesBucketError)) throw err;
        process.stderr.write(`error: ${err.message}\n`);
        process.exitCode = 1;
      } finally {
        bucket.destroy();
        await store.close();
      }
    });
}
