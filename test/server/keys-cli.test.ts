import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';

describe('tickerbase keys: plans, expiry and usage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tb-keys-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('create checks the plan against the configured plans (built-in or --plans file)', () => {
    const bad = runCli(['keys', 'create', '--plan', 'gold', '--data-dir', dir]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('--plan must be one of: free, starter, developer, advanced, business, demo (got gold)');
    const file = join(dir, 'plans.json');
    writeFileSync(file, JSON.stringify({ plans: { gold: { extends: 'business' } } }));
    expect(runCli(['keys', 'create', '--plan', 'gold', '--plans', file, '--data-dir', dir]).status).toBe(0);
    expect(runCli(['keys', 'create', '--plan', 'gold', '--data-dir', dir], { TICKERBASE_PLANS: file }).status).toBe(0);
  });

  it('create refuses an expiry in the past', () => {
    const r = runCli(['keys', 'create', '--expires', '2001-01-01', '--data-dir', dir]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('--expires must be in the future');
  });

  it('list shows label, plan, expiry and usage, never the key', async () => {
    const created = runCli(['keys', 'create', '--plan', 'starter', '--label', 'research desk', '--expires', '2099-01-01', '--data-dir', dir]);
    expect(created.status).toBe(0);
    const key = created.stdout.trim().split('\n').pop()!;
    const store = await openStore({ dataDir: dir });
    const id = (await store.keys.list()).find((k) => k.label === 'research desk')!.id;
    const today = new Date().toISOString().slice(0, 10);
    await store.usage.add([
      { key_id: id, day: today, family: '/v3/reference/tickers', requests: 12, errors: 1 },
      { key_id: id, day: '2000-01-01', family: '/v3/reference/tickers', requests: 99, errors: 0 },
    ]);
    await store.close();
    const table = runCli(['keys', 'list', '--data-dir', dir]);
    expect(table.status).toBe(0);
    expect(table.stdout.split('\n')[0]).toBe('id\tprefix\tplan\tlabel\tcreated\tstatus\trequests today\trequests 30 days');
    const line = table.stdout.split('\n').find((l) => l.startsWith(id))!;
    expect(line).toMatch(/\tstarter\tresearch desk\t.*\texpires 2099-01-01T00:00:00.000Z\t12\t12$/);
    expect(table.stdout).not.toContain(key);
    const json = JSON.parse(runCli(['keys', 'list', '--json', '--data-dir', dir]).stdout) as { id: string; usage: object }[];
    expect(json.find((k) => k.id === id)!.usage).toEqual({ requests_today: 12, requests_30_days: 12, errors_30_days: 1 });
  });
});
