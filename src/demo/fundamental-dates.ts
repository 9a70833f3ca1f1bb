// Date arithmetic of the fundamentals demo over the trading calendar, and its rounding.

import { dateOfDay, dayOfDate, isTradingDay, nextTradingDay, previousTradingDay } from '../domain/calendar.js';

export const yearsBetween = (a: string, b: string) => (dayOfDate(b) - dayOfDate(a)) / 365.25;

/** Last day of a month (1–12). */
export function lastDayOfMonth(year: number, month: number): string {
  const nextYear = month === 12 ? year + 1 : year;
  const next = month === 12 ? 1 : month + 1;
  return dateOfDay(dayOfDate(`${nextYear}-${String(next).padStart(2, '0')}-01`) - 1);
}

export function onOrAfterTradingDay(date: string): string {
  return isTradingDay(date) ? date : nextTradingDay(date);
}

export function onOrBeforeTradingDay(date: string): string {
  return isTradingDay(date) ? date : previousTradingDay(date);
}

/** The demo covers five years of history up to `asOf`. */
export function demoStart(asOf: string): string {
  return `${Number(asOf.slice(0, 4)) - 5}${asOf.slice(4)}`;
}

export const round = (x: number, digits = 0) => {
  const p = 10 ** digits;
  return Math.round(x * p) / p;
};

/** Short-interest settlement dates: the 15th and the month end, moved back to a session. */
export function sessionsOnSettlementDates(from: string, to: string): string[] {
  const out: string[] = [];
  let y = Number(from.slice(0, 4));
  let m = Number(from.slice(5, 7)) - 1;
  for (;;) {
    for (const d of [`${y}-${String(m + 1).padStart(2, '0')}-15`, lastDayOfMonth(y, m + 1)]) {
      const s = onOrBeforeTradingDay(d);
      if (s >= from && s <= to) out.push(s);
    }
    if (`${y}-${String(m + 1).padStart(2, '0')}` >= to.slice(0, 7)) break;
    m++;
    if (m === 12) {
      m = 0;
      y++;
    }
  }
  return out;
}
