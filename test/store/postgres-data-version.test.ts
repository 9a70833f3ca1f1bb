// PostgreSQL's data version (what the response cache keys answers by): once the store listens for
// other processes' announced writes, it stays put while nothing is written, so cached answers
// outlive a second, and moves as soon as another process writes the same schema, not another one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import type { TickerRecord } from '../../src/store/records.js';
import { settledDataVersion } from '../helpers/data-version.js';
import { openPostgresStore, storePairs } from '../helpers/engines.js';

const ticker = (t: string): TickerRecord => ({ ticker: t, name: `${t} Inc.`, locale: 'us', market: 'stocks', active: true, type: 'CS', last_updated_utc: '2024-01-02T00:00:00Z', valid_from: '2020-01-02' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The store's version once its listener runs (the version changes once when it starts). */
async function listeningVersion(store: Store): Promise<string> {
  await settledDataVersion(store, 'postgres');
  return store.dataVersion();
}

for (const pair of storePairs('dataversion').filter((p) => p.name === 'postgres')) {
  describe('PostgreSQL data version', () => {
    let store: Store;
    let other: Store;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, other, close } = await pair.open());
    });
    afterAll(async () => {
      await close();
    });

    it('stays the same past a second while nothing is written', async () => {
      const v = await listeningVersion(store);
      await sleep(1500);
      expect(store.dataVersion()).toBe(v);
    });

    it("moves within a moment of another process's write to the same schema", async () => {
      const v = await listeningVersion(store);
      await other.reference.upsertTickers([ticker('NEWW')]);
      const started = Date.now();
      while (store.dataVersion() === v && Date.now() - started < 2000) await sleep(10);
      expect(store.dataVersion()).not.toBe(v);
      expect(Date.now() - started).toBeLessThan(500);
    });

    it('does not move for writes to another schema', async () => {
      const elsewhere = await openPostgresStore(process.env.DATABASE_URL!);
      try {
        const v = await listeningVersion(store);
        await elsewhere.reference.upsertTickers([ticker('ELSE')]);
        await sleep(300);
        expect(store.dataVersion()).toBe(v);
      } finally {
        await elsewhere.close();
      }
    });
  });
}
