import { badParameter } from '../domain/errors.js';

/** Checks that a YYYY-MM-DD string names a real calendar day; returns its UTC midnight in ms. */
export function parseCalendarDate(value: string, param: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const ms = Date.UTC(y, mo - 1, d);
    const back = new Date(ms);
    if (back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d) return ms;
  }
  throw badParameter(`${param} must be a real date in the form YYYY-MM-DD`);
}
