import { StoreBusyError } from '../store/driver.js';
import type { UsageIncrement, UsageRepository } from '../store/repos/usage.js';

// Per-key usage counters, batched: requests are counted in memory and written to the store every
// few seconds (and on close), one upsert per key, day and family. A failed write keeps the counts
// for the next flush, so a store outage loses nothing unless the process dies meanwhile.
// Flushes never wait for the store's write lock: SQLite waits synchronously, so a flush queued
// behind an import's transaction would freeze every request for the busy timeout. A flush that
// finds the lock taken keeps its counts for the next one (only close() waits, once, up to
// CLOSE_LOCK_WAIT_MS, whatever shorter wait the serving store has for requests).

/** How long the last flush, on close, waits for another connection's write lock. */
export const CLOSE_LOCK_WAIT_MS = 10_000;

export interface UsageRecorderOptions {
  /** Milliseconds between writes (default 5000). */
  flushIntervalMs?: number;
  /** Write early when this many distinct (key, day, family) counters are pending (default 5000). */
  maxPending?: number;
  now?: () => number;
  onError?: (err: unknown) => void;
}

/**
 * Pending counters by day, key id and family: nested maps keyed by strings that are the same
 * objects on every request (the day's name, the key record's id, the route's family), so a lookup
 * builds no string and hashes none.
 */
class PendingUsage {
  size = 0;
  private readonly byDay = new Map<string, Map<string, Map<string, UsageIncrement>>>();

  /** The counter of (key, day, family), created at zero. */
  counter(keyId: string, day: string, family: string): UsageIncrement {
    let byKey = this.byDay.get(day);
    if (byKey === undefined) this.byDay.set(day, (byKey = new Map()));
    let byFamily = byKey.get(keyId);
    if (byFamily === undefined) byKey.set(keyId, (byFamily = new Map()));
    let u = byFamily.get(family);
    if (u === undefined) {
      byFamily.set(family, (u = { key_id: keyId, day, family, requests: 0, errors: 0 }));
      this.size++;
    }
    return u;
  }

  values(): UsageIncrement[] {
    const out: UsageIncrement[] = [];
    for (const byKey of this.byDay.values()) for (const byFamily of byKey.values()) out.push(...byFamily.values());
    return out;
  }
}

export class UsageRecorder {
  private pending = new PendingUsage();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private readonly now: () => number;
  private readonly maxPending: number;

  constructor(
    private readonly repo: UsageRepository,
    private readonly opts: UsageRecorderOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.maxPending = opts.maxPending ?? 5000;
    this.timer = setInterval(() => void this.flush(), opts.flushIntervalMs ?? 5000);
    this.timer.unref();
  }

  private dayStart = 0;
  private dayEnd = 0;
  private dayName = '';

  /** YYYY-MM-DD of `t` in UTC; formatted once per day, not once per request. */
  private utcDay(t: number): string {
    if (t < this.dayStart || t >= this.dayEnd) {
      this.dayStart = t - (((t % 86_400_000) + 86_400_000) % 86_400_000);
      this.dayEnd = this.dayStart + 86_400_000;
      this.dayName = new Date(this.dayStart).toISOString().slice(0, 10);
    }
    return this.dayName;
  }

  /** Counts one request of a key on an endpoint family. */
  record(keyId: string, family: string, error: boolean): void {
    const u = this.pending.counter(keyId, this.utcDay(this.now()), family);
    u.requests++;
    if (error) u.errors++;
    if (this.pending.size >= this.maxPending) void this.flush();
  }

  /** Flushes put off because another connection held the write lock. */
  deferred = 0;

  /**
   * Writes what is pending; concurrent calls share one write. Without `wait`, a write lock held
   * elsewhere leaves the counts pending for the next flush instead of waiting for it.
   */
  flush(opts: { wait?: boolean } = {}): Promise<void> {
    if (this.flushing) return this.flushing.then(() => (this.pending.size ? this.flush(opts) : undefined));
    if (this.pending.size === 0) return Promise.resolve();
    const batch = this.pending.values();
    this.pending = new PendingUsage();
    this.flushing = this.repo
      .add(batch, opts.wait === true ? { lockWaitMs: CLOSE_LOCK_WAIT_MS } : { noWait: true })
      .catch((err: unknown) => {
        // keep the counts: merge them back for the next attempt
        for (const u of batch) {
          const now = this.pending.counter(u.key_id, u.day, u.family);
          now.requests += u.requests;
          now.errors += u.errors;
        }
        if (err instanceof StoreBusyError) this.deferred++;
        else this.opts.onError?.(err);
      })
      .finally(() => {
        this.flushing = undefined;
      });
    return this.flushing;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush({ wait: true });
  }
}
