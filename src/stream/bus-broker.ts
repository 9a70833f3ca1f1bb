// The broker of several processes over a bus (Redis pub/sub, or the primary of `serve
// --workers`): a batch is handed to this process's subscribers first, then sent on the bus to
// the others, who skip their own batches when the bus brings them back. While the bus is down,
// published ticks are kept in order (up to `maxQueuedEvents`, the oldest dropped beyond it) and
// sent as soon as it is up again, so the other processes get them late rather than never.
import type { Broker, BrokerEvent, BusStatus, Delivery, LivePrint, PublishOptions } from './broker.js';

/** One way of reaching the other processes. */
export interface BusTransport {
  /** Rejects when the message could not be handed to the bus. */
  send(message: string): Promise<void>;
  onMessage(handler: (message: string) => void): void;
  /** Whether sending and receiving work now. */
  up(): boolean;
  /** Called each time the bus comes (back) up. */
  onUp(handler: () => void): void;
  /** Why the bus is down, for /ready. */
  downReason(): string;
  /** Messages sent on the bus since `sinceMs` that it still keeps, oldest first (a bus without memory: none). */
  recent?(sinceMs: number): Promise<{ at: number; text: string }[]>;
  close(): Promise<void>;
}

/** Pause before sending kept messages again after a failed send, ms. */
const RETRY_MS = 1000;

interface BusMessage {
  /** The sending process: it does not deliver its own batches twice. */
  o: string;
  e: readonly BrokerEvent[];
  p?: readonly LivePrint[];
  /** Sent late, from the batches kept while the bus was down. */
  k?: 1;
}

export interface BusBrokerOptions {
  /** This process's name on the bus. */
  origin: string;
  /** After the bus comes back, wait before sending kept batches, ms (default 3 s). */
  rejoinDelayMs?: number;
  /** Published events kept while the bus is down (default 200,000). */
  maxQueuedEvents?: number;
  log?: (msg: string, err?: unknown) => void;
}

export class BusBroker implements Broker {
  private readonly handlers: ((events: readonly BrokerEvent[]) => void)[] = [];
  private readonly printHandlers: ((prints: readonly LivePrint[]) => void)[] = [];
  /** Messages waiting for the bus, oldest first, with their event counts. */
  private readonly outbox: { text: string; events: number }[] = [];
  private queuedEvents = 0;
  private dropped = 0;
  private flushing = false;
  private readonly maxQueued: number;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly bus: BusTransport,
    private readonly opts: BusBrokerOptions,
  ) {
    this.maxQueued = opts.maxQueuedEvents ?? 200_000;
    bus.onMessage((text) => this.receive(text));
    // pub/sub delivers only to processes subscribed at that moment: the others are given the
    // time to reconnect (their backoff is capped at 2 s) before the kept batches go out
    bus.onUp(() => this.retryLater(opts.rejoinDelayMs ?? 3000));
  }

  async publish(events: readonly BrokerEvent[], opts: PublishOptions = {}): Promise<Delivery> {
    if (events.length === 0) return 'local';
    for (const h of this.handlers) h(events);
    const message: BusMessage = { o: this.opts.origin, e: events };
    if (opts.prints?.length) message.p = opts.prints;
    const text = JSON.stringify(message);
    if (this.outbox.length === 0 && this.bus.up()) {
      try {
        await this.bus.send(text);
        return 'shared';
      } catch {
        // down since: kept below when durable
      }
    }
    if (!opts.durable) return 'local';
    // kept: its trades are late for the others' bars (they were made without them meanwhile)
    this.enqueue(message.p ? JSON.stringify({ ...message, k: 1 }) : text, events.length);
    if (this.bus.up() && !this.retryTimer) void this.flush();
    return 'queued';
  }

  private enqueue(text: string, events: number): void {
    this.outbox.push({ text, events });
    this.queuedEvents += events;
    while (this.queuedEvents > this.maxQueued && this.outbox.length > 1) {
      const old = this.outbox.shift()!;
      this.queuedEvents -= old.events;
      this.dropped += old.events;
    }
  }

  /**
   * Sends the kept messages in order. At a failure it stops and tries again after a pause (or
   * when the bus says it is up again), never in a tight loop.
   */
  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.outbox.length > 0 && this.bus.up()) {
        const next = this.outbox[0]!;
        try {
          await this.bus.send(next.text);
        } catch {
          this.retryLater();
          return;
        }
        this.outbox.shift();
        this.queuedEvents -= next.events;
      }
      if (this.dropped > 0 && this.outbox.length === 0) {
        this.opts.log?.(`${this.dropped} published events were dropped while the bus was down (over the kept limit) and never reached the other processes`);
        this.dropped = 0;
      }
    } finally {
      this.flushing = false;
    }
  }

  private retryLater(ms = RETRY_MS): void {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.flush();
    }, ms);
    this.retryTimer.unref();
  }

  private receive(text: string): void {
    let message: BusMessage;
    try {
      message = JSON.parse(text) as BusMessage;
    } catch {
      return; // not ours
    }
    if (message.o === this.opts.origin || !Array.isArray(message.e)) return;
    if (message.p && !message.k) for (const h of this.printHandlers) h(message.p);
    for (const h of this.handlers) h(message.e);
  }

  onEvents(handler: (events: readonly BrokerEvent[]) => void): void {
    this.handlers.push(handler);
  }

  /** Called each time the bus comes (back) up. */
  onUp(handler: () => void): void {
    this.bus.onUp(handler);
  }

  /** Batches the bus still keeps from `sinceMs` on, every process's, with the time they were sent. */
  async recent(sinceMs: number): Promise<{ at: number; events: readonly BrokerEvent[] }[]> {
    const kept = (await this.bus.recent?.(sinceMs)) ?? [];
    const out: { at: number; events: readonly BrokerEvent[] }[] = [];
    for (const { at, text } of kept) {
      try {
        const message = JSON.parse(text) as BusMessage;
        if (Array.isArray(message.e)) out.push({ at, events: message.e });
      } catch {
        // not ours
      }
    }
    return out;
  }

  onRemotePrints(handler: (prints: readonly LivePrint[]) => void): void {
    this.printHandlers.push(handler);
  }

  status(): BusStatus {
    const up = this.bus.up();
    const queued = this.queuedEvents;
    if (up && this.outbox.length === 0) return { shared: true, queued: 0 };
    return { shared: false, queued, reason: up ? `${queued} events published here are still being sent to the other processes` : this.bus.downReason() };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.handlers.length = 0;
    this.printHandlers.length = 0;
    await this.bus.close();
  }
}
