// Where the CME Globex calendar stands at an instant: the latest session event (pre_open, open or
// close) at or before it, with its session's trading date and time. Between a weekday's close and
// the next pre-open at the same instant the pre-open wins, so `close` lasts over weekends and
// full-closure holidays, and `pre_open` covers the daily maintenance hour.
import { dateOfDay } from './calendar.js';
import { globexSessions, sessionEvents, type FuturesEvent } from './futures-calendar.js';

export interface FuturesMarketState {
  event: FuturesEvent;
  /** When the event happened, Unix ms. */
  at: number;
  /** The trading date of the event's session. */
  sessionEndDate: string;
}

/**
 * The market's state that an event leaves it in, as older clients read it (client-go's
 * FuturesMarketStatus.market_status): open after the open, closed after the close, pre_open in
 * the hour before the open.
 */
export function marketStatusOf(event: FuturesEvent): 'open' | 'closed' | 'pre_open' {
  return event === 'close' ? 'closed' : event;
}

const DAY_MS = 86_400_000;
/** Days looked back for the last event: the longest closure (a weekend next to a full-closure holiday) is four days. */
const LOOKBACK_DAYS = 10;

export function globexStateAt(ms: number): FuturesMarketState {
  const today = Math.floor(ms / DAY_MS);
  let state: FuturesMarketState | undefined;
  // Sessions end up to a day after the UTC date of `ms` (a session opens the evening before).
  for (const session of globexSessions(dateOfDay(today - LOOKBACK_DAYS), dateOfDay(today + 2))) {
    for (const { event, at } of sessionEvents(session)) {
      if (at <= ms && (!state || at >= state.at)) state = { event, at, sessionEndDate: session.sessionEndDate };
    }
  }
  if (!state) throw new RangeError(`no Globex session in the ${LOOKBACK_DAYS} days before ${new Date(ms).toISOString()}`);
  return state;
}
