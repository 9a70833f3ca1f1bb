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
  const ensure = (kind: 'trades' | 'quotes', q: TickWindow) => rt.ensureTicks(kind, q.ticker, q.gte, q.lt);
  tradesQuotes.tradesJsonPage = async (q: TickWindow, page: PageRequest<TickPosition>) => {
    await ensure('trades', q);
    return ticks.tradesJsonPage(q, page);
  };
  tradesQuotes.tradesRaw = async (q: TickWindow, page: PageRequest<TickPosition>) => {
    await ensure('trades', q);
    return ticks.tradesRaw(q, page);
  };
  tradesQuotes.quotesJsonPage = async (q: TickWindow, page: PageRequest<TickPosition>) => {
    await ensure('quotes', q);
    return ticks.quotesJsonPage(q, page);
  };
  tradesQuotes.quotesRaw = async (q: TickWindow, page: PageRequest<TickPosition>) => {
    await ensure('quotes', q);
    return ticks.quotesRaw(q, page);
  };

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
