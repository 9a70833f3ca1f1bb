// The compiled CLI as installed (`npm run build`, then bin/tickerbase running dist/) finds the
// schema migrations, which are .sql files beside the compiled runner. Builds into a scratch
// folder under dist/ (ignored by git) so a parallel `npm run build` is not disturbed. The build
// only strips types (scripts/compile.mjs), so the server's types are checked here as well.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMigrations } from '../../src/store/migrations/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function node(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 240_000, env: { ...process.env, TICKERBASE_DATA_DIR: '', DATABASE_URL: '' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('compiled CLI: migrate', () => {
  let build: string;
  let data: string;
  beforeAll(() => {
    mkdirSync(join(ROOT, 'dist'), { recursive: true });
    build = mkdtempSync(join(ROOT, 'dist', '.build-test-'));
    data = mkdtempSync(join(tmpdir(), 'tickerbase-build-migrate-'));
    const tsc = node([join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--noEmit']);
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
    const compile = node(['scripts/compile.mjs', join(build, 'dist')]);
    expect(compile.status, compile.stderr).toBe(0);
    const copy = node(['scripts/copy-sql.mjs', join(build, 'dist')]);
    expect(copy.status, copy.stderr).toBe(0);
    mkdirSync(join(build, 'bin'));
    copyFileSync(join(ROOT, 'bin/tickerbase'), join(build, 'bin/tickerbase'));
  }, 300_000);
  afterAll(() => {
    rmSync(build, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  });

  it('creates the schema in a new SQLite file, then finds nothing left to apply', () => {
    const ids = listMigrations('sqlite').map((m) => m.id);
    const first = node([join(build, 'bin/tickerbase'), 'migrate', '--data-dir', data]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout.trim()).toBe(`applied ${ids.join(', ')}`);
    const second = node([join(build, 'bin/tickerbase'), 'migrate', '--data-dir', data]);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout.trim()).toBe('schema is up to date');
    const db = new Database(join(data, 'tickerbase.db'), { readonly: true });
    try {
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
      expect(tables).toEqual(expect.arrayContaining(['api_keys', 'tickers', 'minute_bars', 'trades', 'options_contracts', 'balance_sheets', 'news_articles', 'key_usage']));
    } finally {
      db.close();
    }
  });
});
