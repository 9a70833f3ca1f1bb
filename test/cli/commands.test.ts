// The command line as a user meets it: --help on every command, `migrate` on an empty directory,
// the environment twins of the flags, and `demo` run twice. The CLI runs in child processes
// through tsx (no build needed), as in serve-and-keys.test.ts.
//
// Runtime: one demo load (~15 s) starts in beforeAll and runs while the quick tests do; a second
// load checks idempotency; the serve test reuses the loaded directory.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { CommanderError, type Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../../src/cli/index.js';
import { listMigrations } from '../../src/store/migrations/index.js';
import { startServe } from '../helpers/cli.js';
import { freePort } from '../helpers/free-port.js';

const ENTRY = fileURLToPath(new URL('../helpers/cli-entry.ts', import.meta.url));
/** tsx by path (its package "exports" entry), for children whose working directory is elsewhere. */
const TSX_LOADER = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to completion without blocking the event loop (so several can run at once). */
function cli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 120_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], {
      env: { ...process.env, TICKERBASE_DATA_DIR: '', DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`tickerbase ${args.join(' ')} took over ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}


/** Row counts of the SQLite file's tables (read-only, so it never takes the writer's lock). */
function rowCounts(dataDir: string, tables: readonly string[]): Record<string, number> {
  const db = new Database(join(dataDir, 'tickerbase.db'), { readonly: true, fileMustExist: true });
  try {
    return Object.fromEntries(tables.map((t) => [t, Number((db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n)]));
  } finally {
    db.close();
  }
}

/** `tickerbase <args> --help` through the CLI's own program, in this process: exit code and text. */
function helpInProcess(args: string[]): { code: number; out: string } {
  const program = buildCli();
  let out = '';
  const quiet = (cmd: Command): void => {
    cmd.exitOverride().configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
    cmd.commands.forEach(quiet);
  };
  quiet(program);
  try {
    program.parse(['node', 'tickerbase', ...args, '--help']);
  } catch (err) {
    if (err instanceof CommanderError) return { code: err.exitCode, out };
    throw err;
  }
  return { code: -1, out };
}

const STORE_FLAGS = ['--data-dir', '--database-url'];

/** Every command's documented flags (docs/configuration.md). */
const HELP: ReadonlyArray<{ args: string[]; mentions: string[] }> = [
  { args: [], mentions: ['serve', 'keys', 'demo', 'import', 'migrate', '--version'] },
  {
    args: ['serve'],
    mentions: [
      '--port', '--data-dir', '--envelope', '--database-url', '--public-url', '--host', '--demo', '--branding-dir', '--risk-free-rate',
      '--plans', '--redis-url', '--rate-limit-fail', '--admin-token', '--workers', '--cors-origin', '--shutdown-timeout', '--response-cache', '--memory-bars-mb', '--memory-ticks-mb',
      '--no-demo-roll', '--stream-delay', '--stream-futures-delay',
    ],
  },
  { args: ['keys'], mentions: ['create', 'list', 'revoke'] },
  { args: ['keys', 'create'], mentions: ['--plan', '--label', '--expires', '--plans', ...STORE_FLAGS] },
  { args: ['keys', 'list'], mentions: ['--json', ...STORE_FLAGS] },
  { args: ['keys', 'revoke'], mentions: ['<id>', ...STORE_FLAGS] },
  { args: ['demo'], mentions: ['--scale', '--as-of', '--no-key', ...STORE_FLAGS] },
  { args: ['import'], mentions: ['--skip-bad-rows', '--dataset', ...STORE_FLAGS] },
  { args: ['migrate'], mentions: STORE_FLAGS },
];

const COUNTED = ['tickers', 'day_bars', 'minute_bars', 'trades', 'quotes', 'options_contracts', 'news_articles', 'api_keys'] as const;

describe('tickerbase commands', () => {
  const dirs: string[] = [];
  const tmp = (name: string) => {
    const d = mkdtempSync(join(tmpdir(), `tickerbase-cmd-${name}-`));
    dirs.push(d);
    return d;
  };
  /** A directory with the demo loaded once (started in beforeAll, awaited by the tests that need it). */
  let demoDir: string;
  let firstDemo: Promise<Run>;

  beforeAll(() => {
    demoDir = tmp('demo');
    firstDemo = cli(['demo', '--data-dir', demoDir, '--no-key'], {}, 150_000);
    firstDemo.catch(() => {}); // reported by the test that awaits it
  });
  afterAll(async () => {
    await firstDemo?.catch(() => {});
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('--help on every command exits 0 and lists its documented flags', async () => {
    for (const h of HELP) {
      const what = `tickerbase ${[...h.args, '--help'].join(' ')}`;
      const r = helpInProcess(h.args);
      expect(r.code, what).toBe(0);
      expect(r.out, what).toMatch(/^Usage: tickerbase/);
      for (const m of h.mentions) expect(r.out, `${what} mentions ${m}`).toMatch(new RegExp(`(^|[\\s,\\[])${m.replace(/[<>]/g, '\\$&')}([\\s,>\\]=]|$)`, 'm'));
    }
    // The environment twins are documented next to the flags (read as one line: the help wraps
    // its descriptions to the terminal's width, anywhere between words).
    const serveHelp = helpInProcess(['serve']).out.replace(/\s+/g, ' ');
    for (const env of ['PORT', 'TICKERBASE_ENVELOPE', 'TICKERBASE_PUBLIC_URL', 'TICKERBASE_DATA_DIR', 'DATABASE_URL', 'TICKERBASE_STREAM_FUTURES_DELAY']) expect(serveHelp).toContain(`env: ${env}`);

    // A real process prints the same and exits 0 (a top-level and a nested command; every
    // command in a process of its own would cost ~1.5 s each).
    const spawned = await Promise.all([[], ['keys', 'create']].map((args) => cli([...args, '--help'])));
    for (const [i, args] of [[], ['keys', 'create']].entries()) {
      const r = spawned[i]!;
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe(helpInProcess(args).out);
    }
  }, 60_000);

  it('an empty TICKERBASE_DATA_DIR means ./data, and an empty PORT is refused rather than read as a random port', () => {
    const cwd = tmp('empty-env');
    const run = (args: string[], env: NodeJS.ProcessEnv) =>
      spawnSync(process.execPath, ['--import', TSX_LOADER, ENTRY, ...args], { cwd, env: { ...process.env, DATABASE_URL: '', ...env }, encoding: 'utf8', timeout: 60_000 });
    const keys = run(['keys', 'create', '--label', 'empty-env'], { TICKERBASE_DATA_DIR: '' });
    expect(keys.status, keys.stderr).toBe(0);
    expect(existsSync(join(cwd, 'data', 'tickerbase.db'))).toBe(true);
    const serve = run(['serve', '--demo', 'no'], { TICKERBASE_DATA_DIR: '', PORT: '' });
    expect(serve.status).toBe(2);
    expect(serve.stderr).toContain('--port must be an integer from 0 to 65535');
  }, 60_000);

  it('migrate creates the SQLite store in an empty directory, names the migrations it applied, and a second run applies none', async () => {
    const dir = join(tmp('migrate'), 'nested', 'data'); // not there yet
    const first = await cli(['migrate', '--data-dir', dir]);
    expect(first.status, first.stderr).toBe(0);
    const file = join(dir, 'tickerbase.db');
    expect(existsSync(file)).toBe(true);
    const ids = listMigrations('sqlite').map((m) => m.id);
    expect(first.stdout.trim()).toBe(`applied ${ids.join(', ')}`);

    const second = await cli(['migrate', '--data-dir', dir]);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout.trim()).toBe('schema is up to date');

    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect((db.prepare('SELECT id FROM schema_migrations ORDER BY id').all() as { id: string }[]).map((r) => r.id)).toEqual([...ids].sort());
      expect(db.prepare('SELECT COUNT(*) AS n FROM tickers').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  }, 60_000);

  it('TICKERBASE_DATA_DIR chooses the directory, as --data-dir does', async () => {
    const dir = tmp('envdir');
    const created = await cli(['keys', 'create', '--label', 'from-env'], { TICKERBASE_DATA_DIR: dir });
    expect(created.status, created.stderr).toBe(0);
    const key = created.stdout.trim().split('\n').pop()!;
    expect(key).toMatch(/^tb_[A-Za-z0-9_-]{32}$/);
    expect(existsSync(join(dir, 'tickerbase.db'))).toBe(true);

    const listed = await cli(['keys', 'list', '--data-dir', dir]);
    expect(listed.status, listed.stderr).toBe(0);
    const rows = listed.stdout.trim().split('\n').slice(1).map((l) => l.split('\t'));
    expect(rows).toHaveLength(1);
    expect(rows[0]![2]).toBe('free'); // the default plan
    expect(rows[0]![3]).toBe('from-env');
    expect(listed.stdout).not.toContain(key);

    // The flag wins over the variable (a directory with no store is named, not filled).
    const other = tmp('envdir-other');
    const viaFlag = await cli(['keys', 'list', '--json', '--data-dir', other], { TICKERBASE_DATA_DIR: dir });
    expect(viaFlag.status).not.toBe(0);
    expect(viaFlag.stderr).toContain(`no store in ${other}`);
  }, 60_000);

  it('demo --no-key loads the data set and creates no key; running it again changes nothing', async () => {
    const first = await firstDemo;
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toBe(''); // no key printed
    expect(first.stderr).toMatch(/demo: market data: /);
    expect(existsSync(join(demoDir, 'demo-key'))).toBe(false);
    const before = rowCounts(demoDir, COUNTED);
    expect(before.tickers).toBeGreaterThan(10_000);
    expect(before.day_bars).toBeGreaterThan(100_000);
    expect(before.options_contracts).toBeGreaterThan(1000);
    expect(before.api_keys).toBe(0);

    const second = await cli(['demo', '--data-dir', demoDir, '--no-key'], {}, 150_000);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toBe('');
    expect(rowCounts(demoDir, COUNTED)).toEqual(before);
    expect(existsSync(join(demoDir, 'demo-key'))).toBe(false);
    const keys = await cli(['keys', 'list', '--json', '--data-dir', demoDir]);
    expect(JSON.parse(keys.stdout)).toEqual([]);
  }, 240_000);

  it('serve takes PORT, TICKERBASE_ENVELOPE=native and TICKERBASE_PUBLIC_URL from the environment and stops on SIGTERM with 0', async () => {
    expect((await firstDemo).status).toBe(0);
    const created = await cli(['keys', 'create', '--plan', 'demo', '--label', 'serve-env', '--data-dir', demoDir]);
    expect(created.status, created.stderr).toBe(0);
    const key = created.stdout.trim().split('\n').pop()!;

    const port = await freePort();
    const publicUrl = 'https://markets.example.test/api';
    const server = await startServe(['--demo', 'no', '--data-dir', demoDir, '--host', '127.0.0.1'], {
      PORT: String(port),
      TICKERBASE_ENVELOPE: 'native',
      TICKERBASE_PUBLIC_URL: publicUrl,
    });
    let stopped = false;
    try {
      expect(new URL(server.url).port).toBe(String(port));
      expect(server.output()).toContain('native envelope');
      expect(server.output()).not.toContain('loading the demo');

      const res = await fetch(`${server.url}/v3/reference/tickers?limit=1`, { headers: { 'x-api-key': key } });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).not.toHaveProperty('ok');
      expect(body).not.toHaveProperty('data');
      expect(body.status).toBe('OK');
      expect(body.results).toHaveLength(1);
      expect(typeof body.next_url).toBe('string');
      expect(body.next_url.startsWith(`${publicUrl}/v3/reference/tickers?`)).toBe(true);

      // Errors are native too.
      const missing = await fetch(`${server.url}/v3/reference/tickers/NO_SUCH_TICKER_X`, { headers: { 'x-api-key': key } });
      expect(missing.status).toBe(404);
      expect(await missing.json()).not.toHaveProperty('ok');

      stopped = true;
      expect(await server.stop()).toBe(0);
    } finally {
      if (!stopped) await server.stop();
    }
  }, 90_000);

  it('serve --demo no on an empty store still serves the real exchanges, conditions and ticker types', async () => {
    const dir = tmp('facts');
    const created = await cli(['keys', 'create', '--plan', 'demo', '--data-dir', dir]);
    expect(created.status, created.stderr).toBe(0);
    const key = created.stdout.trim().split('\n').pop()!;
    const server = await startServe(['--demo', 'no', '--data-dir', dir, '--host', '127.0.0.1', '--port', String(await freePort())]);
    try {
      const get = async (path: string) => (await (await fetch(`${server.url}${path}`, { headers: { 'x-api-key': key } })).json()).data;
      expect((await get('/v3/reference/tickers/types')).count).toBe(25);
      expect((await get('/v3/reference/exchanges')).count).toBeGreaterThan(20);
      expect((await get('/v3/reference/conditions?limit=1000')).count).toBeGreaterThan(50);
      expect((await get('/v3/reference/tickers')).count).toBe(0); // no demo universe
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);
});
