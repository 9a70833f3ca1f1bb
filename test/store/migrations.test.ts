// Schema migrations are .sql files per engine. The ids are what a database records as applied,
// so they must match across engines and stay those recorded by earlier releases: a changed id
// would re-run a migration on an existing database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { sqlOf } from '../../src/store/inspect.js';
import { listMigrations } from '../../src/store/migrations/index.js';
import { engines } from '../helpers/engines.js';

const RELEASED_IDS = ['0001_foundation', '0100_market_data', '0200_options', '0300_datasets', '0310_news_social', '0320_splits_per_day', '0400_production'];

describe('migration files', () => {
  it('hold the same ids for both engines, in id order, starting with the released ones', () => {
    const sqlite = listMigrations('sqlite').map((m) => m.id);
    const postgres = listMigrations('postgres').map((m) => m.id);
    expect(postgres).toEqual(sqlite);
    expect(sqlite.slice(0, RELEASED_IDS.length)).toEqual(RELEASED_IDS);
    expect(sqlite).toEqual([...sqlite].sort());
  });

  it('are not empty, or say they change nothing on their engine', () => {
    for (const engine of ['sqlite', 'postgres'] as const) {
      // A file that changes nothing on its engine says so in its first line.
      for (const m of listMigrations(engine)) expect(m.sql, `${engine}/${m.id}.sql`).toMatch(/\b(CREATE|ALTER|DROP|DELETE|INSERT)\b|^-- No change on this engine\./);
    }
  });
});

for (const engine of engines()) {
  describe(`migrations on a store (${engine.name})`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
    });
    afterAll(async () => store.close());

    it('records every migration once, by its file id', async () => {
      const rows = await sqlOf(store).all('SELECT id FROM schema_migrations ORDER BY id');
      expect(rows.map((r) => String(r.id))).toEqual(listMigrations(engine.name).map((m) => m.id));
    });

    it('applies nothing to a database that recorded the released ids', async () => {
      expect(await store.migrate()).toEqual([]);
    });

    it('applies a migration missing from the record, and only that one', async () => {
      // A database from before per-key usage was recorded: 0400_production not yet applied.
      await sqlOf(store).exec('DROP TABLE key_usage');
      await sqlOf(store).run('DELETE FROM schema_migrations WHERE id = ?', ['0400_production']);
      expect(await store.migrate()).toEqual(['0400_production']);
      await store.usage.add([{ key_id: 'k1', day: '2026-11-20', family: '/v2/aggs', requests: 2, errors: 0 }]);
      expect(await store.usage.forKey('k1')).toHaveLength(1);
    });
  });
}
