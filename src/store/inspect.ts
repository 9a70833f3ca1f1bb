// Raw SQL access to the engine under a store, for tests, benchmarks and diagnostics only.
// Application code reads and writes through the store's repositories; the Store type has no
// driver property, and the layer check keeps files in src/ (other than the store's own
// index.ts) from importing this module.
import type { SqlDriver } from './driver.js';
import type { Store } from './index.js';

/** Property key under which a store keeps its driver; a symbol, so it is absent from the Store type. */
export const STORE_DRIVER: unique symbol = Symbol('tickerbase.store.driver');

/** The driver a store (or a transaction's store) runs its SQL on. */
export function sqlOf(store: Store): SqlDriver {
  const db = (store as Store & { [STORE_DRIVER]?: SqlDriver })[STORE_DRIVER];
  if (!db) throw new TypeError('not a store opened by openStore');
  return db;
}
