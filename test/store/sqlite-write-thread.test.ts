// The live feed's writes of a SQLite file on their own thread: what they store is read back at
// once by the serving connection; they move the data version and not the import version (answers
// kept under it survive publishing), while another connection's write still moves both, whether
// it comes while the thread writes or after. Their pages reach the database file from the WAL
// within a moment, though the thread's own commits no longer copy them.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradeRow } from '../../src/domain/market-records.js';
import { openStore, type Store } from '../../src/store/index.js';
import { sqlOf } from '../../src/store/inspect.js';
import type { SqliteDriver } from '../../src/store/sqlite/driver.js';

const T0 = 1_749_825_065_000_000_000n;
const trades = (ticker: string, from: number, n: number): TradeRow[] =>
  Array.from({ length: n }, (_, i) => ({ ticker, sip_timestamp: T0 + BigInt(from + i), exchange: 4, id: `${from + i}`, price: 10 + i / 100, size: 1 + i, sequence_number: BigInt(from + i), conditions: [12], tape: 3 }));
const ticks = (rows: TradeRow[]) => ({ trades: rows, quotes: [], futuresTrades: [], futuresQuotes: [] });

/** Resolves once `f` holds, asking it every 20 ms for up to 5 s. */
async function eventually(f: () => boolean): Promise<boolean> {
  for (let i = 0; i < 250; i++) {
    if (f()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return f();
}

describe('SQLite write thread', () => {
  let dir: string;
  let store: Store;
  let other: Store;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tb-sqlite-write-thread-'));
    store = await openStore({ dataDir: dir });
    other = await openStore({ dataDir: dir });
  });
  afterAll(async () => {
    await store.close();
    await other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores a batch readable at once, moving the data version but not the import version', async () => {
    await store.live.ticks(ticks(trades('WTA', 0, 1))); // the thread started and its first look answered
    await new Promise((r) => setTimeout(r, 300));
    const data = store.dataVersion();
    const imported = store.importVersion();
    const stored = await store.live.ticks(ticks(trades('WTA', 1, 500)));
    expect(stored).toEqual({ trades: 500, quotes: 0 });
    expect(store.dataVersion()).not.toBe(data);
    const page = await store.market.readTrades({ ticker: 'WTA', order: 'asc', limit: 1000 });
    expect(page.length).toBe(501);
    // past the time data_version is read again, and the thread's look answered
    await new Promise((r) => setTimeout(r, 300));
    expect(store.importVersion()).toBe(imported);
    await store.live.ticks(ticks(trades('WTA', 600, 10)));
    await new Promise((r) => setTimeout(r, 300));
    expect(store.importVersion()).toBe(imported);
  });

  it("moves the import version for another connection's write, made after the thread's or between them", async () => {
    await store.live.ticks(ticks(trades('WTB', 0, 10)));
    await new Promise((r) => setTimeout(r, 300));
    let imported = store.importVersion();
    await other.transaction(async (tx) => tx.market.insertTrades(trades('OTHER', 0, 3)));
    expect(await eventually(() => store.importVersion() !== imported)).toBe(true);

    imported = store.importVersion();
    const writing = store.live.ticks(ticks(trades('WTB', 100, 2000)));
    await other.transaction(async (tx) => tx.market.insertTrades(trades('OTHER', 100, 3)));
    await writing;
    await store.live.ticks(ticks(trades('WTB', 5000, 10)));
    expect(await eventually(() => store.importVersion() !== imported)).toBe(true);
  });

  it('copies published pages from the WAL into the database file soon after, below the automatic checkpoint', async () => {
    const file = join(dir, 'tickerbase.db');
    const before = statSync(file).size;
    // far fewer than the 1,000 WAL pages at which SQLite's automatic checkpoint would copy them
    for (let b = 0; b < 4; b++) await store.live.ticks(ticks(trades('WTC', b * 500, 500)));
    expect(await eventually(() => statSync(file).size > before)).toBe(true);
    const page = await store.market.readTrades({ ticker: 'WTC', order: 'asc', limit: 5000 });
    expect(page.length).toBe(2000);
  });

  it('starts the write thread when asked to get ready, before any write, and writes through it after', async () => {
    const ready = await openStore({ dataDir: dir });
    try {
      const thread = (sqlOf(ready) as SqliteDriver).writeThread!;
      expect(thread.mark()).toEqual({ sent: 0, waiting: false });
      ready.prepareLive();
      expect(thread.mark()).toEqual({ sent: 0, waiting: true }); // its first look is under way
      expect(await ready.live.ticks(ticks(trades('WTD', 0, 3)))).toEqual({ trades: 3, quotes: 0 });
    } finally {
      await ready.close();
    }
  });
});
