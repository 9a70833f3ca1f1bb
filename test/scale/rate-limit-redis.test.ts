import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { spawnServe, type ServeProcess } from './serve-process.js';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.log('Redis rate-limit test skipped: REDIS_URL is not set (CI sets it).');

describe.skipIf(!REDIS_URL)('rate limits shared through Redis by two server processes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tb-rl-redis-'));
  let a: ServeProcess;
  let b: ServeProcess;
  let key: string;

  beforeAll(async () => {
    const created = runCli(['keys', 'create', '--plan', 'free', '--label', 'two-processes', '--data-dir', dir]);
    expect(created.status, created.stderr).toBe(0);
    key = created.stdout.trim().split('\n').pop()!;
    [a, b] = await Promise.all([
      // a Redis command past its deadline falls back to one process's count (fail open): on a
      // loaded two-core machine a start-up stall can exceed the default second, so give 10 s
      spawnServe(['--data-dir', dir, '--redis-url', REDIS_URL!, '--redis-timeout', '10000']),
      spawnServe(['--data-dir', dir, '--redis-url', REDIS_URL!, '--redis-timeout', '10000']),
    ]);
    // both processes count in Redis only once their connection to it is up
    for (const s of [a, b]) {
      const deadline = Date.now() + 20_000;
      const redisUp = async () => JSON.stringify(await (await fetch(`${s.url}/ready`)).json()).includes('"redis":"ok"');
      while (!(await redisUp())) {
        if (Date.now() > deadline) throw new Error(`${s.url}/ready never said Redis is ok`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the free plan’s 5 requests a minute hold across both processes', async () => {
    expect(a.pid).not.toBe(b.pid);
    const seen: { server: string; status: number; remaining: string | null }[] = [];
    for (const [i, server] of [a, b, a, b, a, b, a].entries()) {
      const res = await fetch(`${server.url}/v3/reference/tickers?limit=1`, { headers: { 'x-api-key': key } });
      seen.push({ server: server === a ? 'A' : 'B', status: res.status, remaining: res.headers.get('x-ratelimit-remaining') });
      if (i === 5) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(seen).toEqual([
      { server: 'A', status: 200, remaining: '4' },
      { server: 'B', status: 200, remaining: '3' },
      { server: 'A', status: 200, remaining: '2' },
      { server: 'B', status: 200, remaining: '1' },
      { server: 'A', status: 200, remaining: '0' },
      { server: 'B', status: 429, remaining: '0' },
      { server: 'A', status: 429, remaining: '0' },
    ]);
  });
});
