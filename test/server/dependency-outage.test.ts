import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, RedisRateLimiter } from '../../src/server/rate-limit.js';
import { openStore, type Store } from '../../src/store/index.js';
import { PostgresDriver } from '../../src/store/postgres/driver.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';
import { productionApp, type ProductionTestApp } from './production-app.js';
import { freePort } from '../helpers/free-port.js';

const HAVE_REDIS_SERVER = spawnSync('redis-server', ['--version']).status === 0;
if (!HAVE_REDIS_SERVER) console.log('Redis outage tests skipped: redis-server is not installed.');
const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) console.log('PostgreSQL outage test skipped: DATABASE_URL is not set (CI sets it).');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A throwaway redis-server on its own port, stopped and restarted at will. */
class ThrowawayRedis {
  private proc?: ChildProcess;
  constructor(readonly port: number) {}
  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }
  async start(): Promise<void> {
    this.proc = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      if (spawnSync('redis-cli', ['-p', String(this.port), 'ping'], { encoding: 'utf8' }).stdout?.trim() === 'PONG') return;
      await sleep(50);
    }
    throw new Error('redis-server did not start');
  }
  async kill(): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
  }
}

async function until(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

for (const failMode of ['closed', 'open'] as const) {
  describe.skipIf(!HAVE_REDIS_SERVER)(`Redis goes away mid-run (rate limits fail ${failMode})`, () => {
    let redisServer: ThrowawayRedis;
    let redis: Redis;
    let store: Store;
    let t: ProductionTestApp;
    let key: string;

    beforeAll(async () => {
      redisServer = new ThrowawayRedis(await freePort());
      await redisServer.start();
      redis = await connectRedis(redisServer.url);
      await until(async () => redis.status === 'ready', 'redis ready');
      store = await openStore({ sqliteFile: ':memory:' });
      await store.reference.upsertTickers(FIXTURE_TICKERS);
      t = await productionApp(store, { production: { redis, rateLimiter: new RedisRateLimiter(redis, failMode), usage: false } });
      key = await t.key('free');
    });
    afterAll(async () => {
      await t?.close();
      redis?.disconnect();
      await redisServer?.kill();
      await store?.close();
    });

    it(failMode === 'closed' ? 'answers 503 naming Redis, and recovers without a restart' : 'keeps serving with per-process limits, and recovers without a restart', async () => {
      const ok = await t.get('/v3/reference/tickers/AAPL', key);
      expect(ok.status).toBe(200);
      expect(ok.headers['x-ratelimit-remaining']).toBe('4');
      expect((await t.get('/ready')).status).toBe(200);

      await redisServer.kill();
      await until(async () => redis.status !== 'ready', 'the client to notice');
      const ready = await t.get('/ready');
      // failing open, the server still serves: it stays in rotation, Redis named as degraded
      expect(ready.status).toBe(failMode === 'closed' ? 503 : 200);
      if (failMode === 'closed') expect(ready.body.data.error).toBe('Not ready: Redis is unreachable');
      else expect(ready.body.data.degraded).toEqual(['Redis is unreachable: rate limits hold per process until it returns']);
      expect(ready.body.data.checks.store).toBe('ok');

      const during = await t.get('/v3/reference/tickers/AAPL', key);
      if (failMode === 'closed') {
        expect(during.status).toBe(503);
        expect(during.body.data.code).toBe('DEPENDENCY_UNAVAILABLE');
        expect(during.body.data.error).toMatch(/Rate limiting is unavailable: Redis is unreachable/);
      } else {
        expect(during.status).toBe(200);
        // this process's own counter takes over, so the limit still holds here
        expect(during.headers['x-ratelimit-limit']).toBe('5');
        const statuses = [];
        for (let i = 0; i < 5; i++) statuses.push((await t.get('/v3/reference/tickers/AAPL', key)).status);
        expect(statuses).toEqual([200, 200, 200, 200, 429]);
      }

      await redisServer.start();
      await until(async () => redis.status === 'ready', 'the client to reconnect', 15_000);
      expect((await t.get('/ready')).status).toBe(200);
      const fresh = await t.key('free');
      const after = await t.get('/v3/reference/tickers/AAPL', fresh);
      expect(after.status).toBe(200);
      expect(after.headers['x-ratelimit-remaining']).toBe('4');
      expect(await redis.keys('tb:rl:free:*')).not.toHaveLength(0); // counting in Redis again
    });
  });
}

/** A TCP relay in front of PostgreSQL that the test can cut and restore. */
class Relay {
  private server?: Server;
  private sockets = new Set<Socket>();
  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}
  async up(): Promise<void> {
    if (this.server) return;
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => this.server!.listen(this.port, '127.0.0.1', r));
  }
  async down(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => server.close(r));
  }
}

describe.skipIf(!DATABASE_URL)('PostgreSQL goes away mid-run', () => {
  const schema = `tb_outage_${randomBytes(5).toString('hex')}`;
  let relay: Relay;
  let store: Store;
  let t: ProductionTestApp;
  let key: string;

  beforeAll(async () => {
    const target = new URL(DATABASE_URL!);
    relay = new Relay(await freePort(), { host: target.hostname, port: Number(target.port || 5432) });
    await relay.up();
    const via = new URL(DATABASE_URL!);
    via.hostname = '127.0.0.1';
    via.port = String(relay.port);
    store = await openStore({ databaseUrl: via.toString(), schema, poolSize: 2 });
    await store.reference.upsertTickers(FIXTURE_TICKERS);
    t = await productionApp(store, { production: { usage: false } });
    key = await t.key('demo');
  });
  afterAll(async () => {
    await t?.close();
    await relay?.up();
    await store?.close();
    await relay?.down();
    const admin = PostgresDriver.open(DATABASE_URL!, { max: 1 });
    await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => admin.close());
  });

  it('answers 503 STORE_UNAVAILABLE and not ready while it is gone, and recovers without a restart', async () => {
    expect((await t.get('/v3/reference/tickers/AAPL', key)).status).toBe(200);
    await relay.down();
    const during = await t.get('/v3/reference/tickers?limit=5', key);
    expect(during.status).toBe(503);
    expect(during.body.data).toMatchObject({ code: 'STORE_UNAVAILABLE', error: 'The data store is unavailable; try again shortly' });
    const ready = await t.get('/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.data.error).toBe('Not ready: store (postgres) is unreachable');
    const metrics = (await t.get('/metrics')).raw;
    expect(metrics).toMatch(/tickerbase_store_errors_total\{kind="unavailable"\} [1-9]/);

    await relay.up();
    await until(async () => (await t.get('/ready')).status === 200, 'ready again');
    const after = await t.get('/v3/reference/tickers?limit=5', key);
    expect(after.status).toBe(200);
    expect(t.data(after).results).toHaveLength(5);
  });
});
