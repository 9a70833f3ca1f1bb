// SQLite: while another process holds the write lock (an import's transaction), the server keeps
// answering: /health and data reads do not wait for it, and usage counting, which writes, does
// not wait either: the counts stay pending and are written once the lock is free.
//
// The lock holder is a child process that commits only when told to, or after a few seconds. A
// request path that waited for the lock would answer only after that commit, so every assertion
// below is about order (answered before the holder let go), not about a time limit.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openStore, type Store } from '../../src/store/index.js';
import type { UsageRecorder } from '../../src/server/usage.js';

const HOLDER = fileURLToPath(new URL('./lock-holder.mjs', import.meta.url));
const T0 = 1_709_888_400_000; // 2024-03-08 04:00 ET

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

describe('SQLite: requests do not wait for an import holding the write lock', () => {
  let dir: string;
  let store: Store;
  let app: FastifyInstance;
  let key: string;
  let keyId: string;
  let usage: UsageRecorder;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tb-lock-'));
    store = await openStore({ sqliteFile: join(dir, 'tickerbase.db') });
    await store.market.insertBars('minute', [0, 1, 2].map((i) => ({ ticker: 'AAPL', t: T0 + i * 60_000, o: 10, h: 11, l: 9, c: 10.5, v: 100, vw: undefined, n: 3 })));
    const created = await store.keys.create({ plan: 'demo', label: 'lock test' });
    key = created.key;
    keyId = created.record.id;
    // maxPending 1: every counted request flushes at once, on the request path, as a busy server does.
    app = await buildApp({ store, config: { envelope: 'native' }, production: { usage: { flushIntervalMs: 3_600_000, maxPending: 1 } } });
    usage = (app as unknown as { production: { usage: UsageRecorder } }).production.usage;
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers /health and a data read while the lock is held; usage is written after it is let go', async () => {
    const holder = await holdWriteLock(join(dir, 'tickerbase.db'), 8000);
    try {
      const health = await app.inject({ url: '/health' });
      const bars = await app.inject({ url: `/v2/aggs/ticker/AAPL/range/1/minute/${T0}/${T0 + 180_000}`, headers: { 'x-api-key': key } });
      const other = await app.inject({ url: `/v2/aggs/ticker/UNCOMMITTED/range/1/minute/${T0}/${T0 + 60_000}`, headers: { 'x-api-key': key } });
      await usage.flush();
      const answeredAt = Date.now();
      expect(health.statusCode).toBe(200);
      expect(bars.statusCode).toBe(200);
      expect(bars.json().results.map((b: { c: number }) => b.c)).toEqual([10.5, 10.5, 10.5]);
      // The holder's uncommitted row is not visible, and reading did not wait for it.
      expect(other.json().resultsCount).toBe(0);
      // Nothing was written yet: the counts are pending.
      expect(await store.usage.forKey(keyId)).toEqual([]);

      holder.release();
      const releasedAt = await holder.released;
      expect(answeredAt).toBeLessThan(releasedAt);
    } finally {
      holder.child.kill('SIGKILL');
    }
    await usage.flush();
    const rows = await store.usage.forKey(keyId);
    expect(rows.reduce((n, r) => n + r.requests, 0)).toBe(2);
  });
});
