// Live publishing: checked events are stored (trades and quotes, futures ones in the futures
// tables, one transaction), fed to the aggregator that makes second and minute bars, and sent to
// every subscriber through the broker (this process's at once, the others' through the bus).
//
// The write may run off the event loop (a SQLite file's write thread) or on one of several
// connections (PostgreSQL), so publishes overlap: each one's write starts at once, and what is
// kept in memory (the live-write listeners, the aggregator) and the feed hear of publishes one
// at a time, in the order they arrived, each only once its rows are committed. A publish whose
// write fails changes nothing in memory and sends nothing.
import type { FuturesTrade } from '../domain/futures-market.js';
import type { TradeRow } from '../domain/market-records.js';
import { noteStoredTicks, writeTicks } from '../services/live-ticks.js';
import type { Store } from '../store/index.js';
import type { LiveAggregator } from './aggregator.js';
import type { Broker, LivePrint } from './broker.js';
import { rowsOfEvents, type PublishedEvent } from './publish-input.js';
import { streamPublished } from './metrics.js';
import { toBrokerEvent } from './publisher.js';

export interface PublishResult {
  events: number;
  /** Rows written (a trade or quote already stored is not written twice). */
  trades_stored: number;
  quotes_stored: number;
  /**
   * With several processes: `sent` when the events went to the other processes' subscribers,
   * `queued` when the bus (Redis) is down: they were stored, aggregated and sent to this
   * process's subscribers, and reach the others when the bus is back.
   */
  other_processes?: 'sent' | 'queued';
}

/** The trades of a publish, for the other processes' aggregators. */
function printsOf(trades: readonly TradeRow[], futures: readonly FuturesTrade[]): LivePrint[] {
  const prints: LivePrint[] = trades.map((r) => ({ ticker: r.ticker, t: String(r.sip_timestamp), p: r.price, s: r.size }));
  for (const r of futures) prints.push({ ticker: r.ticker, t: String(r.timestamp), p: r.price, s: r.size, futures: true });
  return prints;
}

export class LivePublisher {
  /** Settles once the publish before the latest has been applied (or has failed). */
  private turn: Promise<void> = Promise.resolve();

  /** `broker` undefined: a publisher that only stores (the relay's recorder, whose events the relay has sent itself). */
  constructor(
    private readonly broker: Broker | undefined,
    private readonly store?: Store,
    private readonly aggregator?: LiveAggregator,
  ) {}

  /** Gets the store's live writes ready before the first publish (Store.prepareLive). */
  prepare(): void {
    this.store?.prepareLive();
  }

  async publish(items: readonly PublishedEvent[]): Promise<PublishResult> {
    const { trades, quotes, futures } = rowsOfEvents(items);
    // Stored first, so a client told of a trade finds it over REST; aggregated before it is
    // sent, so bars hold every stored trade whatever happens to the bus.
    const written = this.store ? writeTicks(this.store, trades, quotes, futures) : Promise.resolve({ trades: 0, quotes: 0 });
    written.catch(() => {}); // awaited below, after the publishes before this one
    const before = this.turn;
    let done!: () => void;
    this.turn = new Promise<void>((resolve) => (done = resolve));
    let stored: Awaited<typeof written>;
    let delivery: ReturnType<Broker['publish']> | 'local';
    try {
      await before;
      stored = await written;
      if (this.store) noteStoredTicks(this.store, trades, quotes);
      this.aggregator?.add(trades);
      this.aggregator?.addFutures(futures.trades);
      streamPublished.inc(items.length);
      const broker = this.broker;
      if (broker === undefined) delivery = 'local';
      else {
        const prints = broker.status() === undefined ? undefined : printsOf(trades, futures.trades);
        delivery = broker.publish(items.map((i) => toBrokerEvent(i.event, i.market)), { durable: true, prints });
      }
    } finally {
      done();
    }
    const sent = await delivery;
    const result: PublishResult = { events: items.length, trades_stored: stored.trades, quotes_stored: stored.quotes };
    if (sent !== 'local') result.other_processes = sent === 'shared' ? 'sent' : 'queued';
    return result;
  }
}
