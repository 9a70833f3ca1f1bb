// The store's own contract, apart from any one repository: transactions over every repository
// (all or nothing), nested transactions, health, and the data-version token caches key on.
import { describe, expect, it } from 'vitest';
import { sqlOf } from '../../../src/store/inspect.js';
import { useStore, type MakeStore } from './store-fixture.js';

export function runStoreContract(makeStore: MakeStore): void {
  describe('store', () => {
    const store = useStore(makeStore);

    it('commits a transaction’s writes to several repositories together', async () => {
      const id = await store().transaction(async (tx) => {
        await tx.meta.set('tx_commit', 'yes');
        return (await tx.keys.create({ plan: 'free', label: 'tx' })).record.id;
      });
      expect(await store().meta.get('tx_commit')).toBe('yes');
      expect((await store().keys.get(id))!.label).toBe('tx');
    });

    it('rolls every repository back when the transaction throws, and rethrows', async () => {
      let keyId = '';
      await expect(
        store().transaction(async (tx) => {
          await tx.meta.set('tx_rollback', 'written');
          keyId = (await tx.keys.create({ plan: 'free' })).record.id;
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await store().meta.get('tx_rollback')).toBeUndefined();
      expect(await store().keys.get(keyId)).toBeUndefined();
    });

    it('sees its own writes inside the transaction', async () => {
      await store().transaction(async (tx) => {
        await tx.meta.set('tx_read_own', 'v');
        expect(await tx.meta.get('tx_read_own')).toBe('v');
      });
    });

    it('joins a transaction begun inside another: the outer one decides', async () => {
      await expect(
        store().transaction(async (tx) => {
          await tx.transaction(async (inner) => inner.meta.set('tx_nested', 'inner'));
          throw new Error('outer fails');
        }),
      ).rejects.toThrow('outer fails');
      expect(await store().meta.get('tx_nested')).toBeUndefined();
    });

    it('runs a transaction serialised on a lock id like any other', async () => {
      const r = await store().transaction(async (tx) => {
        await tx.meta.set('tx_serial', '1');
        return 'done';
      }, { serializeOn: 7_316_016_999 });
      expect(r).toBe('done');
      expect(await store().meta.get('tx_serial')).toBe('1');
    });

    it('refreshes the planner statistics of its own tables after a bulk load', async () => {
      await store().reference.upsertTickers([{ ticker: 'STAT', name: 'Stat Corp', market: 'stocks', locale: 'us', active: true, last_updated_utc: '2026-11-20T00:00:00Z', valid_from: '2000-01-01' }]);
      await store().refreshStatistics();
      if (store().engine !== 'postgres') return; // SQLite keeps no statistics of its own here
      const stats = await sqlOf(store()).get("SELECT COUNT(*) AS n FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'tickers'");
      expect(Number(stats!.n)).toBeGreaterThan(0);
    });

    it('refuses to close a transaction’s store', async () => {
      await store().transaction(async (tx) => {
        await expect(tx.close()).rejects.toThrow(/transaction/);
      });
      await store().ping();
    });

    it('changes its data version when data is written', async () => {
      const before = store().dataVersion();
      await store().meta.set('version_probe', String(Date.now()));
      expect(store().dataVersion()).not.toBe(before);
    });

    it('answers ping while open', async () => {
      await expect(store().ping()).resolves.toBeUndefined();
    });
  });
}
