// `tickerbase serve` writes its log lines to stdout in batches (a write per line cost more CPU than
// a cached answer); a line still in the batch when SIGTERM arrives must reach stdout before exit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServe } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'tickerbase-access-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('serve: access log on shutdown', () => {
  it('the access line of a request answered just before SIGTERM is in the output', async () => {
    const server = await startServe(['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--demo', 'no', '--live-demo', 'no', '--no-dashboard'], { LOG_LEVEL: 'info' });
    const res = await fetch(`${server.url}/v3/reference/tickers/AAPL`);
    expect(res.status).toBe(401);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(await server.stop()).toBe(0);
    const line = server
      .output()
      .split('\n')
      .find((l) => l.includes(`"reqId":"${id}"`));
    expect(line, server.output()).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ msg: 'request completed', status: 401, route: '/v3/reference/tickers/:ticker' });
  }, 120_000);
});
