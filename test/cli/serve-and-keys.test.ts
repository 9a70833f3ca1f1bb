import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServe } from '../helpers/cli.js';

describe('tickerbase serve (embedded default) and keys', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tickerbase-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('first start loads the demo, creates and prints a demo key that works; a restart keeps it', async () => {
    const server = await startServe(['--data-dir', dir, '--port', '0', '--host', '127.0.0.1']);
    try {
      const keyFile = join(dir, 'demo-key');
      expect(existsSync(keyFile)).toBe(true);
      const key = readFileSync(keyFile, 'utf8').trim();
      expect(server.output()).toContain(key);
      // the dashboard's URL, and the demo operator's password printed on this start only
      expect(server.output()).toContain(`Dashboard: `);
      const operator = /Dashboard operator \(shown once, only now\): (\S+) \/ (\S+)/.exec(server.output());
      expect(operator?.[1]).toBe('operator@tickerbase.local');
      const res = await fetch(`${server.url}/v3/reference/tickers/AAPL`, { headers: { 'x-api-key': key } });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.ok).toBe(true);
      expect(body.data.results.name).toBe('Apple Inc.');
      const list = await (await fetch(`${server.url}/v3/reference/tickers?limit=1000&apiKey=${key}`)).json();
      expect(list.data.count).toBe(1000);
      expect(list.data.next_url.startsWith(`${server.url}/v3/reference/tickers?cursor=`)).toBe(true);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const again = await startServe(['--data-dir', dir, '--port', '0', '--host', '127.0.0.1']);
    try {
      expect(again.output()).not.toContain('loading the demo');
      expect(again.output()).not.toContain('Dashboard operator');
    } finally {
      await again.stop();
    }
  });

  it('keys create prints the key once as the last line; list never shows it; revoke works', async () => {
    const created = runCli(['keys', 'create', '--plan', 'free', '--label', 'ci', '--data-dir', dir]);
    expect(created.status).toBe(0);
    const key = created.stdout.trim().split('\n').pop() as string;
    expect(key).toMatch(/^tb_[A-Za-z0-9_-]{32}$/);
    const listed = runCli(['keys', 'list', '--json', '--data-dir', dir]);
    expect(listed.status).toBe(0);
    expect(listed.stdout).not.toContain(key);
    const mine = (JSON.parse(listed.stdout) as { id: string; label?: string; plan: string }[]).find((k) => k.label === 'ci');
    expect(mine?.plan).toBe('free');
    const revoked = runCli(['keys', 'revoke', mine!.id, '--data-dir', dir]);
    expect(revoked.status).toBe(0);
    expect(runCli(['keys', 'revoke', mine!.id, '--data-dir', dir]).status).toBe(1);
  });

  it('rejects a bad flag value with a clear message', () => {
    const r = runCli(['serve', '--port', 'eighty', '--data-dir', dir]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/--port must be an integer from 0 to 65535/);
  });
});
