import { UNANNOUNCED_POLL_MS } from '../../src/store/postgres/table-counters.js';
import type { Store } from '../../src/store/index.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the store's data version holds still, so that a test counting store reads across a
 * few requests stays within one version of the response cache. On PostgreSQL the first call
 * starts the store's LISTEN connection, whose start changes the version once, and the version
 * may also move at each UNANNOUNCED_POLL_MS of the clock, when the schema's row counters show
 * writes made since the last poll (the test's own): the wait keeps clear of that by 3 s, and past
 * a period's start waits for that period's poll.
 */
export async function settledDataVersion(store: Store, engine: 'sqlite' | 'postgres'): Promise<void> {
  if (engine !== 'postgres') return;
  for (;;) {
    // held still over 300 ms: a loaded machine can take longer than one poll to connect the
    // listener, and the row counters' poll, started by the first call of a period, answers later
    let last = store.dataVersion();
    let still = 0;
    for (let i = 0; i < 200 && still < 10; i++) {
      await sleep(30);
      const v = store.dataVersion();
      still = v === last ? still + 1 : 0;
      last = v;
    }
    const left = UNANNOUNCED_POLL_MS - (Date.now() % UNANNOUNCED_POLL_MS);
    if (left >= 3000) return;
    await sleep(left + 10); // then once more: that period's poll may move it
  }
}
