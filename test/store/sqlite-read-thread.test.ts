// Long reads of a SQLite store on its reader thread: the same rows as on the calling thread, the
// event loop free meanwhile, the engine's errors passed on, and reads inside a transaction kept
// on the connection that sees its writes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nyTime } from '../../src/domain/calendar.js';
import type { BarRow } from '../../src/domain/market-records.js';
import { openStore } from '../../src/store/index.js';
import { readMinuteBarsJsonPage } from '../../src/store/repos/tick-json-sql.js';
import { SqliteDriver } from '../../src/store/sqlite/driver.js';

/** A statement that keeps SQLite busy for a while (some hundred ms) and returns one row. */
const SLOW = 'SELECT * FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) SELECT count(*), sum(x) FROM c)';

describe('SQLite reader thread', () => {
  let dir: string;
  let file: string;
  let threaded: SqliteDriver;
  let inline: SqliteDriver;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tb-readthread-'));
    const store = await openStore({ dataDir: dir });
    const start = nyTime('2024-03-04', '04:00');
    const bars: BarRow[] = Array.from({ length: 12_000 }, (_, i) => ({ ticker: 'AAA', t: start + i * 60_000, o: 1 + i / 7, h: 2 + i / 7, l: 0.5, c: 1.5 + i / 3, v: 100 + i, vw: 1.25 + i / 9, n: i % 5 === 0 ? undefined : i }));
    await store.market.insertBars('minute', bars);
    await store.close();
    file = join(dir, 'tickerbase.db');
    threaded = SqliteDriver.open(file);
    inline = SqliteDriver.open(file, { readThread: false });
  });
  afterAll(async () => {
    await threaded.close();
    await inline.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a long page to the same rows and bytes as the calling thread', async () => {
    const range = { ticker: 'AAA', fromMs: nyTime('2024-03-04', '00:00'), toMs: nyTime('2024-03-20', '00:00'), order: 'asc' as const, limit: 10_000 };
    const a = await readMinuteBarsJsonPage(threaded, range, false);
    const b = await readMinuteBarsJsonPage(inline, range, false);
    expect(a.count).toBe(10_000);
    expect(Buffer.isBuffer(a.items)).toBe(true);
    expect((a.items as Buffer).equals(b.items as Buffer)).toBe(true);
    expect({ ...a, items: null }).toEqual({ ...b, items: null });
  });

  it('leaves the event loop free while a long read runs', async () => {
    const ticksDuring = async (db: SqliteDriver) => {
      let ticks = 0;
      const timer = setInterval(() => ticks++, 1);
      const rows = await db.rawRows(SLOW, [], { long: true });
      clearInterval(timer);
      expect(rows).toEqual([[2_000_000, 2_000_001_000_000]]);
      return ticks;
    };
    expect(await ticksDuring(inline)).toBe(0); // on the calling thread nothing else runs
    expect(await ticksDuring(threaded)).toBeGreaterThan(3);
  });

  it("passes the engine's errors on", async () => {
    await expect(threaded.rawRows('SELECT * FROM no_such_table', [], { long: true })).rejects.toThrow(/no such table/);
    expect(await threaded.rawRows('SELECT 1 + ?', [2], { long: true })).toEqual([[3]]); // and goes on
  });

  it('reads inside a transaction on the connection that sees its writes', async () => {
    const count = 'SELECT count(*) FROM minute_bars';
    const before = (await threaded.rawRows(count, [], { long: true }))[0]![0] as number;
    await threaded.transaction(async (tx) => {
      await tx.run('INSERT INTO minute_bars (ticker, t, o, h, l, c, v) VALUES (?, ?, 1, 1, 1, 1, 1)', ['ZZZ', 1]);
      expect((await tx.rawRows(count, [], { long: true }))[0]![0]).toBe(before + 1);
    });
    expect((await threaded.rawRows(count, [], { long: true }))[0]![0]).toBe(before + 1); // committed: the reader sees it
  });
});
