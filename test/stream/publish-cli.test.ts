// `tickerbase serve` has the feed on its port, and `tickerbase publish FILE` puts a file's events
// on it; a refused line is reported with the file's own line number.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServe } from '../helpers/cli.js';
import { RawClient } from './feed-helpers.js';

const TOKEN = 'admin-token-for-the-publish-cli-test-0123456789';

describe('tickerbase publish against tickerbase serve', () => {
  let dir: string;
  let server: Awaited<ReturnType<typeof startServe>>;
  let key: string;
  let base: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tb-publish-cli-'));
    const created = runCli(['keys', 'create', '--plan', 'demo', '--data-dir', dir]);
    expect(created.status).toBe(0);
    key = created.stdout.trim().split('\n').at(-1)!;
    server = await startServe(['--port', '0', '--host', '127.0.0.1', '--demo', 'no', '--data-dir', dir, '--admin-token', TOKEN]);
    base = server.url.replace(/^http/, 'ws');
  }, 200_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('streams a file of events to subscribers', async () => {
    const c = await RawClient.ready(`${base}/stocks`, key);
    c.send({ action: 'subscribe', params: 'T.CLI' });
    await c.next();
    const file = join(dir, 'events.ndjson');
    const events = Array.from({ length: 7 }, (_, i) => ({ ev: 'T', sym: 'CLI', x: 1, i: String(i), p: 10 + i, s: 100, t: 1749825065000 + i }));
    writeFileSync(file, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const r = runCli(['publish', file, '--url', server.url, '--admin-token', TOKEN, '--batch-lines', '3']);
    expect(r.stderr).toContain('published 7 events (7 trades and 0 quotes stored)');
    expect(r.status).toBe(0);
    expect(await c.events(7)).toEqual(events);
    c.close();
  });

  it('names the bad line of the file, counting across batches', async () => {
    const file = join(dir, 'bad.ndjson');
    const good = JSON.stringify({ ev: 'T', sym: 'CLI', p: 1, s: 1, t: 1749825065000 });
    writeFileSync(file, [good, good, good, good, '{"ev":"T","sym":"CLI","p":"x","s":1,"t":1}'].join('\n'));
    const r = runCli(['publish', file, '--url', server.url, '--admin-token', TOKEN, '--batch-lines', '2']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`${file}:5: "p" must be a number`);
  });

  it('refuses a wrong admin token', async () => {
    const file = join(dir, 'one.ndjson');
    writeFileSync(file, JSON.stringify({ ev: 'T', sym: 'CLI', p: 1, s: 1, t: 1749825065000 }));
    const r = runCli(['publish', file, '--url', server.url, '--admin-token', 'wrong-token-wrong-token-wrong']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('Invalid admin token');
  });
});
