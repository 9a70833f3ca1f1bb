// Stored history as one time-ordered stream: the trades, quotes and minute bars of some tickers
// over [from, to), merged by time (a minute bar counts at its window's end, when it would have
// been sent live). Read in pages, so a long window costs memory per page, not per window.
// Futures contracts are read from the futures tables.
import type { FuturesMinuteBar, FuturesQuote, FuturesTrade } from '../domain/futures-market.js';
import type { BarRow, QuoteRow, TradeRow } from '../domain/market-records.js';
import type { FuturesMarketRepository, FuturesTickPosition } from '../store/repos/futures-market.js';
import type { MarketDataPort, TickPosition } from '../store/repos/market-port.js';

export type ReplayItem =
  | { at: bigint; trade: TradeRow }
  | { at: bigint; quote: QuoteRow }
  | { at: bigint; bar: BarRow }
  | { at: bigint; futuresTrade: FuturesTrade }
  | { at: bigint; futuresQuote: FuturesQuote }
  | { at: bigint; futuresBar: FuturesMinuteBar };

/** Where stored history is read: stocks, options, forex, crypto and indices, and futures. */
export interface ReplayStores {
  market: MarketDataPort;
  futures: Pick<FuturesMarketRepository, 'readTrades' | 'readQuotes' | 'readMinuteBars'>;
}

export interface ReplayQuery {
  /** Tickers of the stock, option, forex, crypto and index tables. */
  tickers: readonly string[];
  /** Futures contracts. */
  futuresTickers?: readonly string[];
  /** Inclusive, Unix ms. */
  fromMs: number;
  /** Exclusive, Unix ms. */
  toMs: number;
  trades?: boolean;
  quotes?: boolean;
  bars?: boolean;
}

const NS_PER_MS = 1_000_000n;
const MINUTE = 60_000;
const MINUTE_NS = 60_000n * NS_PER_MS;
const PAGE = 2_000;

/** One ordered source: pages of one ticker's trades, quotes or bars. */
interface Source {
  head(): Promise<ReplayItem | undefined>;
  pop(): void;
}

/** Pages read in order, each resuming after the position of the last item of the one before. */
function pagedSource<P>(read: (after?: P) => Promise<{ item: ReplayItem; position: P }[]>): Source {
  let buf: { item: ReplayItem; position: P }[] = [];
  let i = 0;
  let done = false;
  let after: P | undefined;
  return {
    async head() {
      if (i < buf.length) return buf[i]!.item;
      if (done) return undefined;
      buf = await read(after);
      i = 0;
      if (buf.length < PAGE) done = true;
      if (buf.length) after = buf[buf.length - 1]!.position;
      return buf[0]?.item;
    },
    pop() {
      i++;
    },
  };
}

function barSource(market: MarketDataPort, ticker: string, fromMs: number, toMs: number): Source {
  let buf: BarRow[] = [];
  let i = 0;
  let next = fromMs;
  let done = false;
  return {
    async head() {
      if (i < buf.length) return { at: BigInt(buf[i]!.t + MINUTE) * NS_PER_MS, bar: buf[i]! };
      if (done) return undefined;
      // bars whose window ends inside [from, to)
      buf = await market.readBars('minute', { ticker, fromMs: next - MINUTE, toMs: toMs - MINUTE, order: 'asc', limit: PAGE });
      i = 0;
      if (buf.length < PAGE) done = true;
      if (buf.length) next = buf[buf.length - 1]!.t + MINUTE + 1;
      const b = buf[0];
      return b ? { at: BigInt(b.t + MINUTE) * NS_PER_MS, bar: b } : undefined;
    },
    pop() {
      i++;
    },
  };
}

/** The items in time order (ties: trades, then quotes, then bars, in source order). */
export async function* replayItems(stores: ReplayStores, q: ReplayQuery): AsyncGenerator<ReplayItem> {
  const { market, futures } = stores;
  const gte = BigInt(q.fromMs) * NS_PER_MS;
  const lt = BigInt(q.toMs) * NS_PER_MS;
  const sources: Source[] = [];
  for (const ticker of q.tickers) {
    if (q.trades !== false) {
      sources.push(pagedSource<TickPosition>(async (after) =>
        (await market.readTrades({ ticker, gte, lt, order: 'asc', limit: PAGE, after })).map((p) => ({ item: { at: p.row.sip_timestamp, trade: p.row }, position: p.position })),
      ));
    }
    if (q.quotes !== false) {
      sources.push(pagedSource<TickPosition>(async (after) =>
        (await market.readQuotes({ ticker, gte, lt, order: 'asc', limit: PAGE, after })).map((p) => ({
          item: { at: (p.row.sip_timestamp ?? p.row.participant_timestamp)!, quote: p.row },
          position: p.position,
        })),
      ));
    }
    if (q.bars !== false) sources.push(barSource(market, ticker, q.fromMs, q.toMs));
  }
  for (const ticker of q.futuresTickers ?? []) {
    const tickPosition = (r: FuturesTrade | FuturesQuote) => ({ ts: r.timestamp, seq: r.sequence_number });
    if (q.trades !== false) {
      sources.push(pagedSource<FuturesTickPosition>(async (after) =>
        (await futures.readTrades({ ticker, gte, lt, order: 'asc', limit: PAGE, after })).map((r) => ({ item: { at: r.timestamp, futuresTrade: r }, position: tickPosition(r) })),
      ));
    }
    if (q.quotes !== false) {
      sources.push(pagedSource<FuturesTickPosition>(async (after) =>
        (await futures.readQuotes({ ticker, gte, lt, order: 'asc', limit: PAGE, after })).map((r) => ({ item: { at: r.timestamp, futuresQuote: r }, position: tickPosition(r) })),
      ));
    }
    if (q.bars !== false) {
      // bars whose window ends inside [from, to)
      sources.push(pagedSource<bigint>(async (after) =>
        (await futures.readMinuteBars({ ticker, gte: gte - MINUTE_NS, lt: lt - MINUTE_NS, order: 'asc', limit: PAGE, after }))
          .map((b) => ({ item: { at: b.window_start + MINUTE_NS, futuresBar: b }, position: b.window_start })),
      ));
    }
  }
  for (;;) {
    let best = -1;
    let bestAt = 0n;
    for (let s = 0; s < sources.length; s++) {
      const h = await sources[s]!.head();
      if (h && (best < 0 || h.at < bestAt)) {
        best = s;
        bestAt = h.at;
      }
    }
    if (best < 0) return;
    const item = (await sources[best]!.head())!;
    sources[best]!.pop();
    yield item;
  }
}
