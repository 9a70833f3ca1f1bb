// When each market of the live demo tape trades, as the real ones do: US stocks and their options
// in the pre-market (04:00-09:30 ET), regular and after-hours (to 20:00 ET) sessions of NYSE
// trading days, thin outside the regular one; indices while their constituents trade in the
// regular session; spot forex from Sunday 17:00 to Friday 17:00 ET; crypto always; futures while
// CME Globex is open (its daily maintenance hour, weekends and holiday closures excluded).
import { isForexOpen, marketStatusAt } from '../domain/calendar.js';
import { globexStateAt } from '../domain/futures-market-status.js';
import type { FeedMarket } from '../stream/markets.js';

/** Share of the regular session's activity printed in the pre-market and after hours. */
export const EXTENDED_HOURS_ACTIVITY = 0.1;

/**
 * How busy a market's tape is at `ms`, relative to its busiest hours: 0 when the market is
 * closed (nothing is printed), 1 in regular hours.
 */
export function tapeActivity(market: FeedMarket, ms: number): number {
  switch (market) {
    case 'stocks':
    case 'options': {
      const status = marketStatusAt(ms);
      return status.market === 'open' ? 1 : status.market === 'extended-hours' ? EXTENDED_HOURS_ACTIVITY : 0;
    }
    case 'indices':
      return marketStatusAt(ms).market === 'open' ? 1 : 0;
    case 'forex':
      return isForexOpen(ms) ? 1 : 0;
    case 'crypto':
      return 1;
    case 'futures':
      return globexStateAt(ms).event === 'open' ? 1 : 0;
  }
}
