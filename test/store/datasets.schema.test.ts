import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { DATASET_DECLARATIONS } from '../../src/store/repos/dataset-catalog.js';
import type { FieldType } from '../../src/store/repos/datasets.js';
import { engines } from '../helpers/engines.js';
import { sqlOf } from '../../src/store/inspect.js';

// The data-set declarations drive reads and writes; the migrations create the tables. This holds
// them together: a field added to a declaration without a migration fails here, not in production.
const SQLITE_TYPE: Record<FieldType, string> = { text: 'TEXT', date: 'TEXT', json: 'TEXT', 'string-array': 'TEXT', int: 'INTEGER', bool: 'INTEGER', float: 'REAL' };
const PG_TYPE: Record<FieldType, string> = { text: 'text', date: 'text', json: 'text', 'string-array': 'text', int: 'bigint', bool: 'integer', float: 'double precision' };

for (const engine of engines()) {
  describe(`data-set tables match their declarations (${engine.name})`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
    });
    afterAll(async () => store.close());

    async function columns(table: string): Promise<Map<string, { type: string; notNull: boolean }>> {
      const out = new Map<string, { type: string; notNull: boolean }>();
      if (store.engine === 'sqlite') {
        for (const r of await sqlOf(store).all(`PRAGMA table_info("${table}")`)) out.set(String(r.name), { type: String(r.type), notNull: Number(r.notnull) === 1 });
      } else {
        const rows = await sqlOf(store).all('SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?', [table]);
        for (const r of rows) out.set(String(r.column_name), { type: String(r.data_type), notNull: r.is_nullable === 'NO' });
      }
      return out;
    }

    for (const def of DATASET_DECLARATIONS) {
      it(`${def.name} (${def.table})`, async () => {
        const cols = await columns(def.table);
        expect([...cols.keys()].sort()).toEqual(['pk', ...Object.keys(def.fields)].sort());
        for (const [name, f] of Object.entries(def.fields)) {
          const want = store.engine === 'sqlite' ? SQLITE_TYPE[f.type] : PG_TYPE[f.type];
          expect(cols.get(name), name).toEqual({ type: want, notNull: f.required === true });
        }
      });
    }
  });
}
