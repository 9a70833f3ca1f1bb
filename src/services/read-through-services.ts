// The services with read-through: the aggregates, trades and quotes, and ticker overview calls
// first make sure the store covers the request (ReadThrough), then answer from the store as
// always. Routes call them after their guards (key, plan, entitlements, history window, rate
// limit), so a request refused locally never reaches upstream.
import type { Services } from './index.js';
import type { ReadThrough } from './read-through.js';
import type { PageRequest } from './paging.js';
import type { TickPosition, TickWindow } from './trades-quotes.js';

export function withReadThrough(services: Services, rt: ReadThrough): Services {
  const agg = services.aggregates;
  const aggregates: Services['aggregates'] = Object.create(agg);
  aggregates.rangeJson = async (req) => {
    await rt.ensureBars(req.ticker, req.timespan, req.fromMs, req.toMs);
    return agg.rangeJson(req);
  };
  aggregates.range = async (req) => {
    await rt.ensureBars(req.ticker, req.timespan, req.fromMs, req.toMs);
    return agg.range(req);
  };

  const ticks = services.tradesQuotes;
  const tradesQuotes: Services['tradesQuotes'] = Object.create(ticks);
  /** A page method of the tick service, first making sure the store covers its window. */
  const covered = <R>(kind: 'trades' | 'quotes', read: (q: TickWindow, page: PageRequest<TickPosition>) => Promise<R>) =>
    async (q: TickWindow, page: PageRequest<TickPosition>): Promise<R> => {
      await rt.ensureTicks(kind, q.ticker, q.gte, q.lt);
      return read.call(ticks, q, page);
    };
  tradesQuotes.tradesJsonPage = covered('trades', ticks.tradesJsonPage);
  tradesQuotes.tradesRaw = covered('trades', ticks.tradesRaw);
  tradesQuotes.quotesJsonPage = covered('quotes', ticks.quotesJsonPage);
  tradesQuotes.quotesRaw = covered('quotes', ticks.quotesRaw);

  const tick = services.tickers;
  const tickers: Services['tickers'] = Object.create(tick);
  tickers.overview = async (ticker, date) => {
    const stored = await tick.overview(ticker, date);
    if (stored) return stored;
    await rt.ensureTicker(ticker);
    return tick.overview(ticker, date);
  };

  return { ...services, aggregates, tradesQuotes, tickers };
}
