// The real exchanges, conditions and ticker types are loaded into an empty store on start,
// including when several processes start at once on the same store (as hosts of one PostgreSQL
// deployment do): every start succeeds and the facts are there once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureReferenceFacts } from '../../src/demo/load.js';
import { CONDITIONS, EXCHANGES, TICKER_TYPES } from '../../src/demo/facts/reference.js';
import { openStore, type Store } from '../../src/store/index.js';
import { openPostgresStore } from '../helpers/engines.js';
import { sqlOf } from '../../src/store/inspect.js';

async function expectFactsOnce(store: Store): Promise<void> {
  expect(await store.reference.listTickerTypes({})).toHaveLength(TICKER_TYPES.length);
  expect(await store.reference.listExchanges({})).toHaveLength(EXCHANGES.length);
  const conditions = await sqlOf(store).get('SELECT COUNT(*) AS n FROM conditions');
  expect(Number(conditions!.n)).toBe(CONDITIONS.length);
}

describe('reference facts on start (sqlite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tb-facts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads them into an empty store once; a second process finds them and leaves them', async () => {
    const a = await openStore({ dataDir: dir });
    const b = await openStore({ dataDir: dir });
    try {
      expect(await ensureReferenceFacts(a)).toBe(true);
      expect(await ensureReferenceFacts(b)).toBe(false);
      await expectFactsOnce(b);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)('reference facts on start (postgres)', () => {
  it('lets processes that start at once on an empty store all succeed, loading the facts once', async () => {
    const url = process.env.DATABASE_URL!;
    const schema = `tb_test_facts_${Date.now().toString(36)}`;
    const first = await openPostgresStore(url, schema);
    const others = await Promise.all([1, 2, 3].map(() => openStore({ databaseUrl: url, schema, poolSize: 2 })));
    try {
      const loaded = await Promise.all([first, ...others].map((s) => ensureReferenceFacts(s)));
      expect(loaded.filter(Boolean)).toHaveLength(1);
      await expectFactsOnce(first);
    } finally {
      await Promise.all(others.map((s) => s.close()));
      await first.close();
    }
  });
});
if (!process.env.DATABASE_URL) console.log('PostgreSQL reference-facts test skipped: DATABASE_URL is not set (CI sets it).');
