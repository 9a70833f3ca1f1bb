// `tickerbase sync rest` and `sync status` as a user runs them, against a fake upstream: the
// dry run's calls and time at the free tier's rate, a run whose one bad answer is reported by URL
// while the rest is stored (exit status 1), a refused key that stops at once, and the status.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeUpstream, serveGeneratedMarket } from '../helpers/fake-upstream-rest.js';

const ENTRY = fileURLToPath(new URL('../helpers/cli-entry.ts', import.meta.url));
const KEY = 'cli-operator-upstream-key';

/** Runs the CLI without blocking this process (the fake upstream answers from it meanwhile). */
function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], {
      env: { ...process.env, TICKERBASE_DATA_DIR: '', DATABASE_URL: '', TICKERBASE_UPSTREAM_KEY: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ status: code ?? -1, stdout, stderr });
    });
  });
}

describe('tickerbase sync rest / sync status', () => {
  let fake: FakeUpstream;
  let dir: string;
  beforeAll(async () => {
    fake = await FakeUpstream.start();
    serveGeneratedMarket(fake);
    fake.paged(/^\/v3\/reference\/exchanges$/, () => [{ id: 1, type: 'exchange', asset_class: 'stocks', locale: 'us', name: 'NYSE American, LLC', mic: 'XASE' }], { maxLimit: 1000 });
    dir = mkdtempSync(join(tmpdir(), 'tb-sync-cli-'));
  });
  afterAll(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the calls a dry run would make and their time at 5/min, calling nothing', async () => {
    const r = await cli(['sync', 'rest', '--dry-run', '--data-dir', dir, '--datasets', 'aggs-minute,exchanges', '--tickers', 'AAPL,MSFT', '--from', '2026-09-01', '--to', '2026-11-30', '--rate', '5/min', '--upstream-url', fake.baseUrl]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`GET ${fake.baseUrl}/v2/aggs/ticker/AAPL/range/1/minute/2026-09-01/2026-11-30?adjusted=false&sort=asc&limit=50000`);
    expect(r.stdout).toContain(`GET ${fake.baseUrl}/v3/reference/exchanges`);
    // 62 trading days × 960 minutes = 2 pages of 50,000 per ticker, and one call for exchanges
    expect(r.stdout).toMatch(/3 units \(0 already complete\), at least 5 upstream calls .*; at 5\/min about 0 s/);
    expect(fake.requests).toHaveLength(0);
  });

  it('stores what upstream answered, names the URL of a bad answer, exits 1, and sync status shows it all', async () => {
    fake.fail({ kind: 'html' }, { match: /^\/v2\/aggs\/ticker\/BAD\// });
    const r = await cli(['sync', 'rest', '--data-dir', dir, '--datasets', 'exchanges,aggs-day', '--tickers', 'aapl,BAD', '--from', '2026-11-02', '--to', '2026-11-06', '--upstream-url', fake.baseUrl], { TICKERBASE_UPSTREAM_KEY: KEY });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/aggs-day AAPL 2026-11-02\.\.2026-11-06: 5 records, 1 call/);
    expect(r.stderr).toContain(`aggs-day BAD 2026-11-02..2026-11-06: failed: ${fake.baseUrl}/v2/aggs/ticker/BAD/range/1/day/2026-11-02/2026-11-06?adjusted=false&sort=asc&limit=50000: not JSON but an HTML page`);
    expect(r.stderr).toMatch(/summary: 2 of 3 units complete, 1 failed, 6 records, 3 upstream calls \(0 refused with 429\)/);
    expect(r.stderr + r.stdout).not.toContain(KEY);
    for (const req of fake.requests) expect(req.headers.authorization).toBe(`Bearer ${KEY}`);

    // a re-run fetches only what failed
    const calls = fake.requests.length;
    const again = await cli(['sync', 'rest', '--data-dir', dir, '--datasets', 'exchanges,aggs-day', '--tickers', 'AAPL,BAD', '--from', '2026-11-02', '--to', '2026-11-06', '--upstream-url', fake.baseUrl], { TICKERBASE_UPSTREAM_KEY: KEY });
    expect(again.status).toBe(0);
    expect(again.stderr).toContain('1 unit to fetch, 2 already complete');
    expect(fake.requests.slice(calls).map((q) => q.path)).toEqual(['/v2/aggs/ticker/BAD/range/1/day/2026-11-02/2026-11-06']);

    const status = await cli(['sync', 'status', '--data-dir', dir]);
    expect(status.status).toBe(0);
    expect(status.stdout).toMatch(/upstream calls: 4 made, 0 refused \(429\), 1 failed; 11 records stored/);
    expect(status.stdout).toMatch(/aggs-day\s+complete\s+2\s+2\s+10\s+2\s+2026-11-02\.\.2026-11-06/);
    expect(status.stdout).toMatch(/exchanges\s+complete\s+1/);
  });

  it('stops at once on a refused key, and refuses unknown data sets naming the known ones', async () => {
    fake.fail({ kind: 'status', status: 401 }, { times: 3 });
    const r = await cli(['sync', 'rest', '--data-dir', dir, '--datasets', 'aggs-day', '--tickers', 'X1,X2,X3', '--from', '2026-10-01', '--to', '2026-10-02', '--upstream-url', fake.baseUrl], { TICKERBASE_UPSTREAM_KEY: KEY });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/stopped: .*upstream refused the key \(HTTP 401/);
    expect(fake.calls(/X2|X3/)).toHaveLength(0);

    const bad = await cli(['sync', 'rest', '--data-dir', dir, '--datasets', 'aggs-hour', '--tickers', 'AAPL']);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/unknown data set aggs-hour; use one or more of tickers, exchanges, conditions, ticker-types, aggs-day, aggs-minute, trades, quotes, splits, dividends, news, financials, holidays, ratios, float, short-interest, short-volume, ipos, inflation, inflation-expectations, treasury-yields, labor-market, or all/);
  });
});
