// v3 trades and quotes: tick rows of one ticker inside a time window, keyset-paged on (time,
// sequence number, store key) so that a walk returns every row once even when many rows share a
// timestamp.
import type { QuoteRow, TradeRow } from '../domain/market-records.js';
import type { QuoteWire, TradeWire } from '../domain/tick-schemas.js';
import { marketOfTicker, type TickerMarket } from '../domain/ticker-market.js';
import { rawTickPosition, type MarketDataPort, type RawQuote, type RawTrade, type TickJsonPage, type TickPosition, type TickRange } from '../store/repos/market-port.js';
import { devTradesJson, optionQuotesJson, optionTradesJson, quotesJson, tradesJson } from './tick-json.js';
import type { KeysetRows, PageRequest } from './paging.js';
import { decimalQuantity } from '../domain/decimal-quantity.js';
import { VersionedMemo } from './versioned-memo.js';
import { TickLists, type TickListFeed } from './tick-lists.js';

export type { RawQuote, RawTrade, TickPosition } from '../store/repos/market-port.js';

/** The resolved request a page reads (and a cursor carries): bounds in ns as decimal text. */
export interface TickWindow {
  ticker: string;
  gte?: string;
  lt?: string;
  order: 'asc' | 'desc';
  limit: number;
}

export const MAX_TICK_LIMIT = 50_000;

const isDigits = (v: unknown): v is string => typeof v === 'string' && /^\d{1,19}$/.test(v);
// A row without a sequence number (forex quotes, crypto trades) is stored, ordered and positioned
// under -1, so a page ending on such a row resumes after seq "-1".
const isSequence = (v: unknown): v is string => v === '-1' || isDigits(v);

/** Whether a window and position decoded from a cursor are well formed and belong to `ticker`. */
export function validTickCursor(q: TickWindow, a: TickPosition, ticker: string): boolean {
  return q.ticker === ticker && (q.order === 'asc' || q.order === 'desc')
    && Number.isInteger(q.limit) && q.limit >= 1 && q.limit <= MAX_TICK_LIMIT
    && (q.gte === undefined || isDigits(q.gte)) && (q.lt === undefined || isDigits(q.lt))
    && isDigits(a.ts) && isSequence(a.seq) && isDigits(a.pk);
}

const nonEmpty = (codes: number[] | undefined) => (codes && codes.length ? codes : undefined);

/**
 * A trade as v3 writes it. Stocks add `decimal_size` (the size as a decimal string); crypto trades have no
 * SIP time, so only their participant time is written.
 */
export function tradeToWire(r: TradeRow, market: TickerMarket): TradeWire {
  const crypto = market === 'crypto';
  return {
    conditions: nonEmpty(r.conditions),
    correction: r.correction,
    decimal_size: market === 'stocks' ? decimalQuantity(r.size) : undefined,
    exchange: r.exchange,
    id: r.id,
    participant_timestamp: crypto ? (r.participant_timestamp ?? r.sip_timestamp) : r.participant_timestamp,
    price: r.price,
    sequence_number: r.sequence_number,
    sip_timestamp: crypto ? undefined : r.sip_timestamp,
    size: r.size,
    tape: r.tape,
    trf_id: r.trf_id,
    trf_timestamp: r.trf_timestamp,
  };
}

export function quoteToWire(r: QuoteRow): QuoteWire {
  return {
    ask_exchange: r.ask_exchange,
    ask_price: r.ask_price,
    ask_size: r.ask_size,
    bid_exchange: r.bid_exchange,
    bid_price: r.bid_price,
    bid_size: r.bid_size,
    conditions: nonEmpty(r.conditions),
    indicators: nonEmpty(r.indicators),
    participant_timestamp: r.participant_timestamp,
    sequence_number: r.sequence_number,
    sip_timestamp: r.sip_timestamp,
    tape: r.tape,
    trf_timestamp: r.trf_timestamp,
  };
}

const rangeOf = (q: TickWindow, page: PageRequest<TickPosition>): TickRange => ({
  ticker: q.ticker,
  gte: q.gte === undefined ? undefined : BigInt(q.gte),
  lt: q.lt === undefined ? undefined : BigInt(q.lt),
  order: q.order,
  limit: page.limit,
  after: page.after,
});

export class TradeQuoteService {
  /** The newest tick time of each ticker asked, per data version (a lookup per request otherwise). */
  private readonly newest: VersionedMemo;

  /** Tickers' trades and quotes kept in memory, for descending pages (none with a budget of 0). */
  readonly lists?: TickLists;

  constructor(
    private readonly market: Pick<MarketDataPort, 'readTradesRaw' | 'readQuotesRaw' | 'readTradesJsonPage' | 'readQuotesJsonPage' | 'newestTickNs' | 'readTickList'>,
    currentVersion: () => string,
    listBytes?: number,
    /**
     * What renews the kept lists: the import version and the live writes that extend them
     * (default: the whole data version, which any write moves, and no live writes).
     */
    feed: TickListFeed = { importVersion: currentVersion, listen: () => () => {} },
  ) {
    this.newest = new VersionedMemo(currentVersion);
    if (listBytes !== 0) this.lists = new TickLists(market, feed, listBytes);
  }

  /** The time (ns) of the newest stored trade or quote of `ticker`; undefined when it has none. */
  newestNs(kind: 'trades' | 'quotes', ticker: string): Promise<bigint | undefined> {
    return this.newest.get(`${kind}\0${ticker}`, () => this.market.newestTickNs(kind, ticker));
  }

  /** A page of v3 trades written as JSON by the store, in the form of the ticker's market (as tradesJson); undefined: write it with tradesJson. */
  async tradesJsonPage(q: TickWindow, page: PageRequest<TickPosition>): Promise<TickJsonPage | undefined> {
    const market = marketOfTicker(q.ticker);
    const form = { crypto: market === 'crypto', decimalSize: market === 'stocks' };
    const range = rangeOf(q, page);
    const kept = await this.lists?.page(range, form);
    if (kept) return kept;
    const read = await this.market.readTradesJsonPage(range, form);
    this.lists?.readFromStore(q.ticker, form);
    return read;
  }

  /** A page of trades as raw rows, for tradesJson. */
  async tradesRaw(q: TickWindow, page: PageRequest<TickPosition>): Promise<KeysetRows<RawTrade, TickPosition>> {
    return { rows: await this.market.readTradesRaw(rangeOf(q, page)), position: rawTickPosition };
  }

  /** A page of v3 quotes written as JSON by the store (as quotesJson). */
  async quotesJsonPage(q: TickWindow, page: PageRequest<TickPosition>): Promise<TickJsonPage> {
    const range = rangeOf(q, page);
    const kept = await this.lists?.page(range, 'quotes');
    if (kept) return kept;
    const read = await this.market.readQuotesJsonPage(range);
    this.lists?.readFromStore(q.ticker, 'quotes');
    return read;
  }

  async quotesRaw(q: TickWindow, page: PageRequest<TickPosition>): Promise<KeysetRows<RawQuote, TickPosition>> {
    return { rows: await this.market.readQuotesRaw(rangeOf(q, page)), position: rawTickPosition };
  }

  /** The JSON array of a page of trades: the same values as tradeToWire (the form depends on the ticker's market). */
  tradesJson(rows: readonly RawTrade[], ticker: string): string {
    return tradesJson(rows, marketOfTicker(ticker));
  }

  /** The JSON array of a page of quotes: the same values as quoteToWire. */
  quotesJson(rows: readonly RawQuote[]): string {
    return quotesJson(rows);
  }

  /** A page of /options/v3/trades: each row an OptionTradeWire of `ticker`. */
  optionTradesJson(rows: readonly RawTrade[], ticker: string): string {
    return optionTradesJson(rows, ticker);
  }

  /** A page of /options/v3/quotes: each row an OptionQuoteWire of `ticker`. */
  optionQuotesJson(rows: readonly RawQuote[], ticker: string): string {
    return optionQuotesJson(rows, ticker);
  }

  /** A page of /stocks/dev/trades: each row a DevTradeWire of `ticker`. */
  devTradesJson(rows: readonly RawTrade[], ticker: string): string {
    return devTradesJson(rows, ticker);
  }
}
