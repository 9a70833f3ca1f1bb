// `tickerbase import` as a user runs it: arguments, exit codes and what it prints.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/index.js';
import { openStore } from '../../src/store/index.js';
import { MINUTE_HEADER, TRADES_HEADER, TempDir, minuteLines, tradeLines } from '../ingest/import-files.js';
import { sqlOf } from '../../src/store/inspect.js';

describe('tickerbase import', () => {
  let dir: TempDir;
  let stderr: string;
  beforeEach(() => {
    // The command reads DATABASE_URL like every store command; these runs target the data dir.
    vi.stubEnv('DATABASE_URL', '');
    dir = new TempDir();
    stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    process.exitCode = undefined;
    dir.remove();
  });

  const run = (...args: string[]) => main(['node', 'tickerbase', 'import', ...args, '--data-dir', dir.path('data')]);

  async function rows(table: string): Promise<number> {
    const store = await openStore({ dataDir: dir.path('data') });
    try {
      return Number((await sqlOf(store).get(`SELECT COUNT(*) AS n FROM ${table}`))!.n);
    } finally {
      await store.close();
    }
  }

  it('imports files and directories into the data dir and prints a summary', async () => {
    const minute = dir.write('in/minute_aggs_v1/2024-03-08.csv.gz', MINUTE_HEADER, minuteLines(100));
    dir.write('in/trades.csv', TRADES_HEADER, tradeLines(50));
    await run(dir.path('in'));
    expect(process.exitCode ?? 0).toBe(0);
    expect(stderr).toContain(`imported ${minute}: minute_aggs, 100 rows (100 new or changed), 2 day bars derived from minute bars`);
    expect(stderr).toMatch(/summary: 2 files, 150 rows \(150 new or changed\), 0 rejects, [\d.]+ s, [\d.]+k? rows\/s\n$/);
    expect(await rows('minute_bars')).toBe(100);
    expect(await rows('trades')).toBe(50);
  });

  it('exits 1 and names file:line when a file has a bad row; --skip-bad-rows imports the rest', async () => {
    const lines = tradeLines(10);
    lines[4] = lines[4]!.replace(/,(100|0\.5),3,,$/, ',-1,3,,');
    const file = dir.write('t.csv', TRADES_HEADER, lines);
    await run(file);
    expect(process.exitCode).toBe(1);
    expect(stderr).toContain(`error: ${file}:6: size: negative: "-1" (nothing of this file was imported)`);
    expect(stderr).toContain('summary: 1 file (1 failed), 0 rows');
    expect(await rows('trades')).toBe(0);

    process.exitCode = undefined;
    stderr = '';
    await run(file, '--skip-bad-rows');
    expect(process.exitCode ?? 0).toBe(0);
    expect(stderr).toContain(`9 rows (9 new or changed), 1 rejected row written to ${file}.rejects.csv`);
    expect(existsSync(`${file}.rejects.csv`)).toBe(true);
    expect(await rows('trades')).toBe(9);
  });

  it('exits 2 on a path that does not exist, before touching the store', async () => {
    const good = dir.write('ok.csv', MINUTE_HEADER, minuteLines(3));
    await run(good, dir.path('missing.csv.gz'));
    expect(process.exitCode).toBe(2);
    expect(stderr).toBe(`tickerbase: ${dir.path('missing.csv.gz')}: no such file or directory\n`);
    expect(existsSync(join(dir.path('data'), 'tickerbase.db'))).toBe(false);
  });
});
