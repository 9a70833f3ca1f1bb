import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('tickerbase serve: production flags are checked before anything starts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tb-flags-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const bad = join(dir, 'bad-plans.json');
  writeFileSync(bad, JSON.stringify({ plans: { pro: { extends: 'free', rate_limit: { requests: -1, per_seconds: 60 } } } }));

  it.each([
    [['--admin-token', 'short'], '--admin-token must be at least 24 characters'],
    [['--redis-url', 'http://127.0.0.1:6379'], '--redis-url must be a redis:// or rediss:// URL'],
    [['--cors-origin', 'app.example.com'], '--cors-origin: "app.example.com" is not an origin'],
    [['--plans', bad], `invalid plans file: ${bad}: /plans/pro/rate_limit/requests`],
    [['--plans', join(dir, 'missing.json')], 'cannot read plans file'],
    [['--workers', '0'], '--workers must be an integer from 1 to 64'],
    [['--rate-limit-fail', 'maybe'], "argument 'maybe' is invalid"],
    [['--stream-futures-delay', '-1'], '--stream-futures-delay must be an integer from 0 to 1440'],
  ])('serve %j fails with a clear message', (flags, message) => {
    const r = runCli(['serve', '--data-dir', dir, '--port', '0', '--demo', 'no', ...flags]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(message);
  });
});
