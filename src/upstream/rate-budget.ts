// A budget of upstream calls: at most N in any window of one second, minute or hour (`5/min` is
// upstream's free tier). Calls beyond it wait for the oldest call in the window to leave it, so a
// burst of N goes out at once and the rest follow one by one, never more than N per window.

export interface RateSpec {
  count: number;
  periodMs: number;
  /** As the user wrote it, for messages (`5/min`). */
  text: string;
}

const PERIODS: Record<string, number> = { s: 1000, sec: 1000, second: 1000, m: 60_000, min: 60_000, minute: 60_000, h: 3_600_000, hour: 3_600_000 };

/** Parses `N/sec`, `N/min` or `N/hour` (also s, m, h, second, minute); throws a message naming the flag. */
export function parseRate(text: string, flag = '--rate'): RateSpec {
  const m = /^\s*(\d+(?:\.\d+)?)\s*\/\s*([a-z]+)\s*$/i.exec(text);
  const count = m ? Number(m[1]) : NaN;
  const periodMs = m ? PERIODS[m[2]!.toLowerCase()] : undefined;
  if (!m || periodMs === undefined || !(count > 0) || !Number.isInteger(count)) {
    throw new Error(`${flag} must be a whole number of calls per sec, min or hour, such as 5/min (upstream's free tier) or 100/sec; got "${text}"`);
  }
  return { count, periodMs, text: `${count}/${m[2]!.toLowerCase()}` };
}

export class RateBudget {
  /** Start times of the calls in the current window, oldest first. */
  private readonly starts: number[] = [];
  /** Calls queue here so that they are let out in the order they asked. */
  private queue: Promise<void> = Promise.resolve();
  /** Set by a 429: no call before this time. */
  private pausedUntil = 0;

  constructor(
    readonly spec: RateSpec,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /** How long a call asked for now would wait (0 when the budget has room). */
  waitMs(): number {
    this.forget();
    const now = this.now();
    const paused = Math.max(0, this.pausedUntil - now);
    if (this.starts.length < this.spec.count) return paused;
    return Math.max(paused, this.starts[this.starts.length - this.spec.count]! + this.spec.periodMs - now);
  }

  /**
   * Resolves when a call may go out and counts it. With `maxWaitMs`, a call that would wait longer
   * is not taken: the promise resolves to the wait it would have had, so the caller can refuse.
   */
  take(maxWaitMs = Infinity): Promise<number> {
    const turn = this.queue.then(async () => {
      const wait = this.waitMs();
      if (wait > maxWaitMs) return wait;
      if (wait > 0) await this.sleep(wait);
      this.starts.push(this.now());
      return 0;
    });
    this.queue = turn.then(() => undefined);
    return turn;
  }

  /** After upstream said 429: no call for `ms`, whatever the budget says. */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }

  private forget(): void {
    const since = this.now() - this.spec.periodMs;
    while (this.starts.length > 0 && this.starts[0]! <= since) this.starts.shift();
  }

  /** Seconds the given number of calls takes at this budget, from an empty window. */
  secondsFor(calls: number): number {
    if (calls <= this.spec.count) return 0;
    return (Math.ceil(calls / this.spec.count) - 1) * (this.spec.periodMs / 1000);
  }
}
