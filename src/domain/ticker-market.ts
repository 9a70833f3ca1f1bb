/**
 * The asset class of a ticker, read from its prefix: `O:` options, `C:` forex,
 * `X:` crypto, `I:` indices, none for stocks. Shared paths route on this, and entitlements use
 * the same names as upstream's markets.
 */
import type { Zone } from './calendar.js';

export type TickerMarket = 'stocks' | 'options' | 'fx' | 'crypto' | 'indices';

export function marketOfTicker(ticker: string): TickerMarket {
  if (ticker.length > 2 && ticker.charCodeAt(1) === 58 /* ':' */) {
    switch (ticker.charCodeAt(0)) {
      case 79: // O
        return 'options';
      case 67: // C
        return 'fx';
      case 88: // X
        return 'crypto';
      case 73: // I
        return 'indices';
      default:
        break;
    }
  }
  return 'stocks';
}

/** Zone of day, week, month, quarter and year buckets: UTC for forex, else New York. */
export function barZone(market: TickerMarket): Zone {
  return market === 'fx' ? 'UTC' : 'America/New_York';
}

/**
 * Zone of a `timestamp=YYYY-MM-DD` day on v3 ticks and of the crypto open/close day:
 * New York for US stocks and options (and indices), UTC for the 24-hour forex and crypto markets.
 */
export function tickDayZone(market: TickerMarket): Zone {
  return market === 'fx' || market === 'crypto' ? 'UTC' : 'America/New_York';
}

/**
 * The stored spelling of a ticker: forex and crypto pairs may arrive as `C:EUR-USD` or
 * `X:BTC-USD` (upstream's own samples use both), stored as `C:EURUSD` / `X:BTCUSD`.
 */
export function normalizeTicker(ticker: string): string {
  const m = marketOfTicker(ticker);
  return (m === 'fx' || m === 'crypto') && /[-/]/.test(ticker) ? ticker.slice(0, 2) + ticker.slice(2).replace(/[-/]/g, '') : ticker;
}
