// The API key repository contract: a key is shown once and stored only as its SHA-256, found by
// the key, listed, revoked once.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sqlOf } from '../../../src/store/inspect.js';
import { useStore, type MakeStore } from './store-fixture.js';

export function runKeysRepoContract(makeStore: MakeStore): void {
  describe('API key repository', () => {
    const store = useStore(makeStore);

    it('stores only the SHA-256 of a key, finds the key by it, and never keeps the key', async () => {
      const { key, record } = await store().keys.create({ plan: 'starter', label: 'contract' });
      expect(key).toMatch(/^tb_[A-Za-z0-9_-]{32,}$/);
      const row = await sqlOf(store()).get('SELECT * FROM api_keys WHERE id = ?', [record.id]);
      expect(row!.hash).toBe(createHash('sha256').update(key).digest('hex'));
      expect(Object.values(row!).map(String)).not.toContain(key);
      expect(key.startsWith(record.prefix)).toBe(true);
      expect(record.prefix.length).toBeLessThan(key.length / 2);
      expect(await store().keys.findByKey(key)).toMatchObject({ id: record.id, plan: 'starter', label: 'contract' });
      expect(await store().keys.findByKey(`${key}x`)).toBeUndefined();
    });

    it('reads a key back by id with only the fields it has (no nulls)', async () => {
      const { record } = await store().keys.create({ plan: 'free' });
      const back = await store().keys.get(record.id);
      expect(back).toEqual(record);
      expect(Object.keys(back!).sort()).toEqual(['created_utc', 'id', 'kind', 'plan', 'prefix']);
      const expiring = await store().keys.create({ plan: 'free', expires_utc: '2030-01-01T00:00:00Z' });
      expect((await store().keys.get(expiring.record.id))!.expires_utc).toBe('2030-01-01T00:00:00Z');
      expect(await store().keys.get('key_missing')).toBeUndefined();
    });

    it('keys differ, and revoking one marks it once', async () => {
      const a = await store().keys.create({ plan: 'free' });
      const b = await store().keys.create({ plan: 'free' });
      expect(a.key).not.toBe(b.key);
      expect(a.record.id).not.toBe(b.record.id);
      expect(await store().keys.revoke(a.record.id)).toBe(true);
      expect(await store().keys.revoke(a.record.id)).toBe(false);
      expect(await store().keys.revoke('key_missing')).toBe(false);
      expect((await store().keys.findByKey(a.key))!.revoked_utc).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect((await store().keys.findByKey(b.key))!.revoked_utc).toBeUndefined();
    });

    it('lists every key in creation order, also keys made within one millisecond', async () => {
      const ids = (await store().keys.list()).map((k) => k.id);
      const made: string[] = [];
      for (let i = 0; i < 20; i++) made.push((await store().keys.create({ plan: 'pro' })).record.id);
      expect((await store().keys.list()).map((k) => k.id)).toEqual([...ids, ...made]);
    });
  });
}
