// Counts of upstream calls as the client reports them (made, refused with 429, failed), kept
// until they are written to the store's counters, so a run or a server adds what it did.
import type { UpstreamEvent } from './rest-client.js';

export interface CallCounts {
  calls: number;
  refused: number;
  failed: number;
}

export class UpstreamCallTally {
  /** Since this tally began. */
  readonly total: CallCounts = { calls: 0, refused: 0, failed: 0 };
  private pending: CallCounts = { calls: 0, refused: 0, failed: 0 };

  /** The client's onEvent. */
  readonly onEvent = (e: UpstreamEvent): void => {
    const key = e.kind === 'call' ? 'calls' : e.kind;
    this.total[key]++;
    this.pending[key]++;
  };

  /** The counts not yet written, reset to zero (the caller writes them). */
  take(): CallCounts {
    const out = this.pending;
    this.pending = { calls: 0, refused: 0, failed: 0 };
    return out;
  }
}
