// Retrying the relay's Redis commands. Redis can be slow for a moment (a command past
// --redis-timeout fails) or away for a while; a command of the relay that fails is tried again
// after a pause that doubles up to a cap, for as long as it takes, so a blip never leaves a market
// without its demand, its lease or its status frames. The log says once when a kind of command
// starts failing and once when it works again, not at every attempt.

/** Where the retries say that commands fail and recover (the relay's log). */
export interface RetryLog {
  info(msg: string): void;
  warn(msg: string, err?: unknown): void;
}

/** Pauses between attempts: `initialMs`, doubling to `maxMs`, each with up to a quarter of jitter. */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly initialMs: number,
    private readonly maxMs: number,
  ) {}

  next(): number {
    const base = Math.min(this.maxMs, this.initialMs * 2 ** Math.min(this.attempt++, 30));
    return Math.round(base * (0.75 + Math.random() * 0.25));
  }

  reset(): void {
    this.attempt = 0;
  }
}

/** Whether one kind of command (named in `what`) is failing: warns at the first failure and says when it recovers. */
export class CommandHealth {
  private failures = 0;

  constructor(
    private readonly what: string,
    private readonly log: RetryLog,
  ) {}

  failed(err: unknown): void {
    if (this.failures++ === 0) this.log.warn(`relay: ${this.what} failed (Redis); retrying until it succeeds`, err);
  }

  succeeded(): void {
    if (this.failures === 0) return;
    this.log.info(`relay: ${this.what} succeeded again after ${this.failures} failed attempt${this.failures === 1 ? '' : 's'}`);
    this.failures = 0;
  }

  get failing(): boolean {
    return this.failures > 0;
  }
}

export interface RetryQueueOptions {
  what: string;
  log: RetryLog;
  initialMs: number;
  maxMs: number;
  /** Tasks kept while Redis fails; past it the oldest are dropped (with a log line). */
  maxQueued?: number;
}

/**
 * Commands that must happen once each, in order (status frames, recorded tickers): each is tried
 * until it succeeds before the next starts, pausing with backoff between failed attempts.
 */
export class RetryQueue {
  private readonly tasks: (() => Promise<unknown>)[] = [];
  private readonly health: CommandHealth;
  private readonly backoff: Backoff;
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly opts: RetryQueueOptions) {
    this.health = new CommandHealth(opts.what, opts.log);
    this.backoff = new Backoff(opts.initialMs, opts.maxMs);
  }

  push(task: () => Promise<unknown>): void {
    if (this.closed) return;
    this.tasks.push(task);
    const max = this.opts.maxQueued ?? 1000;
    if (this.tasks.length > max) {
      this.tasks.splice(0, this.tasks.length - max);
      this.opts.log.warn(`relay: ${this.opts.what}: more than ${max} waiting for Redis; the oldest were dropped`);
    }
    if (!this.timer) void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.tasks.length > 0 && !this.closed) {
        try {
          await this.tasks[0]!();
        } catch (err) {
          this.health.failed(err);
          this.timer = setTimeout(() => {
            this.timer = undefined;
            void this.drain();
          }, this.backoff.next());
          this.timer.unref();
          return;
        }
        this.tasks.shift();
        this.health.succeeded();
        this.backoff.reset();
      }
    } finally {
      this.running = false;
    }
  }

  /** Stops retrying; whatever is still waiting is dropped. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.tasks.length = 0;
  }
}
