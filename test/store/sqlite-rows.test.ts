// The SQLite driver builds row objects itself from raw result rows (faster than better-sqlite3's
// own objects on wide pages): what callers get must be exactly what better-sqlite3 gives.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteDriver } from '../../src/store/sqlite/driver.js';

describe('SQLite driver rows', () => {
  let driver: SqliteDriver;
  let plain: Database.Database;
  beforeAll(async () => {
    driver = new SqliteDriver(new Database(':memory:'));
    plain = driver.db;
    await driver.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, price REAL, big INTEGER, note TEXT);
      INSERT INTO t VALUES (1, 'a', 1.5, 9007199254740993, NULL), (2, 'b', NULL, 2, 'x'), (3, 'c', 3.25, 3, '');`);
  });
  afterAll(async () => {
    await driver.close();
  });

  /** What better-sqlite3 itself answers for the same statement. */
  const expected = (sql: string, params: unknown[] = [], bigint = false) => plain.prepare(sql).safeIntegers(bigint).all(...params) as Record<string, unknown>[];

  it('gives the same objects as better-sqlite3: keys in column order, nulls, reals, aliases', async () => {
    const sql = 'SELECT id, name AS label, price, note FROM t ORDER BY id';
    const rows = await driver.all(sql);
    expect(rows).toEqual(expected(sql));
    expect(Object.keys(rows[0]!)).toEqual(['id', 'label', 'price', 'note']);
    expect(rows[0]!.note).toBeNull();
    expect(rows.map((r) => Object.getPrototypeOf(r))).toEqual([Object.prototype, Object.prototype, Object.prototype]);
  });

  it('keeps 64-bit integers exact when asked, and as numbers otherwise, on the same statement', async () => {
    const sql = 'SELECT big FROM t WHERE id = ?';
    expect((await driver.all(sql, [1], { bigint: true }))[0]!.big).toBe(9007199254740993n);
    expect((await driver.all(sql, [1]))[0]!.big).toBe(expected(sql, [1])[0]!.big);
    expect(typeof (await driver.all(sql, [1]))[0]!.big).toBe('number');
  });

  it('a repeated column name holds the last value, as in better-sqlite3', async () => {
    const sql = 'SELECT 1 AS a, 2 AS a, 3 AS b';
    expect(await driver.all(sql)).toEqual(expected(sql));
    expect((await driver.all(sql))[0]).toEqual({ a: 2, b: 3 });
  });

  it('a column named __proto__ is answered as better-sqlite3 answers it (prototype included)', async () => {
    for (const sql of ["SELECT 'v' AS __proto__, 1 AS id", 'SELECT NULL AS __proto__, 1 AS id']) {
      const [row] = await driver.all(sql);
      const [theirs] = expected(sql);
      expect(Object.getPrototypeOf(row)).toBe(Object.getPrototypeOf(theirs));
      expect(Object.getOwnPropertyNames(row)).toEqual(Object.getOwnPropertyNames(theirs));
      expect(row!.id).toBe(1);
    }
  });

  it('no rows: an empty list; get after all on the same statement still gives an object', async () => {
    expect(await driver.all('SELECT id FROM t WHERE id > ?', [99])).toEqual([]);
    const sql = 'SELECT id, name FROM t WHERE id = ?';
    await driver.all(sql, [2]);
    expect(await driver.get(sql, [2])).toEqual({ id: 2, name: 'b' });
    expect(await driver.all(sql, [3])).toEqual([{ id: 3, name: 'c' }]);
  });

  it('statements that return no data are refused as better-sqlite3 refuses them', async () => {
    await expect(driver.all("UPDATE t SET note = 'y' WHERE id = 3")).rejects.toThrow(/does not return data/);
    expect((await driver.get('SELECT note FROM t WHERE id = 3'))!.note).toBe('');
  });

  it('follows a schema change under a cached statement (the columns it reads are re-read)', async () => {
    await driver.exec('CREATE TABLE w (a INTEGER); INSERT INTO w VALUES (1);');
    expect(await driver.all('SELECT * FROM w')).toEqual([{ a: 1 }]);
    await driver.exec("ALTER TABLE w ADD COLUMN b TEXT; UPDATE w SET b = 'z';");
    expect(await driver.all('SELECT * FROM w')).toEqual([{ a: 1, b: 'z' }]);
  });
});
