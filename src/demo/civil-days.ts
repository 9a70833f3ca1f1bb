// Civil dates (YYYY-MM-DD) as whole days since 1970-01-01, and the random business dates the
// demo generators draw. Pure arithmetic, no Date objects: fast, allocation-free and the same on
// every platform.

import type { Rng } from './random.js';

export function toDays(date: string): number {
  let y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  if (m <= 2) y -= 1;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

export function fromDays(days: number): string {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${y}-${pad2(m)}-${pad2(d)}`;
}

/** Move Saturday/Sunday forward to Monday. */
export function weekday(days: number): number {
  const dow = (((days + 4) % 7) + 7) % 7; // 0 = Sunday (1970-01-01 was a Thursday)
  if (dow === 6) return days + 2;
  if (dow === 0) return days + 1;
  return days;
}

export function randomDate(rng: Rng, from: string, to: string): string {
  const a = toDays(from);
  const b = toDays(to);
  return fromDays(Math.min(weekday(rng.int(a, b)), b));
}

/** A random business date with more mass near `to` (power > 1 skews towards recent dates). */
export function recentSkewedDate(rng: Rng, from: string, to: string, power: number): string {
  const a = toDays(from);
  const b = toDays(to);
  const u = 1 - Math.pow(rng.next(), power);
  return fromDays(Math.min(weekday(a + Math.floor((1 - u) * (b - a))), b));
}

export function addDays(date: string, n: number): string {
  return fromDays(toDays(date) + n);
}

export function utc(date: string): string {
  return `${date}T00:00:00Z`;
}
