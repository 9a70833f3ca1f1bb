import type { SqlDriver } from '../driver.js';
import { toNumber } from '../driver.js';

// What the operator's status page shows about the store: its size on disk and how many rows the
// main tables hold (what has been imported).

export const COUNTED_TABLES = ['tickers', 'day_bars', 'minute_bars', 'trades', 'quotes', 'accounts', 'api_keys'] as const;

export interface StoreStatus {
  engine: 'sqlite' | 'postgres';
  size_bytes: number;
  rows: Record<(typeof COUNTED_TABLES)[number], number>;
}

export async function readStoreStatus(db: SqlDriver): Promise<StoreStatus> {
  const size = db.engine === 'postgres'
    ? await db.get('SELECT pg_database_size(current_database()) AS n')
    : await db.get('SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()');
  const rows = {} as StoreStatus['rows'];
  // table names come from the constant list above, never from input
  // api_keys counts the keys the operator's key list shows: explorer tokens (short-lived, one per
  // dashboard visit) are rows of the same table but not keys anyone manages
  for (const t of COUNTED_TABLES) rows[t] = toNumber((await db.get(`SELECT COUNT(*) AS n FROM ${t}${t === 'api_keys' ? " WHERE kind = 'key'" : ''}`))?.n ?? 0);
  return { engine: db.engine, size_bytes: toNumber(size?.n ?? 0), rows };
}
