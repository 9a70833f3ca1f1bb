// The foundation repositories' contract (keys, tickers, migrations), held to the same behaviour on
// every engine: what the HTTP layer relies on, checked below the HTTP layer.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import type { TickerRecord } from '../../src/store/records.js';
import type { KeysetPosition } from '../../src/store/repos/keyset.js';
import { engines } from '../helpers/engines.js';
import { sqlOf } from '../../src/store/inspect.js';

function ticker(symbol: string, extra: Partial<TickerRecord> = {}): TickerRecord {
  return {
    ticker: symbol, name: `${symbol} Corp`, market: 'stocks', locale: 'us', active: true, type: 'CS',
    primary_exchange: 'XNAS', currency_name: 'usd', last_updated_utc: '2026-11-20T00:00:00Z', valid_from: '2000-01-01', ...extra,
  };
}

for (const engine of engines()) {
  describe(`foundation repositories (${engine.name})`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
    });
    afterAll(async () => {
      await store.close();
    });

    it('applies every migration once: a second run applies none', async () => {
      expect(await store.migrate()).toEqual([]);
      const ids = (await sqlOf(store).all('SELECT id FROM schema_migrations ORDER BY id')).map((r) => String(r.id));
      expect(ids.length).toBeGreaterThan(3);
      expect(ids).toEqual([...ids].sort());
    });

    describe('keys', () => {
      it('stores only the SHA-256 of a key, finds the key by it, and never keeps the key', async () => {
        const { key, record } = await store.keys.create({ plan: 'starter', label: 'contract' });
        expect(key).toMatch(/^tb_[A-Za-z0-9_-]{32,}$/);
        const row = await sqlOf(store).get('SELECT * FROM api_keys WHERE id = ?', [record.id]);
        expect(row!.hash).toBe(createHash('sha256').update(key).digest('hex'));
        expect(Object.values(row!).map(String)).not.toContain(key);
        expect(await store.keys.findByKey(key)).toMatchObject({ id: record.id, plan: 'starter', label: 'contract' });
        expect(await store.keys.findByKey(`${key}x`)).toBeUndefined();
      });

      it('keys differ, and revoking one marks it once', async () => {
        const a = await store.keys.create({ plan: 'free' });
        const b = await store.keys.create({ plan: 'free' });
        expect(a.key).not.toBe(b.key);
        expect(await store.keys.revoke(a.record.id)).toBe(true);
        expect(await store.keys.revoke(a.record.id)).toBe(false);
        expect((await store.keys.findByKey(a.key))!.revoked_utc).toMatch(/^\d{4}-\d{2}-\d{2}T/);
        expect((await store.keys.findByKey(b.key))!.revoked_utc).toBeUndefined();
      });
    });

    describe('tickers', () => {
      beforeAll(async () => {
        await store.reference.upsertTickers([
          ticker('AAA'),
          ticker('BBB', { valid_from: '2000-01-01', valid_to: '2020-06-01', name: 'Old BBB' }),
          ticker('BBB', { valid_from: '2020-06-01', name: 'New BBB' }),
          ticker('CCC', { active: false, delisted_utc: '2019-03-01T00:00:00Z' }),
          ticker('a.b:c', { name: 'Odd symbol' }),
        ]);
      });

      it('answers the current version, or the one valid on a date', async () => {
        expect((await store.reference.getTicker('BBB'))!.name).toBe('New BBB');
        expect((await store.reference.getTicker('BBB', '2010-01-01'))!.name).toBe('Old BBB');
        expect((await store.reference.getTicker('BBB', '2020-06-01'))!.name).toBe('New BBB');
        expect(await store.reference.getTicker('bbb')).toBeUndefined(); // case-sensitive
        expect((await store.reference.getTicker('a.b:c'))!.name).toBe('Odd symbol');
      });

      it('upserting the same versions again changes nothing', async () => {
        const before = await sqlOf(store).get('SELECT COUNT(*) AS n FROM tickers');
        await store.reference.upsertTickers([ticker('AAA')]);
        expect(await sqlOf(store).get('SELECT COUNT(*) AS n FROM tickers')).toEqual(before);
      });

      it('lists in byte order with keyset positions, active by default', async () => {
        const page = async (after?: KeysetPosition) => store.reference.listTickers({ active: true, sort: 'ticker', order: 'asc', limit: 2, after });
        const first = await page();
        expect(first.map((r) => r.record.ticker)).toEqual(['AAA', 'BBB']);
        const last = first[first.length - 1]!;
        const second = await page({ value: last.record.ticker, id: last.id });
        expect(second.map((r) => r.record.ticker)).toEqual(['a.b:c']);
        const inactive = await store.reference.listTickers({ active: false, sort: 'ticker', order: 'asc', limit: 10 });
        expect(inactive.map((r) => r.record.ticker)).toEqual(['CCC']);
      });
    });
  });
}
