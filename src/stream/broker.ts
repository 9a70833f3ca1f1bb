// The broker carries published events to every process that serves the feed. In one process the
// in-memory broker hands them straight to the hub; with Redis (redis-broker.ts) every process
// subscribes to one channel, so an event published anywhere reaches subscribers everywhere.
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

export interface Broker {
  publish(events: readonly BrokerEvent[]): Promise<void>;
  /** Every batch published by any process reaches every handler. */
  onEvents(handler: (events: readonly BrokerEvent[]) => void): void;
  close(): Promise<void>;
}

export class MemoryBroker implements Broker {
  private readonly handlers: ((events: readonly BrokerEvent[]) => void)[] = [];

  async publish(events: readonly BrokerEvent[]): Promise<void> {
    for (const h of this.handlers) h(events);
  }

  onEvents(handler: (events: readonly BrokerEvent[]) => void): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    this.handlers.length = 0;
  }
}
