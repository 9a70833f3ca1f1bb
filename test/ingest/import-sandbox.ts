// One store per describe block for the import tests, emptied of (market) data before each test,
// with a fresh temporary directory for the test's files.
import { sqlOf } from '../../src/store/inspect.js';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Store } from '../../src/store/index.js';
import type { EngineUnderTest } from '../helpers/engines.js';
import { lateBound } from '../helpers/late-bound.js';
import { TempDir } from './import-files.js';

/** Rows in a table. */
export async function countRows(store: Store, table: string): Promise<number> {
  return Number((await sqlOf(store).get(`SELECT COUNT(*) AS n FROM ${table}`))!.n);
}

/** `tables` are emptied before each test (default: the stock, option, forex and crypto market data). */
export function useImportSandbox(engine: EngineUnderTest, tables: readonly string[] = ['minute_bars', 'day_bars', 'trades', 'quotes']): { store: Store; dir: TempDir } {
  let store: Store | undefined;
  let dir: TempDir | undefined;
  beforeAll(async () => {
    store = await engine.open();
  });
  afterAll(async () => {
    await store?.close();
    dir?.remove();
  });
  beforeEach(async () => {
    dir?.remove();
    dir = new TempDir();
    for (const t of tables) await sqlOf(store!).run(`DELETE FROM ${t}`);
  });
  return { store: lateBound('the store', () => store), dir: lateBound('the temporary directory', () => dir) };
}
