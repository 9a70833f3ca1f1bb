import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { spawnServe, type ServeProcess } from './serve-process.js';

function childPids(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

describe('serve --workers 2 (node cluster) on one host', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tb-workers-'));
  let server: ServeProcess;
  let key: string;

  beforeAll(async () => {
    const created = runCli(['keys', 'create', '--plan', 'free', '--data-dir', dir]);
    expect(created.status, created.stderr).toBe(0);
    key = created.stdout.trim().split('\n').pop()!;
    server = await spawnServe(['--data-dir', dir, '--workers', '2']);
    // both workers up (the banner comes with the first)
    for (let i = 0; i < 100 && childPids(server.pid).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs two worker processes sharing one port, with one rate limit and one /metrics across them', async () => {
    expect(childPids(server.pid)).toHaveLength(2);
    expect(server.output().match(/listening on/g)).toHaveLength(1);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      // a new connection per request, so the primary spreads them over the workers
      const res = await fetch(`${server.url}/v3/reference/tickers?limit=1`, { headers: { 'x-api-key': key, connection: 'close' } });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    const line = (status: number) => metrics.split('\n').find((l) => l.startsWith(`tickerbase_http_requests_total{route="/v3/reference/tickers",method="GET",status="${status}"}`));
    expect(line(200)).toMatch(/ 5$/);
    expect(line(429)).toMatch(/ 2$/);
  });

  it('stops every worker and exits 0 on SIGTERM', async () => {
    const workers = childPids(server.pid);
    expect(await server.stop()).toBe(0);
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
  });
});
