import { DATA_VERSION_TTL_MS } from '../../src/store/driver.js';

/**
 * Waits for the start of the next DATA_VERSION_TTL_MS period on PostgreSQL, whose data version
 * also moves with the clock (so that another process's writes are seen): a test counting store
 * reads across a few requests then stays within one version of the response cache.
 */
export async function dataVersionPeriodStart(engine: 'sqlite' | 'postgres'): Promise<void> {
  if (engine !== 'postgres') return;
  const ttl = DATA_VERSION_TTL_MS[engine];
  await new Promise((r) => setTimeout(r, ttl - (Date.now() % ttl) + 5));
}
