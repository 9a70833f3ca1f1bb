// The CME Globex futures trading calendar. A session runs from 18:00 ET on the day before its
// trading date (session_end_date) to 17:00 ET on it, so Sunday evening opens Monday's session and
// each weekday has a 17:00–18:00 ET maintenance break; the hour before the open is pre-open. On
// US holidays CME closes completely on New Year's Day, Good Friday and Christmas; on the other
// exchange holidays the session halts early at 13:00 ET, and on the stock market's early-close
// days (the day after Thanksgiving, Christmas Eve) at 13:15 ET. These are the equity-index hours;
// they are applied to every product here.
import { dateOfDay, dayOfDate, holidaysInYear, nyTime, weekdayOfDay } from './calendar.js';

/** Holidays on which Globex does not trade at all. */
const FULL_CLOSURES = new Set(["New Year's Day", 'Good Friday', 'Christmas']);

export type FuturesEvent = 'pre_open' | 'open' | 'close';

export interface FuturesSession {
  /** Trading date: the day the session ends. */
  sessionEndDate: string;
  preOpen: number;
  open: number;
  close: number;
  /** The holiday that shortens the session, if any. */
  holiday?: string;
}

/** The holiday on `date` and the ET time Globex stops trading then ('' = not at all). */
function holidayOn(date: string): { name: string; closeAt: string } | undefined {
  const h = holidaysInYear(Number(date.slice(0, 4))).find((x) => x.date === date);
  if (!h) return undefined;
  // an NYSE early close (Christmas Eve) is not the Christmas closure
  if (h.status === 'early-close') return { name: h.name, closeAt: '13:15' };
  return { name: h.name, closeAt: FULL_CLOSURES.has(h.name) ? '' : '13:00' };
}

/** The Globex session ending on `date` (YYYY-MM-DD), or null when there is none (weekends, full closures). */
export function globexSession(date: string): FuturesSession | null {
  const day = dayOfDate(date);
  const dow = weekdayOfDay(day);
  if (dow === 0 || dow === 6) return null;
  const holiday = holidayOn(date);
  if (holiday?.closeAt === '') return null;
  const before = dateOfDay(day - 1);
  const close = nyTime(date, holiday?.closeAt ?? '17:00');
  const session: FuturesSession = { sessionEndDate: date, preOpen: nyTime(before, '17:00'), open: nyTime(before, '18:00'), close };
  if (holiday) session.holiday = holiday.name;
  return session;
}

/** Globex sessions ending from `from` to `to` inclusive, in order. */
export function globexSessions(from: string, to: string): FuturesSession[] {
  const out: FuturesSession[] = [];
  for (let d = dayOfDate(from); d <= dayOfDate(to); d++) {
    const s = globexSession(dateOfDay(d));
    if (s) out.push(s);
  }
  return out;
}

/** An instant as upstream writes schedule times: UTC with a +00:00 offset, whole seconds. */
export function utcOffsetTimestamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
}

/** The events of a session in time order. */
export function sessionEvents(s: FuturesSession): { event: FuturesEvent; at: number }[] {
  return [{ event: 'pre_open', at: s.preOpen }, { event: 'open', at: s.open }, { event: 'close', at: s.close }];
}
