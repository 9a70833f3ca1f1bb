// The usage repository contract: per key, day and endpoint family, increments add up (from any
// number of batches) and read back by key or as totals.
import { describe, expect, it } from 'vitest';
import { useStore, type MakeStore } from './store-fixture.js';

export function runUsageRepoContract(makeStore: MakeStore): void {
  describe('usage repository', () => {
    const store = useStore(makeStore);

    it('adds increments of one key, day and family together, from one batch or several', async () => {
      const inc = { key_id: 'k1', day: '2026-11-20', family: '/v2/aggs/ticker/:ticker', requests: 2, errors: 1 };
      await store().usage.add([inc, inc]);
      await store().usage.add([{ ...inc, requests: 5, errors: 0 }]);
      expect(await store().usage.forKey('k1')).toEqual([{ day: '2026-11-20', family: '/v2/aggs/ticker/:ticker', requests: 9, errors: 2 }]);
    });

    it('reads a key’s rows newest day first, within inclusive day bounds', async () => {
      await store().usage.add([
        { key_id: 'k2', day: '2026-11-18', family: '/b', requests: 1, errors: 0 },
        { key_id: 'k2', day: '2026-11-19', family: '/b', requests: 2, errors: 0 },
        { key_id: 'k2', day: '2026-11-19', family: '/a', requests: 3, errors: 1 },
        { key_id: 'other', day: '2026-11-19', family: '/a', requests: 100, errors: 0 },
      ]);
      expect((await store().usage.forKey('k2')).map((r) => `${r.day} ${r.family} ${r.requests}`)).toEqual(['2026-11-19 /a 3', '2026-11-19 /b 2', '2026-11-18 /b 1']);
      expect((await store().usage.forKey('k2', '2026-11-19', '2026-11-19')).map((r) => r.family)).toEqual(['/a', '/b']);
      expect(await store().usage.forKey('nobody')).toEqual([]);
    });

    it('totals requests and errors per key from a day on', async () => {
      await store().usage.add([
        { key_id: 't1', day: '2026-10-01', family: '/a', requests: 50, errors: 5 },
        { key_id: 't1', day: '2026-11-01', family: '/a', requests: 4, errors: 1 },
        { key_id: 't1', day: '2026-11-02', family: '/b', requests: 6, errors: 0 },
      ]);
      const totals = await store().usage.totalsSince('2026-11-01');
      expect(totals.get('t1')).toEqual({ requests: 10, errors: 1 });
      expect(totals.has('nobody')).toBe(false);
    });

    it('writes nothing for an empty batch', async () => {
      await store().usage.add([]);
      expect(await store().usage.forKey('empty')).toEqual([]);
    });
  });
}
