import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageRecorder } from '../../src/server/usage.js';
import type { Store } from '../../src/store/index.js';
import type { UsageIncrement, UsageRepository } from '../../src/store/repos/usage.js';
import { engines } from '../helpers/engines.js';

describe('usage counters are batched', () => {
  function fakeRepo() {
    const writes: UsageIncrement[][] = [];
    let failing = false;
    const repo = {
      async add(rows: UsageIncrement[]) {
        if (failing) throw new Error('store down');
        writes.push(rows.map((r) => ({ ...r })));
      },
    } as unknown as UsageRepository;
    return { repo, writes, fail: (v: boolean) => (failing = v) };
  }
  const now = () => Date.parse('2026-11-20T23:59:00Z');

  it('writes nothing per request; one write per flush with one row per key, day and family', async () => {
    const f = fakeRepo();
    const u = new UsageRecorder(f.repo, { now, flushIntervalMs: 60_000 });
    for (let i = 0; i < 1000; i++) u.record(i % 2 ? 'key_a' : 'key_b', '/v3/trades/:ticker', i % 10 === 0);
    u.record('key_a', '/v3/quotes/:ticker', false);
    expect(f.writes).toHaveLength(0);
    await u.flush();
    expect(f.writes).toHaveLength(1);
    expect(f.writes[0]).toEqual([
      { key_id: 'key_b', day: '2026-11-20', family: '/v3/trades/:ticker', requests: 500, errors: 100 },
      { key_id: 'key_a', day: '2026-11-20', family: '/v3/trades/:ticker', requests: 500, errors: 0 },
      { key_id: 'key_a', day: '2026-11-20', family: '/v3/quotes/:ticker', requests: 1, errors: 0 },
    ]);
    await u.flush();
    expect(f.writes).toHaveLength(1);
    await u.close();
  });

  it('keeps the counts when a write fails and adds them to the next one', async () => {
    const f = fakeRepo();
    const errors: unknown[] = [];
    const u = new UsageRecorder(f.repo, { now, flushIntervalMs: 60_000, onError: (e) => errors.push(e) });
    u.record('key_a', '/f', false);
    f.fail(true);
    await u.flush();
    expect(errors).toHaveLength(1);
    u.record('key_a', '/f', true);
    f.fail(false);
    await u.close();
    expect(f.writes).toEqual([[{ key_id: 'key_a', day: '2026-11-20', family: '/f', requests: 2, errors: 1 }]]);
  });

  it('flushes early when many counters are pending', async () => {
    const f = fakeRepo();
    const u = new UsageRecorder(f.repo, { now, flushIntervalMs: 60_000, maxPending: 10 });
    for (let i = 0; i < 10; i++) u.record(`key_${i}`, '/f', false);
    await u.flush();
    expect(f.writes[0]).toHaveLength(10);
    await u.close();
  });
});

for (const engine of engines()) {
  describe(`usage repository (${engine.name})`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
    });
    afterAll(async () => {
      await store.close();
    });

    it('adds to the day’s counters across writes (and processes)', async () => {
      const row = { key_id: 'key_1', day: '2026-11-20', family: '/v3/trades/:ticker', requests: 3, errors: 1 };
      await store.usage.add([row]);
      await store.usage.add([row, { ...row, day: '2026-11-19', requests: 7, errors: 0 }]);
      expect(await store.usage.forKey('key_1')).toEqual([
        { day: '2026-11-20', family: '/v3/trades/:ticker', requests: 6, errors: 2 },
        { day: '2026-11-19', family: '/v3/trades/:ticker', requests: 7, errors: 0 },
      ]);
      expect((await store.usage.totalsSince('2026-11-20')).get('key_1')).toEqual({ requests: 6, errors: 2 });
      expect(await store.usage.forKey('key_1', '2026-11-19', '2026-11-19')).toHaveLength(1);
    });
  });
}
