// The broker carries published events to every process that serves the feed. In one process the
// in-memory broker hands them straight to the hub. Across processes (bus-broker.ts, over Redis
// pub/sub or the primary of `serve --workers`) the publishing process's own subscribers get them
// first, straight away, and the other processes through the bus; while the bus is down published
// ticks wait for it in order, so a Redis outage never costs the accepting process's subscribers.
import type { FeedMarket } from './markets.js';

/** A published event, encoded once: routing needs only its market, channel and symbol. */
export interface BrokerEvent {
  market: FeedMarket;
  ev: string;
  /** Matching spelling (markets.ts matchSymbol). */
  symbol: string;
  /** The event as JSON text, integers exact. */
  json: string;
}

/** A trade as the aggregator needs it, sent beside its event to the other processes. */
export interface LivePrint {
  ticker: string;
  /** Trade time, ns, as decimal text (exact beyond 2^53). */
  t: string;
  p: number;
  s: number;
  /** A futures contract's trade (futures tickers look like stock tickers). */
  futures?: true;
}

export interface PublishOptions {
  /**
   * Published ticks: when the other processes cannot be reached now, they are kept (bounded) and
   * sent when they can. Bars are not kept: every process makes its own while they are apart.
   */
  durable?: boolean;
  /** The trades among the events, for the other processes' aggregators. */
  prints?: readonly LivePrint[];
}

/**
 * Where a batch went: `local` to this process's subscribers only (one process, or a bar while
 * the bus is down), `shared` to every process, `queued` here now and to the others when the bus
 * is back.
 */
export type Delivery = 'local' | 'shared' | 'queued';

export interface BusStatus {
  /** Events published here reach the other processes now. */
  shared: boolean;
  /** Published batches waiting for the bus. */
  queued: number;
  /** Why the feed is not shared, when it is not. */
  reason?: string;
}

export interface Broker {
  publish(events: readonly BrokerEvent[], opts?: PublishOptions): Promise<Delivery>;
  /** Every batch published by any process reaches every handler. */
  onEvents(handler: (events: readonly BrokerEvent[]) => void): void;
  /** Trades published on other processes as they are published (none in one process; not those sent late after an outage). */
  onRemotePrints(handler: (prints: readonly LivePrint[]) => void): void;
  /** Undefined in one process: there is nothing to share with. */
  status(): BusStatus | undefined;
  close(): Promise<void>;
}

export class MemoryBroker implements Broker {
  private readonly handlers: ((events: readonly BrokerEvent[]) => void)[] = [];

  async publish(events: readonly BrokerEvent[]): Promise<Delivery> {
    for (const h of this.handlers) h(events);
    return 'local';
  }

  onEvents(handler: (events: readonly BrokerEvent[]) => void): void {
    this.handlers.push(handler);
  }

  onRemotePrints(): void {
    // one process: no other process publishes
  }

  status(): undefined {
    return undefined;
  }

  async close(): Promise<void> {
    this.handlers.length = 0;
  }
}
