// Futures contract symbology and expiry rules of the demo products (CME Group's listed rules,
// counted in weekdays: exchange holidays are not applied to these dates). A contract's ticker is
// its product code, the delivery month code and the last digit of the year (ESZ6 = E-mini S&P
// 500, December 2026), as upstream spells it.
import { dateOfDay, dayOfDate, daysFromCivil, weekdayOfDay } from './calendar.js';

/** Delivery month codes, January to December. */
export const MONTH_CODES = ['F', 'G', 'H', 'J', 'K', 'M', 'N', 'Q', 'U', 'V', 'X', 'Z'] as const;

/** How a product's last trading day follows from its delivery month. */
export type ExpiryRule =
  /** Third Friday of the delivery month (equity index futures). */
  | 'third-friday'
  /** Three weekdays before the 25th of the month before delivery (or before the weekday preceding it when the 25th is a weekend): WTI crude. */
  | 'crude'
  /** Third-last weekday of the delivery month (COMEX metals). */
  | 'third-last-weekday'
  /** Seventh weekday before the last weekday of the delivery month (Treasury notes). */
  | 'seventh-before-last-weekday';

const isWeekday = (day: number): boolean => {
  const dow = weekdayOfDay(day);
  return dow !== 0 && dow !== 6;
};

/** The weekday `n` weekdays before `day` (n ≥ 1). */
function weekdaysBefore(day: number, n: number): number {
  let d = day;
  for (let left = n; left > 0; ) {
    d -= 1;
    if (isWeekday(d)) left -= 1;
  }
  return d;
}

function lastWeekdayOfMonth(year: number, month: number): number {
  let d = daysFromCivil(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1) - 1;
  while (!isWeekday(d)) d -= 1;
  return d;
}

/** Last trading day (YYYY-MM-DD) of the contract delivering in `month` (1–12) of `year`. */
export function lastTradeDate(rule: ExpiryRule, year: number, month: number): string {
  switch (rule) {
    case 'third-friday': {
      const first = daysFromCivil(year, month, 1);
      const firstFriday = first + ((5 - weekdayOfDay(first) + 7) % 7);
      return dateOfDay(firstFriday + 14);
    }
    case 'crude': {
      const [y, m] = month === 1 ? [year - 1, 12] : [year, month - 1];
      let anchor = daysFromCivil(y, m, 25);
      if (!isWeekday(anchor)) anchor = weekdaysBefore(anchor, 1);
      return dateOfDay(weekdaysBefore(anchor, 3));
    }
    case 'third-last-weekday':
      return dateOfDay(weekdaysBefore(lastWeekdayOfMonth(year, month), 2));
    case 'seventh-before-last-weekday':
      return dateOfDay(weekdaysBefore(lastWeekdayOfMonth(year, month), 7));
  }
}

/** The contract ticker: product code + month code + last digit of the year. */
export function contractTicker(productCode: string, year: number, month: number): string {
  return `${productCode}${MONTH_CODES[month - 1]}${year % 10}`;
}

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayOfDate(to) - dayOfDate(from);
}

/** The next `count` delivery months (from `months`, 1–12) whose contracts still trade on `date`. */
export function listedMonths(rule: ExpiryRule, months: readonly number[], date: string, count: number): [number, number][] {
  const y0 = Number(date.slice(0, 4));
  const out: [number, number][] = [];
  for (let y = y0; out.length < count; y++) {
    for (const m of months) {
      if (out.length < count && lastTradeDate(rule, y, m) >= date) out.push([y, m]);
    }
  }
  return out;
}
