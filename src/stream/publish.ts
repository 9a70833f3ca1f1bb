// Live publishing: checked events are stored (trades and quotes, futures ones in the futures
// tables, one transaction), sent to every subscriber through the broker, and fed to the
// aggregator that makes second and minute bars.
import { ApiError } from '../domain/errors.js';
import type { FuturesQuote, FuturesTrade } from '../domain/futures-market.js';
import type { QuoteRow, TradeRow } from '../domain/market-records.js';
import { storeTicks } from '../services/live-ticks.js';
import type { Store } from '../store/index.js';
import type { LiveAggregator } from './aggregator.js';
import type { Broker } from './broker.js';
import type { PublishedEvent } from './publish-input.js';
import { streamPublished } from './metrics.js';
import { futuresQuoteOfEvent, futuresTradeOfEvent } from './futures-rows.js';
import { toBrokerEvent } from './publisher.js';
import { quoteOfEvent, tradeOfEvent } from './wire-rows.js';

export interface PublishResult {
  events: number;
  /** Rows written (a trade or quote already stored is not written twice). */
  trades_stored: number;
  quotes_stored: number;
}

export class LivePublisher {
  constructor(
    private readonly broker: Broker,
    private readonly store?: Store,
    private readonly aggregator?: LiveAggregator,
  ) {}

  async publish(items: readonly PublishedEvent[]): Promise<PublishResult> {
    const trades: TradeRow[] = [];
    const quotes: QuoteRow[] = [];
    const futures = { trades: [] as FuturesTrade[], quotes: [] as FuturesQuote[] };
    for (const { event, market, row } of items) {
      if (row) {
        if ('trade' in row) trades.push(row.trade);
        else quotes.push(row.quote);
        continue;
      }
      if (market === 'futures') {
        if (event.ev === 'T') futures.trades.push(futuresTradeOfEvent(event));
        else if (event.ev === 'Q') futures.quotes.push(futuresQuoteOfEvent(event));
        continue;
      }
      const t = tradeOfEvent(event, market);
      if (t) trades.push(t);
      else {
        const q = quoteOfEvent(event, market);
        if (q) quotes.push(q);
      }
    }
    // Stored first, so a client told of a trade finds it over REST.
    const stored = this.store ? await storeTicks(this.store, trades, quotes, futures) : { trades: 0, quotes: 0 };
    try {
      streamPublished.inc(items.length);
      await this.broker.publish(items.map((i) => toBrokerEvent(i.event, i.market)));
    } catch {
      throw new ApiError('DEPENDENCY_UNAVAILABLE', 'The event bus (Redis) is unavailable: the events were stored but not sent to subscribers');
    }
    this.aggregator?.add(trades);
    this.aggregator?.addFutures(futures.trades);
    return { events: items.length, trades_stored: stored.trades, quotes_stored: stored.quotes };
  }
}
