// Batches of feed events held back by a fixed delay for the delayed feed, oldest first, bounded
// in events: beyond the bound the oldest batches are dropped (a delayed client then misses them,
// as it would have missed them by connecting later).
import type { BrokerEvent } from './broker.js';

interface Held {
  due: number;
  events: readonly BrokerEvent[];
}

export class HoldBack {
  private held: Array<Held | undefined> = [];
  private head = 0;
  private count = 0;

  constructor(
    readonly delayMs: number,
    private readonly maxEvents: number,
  ) {}

  /** Holds `events`, received at `now`, until `now + delayMs`. */
  push(events: readonly BrokerEvent[], now: number): void {
    this.held.push({ due: now + this.delayMs, events });
    this.count += events.length;
    while (this.count > this.maxEvents && this.head < this.held.length) {
      this.count -= this.held[this.head]!.events.length;
      this.held[this.head++] = undefined;
    }
  }

  /** When the oldest batch held falls due, or undefined when none is held. */
  nextDue(): number | undefined {
    return this.head < this.held.length ? this.held[this.head]!.due : undefined;
  }

  /** Takes out the batches due at `now`, oldest first. */
  takeDue(now: number): Array<readonly BrokerEvent[]> {
    const out: Array<readonly BrokerEvent[]> = [];
    while (this.head < this.held.length && this.held[this.head]!.due <= now) {
      const h = this.held[this.head]!;
      this.held[this.head++] = undefined;
      this.count -= h.events.length;
      out.push(h.events);
    }
    // the taken slots are cut off once they are most of the array
    if (this.head > 1024 && this.head * 2 > this.held.length) {
      this.held = this.held.slice(this.head);
      this.head = 0;
    }
    return out;
  }

  clear(): void {
    this.held = [];
    this.head = 0;
    this.count = 0;
  }
}
