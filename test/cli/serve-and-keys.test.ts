import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServe } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

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
      // the dashboard's URL; the demo operator's password goes to an owner-only file, and the
      // output (a pipe here, as a log file would be) says where it is but never holds it
      expect(server.output()).toContain(`Dashboard: `);
      const passwordFile = join(dir, 'operator-password');
      const operator = /Dashboard operator: (\S+); the password is in (\S+) /.exec(server.output());
      expect(operator?.[1]).toBe('operator@tickerbase.local');
      expect(operator?.[2]).toBe(passwordFile);
      const password = readFileSync(passwordFile, 'utf8').trim();
      expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
      expect(server.output()).not.toContain(password);
      expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
      const res = await fetch(`${server.url}/v3/reference/tickers/AAPL`, { headers: { 'x-api-key': key } });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.ok).toBe(true);
      expect(body.data.results.name).toBe('Apple Inc.');
      const list = await (await fetch(`${server.url}/v3/reference/tickers?limit=1000&apiKey=${key}`)).json();
      expect(list.data.count).toBe(1000);
      expect(list.data.next_url.startsWith(`${server.url}/v3/reference/tickers?cursor=`)).toBe(true);
      // the banner's base for the official clients, its curl line, and next_url links that start
      // with that base (the Python client follows only those)
      const clientBase = /RESTClient\(api_key="([^"]+)", base="([^"]+)"\)/.exec(server.output());
      expect(clientBase?.[1]).toBe(key);
      expect(clientBase?.[2]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/upstream$/);
      expect(server.output()).toContain(`restClient('${key}', '${clientBase![2]}')`);
      const curl = /curl -H "Authorization: Bearer ([^"]+)" "([^"]+)"/.exec(server.output());
      const prev = await (await fetch(curl![2]!, { headers: { authorization: `Bearer ${curl![1]}` } })).json();
      expect(prev).toMatchObject({ ticker: 'AAPL', status: 'OK', resultsCount: 1 });
      const upstream = await (await fetch(`${clientBase![2]}/v3/reference/tickers?limit=2&apiKey=${key}`)).json();
      expect(upstream.next_url.startsWith(`${clientBase![2]}/v3/reference/tickers?cursor=`)).toBe(true);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    // no --host: the server listens on this machine's loopback address only
    const again = await startServe(['--data-dir', dir, '--port', '0']);
    try {
      expect(again.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(again.output()).not.toContain('warning: listening on');
      expect(again.output()).not.toContain('loading the demo');
      expect(again.output()).not.toContain('Dashboard operator');
      // later starts show the demo key's prefix in the lines, never the key
      const key = readFileSync(join(dir, 'demo-key'), 'utf8').trim();
      expect(again.output()).not.toContain(key);
      expect(again.output()).toContain(`RESTClient(api_key="${key.slice(0, 7)}…", base=`);
      // the banner's CLI line runs as printed, from the project's directory
      const line = /List keys with `([^`]+)`/.exec(again.output())?.[1];
      expect(line).toBe(`npx tickerbase keys list --data-dir ${dir}`);
      const listed = spawnSync('sh', ['-c', line!], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, TICKERBASE_DATA_DIR: '', DATABASE_URL: '', npm_config_yes: 'false' } });
      expect(listed.status, listed.stderr).toBe(0);
      expect(listed.stdout).toContain(`${key.slice(0, 7)}…\tdemo\tdemo`);
    } finally {
      await again.stop();
    }
  }, 300_000); // a first start loads the whole demo: tens of CPU seconds, more beside other test files

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
  }, 120_000);

  it('keys list and users list on a directory with no store say so and create nothing', () => {
    const missing = join(dir, 'no-such-store');
    for (const command of [['keys', 'list'], ['users', 'list']]) {
      const r = runCli([...command, '--data-dir', missing]);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain(`no store in ${missing}`);
      expect(existsSync(missing)).toBe(false);
    }
  });

  it('warns at start when open sign-up listens on an address beyond this machine', async () => {
    const server = await startServe(['--data-dir', join(dir, 'open'), '--port', '0', '--host', '0.0.0.0', '--demo', 'no', '--live-demo', 'no']);
    try {
      expect(server.output()).toContain('warning: listening on 0.0.0.0 with open sign-up');
    } finally {
      await server.stop();
    }
  });

  it('rejects a bad flag value with a clear message', () => {
    const r = runCli(['serve', '--port', 'eighty', '--data-dir', dir]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/--port must be an integer from 0 to 65535/);
  });
});
