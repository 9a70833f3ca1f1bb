import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { sqlOf } from '../../src/store/inspect.js';
import { DATASET_DECLARATIONS } from '../../src/store/repos/dataset-catalog.js';
import type { FieldType } from '../../src/store/repos/datasets.js';
import { engines } from '../helpers/engines.js';

// The data-set declarations drive reads and writes; the .sql migrations create the tables. This
// holds them together: a field added to a declaration without a migration fails here, not in
// production. Checked per table: columns and their types and nullability, the natural key as a
// unique constraint, and (PostgreSQL) byte-wise collation of the text that sorts.
const SQLITE_TYPE: Record<FieldType, string> = { text: 'TEXT', date: 'TEXT', json: 'TEXT', 'string-array': 'TEXT', int: 'INTEGER', bool: 'INTEGER', float: 'REAL' };
const PG_TYPE: Record<FieldType, string> = { text: 'text', date: 'text', json: 'text', 'string-array': 'text', int: 'bigint', bool: 'integer', float: 'double precision' };
/** Sortable text compares byte-wise as upstream does; JSON and ',A,B,' arrays are never sorted on. */
const PG_COLLATION: Record<FieldType, string | null> = { text: 'C', date: 'C', json: null, 'string-array': null, int: null, bool: null, float: null };

interface Column {
  type: string;
  notNull: boolean;
  collation?: string | null;
}

for (const engine of engines()) {
  describe(`data-set tables match their declarations (${engine.name})`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
    });
    afterAll(async () => store.close());

    async function columns(table: string): Promise<Map<string, Column>> {
      const out = new Map<string, Column>();
      const db = sqlOf(store);
      if (store.engine === 'sqlite') {
        for (const r of await db.all(`PRAGMA table_info("${table}")`)) out.set(String(r.name), { type: String(r.type), notNull: Number(r.notnull) === 1 });
      } else {
        const rows = await db.all('SELECT column_name, data_type, is_nullable, collation_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?', [table]);
        for (const r of rows) out.set(String(r.column_name), { type: String(r.data_type), notNull: r.is_nullable === 'NO', collation: r.collation_name === null ? null : String(r.collation_name) });
      }
      return out;
    }

    /** Column lists of the table's unique indexes and constraints, as "a,b,c". */
    async function uniqueKeys(table: string): Promise<string[]> {
      const db = sqlOf(store);
      if (store.engine === 'sqlite') {
        const keys: string[] = [];
        for (const idx of await db.all(`PRAGMA index_list("${table}")`)) {
          if (Number(idx.unique) !== 1) continue;
          const cols = await db.all(`PRAGMA index_info("${String(idx.name)}")`);
          keys.push(cols.sort((a, b) => Number(a.seqno) - Number(b.seqno)).map((c) => String(c.name)).join(','));
        }
        return keys;
      }
      const rows = await db.all(
        `SELECT i.indexrelid::text AS idx, a.attname AS col, k.ord
           FROM pg_index i
           JOIN pg_class t ON t.oid = i.indrelid
           JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = current_schema()
           CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
           JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
          WHERE t.relname = ? AND i.indisunique
          ORDER BY idx, k.ord`,
        [table],
      );
      const byIndex = new Map<string, string[]>();
      for (const r of rows) byIndex.set(String(r.idx), [...(byIndex.get(String(r.idx)) ?? []), String(r.col)]);
      return [...byIndex.values()].map((cols) => cols.join(','));
    }

    for (const def of DATASET_DECLARATIONS) {
      it(`${def.name} (${def.table})`, async () => {
        const cols = await columns(def.table);
        expect([...cols.keys()].sort()).toEqual(['pk', ...Object.keys(def.fields)].sort());
        for (const [name, f] of Object.entries(def.fields)) {
          const want: Column = store.engine === 'sqlite'
            ? { type: SQLITE_TYPE[f.type], notNull: f.required === true }
            : { type: PG_TYPE[f.type], notNull: f.required === true, collation: PG_COLLATION[f.type] };
          expect(cols.get(name), name).toEqual(want);
        }
        expect(await uniqueKeys(def.table)).toContain(def.key.join(','));
      });
    }
  });
}
