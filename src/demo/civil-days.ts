// Civil dates (YYYY-MM-DD) as whole days since 1970-01-01 (the domain calendar's day numbers),
// and the random business dates the demo generators draw. Pure arithmetic, no Date objects: the
// same on every platform.

import { dateOfDay, dayOfDate, weekdayOfDay } from '../domain/calendar.js';
import type { Rng } from './random.js';

/** Move Saturday/Sunday forward to Monday. */
export function weekday(days: number): number {
  const dow = weekdayOfDay(days); // 0 = Sunday
  if (dow === 6) return days + 2;
  if (dow === 0) return days + 1;
  return days;
}

export function randomDate(rng: Rng, from: string, to: string): string {
  const a = dayOfDate(from);
  const b = dayOfDate(to);
  return dateOfDay(Math.min(weekday(rng.int(a, b)), b));
}

/** A random business date with more mass near `to` (power > 1 skews towards recent dates). */
export function recentSkewedDate(rng: Rng, from: string, to: string, power: number): string {
  const a = dayOfDate(from);
  const b = dayOfDate(to);
  const u = 1 - Math.pow(rng.next(), power);
  return dateOfDay(Math.min(weekday(a + Math.floor((1 - u) * (b - a))), b));
}

export function addDays(date: string, n: number): string {
  return dateOfDay(dayOfDate(date) + n);
}

export function utc(date: string): string {
  return `${date}T00:00:00Z`;
}
