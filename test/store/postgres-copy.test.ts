// Bulk writes into PostgreSQL go through COPY (pg-copy-streams) into a staging table, then
// INSERT ... SELECT ... ON CONFLICT: same values, same upsert semantics, same transaction.
// Evidence that COPY is used comes from the statements the pg client is asked to run (a spy on
// pg.Client.prototype.query), not from the driver itself.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import '../../src/ingest/datasets.js';
import { importFile } from '../../src/ingest/load.js';
import type { Store } from '../../src/store/index.js';
import { COPY_MIN_ROWS, copyTextValue } from '../../src/store/postgres/driver.js';
import { openPostgresStore } from '../helpers/engines.js';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) console.log('PostgreSQL COPY tests skipped: DATABASE_URL is not set (CI sets it).');

describe('COPY text encoding', () => {
  it('escapes backslash, tab, newline and carriage return; NULL is \\N', () => {
    expect(copyTextValue('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    expect(copyTextValue('\\N')).toBe('\\\\N');
    expect(copyTextValue('\\.')).toBe('\\\\.');
    expect(copyTextValue('plain é 🙂')).toBe('plain é 🙂');
    expect(copyTextValue(null)).toBe('\\N');
    expect(copyTextValue(undefined)).toBe('\\N');
  });

  it('writes integers as decimal digits, exactly, and bytea as \\x hex', () => {
    expect(copyTextValue(2n ** 63n - 1n)).toBe('9223372036854775807');
    expect(copyTextValue(-(2n ** 63n))).toBe('-9223372036854775808');
    expect(copyTextValue(1_700_000_000_123)).toBe('1700000000123');
    expect(copyTextValue(0.1)).toBe('0.1');
    expect(copyTextValue(true)).toBe('t');
    expect(copyTextValue(Buffer.from([0, 0x5c, 0xff]))).toBe('\\\\x005cff');
  });
});

/** The SQL text of whatever was handed to client.query (a string, a config or a COPY stream). */
function textOf(arg: unknown): string {
  if (typeof arg === 'string') return arg;
  return String((arg as { text?: unknown } | null)?.text ?? '');
}

const TRICKY = [
  'tab\there',
  'line\nbreak',
  'carriage\rreturn\r\n',
  'back\\slash',
  '\\N',
  '\\.',
  'ends with backslash\\',
  '"quoted", with commas',
  'unicode é ✓ 🙂',
  ' leading and trailing spaces ',
];

interface CategoryRow {
  taxonomy: number;
  primary_category: string;
  secondary_category: string;
  tertiary_category: string;
  description: string | null;
}

function categories(n: number, version = ''): CategoryRow[] {
  const out: CategoryRow[] = [];
  for (let i = 0; i < n; i++) {
    out.push({
      taxonomy: [1, 1.1, 2.5][i % 3]!,
      primary_category: `primary ${i % 7}`,
      secondary_category: `secondary ${i % 11}`,
      tertiary_category: `tertiary ${i}${TRICKY[i % TRICKY.length]}`,
      // Every fourth description absent: stored as NULL.
      description: i % 4 === 3 ? null : `${TRICKY[(i + 3) % TRICKY.length]} #${i}${version}`,
    });
  }
  return out;
}

function ndjson(rows: readonly CategoryRow[]): string {
  return rows.map((r) => JSON.stringify(r.description === null ? { ...r, description: undefined } : r)).join('\n') + '\n';
}

describe.skipIf(!DATABASE_URL)('PostgreSQL bulk import through COPY', () => {
  let store: Store;
  let dir: string;
  let spy: MockInstance;
  const statements = () => spy.mock.calls.map((c) => textOf(c[0]));
  const copies = () => statements().filter((s) => /^COPY tb_copy_\d+ \(.*\) FROM STDIN$/s.test(s));
  // The table name may come quoted or not.
  const valueInserts = (table: string) => statements().filter((s) => new RegExp(`^INSERT INTO "?${table}"? \\(.*\\) VALUES \\(`, 's').test(s));
  const selectInserts = (table: string) => statements().filter((s) => new RegExp(`^INSERT INTO "?${table}"? \\(.*\\) SELECT .* FROM tb_copy_\\d+ ORDER BY`, 's').test(s));

  beforeAll(async () => {
    store = await openPostgresStore(DATABASE_URL!);
    dir = mkdtempSync(join(tmpdir(), 'tb-pg-copy-'));
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    spy = vi.spyOn(pg.Client.prototype, 'query');
  });
  afterEach(() => {
    spy.mockRestore();
  });

  async function storedCategories(): Promise<CategoryRow[]> {
    const rows = await store.db.all(
      `SELECT taxonomy, primary_category, secondary_category, tertiary_category, description FROM risk_categories
       ORDER BY taxonomy, primary_category, secondary_category, tertiary_category`,
    );
    return rows.map((r) => ({
      taxonomy: Number(r.taxonomy),
      primary_category: String(r.primary_category),
      secondary_category: String(r.secondary_category),
      tertiary_category: String(r.tertiary_category),
      description: r.description === null ? null : String(r.description),
    }));
  }

  const sorted = (rows: CategoryRow[]) =>
    [...rows].sort((a, b) =>
      a.taxonomy - b.taxonomy ||
      (a.primary_category < b.primary_category ? -1 : a.primary_category > b.primary_category ? 1 : 0) ||
      (a.secondary_category < b.secondary_category ? -1 : a.secondary_category > b.secondary_category ? 1 : 0) ||
      (a.tertiary_category < b.tertiary_category ? -1 : a.tertiary_category > b.tertiary_category ? 1 : 0),
    );

  it('imports a data-set file with COPY; text, floats and NULLs round-trip exactly; re-import is idempotent', async () => {
    await store.db.run('DELETE FROM risk_categories');
    const rows = categories(1200);
    const path = join(dir, 'categories.ndjson');
    writeFileSync(path, ndjson(rows));

    const first = await importFile(store, path, { dataset: 'risk-categories' });
    expect(first).toMatchObject({ importer: 'datasets', kind: 'risk-categories', rows: 1200, rejected: 0 });
    expect(copies().length).toBeGreaterThan(0);
    expect(selectInserts('risk_categories')).toHaveLength(1);
    expect(valueInserts('risk_categories')).toEqual([]);

    const stored = await storedCategories();
    expect(stored).toHaveLength(1200);
    // Collation may order the tricky strings differently from JS: compare as sets of rows.
    expect(sorted(stored)).toEqual(sorted(rows));
    expect(stored.filter((r) => r.description === null)).toHaveLength(300);
    expect(stored.find((r) => r.tertiary_category === 'tertiary 4\\N')?.description).toBe(`${TRICKY[7]} #4`);
    expect(stored.find((r) => r.tertiary_category === 'tertiary 1line\nbreak')?.description).toBe('\\N #1');

    // The same file again: nothing changes.
    spy.mockClear();
    await importFile(store, path, { dataset: 'risk-categories' });
    expect(copies().length).toBeGreaterThan(0);
    expect(sorted(await storedCategories())).toEqual(sorted(rows));

    // A newer version of the rows replaces them on their natural key (ON CONFLICT DO UPDATE).
    const v2 = categories(1200, ' v2');
    const path2 = join(dir, 'categories-v2.ndjson');
    writeFileSync(path2, ndjson(v2));
    await importFile(store, path2, { dataset: 'risk-categories' });
    expect(sorted(await storedCategories())).toEqual(sorted(v2));
  });

  it('a bad file leaves nothing behind, even after a batch of it went through COPY', async () => {
    await store.db.run('DELETE FROM risk_categories');
    const good = categories(600);
    const goodPath = join(dir, 'good.ndjson');
    writeFileSync(goodPath, ndjson(good));
    await importFile(store, goodPath, { dataset: 'risk-categories' });

    // 5,000 valid rows (one full batch, copied and moved) that would replace the good ones, then a bad row.
    const rows = categories(5000, ' replaced');
    const path = join(dir, 'bad.ndjson');
    writeFileSync(path, ndjson(rows) + JSON.stringify({ taxonomy: -1, primary_category: 'p', secondary_category: 's', tertiary_category: 't' }) + '\n');
    spy.mockClear();
    await expect(importFile(store, path, { dataset: 'risk-categories' })).rejects.toThrow(/:5001: taxonomy/);
    expect(copies().length).toBeGreaterThan(0);
    expect(selectInserts('risk_categories')).toHaveLength(1);
    expect(statements()).toContain('ROLLBACK');
    expect(sorted(await storedCategories())).toEqual(sorted(good));
  });

  describe('insertMany', () => {
    beforeAll(async () => {
      await store.db.exec(`CREATE TABLE copy_probe (
        k TEXT PRIMARY KEY, ns BIGINT NOT NULL, opt_ns BIGINT, n INTEGER, f DOUBLE PRECISION, s TEXT, b BYTEA,
        pk BIGSERIAL UNIQUE, made TEXT NOT NULL DEFAULT 'by default')`);
    });
    beforeEach(async () => {
      await store.db.run('DELETE FROM copy_probe');
    });

    const columns = ['k', 'ns', 'opt_ns', 'n', 'f', 's', 'b'];
    function probeRows(n: number, tag = ''): (string | number | bigint | null | Buffer)[][] {
      const out: (string | number | bigint | null | Buffer)[][] = [];
      for (let i = 0; i < n; i++) {
        out.push([
          `key ${i}`,
          2n ** 62n + BigInt(i) * 1_000_000_007n, // > 2^53: only exact as bigint
          i % 2 === 0 ? null : 9_007_199_254_740_993n + BigInt(i),
          i % 5 === 0 ? null : i - 300,
          i % 3 === 0 ? null : i / 7,
          i % 6 === 0 ? null : `${TRICKY[i % TRICKY.length]}${tag}`,
          i % 4 === 0 ? null : Buffer.from([i & 0xff, 0x5c, 0x09, 0x0a, 0]),
        ]);
      }
      return out;
    }

    async function stored(): Promise<unknown[][]> {
      const rows = await store.db.all(`SELECT ${columns.join(', ')}, made FROM copy_probe ORDER BY pk`, [], { bigint: true });
      return rows.map((r) => [...columns.map((c) => r[c]), r.made]);
    }

    it('copies large batches: exact bigints above 2^53, escaped text, NULLs, bytea, column defaults', async () => {
      const rows = probeRows(COPY_MIN_ROWS + 100);
      const written = await store.db.transaction((tx) => tx.insertMany({ table: 'copy_probe', columns, rows, conflictColumns: ['k'] }));
      expect(written).toBe(rows.length);
      expect(copies()).toHaveLength(1);
      expect(valueInserts('copy_probe')).toEqual([]);
      expect(await stored()).toEqual(rows.map((r) => [...r, 'by default']));
      // The staging table is gone with the transaction.
      expect(await store.db.all(`SELECT relname FROM pg_class WHERE relname LIKE 'tb_copy_%' AND relpersistence = 't'`)).toEqual([]);
    });

    it('keeps the conflict semantics and counts of the INSERT path (skip, update, first duplicate wins)', async () => {
      const rows = probeRows(COPY_MIN_ROWS + 10);
      // Outside a transaction too (the driver opens one for COPY).
      expect(await store.db.insertMany({ table: 'copy_probe', columns, rows, conflictColumns: ['k'] })).toBe(rows.length);
      // Again: every row collides and is skipped.
      expect(await store.db.insertMany({ table: 'copy_probe', columns, rows, conflictColumns: ['k'] })).toBe(0);
      // Duplicates inside one batch with DO NOTHING: the first one wins, as with multi-row VALUES.
      const dupes = [...probeRows(COPY_MIN_ROWS, ' first').map((r) => [`dup ${r[0]}`, ...r.slice(1)]), ...probeRows(COPY_MIN_ROWS, ' second').map((r) => [`dup ${r[0]}`, ...r.slice(1)])];
      expect(await store.db.insertMany({ table: 'copy_probe', columns, rows: dupes, conflictColumns: ['k'] })).toBe(COPY_MIN_ROWS);
      const firstWins = await store.db.all(`SELECT s FROM copy_probe WHERE k = 'dup key 1'`);
      expect(firstWins).toEqual([{ s: `${TRICKY[1]} first` }]);
      // DO UPDATE overwrites the update columns and counts the updated rows.
      const changed = probeRows(COPY_MIN_ROWS + 10, ' changed');
      expect(await store.db.insertMany({ table: 'copy_probe', columns, rows: changed, conflictColumns: ['k'], updateColumns: ['s', 'opt_ns'] })).toBe(changed.length);
      const after = await store.db.all(`SELECT s, opt_ns FROM copy_probe WHERE k = 'key 1'`, [], { bigint: true });
      expect(after).toEqual([{ s: `${TRICKY[1]} changed`, opt_ns: 9_007_199_254_740_994n }]);
      expect(copies().length).toBe(4);
      expect(valueInserts('copy_probe')).toEqual([]);
    });

    it('rolls back with the transaction: copied rows of a failing transaction are not kept', async () => {
      const rows = probeRows(COPY_MIN_ROWS + 1);
      await expect(
        store.db.transaction(async (tx) => {
          await tx.insertMany({ table: 'copy_probe', columns, rows, conflictColumns: ['k'] });
          // A second batch into the same staging table, then a value the column refuses.
          await tx.insertMany({ table: 'copy_probe', columns, rows: probeRows(COPY_MIN_ROWS).map((r) => [`more ${r[0]}`, ...r.slice(1)]), conflictColumns: ['k'] });
          const bad = probeRows(COPY_MIN_ROWS).map((r) => [`bad ${r[0]}`, ...r.slice(1)]);
          bad[7]![1] = 'not a number';
          await tx.insertMany({ table: 'copy_probe', columns, rows: bad, conflictColumns: ['k'] });
        }),
      ).rejects.toThrow(/invalid input syntax for type bigint/);
      expect(copies()).toHaveLength(3);
      expect(await store.db.get('SELECT COUNT(*) AS n FROM copy_probe')).toEqual({ n: 0 });
      // The pool's connections are still usable afterwards.
      expect(await store.db.transaction((tx) => tx.insertMany({ table: 'copy_probe', columns, rows, conflictColumns: ['k'] }))).toBe(rows.length);
    });

    it('leaves small batches on the multi-row INSERT path', async () => {
      const rows = probeRows(10);
      expect(await store.db.insertMany({ table: 'copy_probe', columns, rows, conflictColumns: ['k'] })).toBe(10);
      expect(copies()).toEqual([]);
      expect(valueInserts('copy_probe')).toHaveLength(1);
      expect(await stored()).toEqual(rows.map((r) => [...r, 'by default']));
    });
  });
});
