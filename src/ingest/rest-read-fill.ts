// What read-through fetches a miss with: the back-fill of one unit (fetchUnit) over a client
// made for serving (no retries: a client is waiting; a call budget that refuses rather than
// waits past the deadline), its calls added to the store's counters.
import type { Store } from '../store/index.js';
import type { LedgerUnit } from '../store/repos/upstream-ledger.js';
import { UpstreamCallTally } from '../upstream/call-tally.js';
import { RateBudget, type RateSpec } from '../upstream/rate-budget.js';
import { UpstreamRestClient } from '../upstream/rest-client.js';
import { UpstreamError } from '../upstream/rest-errors.js';
import { fetchUnit, type UnitOutcome } from './rest-backfill.js';

export interface UpstreamReadConfig {
  upstreamUrl?: string;
  upstreamKey: string;
  /** How long a client waits for upstream (the store's deadline). */
  deadlineMs: number;
  /** Upstream calls allowed (default: none counted; upstream's 429s still apply). */
  rate?: RateSpec;
  /** Deadline of one upstream call, which may go on after the client got its 503 (default 30 s). */
  callTimeoutMs?: number;
  fetch?: typeof fetch;
}

export function upstreamFiller(store: Store, cfg: UpstreamReadConfig, now: () => number): (unit: LedgerUnit) => Promise<UnitOutcome> {
  const tally = new UpstreamCallTally();
  const client = new UpstreamRestClient({
    baseUrl: cfg.upstreamUrl,
    key: cfg.upstreamKey,
    rate: cfg.rate ? new RateBudget(cfg.rate) : undefined,
    maxRateWaitMs: cfg.deadlineMs,
    retries: 0,
    timeoutMs: cfg.callTimeoutMs ?? 30_000,
    fetch: cfg.fetch,
    onEvent: tally.onEvent,
  });
  return async (unit) => {
    try {
      return await fetchUnit(store, client, unit, { now, tally });
    } catch (err) {
      // A refused key fails this miss like any other upstream refusal (the server goes on).
      if (err instanceof UpstreamError) return { unit, status: 'failed', rows: 0, calls: 0, empty: true, error: err, notes: [] };
      throw err;
    }
  };
}
