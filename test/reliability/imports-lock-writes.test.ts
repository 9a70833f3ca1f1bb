// SQLite: while another process holds the write lock (an import's transaction), a request that
// writes (creating or revoking a key, signing up or in on the dashboard, publishing to the feed)
// is refused at once with 503 STORE_BUSY and Retry-After, instead of freezing the whole server on
// the lock (better-sqlite3 waits synchronously), and the same write succeeds once the lock is free.
//
// The lock holder is a child process that commits only when told to, or after a few seconds. A
// server that waited for the lock would answer the writes only after that commit (and then with
// success), so the assertions are about status and order of events, not about a time limit.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openStore, SERVING_BUSY_TIMEOUT_MS, type Store } from '../../src/store/index.js';
import { startServe } from '../helpers/cli.js';
import { DashboardClient } from '../dashboard/client.js';
import { startFeedServer } from '../stream/feed-helpers.js';

const HOLDER = fileURLToPath(new URL('./lock-holder.mjs', import.meta.url));
const ADMIN_TOKEN = 'lock-writes-admin-token-0123456789abcdef';
const HOLD_MS = 8000;

interface Holder {
  child: ChildProcessWithoutNullStreams;
  /** Resolves with the holder's clock when it committed. */
  released: Promise<number>;
  release(): void;
}

async function holdWriteLock(file: string, holdMs: number): Promise<Holder> {
  const child = spawn(process.execPath, [HOLDER, file, String(holdMs)], { cwd: process.cwd() });
  let out = '';
  let onReleased: (t: number) => void = () => {};
  const released = new Promise<number>((r) => (onReleased = r));
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => reject(new Error(`lock holder: ${d.toString()}`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('locked\n')) resolve();
      const m = /released (\d+)/.exec(out);
      if (m) onReleased(Number(m[1]));
    });
  });
  return { child, released, release: () => child.stdin.write('release\n') };
}

/** Resolves with the response and the time it was answered. */
async function timed(res: Promise<LightMyRequestResponse>): Promise<{ res: LightMyRequestResponse; at: number }> {
  const r = await res;
  return { res: r, at: Date.now() };
}

function expectBusy(res: LightMyRequestResponse): void {
  expect(res.statusCode).toBe(503);
  expect(res.headers['retry-after']).toBe('1');
  const body = res.json();
  const inner = body.data ?? body;
  expect(inner.code).toBe('STORE_BUSY');
  expect(inner.message).toMatch(/busy with another writer/);
}

describe('SQLite: writes on the request path do not wait for an import holding the write lock', () => {
  let dir: string;
  let file: string;
  let store: Store;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tb-lock-writes-'));
    file = join(dir, 'tickerbase.db');
    // the server's store, as `serve` opens it
    store = await openStore({ sqliteFile: file, busyTimeoutMs: SERVING_BUSY_TIMEOUT_MS });
    app = await buildApp({
      store,
      config: { envelope: 'wrapped' },
      production: { adminToken: ADMIN_TOKEN, usage: { flushIntervalMs: 3_600_000 } },
      dashboard: { signup: 'open', signInLimit: { prefix: `tb:test:${Math.random()}` } },
    });
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds another app on the store while the lock is held (a worker restarting during an import)', async () => {
    const holder = await holdWriteLock(file, HOLD_MS);
    try {
      // The app reads its cursor and cookie secrets, created by the first app; no write is needed.
      const again = await buildApp({ store, config: { envelope: 'wrapped' }, production: { usage: false }, dashboard: { signup: 'open', signInLimit: { prefix: `tb:test:${Math.random()}` } } });
      expect((await again.inject({ url: '/health' })).statusCode).toBe(200);
      await again.close();
    } finally {
      // killed, not released: its uncommitted row goes away, so the next holder can insert it again
      const exited = new Promise((r) => holder.child.once('exit', r));
      holder.child.kill('SIGKILL');
      await exited;
    }
  });

  it('opens a migrated store again while the lock is held (a server starting during an import)', async () => {
    const holder = await holdWriteLock(file, HOLD_MS);
    try {
      // nothing to apply: answered without taking the write lock
      const reopened = await openStore({ sqliteFile: file, busyTimeoutMs: SERVING_BUSY_TIMEOUT_MS });
      expect(await reopened.migrate()).toEqual([]);
      expect(await reopened.reference.countTickers()).toBeGreaterThanOrEqual(0);
      await reopened.close();
    } finally {
      const exited = new Promise((r) => holder.child.once('exit', r));
      holder.child.kill('SIGKILL');
      await exited;
    }
  });

  const admin = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, ...(payload ? { payload } : {}) });

  it('refuses key creation and revocation, sign-up and sign-in with 503 STORE_BUSY while /health answers; all succeed after', async () => {
    const existing = await admin('POST', '/admin/keys', { plan: 'demo', label: 'made before the import' });
    expect(existing.statusCode).toBe(201);
    const existingId: string = existing.json().data.results.id;
    const member = new DashboardClient(app);
    expect((await member.signUp('member@example.com')).statusCode).toBe(201);
    const newcomer = new DashboardClient(app);
    await newcomer.session();
    const returning = new DashboardClient(app);
    await returning.session();

    const holder = await holdWriteLock(file, HOLD_MS);
    let releasedAt: number;
    try {
      const [create, revoke, signUp, signIn, health] = await Promise.all([
        timed(admin('POST', '/admin/keys', { plan: 'demo', label: 'during the import' })),
        timed(admin('DELETE', `/admin/keys/${existingId}`)),
        timed(newcomer.signUp('newcomer@example.com')),
        timed(returning.signIn('member@example.com')),
        timed(app.inject({ url: '/health' })),
      ]);
      expect(health.res.statusCode).toBe(200);
      for (const w of [create, revoke, signUp, signIn]) expectBusy(w.res);
      // Reads keep working: the key made before is listed, not revoked.
      const listed = await app.inject({ url: '/admin/keys', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(listed.statusCode).toBe(200);
      const before = listed.json().data.results.find((k: { id: string }) => k.id === existingId);
      expect(before.revoked_utc ?? null).toBeNull();

      const answeredAt = Math.max(health.at, create.at, revoke.at, signUp.at, signIn.at);
      holder.release();
      releasedAt = await holder.released;
      // Everything was answered while the lock was still held, not after the import let go.
      expect(answeredAt).toBeLessThan(releasedAt);
    } finally {
      holder.child.kill('SIGKILL');
    }

    // The same writes succeed once the lock is free.
    expect((await admin('POST', '/admin/keys', { plan: 'demo', label: 'after the import' })).statusCode).toBe(201);
    const revoked = await admin('DELETE', `/admin/keys/${existingId}`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data.results.revoked_utc).toEqual(expect.any(String));
    const signedUp = await newcomer.signUp('newcomer@example.com');
    expect(signedUp.statusCode).toBe(201);
    expect(newcomer.data(signedUp).account.email).toBe('newcomer@example.com');
    expect((await returning.signIn('member@example.com')).statusCode).toBe(200);
  });
});

describe('tickerbase serve (SQLite) while an import holds the write lock', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tb-lock-serve-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers POST /admin/keys 503 STORE_BUSY with Retry-After before the import lets go, and 201 after', async () => {
    const server = await startServe(['--data-dir', dir, '--port', '0', '--host', '127.0.0.1', '--demo', 'no', '--admin-token', ADMIN_TOKEN]);
    const createKey = () =>
      fetch(`${server.url}/admin/keys`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ plan: 'demo' }) });
    try {
      const holder = await holdWriteLock(join(dir, 'tickerbase.db'), HOLD_MS);
      try {
        const during = await createKey();
        const health = await fetch(`${server.url}/health`);
        const answeredAt = Date.now();
        expect(during.status).toBe(503);
        expect(during.headers.get('retry-after')).toBe('1');
        expect(((await during.json()) as { data: { code: string } }).data.code).toBe('STORE_BUSY');
        expect(health.status).toBe(200);
        holder.release();
        expect(answeredAt).toBeLessThan(await holder.released);
      } finally {
        holder.child.kill('SIGKILL');
      }
      expect((await createKey()).status).toBe(201);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 120_000);
});

describe('SQLite: closing the server writes the last usage counts once an import lets go', () => {
  it('waits longer than a request may for the lock, so the pending counts are not lost', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tb-lock-close-'));
    const file = join(dir, 'tickerbase.db');
    const store = await openStore({ sqliteFile: file, busyTimeoutMs: SERVING_BUSY_TIMEOUT_MS });
    try {
      const { key, record } = await store.keys.create({ plan: 'demo', label: 'counted' });
      const app = await buildApp({ store, config: { envelope: 'native' }, production: { usage: { flushIntervalMs: 3_600_000 } } });
      const res = await app.inject({ url: '/v3/reference/tickers?limit=1', headers: { 'x-api-key': key } });
      expect(res.statusCode).toBe(200);
      // The holder commits by itself after a second, while close() is waiting for the lock.
      const holder = await holdWriteLock(file, 1000);
      try {
        await app.close();
        expect(await holder.released).toBeGreaterThan(0);
      } finally {
        holder.child.kill('SIGKILL');
      }
      const rows = await store.usage.forKey(record.id);
      expect(rows.reduce((n, r) => n + r.requests, 0)).toBe(1);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('SQLite: publishing to the feed while an import holds the write lock', () => {
  it('answers POST /admin/publish 503 STORE_BUSY before the import lets go, and stores the events after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tb-lock-publish-'));
    const file = join(dir, 'tickerbase.db');
    const server = await startFeedServer({ store: await openStore({ sqliteFile: file, busyTimeoutMs: SERVING_BUSY_TIMEOUT_MS }), adminToken: ADMIN_TOKEN });
    const trade = { ev: 'T', sym: 'LOCKD', x: 4, i: '1', z: 3, p: 10.5, s: 100, c: [], t: 1_749_825_065_412, q: 1 };
    const publish = () =>
      server.app.inject({ method: 'POST', url: '/admin/publish', payload: JSON.stringify(trade), headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' } });
    try {
      const holder = await holdWriteLock(file, HOLD_MS);
      try {
        const during = await publish();
        const answeredAt = Date.now();
        expectBusy(during);
        holder.release();
        expect(answeredAt).toBeLessThan(await holder.released);
      } finally {
        holder.child.kill('SIGKILL');
      }
      const after = await publish();
      expect(after.statusCode).toBe(200);
      expect(after.json()).toMatchObject({ events: 1, trades_stored: 1 });
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
