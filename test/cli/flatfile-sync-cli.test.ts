// `tickerbase sync flatfiles` as a user runs it, against a fake S3 bucket on 127.0.0.1: flags and
// their environment twins, exit codes and summaries, and a run killed with SIGKILL mid-way that a
// second run completes without duplicates or holes (both engines).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildCli, main } from '../../src/cli/index.js';
import { importFile } from '../../src/ingest/load.js';
import { openStore, type Store } from '../../src/store/index.js';
import { sqlOf } from '../../src/store/inspect.js';
import { openPostgresStore } from '../helpers/engines.js';
import { FakeS3 } from '../helpers/fake-s3.js';
import { dayKey, gzipCsv, MINUTE_HEADER, minuteBarLines } from '../helpers/flatfile-days.js';
import { TempDir } from '../ingest/import-files.js';

const ENTRY = fileURLToPath(new URL('../helpers/cli-entry.ts', import.meta.url));
const MINUTES = 'us_stocks_sip/minute_aggs_v1';
const DAYS = ['2024-03-04', '2024-03-05', '2024-03-06', '2024-03-07', '2024-03-08', '2024-03-11', '2024-03-12', '2024-03-13'];
const TICKERS = Array.from({ length: 24 }, (_, i) => `T${String(i).padStart(3, '0')}`);

function dayFile(day: string): Buffer {
  return gzipCsv(MINUTE_HEADER, minuteBarLines(day, { tickers: TICKERS, minutes: 600 }));
}

describe('tickerbase sync flatfiles (in process)', () => {
  let s3: FakeS3;
  let dir: TempDir;
  let stderr: string;
  beforeEach(async () => {
    vi.stubEnv('DATABASE_URL', '');
    s3 = await new FakeS3().start();
    for (const day of DAYS.slice(0, 3)) s3.put(dayKey(MINUTES, day), gzipCsv(MINUTE_HEADER, minuteBarLines(day, { tickers: ['AAPL'], minutes: 30 })));
    dir = new TempDir();
    stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    process.exitCode = undefined;
    dir.remove();
    await s3.stop();
  });

  const run = (...args: string[]) =>
    main(['node', 'tickerbase', 'sync', 'flatfiles', '--datasets', MINUTES, '--from', '2024-03-01', '--to', '2024-03-31', '--data-dir', dir.path('data'), ...args]);

  it('takes the endpoint, bucket and keys from the environment, and exits 0 when every file was stored', async () => {
    vi.stubEnv('TICKERBASE_S3_ENDPOINT', s3.url);
    vi.stubEnv('TICKERBASE_S3_BUCKET', s3.bucket);
    vi.stubEnv('TICKERBASE_S3_ACCESS_KEY', s3.accessKey);
    vi.stubEnv('TICKERBASE_S3_SECRET_KEY', s3.secretKey);
    await run();
    expect(process.exitCode ?? 0).toBe(0);
    expect(stderr).toMatch(/summary: 3 files from 2024-03-01 to 2024-03-31: 3 fetched, 0 up to date, 0 failed; 90 rows/);
    expect(stderr).not.toContain(s3.secretKey);
  });

  it('lists its flags and their environment twins in its help', () => {
    const sync = buildCli().commands.find((c) => c.name() === 'sync')!;
    const help = sync.commands.find((c) => c.name() === 'flatfiles')!.helpInformation().replace(/\s+/g, ' ');
    for (const flag of ['--datasets', '--from', '--to', '--tickers', '--parallel', '--dry-run', '--data-dir', '--database-url']) expect(help).toContain(flag);
    for (const env of ['TICKERBASE_S3_ENDPOINT', 'TICKERBASE_S3_BUCKET', 'TICKERBASE_S3_ACCESS_KEY', 'TICKERBASE_S3_SECRET_KEY']) expect(help).toContain(`env: ${env}`);
    expect(help).toContain('default: "https://files.massive.com"');
    expect(help).toContain('default: "flatfiles"');
  });

  it('exits 1 with a summary naming the refused file when one was refused', async () => {
    const denied = dayKey(MINUTES, DAYS[1]!);
    s3.deny(denied);
    await run('--s3-endpoint', s3.url, '--s3-access-key', s3.accessKey, '--s3-secret-key', s3.secretKey);
    expect(process.exitCode).toBe(1);
    expect(stderr).toContain('2 fetched, 0 up to date, 1 failed');
    expect(stderr).toContain(`failed: ${denied}: access denied (403)`);
  });

  it('stops at once with a clear message on bad credentials', async () => {
    await run('--s3-endpoint', s3.url, '--s3-access-key', s3.accessKey, '--s3-secret-key', 'wrong');
    expect(process.exitCode).toBe(1);
    expect(stderr).toMatch(/^error: the flat-file bucket .* refused the S3 credentials \(SignatureDoesNotMatch\)/m);
    expect(stderr).not.toContain('summary:');
    expect(s3.requests).toHaveLength(1);
  });

  it('refuses bad arguments before opening the store or calling the bucket', async () => {
    const errors: string[] = [];
    for (const args of [
      ['--from', '2024-02-30'],
      ['--to', '2024-03'],
      ['--datasets', 'minute aggs'],
      ['--parallel', '0'],
      ['--from', '2024-04-01'],
      [],
    ]) {
      stderr = '';
      const withKeys = args.length === 0 ? ['--s3-endpoint', s3.url] : ['--s3-endpoint', s3.url, '--s3-access-key', 'a', '--s3-secret-key', 'b'];
      await main(['node', 'tickerbase', 'sync', 'flatfiles', '--datasets', MINUTES, '--from', '2024-03-01', '--to', '2024-03-31', '--data-dir', dir.path('data'), ...withKeys, ...args]).catch(() => {});
      errors.push(stderr);
    }
    expect(errors[0]).toContain('--from must be a date YYYY-MM-DD (got "2024-02-30")');
    expect(errors[1]).toContain('--to must be a date YYYY-MM-DD');
    expect(errors[2]).toContain('--datasets: "minute aggs" is not a data set of the bucket');
    expect(errors[3]).toContain('--parallel must be an integer from 1 to 32');
    expect(errors[4]).toContain('--from 2024-04-01 is after --to 2024-03-31');
    expect(errors[5]).toContain('--s3-access-key and --s3-secret-key (or TICKERBASE_S3_ACCESS_KEY and TICKERBASE_S3_SECRET_KEY) are required');
    expect(s3.requests).toEqual([]);
  }, 60_000);
});

interface Target {
  name: 'sqlite' | 'postgres';
  /** Store flags for the CLI, and a store on the same data for the test. */
  open(): Promise<{ flags: string[]; store: Store; close(): Promise<void> }>;
  /** A store of its own for the plain import to compare with. */
  openOther(): Promise<Store>;
}

function targets(): Target[] {
  const list: Target[] = [
    {
      name: 'sqlite',
      async open() {
        const root = mkdtempSync(join(tmpdir(), 'tb-sync-kill-'));
        const store = await openStore({ dataDir: root });
        return { flags: ['--data-dir', root], store, close: async () => (await store.close(), rmSync(root, { recursive: true, force: true })) };
      },
      openOther: () => openStore({ sqliteFile: ':memory:' }),
    },
  ];
  const url = process.env.DATABASE_URL;
  if (url) {
    list.push({
      name: 'postgres',
      async open() {
        const schema = `tb_test_sync_${Date.now().toString(36)}`;
        const store = await openPostgresStore(url, schema);
        // The schema goes in the connection string: libpq's options parameter sets search_path.
        const withSchema = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
        return { flags: ['--database-url', withSchema], store, close: () => store.close() };
      },
      openOther: () => openPostgresStore(url),
    });
  } else {
    console.log('PostgreSQL run of the kill -9 test skipped: DATABASE_URL is not set.');
  }
  return list;
}

/** Runs the CLI in a child process; `killWhen` sends SIGKILL as soon as its output matches. */
function runChild(args: string[], killWhen?: RegExp): Promise<{ code: number | null; signal: string | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], {
      env: { ...process.env, TICKERBASE_DATA_DIR: '', DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      if (killWhen?.test(output)) child.kill('SIGKILL');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}

async function tableFacts(store: Store): Promise<unknown[]> {
  const db = sqlOf(store);
  return Promise.all([
    db.get('SELECT COUNT(*) AS n, SUM(v) AS v, SUM(o) AS o FROM minute_bars'),
    db.get('SELECT COUNT(*) AS n, SUM(v) AS v FROM day_bars'),
    // Sums of doubles depend on the order they were added in: rounded to the cent.
  ]).then((rows) => rows.map((r) => ({ n: Number(r!.n), v: Number(r!.v), o: Math.round(Number(r!.o ?? 0) * 100) / 100 })));
}

for (const target of targets()) {
  describe(`tickerbase sync flatfiles killed with SIGKILL (${target.name})`, () => {
    let s3: FakeS3;
    let files: TempDir;
    beforeAll(async () => {
      s3 = await new FakeS3().start();
      files = new TempDir();
      for (const day of DAYS) {
        const body = dayFile(day);
        s3.put(dayKey(MINUTES, day), body);
        files.writeRaw(dayKey(MINUTES, day), body);
      }
      // Slow enough that the kill lands while files are still to come.
      s3.chunkDelayMs = 40;
    });
    afterAll(async () => {
      await s3.stop();
      files.remove();
    });

    it('resumes on the next run without duplicates or holes, as a plain import of the same files', async () => {
      const { flags, store, close } = await target.open();
      try {
        const args = ['sync', 'flatfiles', '--datasets', MINUTES, '--from', DAYS[0]!, '--to', DAYS.at(-1)!, '--parallel', '2',
          '--s3-endpoint', s3.url, '--s3-access-key', s3.accessKey, '--s3-secret-key', s3.secretKey, ...flags];
        // Killed once the first file is in: others are mid-download or mid-write.
        const killed = await runChild(args, /^fetched /m);
        expect(killed.signal).toBe('SIGKILL');
        const stored = await store.flatFileManifest.entries(MINUTES);
        expect(stored.length).toBeGreaterThanOrEqual(1);
        expect(stored.length).toBeLessThan(DAYS.length);

        const resumed = await runChild(args);
        expect(resumed.code, resumed.output).toBe(0);
        const m = /summary: 8 files from \S+ to \S+: (\d+) fetched, (\d+) up to date, 0 failed/.exec(resumed.output);
        expect(m, resumed.output).not.toBeNull();
        expect(Number(m![1]) + Number(m![2])).toBe(DAYS.length);
        expect(Number(m![2])).toBe(stored.length);

        const other = await target.openOther();
        try {
          for (const day of DAYS) await importFile(other, files.path(dayKey(MINUTES, day)));
          expect(await tableFacts(store)).toEqual(await tableFacts(other));
        } finally {
          await other.close();
        }
        expect((await tableFacts(store))[0]).toMatchObject({ n: DAYS.length * TICKERS.length * 600 });
      } finally {
        await close();
      }
    }, 240_000);
  });
}
