// What every repository contract receives and how it holds its store: each contract opens a store
// of its own (an in-memory SQLite file, or a PostgreSQL schema of its own) and closes it after.
import { afterAll, beforeAll } from 'vitest';
import type { Store } from '../../../src/store/index.js';
import { sqlOf } from '../../../src/store/inspect.js';

export type MakeStore = () => Promise<Store>;

/** Opens a store before the enclosing describe's tests and closes it after; call inside describe. */
export function useStore(makeStore: MakeStore): () => Store {
  let store: Store | undefined;
  beforeAll(async () => {
    store = await makeStore();
  });
  afterAll(async () => {
    await store?.close();
  });
  return () => {
    if (!store) throw new Error('the store is opened in beforeAll');
    return store;
  };
}

/** Rows in a table: what a test checks after writes the repositories do not count themselves. */
export async function countRows(store: Store, table: string): Promise<number> {
  return Number((await sqlOf(store).get(`SELECT COUNT(*) AS n FROM ${table}`))!.n);
}

/** Empties tables between tests that need a clean slate. */
export async function clearTables(store: Store, tables: readonly string[]): Promise<void> {
  for (const t of tables) await sqlOf(store).run(`DELETE FROM ${t}`);
}

/** 2^53: integers above it are not exact as JS numbers, so 64-bit values must come back as bigint. */
export const BIG = 2n ** 53n;
