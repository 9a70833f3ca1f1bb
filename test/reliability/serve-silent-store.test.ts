import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { PostgresDriver } from '../../src/store/postgres/driver.js';
import { startServe } from '../helpers/cli.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';

// serve --store-timeout answers a request on a silent database with 503 and serves again when it
// returns. SIGTERM must stop the process within --shutdown-timeout even when the database went silent
// mid-request (usage counters and the pool's close would wait on it forever): past the deadline
// the requests still running are cut, the process logs why and exits with status 1.

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) console.log('Shutdown with a stuck store skipped: DATABASE_URL is not set (CI sets it).');

describe.skipIf(!DATABASE_URL)('tickerbase serve while PostgreSQL is silent', () => {
  const schema = `tb_stuck_${randomBytes(5).toString('hex')}`;
  let proxy: FaultProxy;
  let store: Store;

  beforeAll(async () => {
    store = await openStore({ databaseUrl: DATABASE_URL!, schema, poolSize: 1 });
    await store.reference.upsertTickers(FIXTURE_TICKERS);
    const u = new URL(DATABASE_URL!);
    proxy = await new FaultProxy(u.hostname, Number(u.port || 5432)).start();
  });
  afterAll(async () => {
    await proxy?.stop();
    await store?.close();
    const admin = PostgresDriver.open(DATABASE_URL!, { max: 1 });
    await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => admin.close());
  });

  it('exits with status 1 shortly after --shutdown-timeout, logging that it cut requests', async () => {
    const via = new URL(proxy.url(DATABASE_URL!));
    via.searchParams.set('options', `-c search_path=${schema}`);
    // a store deadline far beyond the shutdown timeout: only the shutdown deadline can end this
    const server = await startServe(['--database-url', via.toString(), '--port', '0', '--host', '127.0.0.1', '--demo', 'no', '--shutdown-timeout', '2', '--store-timeout', '120000']);
    const key = (await store.keys.create({ plan: 'demo' })).key;
    expect((await fetch(`${server.url}/v3/reference/tickers/AAPL`, { headers: { 'x-api-key': key } })).status).toBe(200);

    proxy.blackhole();
    const inFlight = fetch(`${server.url}/v3/reference/tickers/MSFT`, { headers: { 'x-api-key': key } }).then(
      (r) => r.status,
      () => 'dropped' as const,
    );
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    const code = await server.stop();
    const tookMs = Date.now() - t0;
    expect(code).toBe(1);
    // 2 s to finish requests, then at most a second to close: not minutes
    expect(tookMs).toBeLessThan(15_000);
    expect(['dropped', 503]).toContain(await inFlight);
    expect(server.output()).toMatch(/shutdown deadline passed: requests still running were cut, exiting with status 1/);
  }, 90_000);

  it('serve --store-timeout bounds a request on the silent database: 503 STORE_UNAVAILABLE, then 200 once it answers', async () => {
    proxy.pass();
    const via = new URL(proxy.url(DATABASE_URL!));
    via.searchParams.set('options', `-c search_path=${schema}`);
    const server = await startServe(['--database-url', via.toString(), '--port', '0', '--host', '127.0.0.1', '--demo', 'no', '--store-timeout', '1000', '--response-cache', '0']);
    try {
      const key = (await store.keys.create({ plan: 'demo' })).key;
      const ask = () => fetch(`${server.url}/v3/reference/tickers/SPY`, { headers: { 'x-api-key': key } });
      expect((await ask()).status).toBe(200);
      proxy.blackhole();
      const during = await ask();
      expect(during.status).toBe(503);
      expect(during.headers.get('retry-after')).toBe('5');
      expect(((await during.json()) as { data: { code: string } }).data.code).toBe('STORE_UNAVAILABLE');
      proxy.pass();
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        status = (await ask()).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 200));
      }
      expect(status).toBe(200);
    } finally {
      proxy.pass();
      await server.stop();
    }
  }, 90_000);
});
