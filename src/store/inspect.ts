// Raw SQL access to the engine under a store, for tests, benchmarks and diagnostics only.
// Application code reads and writes through the store's repositories: the Store type has no
// driver property, and test/store/raw-access.test.ts fails when a file in src/ imports this one.
import { STORE_DRIVER, type SqlDriver } from './driver.js';
import type { Store } from './index.js';

/** The driver a store (or a transaction's store) runs its SQL on. */
export function sqlOf(store: Store): SqlDriver {
  const db = (store as Store & { [STORE_DRIVER]?: SqlDriver })[STORE_DRIVER];
  if (!db) throw new TypeError('not a store opened by openStore');
  return db;
}
