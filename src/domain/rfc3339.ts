// Dates and RFC 3339 timestamps as the reference bodies use them (news published_utc, social
// created_utc): parsed strictly, so an impossible date is an error rather than a rolled-over day.

export interface Instant {
  /** Unix milliseconds (fractions below 1 ms are dropped). */
  ms: number;
  /** The value was a bare date (YYYY-MM-DD): ms is that day's 00:00:00Z. */
  dateOnly: boolean;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

export const DAY_MS = 86_400_000;

function utcMs(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number | undefined {
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return undefined;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return undefined;
  return ms;
}

/** A bare date or an RFC 3339 date-time with `Z` or a numeric offset; undefined when invalid. */
export function parseInstant(value: string): Instant | undefined {
  let m = DATE.exec(value);
  if (m) {
    const ms = utcMs(Number(m[1]), Number(m[2]), Number(m[3]));
    return ms === undefined ? undefined : { ms, dateOnly: true };
  }
  m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const base = utcMs(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  if (base === undefined) return undefined;
  const fraction = m[7] ? Number(m[7].padEnd(3, '0').slice(0, 3)) : 0;
  let offset = 0;
  if (!m[8]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offset = (oh * 60 + om) * 60_000 * (m[9] === '-' ? -1 : 1);
  }
  return { ms: base + fraction - offset, dateOnly: false };
}

/** UTC with `Z`, second precision like upstream, milliseconds only when there are some. */
export function formatInstant(ms: number): string {
  const iso = new Date(ms).toISOString();
  return ms % 1000 === 0 ? `${iso.slice(0, 19)}Z` : iso;
}
