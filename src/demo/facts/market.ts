// Facts the market-data demo is built on: the real splits inside its five years, which stocks get
// trades and quotes, the exchange ids (upstream's numbering) that print them, and approximate
// starting price levels of well-known instruments.

export interface DemoSplit {
  ticker: string;
  /** First session trading at the new ratio (YYYY-MM-DD). */
  execution_date: string;
  split_from: number;
  split_to: number;
}

/** Real forward splits inside the demo's five years (as of 2026-11-20). */
export const DEMO_SPLITS: readonly DemoSplit[] = [
  { ticker: 'AMZN', execution_date: '2022-06-06', split_from: 1, split_to: 20 },
  { ticker: 'GOOGL', execution_date: '2022-07-18', split_from: 1, split_to: 20 },
  { ticker: 'GOOG', execution_date: '2022-07-18', split_from: 1, split_to: 20 },
  { ticker: 'TSLA', execution_date: '2022-08-25', split_from: 1, split_to: 3 },
  { ticker: 'NVDA', execution_date: '2024-06-10', split_from: 1, split_to: 10 },
];

/** Stocks with trades and quotes for the last TICK_SESSIONS sessions. */
export const TICK_STOCKS: readonly string[] = ['AAPL', 'MSFT', 'NVDA', 'TSLA', 'AMZN', 'GOOGL', 'META', 'AMD', 'SPY', 'QQQ'];

/** Exchange ids (upstream's numbering) that print stock trades and quotes; 4 = FINRA TRF. */
export const STOCK_EXCHANGES = [1, 2, 3, 4, 4, 4, 7, 8, 10, 11, 12, 12, 15, 19, 21];
export const QUOTE_EXCHANGES = [1, 2, 3, 7, 8, 10, 11, 12, 15, 19, 21];
export const TRF_IDS = [201, 202, 203];
export const CRYPTO_EXCHANGES = [1, 2, 6, 23];
export const FOREX_EXCHANGE = 48;

/** Approximate price levels at the start of the demo (late 2021) for the pairs we know. */
export const FX_LEVELS: Record<string, number> = {
  'C:EURUSD': 1.13, 'C:USDJPY': 114, 'C:GBPUSD': 1.34, 'C:AUDUSD': 0.72, 'C:USDCAD': 1.27, 'C:USDCHF': 0.93,
  'C:NZDUSD': 0.69, 'C:EURGBP': 0.84, 'C:EURJPY': 129, 'C:GBPJPY': 152, 'C:USDMXN': 21, 'C:EURCHF': 1.05,
};
export const CRYPTO_LEVELS: Record<string, number> = {
  'X:BTCUSD': 57000, 'X:ETHUSD': 4200, 'X:SOLUSD': 220, 'X:XRPUSD': 1.05, 'X:LTCUSD': 200, 'X:DOGEUSD': 0.22,
  'X:ADAUSD': 1.6, 'X:BCHUSD': 560,
};
/** Approximate split-adjusted (as of 2026) prices in November 2021 of some well-known names. */
export const STOCK_LEVELS: Record<string, number> = {
  AAPL: 160, MSFT: 340, NVDA: 31, TSLA: 380, AMZN: 175, GOOGL: 147, GOOG: 148, META: 340, AMD: 150, NFLX: 680,
  INTC: 50, KO: 56, JPM: 160, XOM: 63, SPY: 470, QQQ: 400, DIA: 355, IWM: 235, IVV: 470, VOO: 430,
};
/**
 * The ETF each index moves with. `ratio`: the index is the ETF's price times this at all times
 * (SPY holds the S&P 500 at a tenth of its level, QQQ the Nasdaq-100 at about a 41st); `beta`:
 * else the index moves by the ETF's relative move to this power, from its own level (I:VIX falls
 * as the market rises).
 */
export const INDEX_ETFS: Record<string, { etf: string; ratio?: number; beta: number }> = {
  'I:SPX': { etf: 'SPY', ratio: 10, beta: 1 }, 'I:NDX': { etf: 'QQQ', ratio: 41, beta: 1 }, 'I:DJI': { etf: 'SPY', beta: 0.9 },
  'I:COMP': { etf: 'QQQ', beta: 1 }, 'I:OEX': { etf: 'SPY', beta: 1 }, 'I:RUT': { etf: 'SPY', beta: 1.2 }, 'I:VIX': { etf: 'SPY', beta: -6 },
};
export const INDEX_LEVELS: Record<string, number> = {
  'I:SPX': 4700, 'I:DJI': 35600, 'I:NDX': 16400, 'I:COMP': 15800, 'I:VIX': 18, 'I:RUT': 2300, 'I:OEX': 2200,
};
