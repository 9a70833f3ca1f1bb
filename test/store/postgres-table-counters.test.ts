// A PostgreSQL store notices writes by other programs (which announce nothing) in its schema's
// row counters: its data version, which keys the response cache, moves when they show such a
// write and holds still while they do not, so cached answers outlive the poll period instead of
// being made anew every period.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresDriver } from '../../src/store/postgres/driver.js';
import { TableCounters } from '../../src/store/postgres/table-counters.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A pool stand-in answering each poll with the next of `readings` (an Error rejects). */
function fakePool(readings: Array<{ counting: boolean; counters: string } | Error>) {
  const asked: string[] = [];
  let next = 0;
  return {
    asked,
    query(sql: string) {
      asked.push(sql);
      const r = readings[Math.min(next++, readings.length - 1)]!;
      return r instanceof Error ? Promise.reject(r) : Promise.resolve({ rows: [r] });
    },
  };
}

/** The counter after a poll started now has been answered. */
async function settled(c: TableCounters): Promise<number> {
  c.seen();
  await sleep(0);
  return c.seen();
}

describe('TableCounters', () => {
  it('moves on the first reading and when a reading differs, not while readings repeat', async () => {
    let t = 0;
    const pool = fakePool([
      { counting: true, counters: '3.10.0.0.10' },
      { counting: true, counters: '3.10.0.0.10' },
      { counting: true, counters: '3.10.0.0.10' },
      { counting: true, counters: '3.11.0.0.11' },
      { counting: true, counters: '3.11.0.0.11' },
    ]);
    const c = new TableCounters(pool as unknown as pg.Pool, 1000, () => t);
    const first = await settled(c);
    expect(first).toBe(1);
    t = 1000;
    expect(await settled(c)).toBe(1);
    t = 2000;
    expect(await settled(c)).toBe(1);
    t = 3000;
    expect(await settled(c)).toBe(2);
    t = 4000;
    expect(await settled(c)).toBe(2);
    expect(pool.asked).toHaveLength(5);
  });

  it('polls once per period of the clock, however often it is asked', async () => {
    let t = 5_000;
    const pool = fakePool([{ counting: true, counters: '1.1.1.1.1' }]);
    const c = new TableCounters(pool as unknown as pg.Pool, 1000, () => t);
    for (let i = 0; i < 100; i++) {
      c.seen();
      t += 5; // 5,000 .. 5,495: one period
    }
    await sleep(0);
    expect(pool.asked).toHaveLength(1);
    t = 6_000;
    c.seen();
    expect(pool.asked).toHaveLength(2);
  });

  it('takes a failed poll, a reading after it and a server keeping no counters as moves', async () => {
    let t = 0;
    const pool = fakePool([
      { counting: true, counters: '1.1.1.1.1' },
      new Error('connection terminated'),
      { counting: true, counters: '1.1.1.1.1' },
      { counting: false, counters: '1.1.1.1.1' },
      { counting: false, counters: '1.1.1.1.1' },
    ]);
    const c = new TableCounters(pool as unknown as pg.Pool, 1000, () => t);
    expect(await settled(c)).toBe(1);
    t = 1000;
    expect(await settled(c)).toBe(2); // the poll failed
    t = 2000;
    expect(await settled(c)).toBe(3); // same reading as before the failure, but writes may have come between
    t = 3000;
    expect(await settled(c)).toBe(4); // track_counts off
    t = 4000;
    expect(await settled(c)).toBe(5);
  });
});

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) console.log('PostgreSQL row-counter tests skipped: DATABASE_URL is not set (CI sets it).');

describe.skipIf(!DATABASE_URL)('PostgreSQL data version and other programs\' writes', () => {
  const schema = `tb_test_counters_${randomBytes(4).toString('hex')}`;
  let driver: PostgresDriver;
  let admin: pg.Client;

  /** A write by another program: its own connection, closed at once (which publishes its counters). */
  async function otherProgram(sql: string): Promise<void> {
    const c = new pg.Client({ connectionString: DATABASE_URL, options: `-c search_path=${schema}` });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  }

  /** The version once it has held still for `ms`. */
  async function stillVersion(ms = 600): Promise<string> {
    let last = driver.dataVersion();
    for (let still = 0; still < ms; still += 20) {
      await sleep(20);
      const v = driver.dataVersion();
      if (v !== last) still = 0;
      last = v;
    }
    return last;
  }

  /** Waits up to `ms` for the version to move from `from`. */
  async function movedFrom(from: string, ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (driver.dataVersion() !== from) return true;
      await sleep(20);
    }
    return false;
  }

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.query(`CREATE TABLE ${schema}.rows (id int PRIMARY KEY); CREATE TABLE ${schema}.key_usage (id int PRIMARY KEY, requests int)`);
    driver = PostgresDriver.open(DATABASE_URL!, { schema, unannouncedPollMs: 200 });
  });

  afterAll(async () => {
    await driver?.close();
    await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin?.end();
  });

  it('holds still over many polls while nothing is written', async () => {
    const v = await stillVersion();
    await sleep(1500); // seven polls
    expect(driver.dataVersion()).toBe(v);
  });

  it("moves once another program's insert, update or delete shows in the counters", async () => {
    for (const sql of ['INSERT INTO rows VALUES (1), (2)', 'UPDATE rows SET id = 3 WHERE id = 1', 'DELETE FROM rows WHERE id = 2', 'TRUNCATE rows']) {
      if (sql === 'TRUNCATE rows') await otherProgram('INSERT INTO rows VALUES (7)');
      const v = await stillVersion();
      await otherProgram(sql);
      expect(await movedFrom(v, 5000), sql).toBe(true);
    }
  });

  it('does not move for the request counts written to key_usage', async () => {
    const v = await stillVersion();
    await otherProgram('INSERT INTO key_usage VALUES (1, 5)');
    expect(await movedFrom(v, 1500)).toBe(false);
  });
});
