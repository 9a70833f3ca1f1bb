// Versions of what the live feed writes, per ticker and per market: a cached answer that depends
// on one ticker's market data (its snapshot, trades, bars, overview) is kept under the store's
// import version (which the feed's writes leave alone) and that ticker's live version, so a trade
// of AAPL renews AAPL's answers and none of MSFT's. Answers over a whole market (the full-market
// snapshot, gainers and losers) take the market's live version, which any ticker of it moves.
//
// Only this process's live writes are counted here; other processes' writes move the import
// version itself (store/driver.ts: importVersion), which renews everything.
import { listenLiveWrites, type LiveWrite } from './live-events.js';

/** The market a ticker's live version counts toward: its symbol prefix ('' for stocks). */
export function liveMarketOf(ticker: string): string {
  return ticker.length > 2 && ticker[1] === ':' ? ticker[0]! : '';
}

/**
 * The scope of an answer: one ticker's market data (with `bars`: its bars alone, which its trades
 * and quotes leave as they are until the aggregator stores their minute), or a whole market's.
 */
export type LiveScope = { ticker: string; bars?: boolean } | { market: string };

export class LiveVersions {
  private readonly tickers = new Map<string, number>();
  /** Live bar writes per ticker. */
  private readonly bars = new Map<string, number>();
  private readonly markets = new Map<string, number>();
  private readonly stop: () => void;

  constructor(
    store: object,
    private readonly importVersion: () => string,
  ) {
    this.stop = listenLiveWrites(store, (w) => this.note(w));
  }

  /** The version of answers in `scope`: the import version and the scope's live count. */
  of(scope: LiveScope): string {
    const n = 'market' in scope ? this.markets.get(scope.market) : (scope.bars ? this.bars : this.tickers).get(scope.ticker);
    return `${this.importVersion()}~${n ?? 0}`;
  }

  /** The live count of one ticker (0 before its first live write). */
  ticker(ticker: string): number {
    return this.tickers.get(ticker) ?? 0;
  }

  close(): void {
    this.stop();
  }

  private note(w: LiveWrite): void {
    for (const r of w.trades) this.bump(r.ticker);
    for (const r of w.quotes) this.bump(r.ticker);
    for (const r of w.bars) {
      this.bump(r.ticker);
      this.bars.set(r.ticker, (this.bars.get(r.ticker) ?? 0) + 1);
    }
  }

  private bump(ticker: string): void {
    this.tickers.set(ticker, (this.tickers.get(ticker) ?? 0) + 1);
    const m = liveMarketOf(ticker);
    this.markets.set(m, (this.markets.get(m) ?? 0) + 1);
  }
}
