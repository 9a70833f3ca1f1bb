// The meta repository contract: settings shared by every process on one store.
import { describe, expect, it } from 'vitest';
import { useStore, type MakeStore } from './store-fixture.js';

export function runMetaRepoContract(makeStore: MakeStore): void {
  describe('meta repository', () => {
    const store = useStore(makeStore);

    it('reads back what was set, and the last value set wins', async () => {
      expect(await store().meta.get('contract_key')).toBeUndefined();
      await store().meta.set('contract_key', 'one');
      await store().meta.set('contract_key', 'two');
      expect(await store().meta.get('contract_key')).toBe('two');
    });

    it('creates a value once: the first writer wins and later makers are not used', async () => {
      const first = await store().meta.getOrCreate('contract_once', () => 'first');
      const second = await store().meta.getOrCreate('contract_once', () => 'second');
      expect([first, second]).toEqual(['first', 'first']);
    });

    it('keeps one cursor secret for the store (so cursors outlive a process)', async () => {
      const a = await store().meta.cursorSecret();
      expect(a).toMatch(/^[0-9a-f]{64}$/);
      expect(await store().meta.cursorSecret()).toBe(a);
    });
  });
}
