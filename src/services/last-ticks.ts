// The latest stored trade or quote of a ticker, in the shapes of the last-trade, last-quote and
// v1 currency-pair endpoints.
import type { QuoteRow, TradeRow } from '../domain/market-records.js';
import type { CryptoLast, ForexLast, LastQuote, LastTrade } from '../domain/tick-schemas.js';
import { marketOfTicker, normalizeTicker } from '../domain/ticker-market.js';
import type { MarketDataPort } from '../store/repos/market-port.js';
import { decimalQuantity } from '../domain/decimal-quantity.js';

const NS_PER_MS = 1_000_000n;

const nonEmpty = (codes: number[] | undefined) => (codes && codes.length ? codes : undefined);
const msOf = (ns: bigint | undefined) => (ns === undefined ? 0 : Number(ns / NS_PER_MS));

/** Options carry no decimal size and no tape. */
function lastTradeToWire(ticker: string, r: TradeRow): LastTrade {
  const stocks = marketOfTicker(ticker) === 'stocks';
  return {
    c: nonEmpty(r.conditions),
    i: r.id ?? '',
    p: r.price,
    s: r.size,
    ds: stocks ? decimalQuantity(r.size) : undefined,
    x: r.exchange,
    e: r.correction,
    r: r.trf_id,
    z: stocks ? r.tape : undefined,
    T: ticker,
    t: r.sip_timestamp,
    y: r.participant_timestamp,
    f: r.trf_timestamp,
    q: r.sequence_number,
  };
}

function lastQuoteToWire(ticker: string, r: QuoteRow): LastQuote {
  return {
    p: r.bid_price,
    s: r.bid_size,
    x: r.bid_exchange,
    P: r.ask_price,
    S: r.ask_size,
    X: r.ask_exchange,
    c: nonEmpty(r.conditions),
    i: nonEmpty(r.indicators),
    z: r.tape,
    T: ticker,
    t: (r.sip_timestamp ?? r.participant_timestamp)!,
    y: r.participant_timestamp,
    f: r.trf_timestamp,
    q: r.sequence_number,
  };
}

export class LastTickService {
  constructor(private readonly market: Pick<MarketDataPort, 'lastTrade' | 'lastQuote'>) {}

  /** The latest trade of a stock or option; `ticker` as the request spelled it (written back in `T`). */
  async trade(ticker: string): Promise<LastTrade | undefined> {
    const row = await this.market.lastTrade(normalizeTicker(ticker));
    return row && lastTradeToWire(ticker, row);
  }

  async quote(ticker: string): Promise<LastQuote | undefined> {
    const row = await this.market.lastQuote(normalizeTicker(ticker));
    return row && lastQuoteToWire(ticker, row);
  }

  /** The latest quote of the forex pair C:{from}{to} (symbols upper case). */
  async currencyQuote(from: string, to: string): Promise<ForexLast | undefined> {
    const row = await this.market.lastQuote(`C:${from}${to}`);
    if (!row) return undefined;
    return {
      ask: row.ask_price,
      bid: row.bid_price,
      exchange: row.ask_exchange ?? row.bid_exchange ?? 0,
      timestamp: msOf(row.participant_timestamp ?? row.sip_timestamp),
    };
  }

  /** The latest trade of the crypto pair X:{from}{to} (symbols upper case). */
  async cryptoTrade(from: string, to: string): Promise<CryptoLast | undefined> {
    const row = await this.market.lastTrade(`X:${from}${to}`);
    if (!row) return undefined;
    return {
      conditions: nonEmpty(row.conditions),
      exchange: row.exchange,
      price: row.price,
      size: row.size,
      timestamp: msOf(row.participant_timestamp ?? row.sip_timestamp),
    };
  }
}
