import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeGracefully } from '../../src/cli/serve.js';
import { buildApp } from '../../src/app.js';
import { openStore } from '../../src/store/index.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';

describe('graceful shutdown', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tb-shutdown-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function start() {
    const store = await openStore({ dataDir: dir });
    await store.reference.upsertTickers(FIXTURE_TICKERS);
    const app = await buildApp({ store, config: { envelope: 'wrapped' }, production: { usage: { flushIntervalMs: 3_600_000 } } });
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    app.get('/test/slow', async () => {
      await gate;
      return { done: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    return { store, app, base, release };
  }

  it('finishes in-flight requests, refuses new connections, writes pending usage, closes the store', async () => {
    const { store, app, base, release } = await start();
    const { key, record } = await store.keys.create({ plan: 'demo' });
    expect((await fetch(`${base}/v3/reference/tickers/AAPL`, { headers: { 'x-api-key': key, connection: 'close' } })).status).toBe(200);
    const inFlight = fetch(`${base}/test/slow`, { headers: { connection: 'close' } });
    await new Promise((r) => setTimeout(r, 100));
    const closing = closeGracefully({ app, store }, 5000);
    await new Promise((r) => setTimeout(r, 100));
    await expect(fetch(`${base}/health`)).rejects.toThrow(); // no longer accepting
    release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    expect(await closing).toBe('clean');
    await expect(store.ping()).rejects.toThrow();
    const reopened = await openStore({ dataDir: dir });
    expect((await reopened.usage.forKey(record.id)).map((r) => r.requests)).toEqual([1]);
    await reopened.close();
  });

  it('cuts requests still running after the timeout', async () => {
    const { store, app, base } = await start();
    const stuck = fetch(`${base}/test/slow`).then(
      (r) => r.status,
      () => 'cut',
    );
    await new Promise((r) => setTimeout(r, 100));
    const t0 = Date.now();
    expect(await closeGracefully({ app, store }, 300)).toBe('timeout');
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(await stuck).toBe('cut');
  });
});
