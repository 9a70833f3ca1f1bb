// What the operator sees of upstream: the ledger per data set (covered, partial, failed), the
// upstream calls made, refused and failed (sync and read-through, every process), the latest
// failures, and this process's read-through counts.
import type { Store } from '../store/index.js';
import type { LedgerEntry, LedgerSummaryRow, UpstreamCounter } from '../store/repos/upstream-ledger.js';
import type { ReadThrough, ReadThroughStats } from './read-through.js';

export interface UpstreamStatus {
  read_through: boolean;
  counters: Record<UpstreamCounter, number>;
  datasets: LedgerSummaryRow[];
  failures: LedgerEntry[];
  /** This process's read-through since it started (absent when read-through is off). */
  read_through_stats?: ReadThroughStats;
}

export async function upstreamStatus(store: Store, readThrough?: ReadThrough): Promise<UpstreamStatus> {
  const [counters, datasets, failures] = await Promise.all([
    store.upstreamLedger.counters(),
    store.upstreamLedger.summary(),
    store.upstreamLedger.list({ failing: true, limit: 20 }),
  ]);
  return { read_through: readThrough !== undefined, counters, datasets, failures, ...(readThrough ? { read_through_stats: { ...readThrough.stats } } : {}) };
}
