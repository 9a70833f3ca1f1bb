/**
 * Parsing of the time inputs of market-data requests. Every failure is a 400 that
 * names the parameter.
 *
 * - Aggregates `from` / `to`: `YYYY-MM-DD` (a calendar day in the market's zone) or Unix ms.
 * - v3 ticks `timestamp[.gt|.gte|.lt|.lte]`: Unix ns, RFC 3339 (up to 9 fractional digits, `Z`
 *   or an offset), or `YYYY-MM-DD` meaning the whole day in the market's zone.
 * - Indicator-style `timestamp*`: `YYYY-MM-DD` or an integer read by its size (ns, µs, ms, s).
 *
 * Each input denotes an interval [start, end): a day is 24 (23, 25) hours long, an instant is
 * one unit long. Operators then read naturally: `gte` = start, `gt` = end, `lt` = start,
 * `lte` = end (exclusive), and equality is the whole interval. So `timestamp.lte=2024-03-08`
 * includes all of March 8 and `timestamp.gt=2024-03-08` starts on March 9.
 */
import { localDayStart, parseDate, type Zone } from '../domain/calendar.js';
import { MAX_STORED_NS, msToStoredNs, NS_PER_MS } from '../domain/nanoseconds.js';
import { badParameter } from '../domain/errors.js';

const MS_INTEGER = /^\d{1,16}$/;
const NS_INTEGER = /^\d{1,19}$/;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
const MAX_MS = 8_640_000_000_000_000; // the largest instant a Date can hold

function timeParseError(param: string): Error {
  // upstream's wording, which already names the parameter
  return badParameter(`Could not parse the time parameter: '${param}'. Use YYYY-MM-DD or Unix MS Timestamps`);
}

/**
 * An aggregates bound in ms. A date `from` is 00:00 of that day in `zone`; a date `to` is the
 * last millisecond of its day, so that the whole day is included (both ends are inclusive).
 */
export function parseAggregateBound(value: string, param: 'from' | 'to', zone: Zone): number {
  const day = parseDate(value);
  if (day !== null) return param === 'from' ? localDayStart(day, zone) : localDayStart(day + 1, zone) - 1;
  if (MS_INTEGER.test(value)) {
    const ms = Number(value);
    if (ms <= MAX_MS) return ms;
  }
  throw timeParseError(param);
}

/** [start, end) in Unix ns of one tick-time input. */
export function parseTickTime(value: string, param: string, zone: Zone): { start: bigint; end: bigint } {
  const day = parseDate(value);
  if (day !== null) {
    return { start: msToStoredNs(localDayStart(day, zone)), end: msToStoredNs(localDayStart(day + 1, zone)) };
  }
  if (NS_INTEGER.test(value)) {
    const ns = BigInt(value);
    if (ns <= MAX_STORED_NS) return { start: ns, end: ns + 1n };
  }
  const ns = parseRfc3339Ns(value);
  if (ns !== null) return { start: ns, end: ns < MAX_STORED_NS ? ns + 1n : ns };
  throw badParameter(`${param} must be a Unix timestamp in nanoseconds, an RFC 3339 time or a date in the form YYYY-MM-DD`);
}

/** Unix ns of an RFC 3339 time, or null when the text is not one (or names an impossible time). */
export function parseRfc3339Ns(value: string): bigint | null {
  const m = RFC3339.exec(value);
  if (!m) return null;
  const day = parseDate(`${m[1]}-${m[2]}-${m[3]}`);
  const [h, mi, s] = [Number(m[4]), Number(m[5]), Number(m[6])];
  if (day === null || h > 23 || mi > 59 || s > 59) return null;
  let offsetMin = 0;
  if (!m[8]) {
    const [oh, om] = [Number(m[10]), Number(m[11])];
    if (oh > 23 || om > 59) return null;
    offsetMin = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms = day * 86_400_000 + ((h * 60 + mi - offsetMin) * 60 + s) * 1000;
  const frac = m[7] ? BigInt(m[7].padEnd(9, '0')) : 0n;
  return msToStoredNs(ms, frac);
}

/**
 * Intersects every time filter of a ticks request into one [gte, lt) range in ns; an absent
 * side is unbounded. `empty` is true when the filters exclude everything. The filters are named
 * after `field` (`timestamp` on the v3 lists, `sip_timestamp` on /stocks/dev/trades), and so are
 * the errors.
 */
export function tickBounds(q: object, zone: Zone, field = 'timestamp'): { gte?: bigint; lt?: bigint; empty: boolean } {
  return intersectBounds(q as Record<string, unknown>, field, (v, param) => parseTickTime(v, param, zone));
}

/**
 * Intersects the filters `name` (equality) and `name.gt/.gte/.lt/.lte` of a query into one
 * [gte, lt) range, each value read by `parse` as the interval [start, end) it denotes; an absent
 * side is unbounded, and `empty` is true when the filters exclude everything.
 */
export function intersectBounds(
  q: Record<string, unknown>,
  name: string,
  parse: (value: string, param: string) => { start: bigint; end: bigint },
): { gte?: bigint; lt?: bigint; empty: boolean } {
  let gte: bigint | undefined;
  let lt: bigint | undefined;
  const lower = (v: bigint) => {
    if (gte === undefined || v > gte) gte = v;
  };
  const upper = (v: bigint) => {
    if (lt === undefined || v < lt) lt = v;
  };
  const read = (param: string) => {
    const v = q[param];
    return typeof v === 'string' ? parse(v, param) : undefined;
  };
  const eq = read(name);
  if (eq) {
    lower(eq.start);
    upper(eq.end);
  }
  const gtv = read(`${name}.gt`);
  if (gtv) lower(gtv.end);
  const gtev = read(`${name}.gte`);
  if (gtev) lower(gtev.start);
  const ltv = read(`${name}.lt`);
  if (ltv) upper(ltv.start);
  const ltev = read(`${name}.lte`);
  if (ltev) upper(ltev.end);
  return { gte, lt, empty: gte !== undefined && lt !== undefined && gte >= lt };
}

/**
 * Unix ms of an integer timestamp read by its size, as indicator clients send them:
 * ≥ 1e17 ns, ≥ 1e14 µs, ≥ 1e11 ms, otherwise seconds. Truncates toward the past.
 */
export function msOfSizedInteger(n: bigint): number {
  if (n >= 100_000_000_000_000_000n) return Number(n / NS_PER_MS);
  if (n >= 100_000_000_000_000n) return Number(n / 1000n);
  if (n >= 100_000_000_000n) return Number(n);
  return Number(n * 1000n);
}

/**
 * [startMs, endMs) of an indicator-style time input: a date is its whole day in `zone`; an
 * integer is read by size (see msOfSizedInteger) and denotes one millisecond.
 */
export function parseFlexibleTimeMs(value: string, param: string, zone: Zone): { startMs: number; endMs: number } {
  const day = parseDate(value);
  if (day !== null) return { startMs: localDayStart(day, zone), endMs: localDayStart(day + 1, zone) };
  if (NS_INTEGER.test(value)) {
    const ms = msOfSizedInteger(BigInt(value));
    if (ms <= MAX_MS) return { startMs: ms, endMs: ms + 1 };
  }
  throw badParameter(`${param} must be a date in the form YYYY-MM-DD or a Unix timestamp`);
}

/** A `YYYY-MM-DD` path or query value as a day number; 400 naming `param` when impossible. */
export function parseDayParam(value: string, param: string): number {
  const day = parseDate(value);
  if (day === null) throw badParameter(`${param} must be a real date in the form YYYY-MM-DD`);
  return day;
}
