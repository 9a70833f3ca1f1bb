/**
 * US equity trading calendar (NYSE / NASDAQ), computed by rule for any year,
 * plus the America/New_York clock arithmetic the rest of the domain builds on.
 *
 * Dates are 'YYYY-MM-DD' strings at the API; internally a date is a "day number"
 * (days since 1970-01-01), which makes weekday and range arithmetic plain integer maths.
 * Instants are Unix milliseconds.
 *
 * Time-zone offsets come from Intl (so historical US DST rules are right), but Intl
 * is slow, so it is only consulted to find each year's DST transitions once; after
 * that an offset lookup is a range check on a cached span.
 */

export type Zone = 'America/New_York' | 'UTC';

const NY: Zone = 'America/New_York';
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

// ---------------------------------------------------------------------------
// Civil dates <-> day numbers (H. Hinnant's algorithms; no Date allocation)

/** Day number (days since 1970-01-01) of a proleptic Gregorian date; month is 1-12. */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** [year, month (1-12), day] of a day number. */
export function civilFromDays(dayNumber: number): [number, number, number] {
  const z = dayNumber + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOfDay(dayNumber: number): number {
  return (((dayNumber + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Day number of a 'YYYY-MM-DD' string, or null when the string is not a real calendar date. */
export function parseDate(date: string): number | null {
  const m = DATE_RE.exec(date);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  const day = daysFromCivil(y, mo, d);
  const [, mo2] = civilFromDays(day);
  return mo2 === mo ? day : null; // rejects 2023-02-30 and friends
}

/** Day number of a 'YYYY-MM-DD' string; throws RangeError on a malformed date. */
export function dayOfDate(date: string): number {
  const day = parseDate(date);
  if (day === null) throw new RangeError(`invalid date: ${date}`);
  return day;
}

/** 'YYYY-MM-DD' of a day number. */
export function dateOfDay(dayNumber: number): string {
  const [y, m, d] = civilFromDays(dayNumber);
  return `${String(y).padStart(4, '0')}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
}

// ---------------------------------------------------------------------------
// Zone offsets

interface OffsetSpan {
  start: number; // inclusive, ms
  end: number; // exclusive, ms
  offsetMs: number; // local wall time = utc + offsetMs
}

const nyParts = new Intl.DateTimeFormat('en-US', {
  timeZone: NY,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

function intlNyOffsetMs(ms: number): number {
  let y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  for (const p of nyParts.formatToParts(ms)) {
    switch (p.type) {
      case 'year': y = Number(p.value); break;
      case 'month': mo = Number(p.value); break;
      case 'day': d = Number(p.value); break;
      case 'hour': h = Number(p.value); break;
      case 'minute': mi = Number(p.value); break;
      case 'second': s = Number(p.value); break;
      default: break;
    }
  }
  const wall = daysFromCivil(y, mo, d) * DAY_MS + ((h * 60 + mi) * 60 + s) * 1000;
  return wall - (ms - (((ms % 1000) + 1000) % 1000));
}

const spansByYear = new Map<number, OffsetSpan[]>();

/**
 * The constant-offset spans of one UTC year. Probes weekly and bisects (to the second)
 * wherever the offset changed; New York never changes offset twice within a week.
 */
function nySpansForYear(year: number): OffsetSpan[] {
  const cached = spansByYear.get(year);
  if (cached) return cached;
  const start = daysFromCivil(year, 1, 1) * DAY_MS;
  const end = daysFromCivil(year + 1, 1, 1) * DAY_MS;
  const spans: OffsetSpan[] = [];
  let spanStart = start;
  let offset = intlNyOffsetMs(start);
  let known = start; // an instant known to have `offset`
  for (;;) {
    const probe = Math.min(known + 7 * DAY_MS, end - 1000);
    const probeOffset = intlNyOffsetMs(probe);
    if (probeOffset !== offset) {
      let lo = Math.floor(known / 1000);
      let hi = Math.floor(probe / 1000);
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (intlNyOffsetMs(mid * 1000) === offset) lo = mid;
        else hi = mid;
      }
      spans.push({ start: spanStart, end: hi * 1000, offsetMs: offset });
      spanStart = hi * 1000;
      offset = probeOffset;
    }
    if (probe >= end - 1000) break;
    known = probe;
  }
  spans.push({ start: spanStart, end, offsetMs: offset });
  spansByYear.set(year, spans);
  return spans;
}

let lastSpan: OffsetSpan = { start: 0, end: 0, offsetMs: 0 };

/** Offset of `zone` at instant `ms`, in ms (local = utc + offset). */
export function zoneOffsetMs(ms: number, zone: Zone): number {
  if (zone === 'UTC') return 0;
  const hit = lastSpan;
  if (ms >= hit.start && ms < hit.end) return hit.offsetMs;
  const spans = nySpansForYear(civilFromDays(Math.floor(ms / DAY_MS))[0]);
  for (const span of spans) {
    if (ms < span.end) {
      lastSpan = span;
      return span.offsetMs;
    }
  }
  return spans[spans.length - 1]!.offsetMs; // unreachable: the spans tile the year
}

/** Day number of the local calendar date of instant `ms` in `zone`. */
export function localDayOf(ms: number, zone: Zone): number {
  return Math.floor((ms + zoneOffsetMs(ms, zone)) / DAY_MS);
}

/**
 * Instant of a local wall-clock time (`wallMs` = day number × DAY + time of day) in `zone`.
 * A time skipped by spring-forward resolves to the later offset (02:30 → 03:30 EDT);
 * a repeated time at fall-back resolves to the first occurrence (EDT).
 */
export function instantOfWallTime(wallMs: number, zone: Zone): number {
  if (zone === 'UTC') return wallMs;
  const guessOffset = zoneOffsetMs(wallMs, zone);
  const first = wallMs - guessOffset;
  const actual = zoneOffsetMs(first, zone);
  if (actual === guessOffset) return first;
  const second = wallMs - actual;
  return zoneOffsetMs(second, zone) === actual ? second : first;
}

/** Instant of 00:00 local time on day `dayNumber` in `zone`. */
export function localDayStart(dayNumber: number, zone: Zone): number {
  return instantOfWallTime(dayNumber * DAY_MS, zone);
}

// ---------------------------------------------------------------------------
// New York clock helpers (public API)

/** The America/New_York calendar date of an instant. */
export function nyDateOf(ms: number): string {
  return dateOfDay(localDayOf(ms, NY));
}

/** Instant of 00:00 ET on `date`. */
export function nyMidnight(date: string): number {
  return localDayStart(dayOfDate(date), NY);
}

const HHMM_RE = /^(\d{2}):(\d{2})$/;

/** Instant of wall time 'HH:MM' ET on `date`. */
export function nyTime(date: string, hhmm: string): number {
  const m = HHMM_RE.exec(hhmm);
  if (!m || Number(m[1]) > 24 || Number(m[2]) > 59) throw new RangeError(`invalid time: ${hhmm}`);
  return nyTimeOnDay(dayOfDate(date), Number(m[1]) * 60 + Number(m[2]));
}

function nyTimeOnDay(dayNumber: number, minuteOfDay: number): number {
  return instantOfWallTime(dayNumber * DAY_MS + minuteOfDay * MINUTE_MS, NY);
}

/** The ET UTC offset at `ms` as '±HH:MM', e.g. '-05:00'. */
export function nyOffsetString(ms: number): string {
  const minutes = Math.round(zoneOffsetMs(ms, NY) / MINUTE_MS);
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${minutes < 0 ? '-' : '+'}${hh}:${mm}`;
}

/** RFC 3339 in ET with its offset and whole seconds, e.g. '2020-11-10T17:37:37-05:00'. */
export function nyRfc3339(ms: number): string {
  const wall = Math.floor((ms + zoneOffsetMs(ms, NY)) / 1000) * 1000;
  return new Date(wall).toISOString().slice(0, 19) + nyOffsetString(ms);
}

// ---------------------------------------------------------------------------
// Holidays and early closes

export type HolidayStatus = 'closed' | 'early-close';

export interface CalendarHoliday {
  date: string;
  name: string;
  status: HolidayStatus;
}

interface DayEntry {
  day: number;
  name: string;
  status: HolidayStatus;
}

/**
 * Unscheduled full-day closures. These are events, not rules, so no rule can produce
 * them; without them the calendar would call these days sessions and e.g. "previous
 * close" would point at a day with no trades.
 */
const UNSCHEDULED_CLOSURES: ReadonlyArray<readonly [string, string]> = [
  ['1985-09-27', 'Hurricane Gloria'],
  ['1994-04-27', 'National Day of Mourning for President Richard Nixon'],
  ['2001-09-11', 'September 11 Attacks'],
  ['2001-09-12', 'September 11 Attacks'],
  ['2001-09-13', 'September 11 Attacks'],
  ['2001-09-14', 'September 11 Attacks'],
  ['2004-06-11', 'National Day of Mourning for President Ronald Reagan'],
  ['2007-01-02', 'National Day of Mourning for President Gerald Ford'],
  ['2012-10-29', 'Hurricane Sandy'],
  ['2012-10-30', 'Hurricane Sandy'],
  ['2018-12-05', 'National Day of Mourning for President George H.W. Bush'],
  ['2025-01-09', 'National Day of Mourning for President Jimmy Carter'],
];

const SUN = 0, MON = 1, THU = 4, FRI = 5, SAT = 6;

function nthWeekday(year: number, month: number, weekday: number, n: number): number {
  const first = daysFromCivil(year, month, 1);
  return first + ((weekday - weekdayOfDay(first) + 7) % 7) + (n - 1) * 7;
}

function lastWeekday(year: number, month: number, weekday: number): number {
  const last = month === 12 ? daysFromCivil(year, 12, 31) : daysFromCivil(year, month + 1, 1) - 1;
  return last - ((weekdayOfDay(last) - weekday + 7) % 7);
}

/** Easter Sunday (anonymous Gregorian computus). */
function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return daysFromCivil(year, month, day);
}

/** NYSE Rule 7.2 observance: a Saturday holiday is taken on Friday, a Sunday one on Monday. */
function observed(day: number): number {
  const wd = weekdayOfDay(day);
  return wd === SAT ? day - 1 : wd === SUN ? day + 1 : day;
}

/**
 * Rules (modern NYSE practice, applied to every year):
 * - New Year's Day: Jan 1; on Sunday observed Monday Jan 2; on Saturday NOT observed
 *   (NYSE keeps Friday Dec 31 open because it ends the accounting year).
 * - Martin Luther King, Jr. Day: 3rd Monday of January, from 1998.
 * - Washington's Birthday: 3rd Monday of February.
 * - Good Friday: two days before Easter Sunday.
 * - Memorial Day: last Monday of May.
 * - Juneteenth: June 19 from 2022, Saturday → Friday, Sunday → Monday.
 * - Independence Day: July 4, Saturday → Friday, Sunday → Monday.
 * - Labor Day: 1st Monday of September.
 * - Thanksgiving: 4th Thursday of November.
 * - Christmas: December 25, Saturday → Friday, Sunday → Monday.
 * Early closes (regular session ends 13:00 ET, after-hours 17:00 ET), named after the
 * holiday they accompany, as upstream does:
 * - Independence Day: July 3 when it falls Monday-Thursday (July 4 on Tuesday-Friday).
 *   When July 4 is a Saturday, Friday July 3 is the observed full holiday instead; when
 *   July 4 is a Monday, July 3 is a Sunday.
 * - Thanksgiving: the Friday after Thanksgiving.
 * - Christmas: December 24 when it falls Monday-Thursday (on a Friday it is the observed
 *   Christmas holiday).
 * Not modelled: pre-1998 rules (e.g. Washington's Birthday on Feb 22 before 1971) and
 * one-off early closes; unscheduled full closures come from UNSCHEDULED_CLOSURES.
 */
function computeYear(year: number): DayEntry[] {
  const closed: DayEntry[] = [];
  const add = (day: number, name: string): void => {
    closed.push({ day, name, status: 'closed' });
  };

  const newYear = daysFromCivil(year, 1, 1);
  if (weekdayOfDay(newYear) !== SAT) add(observed(newYear), "New Year's Day");
  if (year >= 1998) add(nthWeekday(year, 1, MON, 3), 'Martin Luther King, Jr. Day');
  add(nthWeekday(year, 2, MON, 3), "Washington's Birthday");
  add(easterSunday(year) - 2, 'Good Friday');
  add(lastWeekday(year, 5, MON), 'Memorial Day');
  if (year >= 2022) add(observed(daysFromCivil(year, 6, 19)), 'Juneteenth');
  add(observed(daysFromCivil(year, 7, 4)), 'Independence Day');
  add(nthWeekday(year, 9, MON, 1), 'Labor Day');
  const thanksgiving = nthWeekday(year, 11, THU, 4);
  add(thanksgiving, 'Thanksgiving');
  add(observed(daysFromCivil(year, 12, 25)), 'Christmas');
  for (const [date, name] of UNSCHEDULED_CLOSURES) {
    if (date.startsWith(`${year}-`)) add(dayOfDate(date), name);
  }

  const isClosed = (day: number): boolean => closed.some((e) => e.day === day);
  const entries = [...closed];
  const early = (day: number, name: string): void => {
    const wd = weekdayOfDay(day);
    if (wd >= MON && wd <= THU && !isClosed(day)) entries.push({ day, name, status: 'early-close' });
  };
  early(daysFromCivil(year, 7, 3), 'Independence Day');
  // The Friday after Thanksgiving is always a Friday, so test it separately from Mon-Thu.
  if (!isClosed(thanksgiving + 1)) entries.push({ day: thanksgiving + 1, name: 'Thanksgiving', status: 'early-close' });
  early(daysFromCivil(year, 12, 24), 'Christmas');

  return entries.sort((a, b) => a.day - b.day);
}

const yearCache = new Map<number, { entries: DayEntry[]; byDay: Map<number, DayEntry> }>();

function yearCalendar(year: number): { entries: DayEntry[]; byDay: Map<number, DayEntry> } {
  let cal = yearCache.get(year);
  if (!cal) {
    const entries = computeYear(year);
    cal = { entries, byDay: new Map(entries.map((e) => [e.day, e])) };
    yearCache.set(year, cal);
  }
  return cal;
}

function entryOnDay(dayNumber: number): DayEntry | undefined {
  return yearCalendar(civilFromDays(dayNumber)[0]).byDay.get(dayNumber);
}

/** Full closures and early closes of `year`, ascending by date. */
export function holidaysInYear(year: number): CalendarHoliday[] {
  return yearCalendar(year).entries.map((e) => ({ date: dateOfDay(e.day), name: e.name, status: e.status }));
}

// ---------------------------------------------------------------------------
// Trading days and sessions

/** Whether day number `dayNumber` has a session (weekday and not a full holiday). */
export function isTradingDayNumber(dayNumber: number): boolean {
  const wd = weekdayOfDay(dayNumber);
  if (wd === SUN || wd === SAT) return false;
  return entryOnDay(dayNumber)?.status !== 'closed';
}

export function isTradingDay(date: string): boolean {
  return isTradingDayNumber(dayOfDate(date));
}

export interface Session {
  date: string;
  /** 04:00 ET, start of pre-market */
  preOpen: number;
  /** 09:30 ET */
  open: number;
  /** 16:00 ET, or 13:00 ET on an early-close day */
  close: number;
  /** 20:00 ET, or 17:00 ET on an early-close day */
  postClose: number;
  earlyClose: boolean;
}

const sessionCache = new Map<number, Session | null>();

/** The session of day number `dayNumber`, or null when the market is closed all day. */
export function sessionOnDay(dayNumber: number): Session | null {
  const cached = sessionCache.get(dayNumber);
  if (cached !== undefined) return cached;
  let session: Session | null = null;
  if (isTradingDayNumber(dayNumber)) {
    const earlyClose = entryOnDay(dayNumber)?.status === 'early-close';
    // frozen: cached objects are shared between callers
    session = Object.freeze({
      date: dateOfDay(dayNumber),
      preOpen: nyTimeOnDay(dayNumber, 4 * 60),
      open: nyTimeOnDay(dayNumber, 9 * 60 + 30),
      close: nyTimeOnDay(dayNumber, (earlyClose ? 13 : 16) * 60),
      postClose: nyTimeOnDay(dayNumber, (earlyClose ? 17 : 20) * 60),
      earlyClose,
    });
  }
  if (sessionCache.size > 20_000) sessionCache.clear(); // bound memory in a long-lived server
  sessionCache.set(dayNumber, session);
  return session;
}

export function sessionOn(date: string): Session | null {
  return sessionOnDay(dayOfDate(date));
}

/** The first trading day strictly after `date`. */
export function nextTradingDay(date: string): string {
  let day = dayOfDate(date) + 1;
  while (!isTradingDayNumber(day)) day++;
  return dateOfDay(day);
}

/** The last trading day strictly before `date`. */
export function previousTradingDay(date: string): string {
  let day = dayOfDate(date) - 1;
  while (!isTradingDayNumber(day)) day--;
  return dateOfDay(day);
}

/**
 * The last session whose regular close (13:00 ET on an early-close day) is at or before `nowMs`:
 * during a session, and before its open, that is the previous session.
 */
export function lastCompletedSession(nowMs: number): string {
  return lastSessionEndedBy(nowMs, 'close');
}

/**
 * The last session whose extended hours (to 20:00 ET, 17:00 ET on an early-close day) ended at or
 * before `nowMs`: the last session whose every pre-market, regular and after-hours minute is past.
 */
export function lastExtendedSession(nowMs: number): string {
  return lastSessionEndedBy(nowMs, 'postClose');
}

function lastSessionEndedBy(nowMs: number, end: 'close' | 'postClose'): string {
  for (let day = localDayOf(nowMs, NY); ; day--) {
    const session = sessionOnDay(day);
    if (session && session[end] <= nowMs) return session.date;
  }
}

/** Trading days from `from` to `to`, both inclusive, ascending; empty when to < from. */
export function tradingDaysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  const last = dayOfDate(to);
  for (let day = dayOfDate(from); day <= last; day++) {
    if (isTradingDayNumber(day)) out.push(dateOfDay(day));
  }
  return out;
}

// ---------------------------------------------------------------------------
// Market status (/v1/marketstatus/now)

export type MarketState = 'open' | 'closed' | 'extended-hours';
export type OpenClosed = 'open' | 'closed';

export interface MarketStatus {
  market: MarketState;
  serverTime: string;
  earlyHours: boolean;
  afterHours: boolean;
  exchanges: { nyse: MarketState; nasdaq: MarketState; otc: MarketState };
  currencies: { fx: OpenClosed; crypto: OpenClosed };
  indicesGroups: {
    s_and_p: OpenClosed;
    societe_generale: OpenClosed;
    msci: OpenClosed;
    ftse_russell: OpenClosed;
    mstar: OpenClosed;
    mstarc: OpenClosed;
    cccy: OpenClosed;
    cgi: OpenClosed;
    nasdaq: OpenClosed;
    dow_jones: OpenClosed;
  };
}

/**
 * Market status at `ms`. NYSE, NASDAQ and OTC share one state. Every indices group is
 * 'open' during the regular session only: they publish values while the constituent
 * stocks trade. (cccy, the crypto indices, also follows this rule; upstream does not
 * document otherwise, and one rule is easier to predict.)
 */
export function marketStatusAt(ms: number): MarketStatus {
  const session = sessionOnDay(localDayOf(ms, NY));
  const earlyHours = session !== null && ms >= session.preOpen && ms < session.open;
  const regular = session !== null && ms >= session.open && ms < session.close;
  const afterHours = session !== null && ms >= session.close && ms < session.postClose;
  const market: MarketState = regular ? 'open' : earlyHours || afterHours ? 'extended-hours' : 'closed';
  const idx: OpenClosed = regular ? 'open' : 'closed';
  return {
    market,
    serverTime: nyRfc3339(ms),
    earlyHours,
    afterHours,
    exchanges: { nyse: market, nasdaq: market, otc: market },
    currencies: { fx: isForexOpen(ms) ? 'open' : 'closed', crypto: isCryptoOpen() ? 'open' : 'closed' },
    indicesGroups: {
      s_and_p: idx,
      societe_generale: idx,
      msci: idx,
      ftse_russell: idx,
      mstar: idx,
      mstarc: idx,
      cccy: idx,
      cgi: idx,
      nasdaq: idx,
      dow_jones: idx,
    },
  };
}

/**
 * Spot FX trades from Sunday 17:00 ET to Friday 17:00 ET. US holidays are ignored:
 * the interbank market does not close for them.
 */
export function isForexOpen(ms: number): boolean {
  const wall = ms + zoneOffsetMs(ms, NY);
  const day = Math.floor(wall / DAY_MS);
  const minuteOfDay = Math.floor((wall - day * DAY_MS) / MINUTE_MS);
  const wd = weekdayOfDay(day);
  if (wd === SAT) return false;
  if (wd === SUN) return minuteOfDay >= 17 * 60;
  if (wd === FRI) return minuteOfDay < 17 * 60;
  return true;
}

export function isCryptoOpen(): boolean {
  return true;
}

// ---------------------------------------------------------------------------
// Upcoming holidays (/v1/marketstatus/upcoming)

export interface MarketHoliday {
  exchange: 'NYSE' | 'NASDAQ';
  name: string;
  date: string;
  status: HolidayStatus;
  /** UTC ISO with milliseconds, early-close days only */
  open?: string;
  /** UTC ISO with milliseconds, early-close days only */
  close?: string;
}

const HOLIDAY_EXCHANGES = ['NYSE', 'NASDAQ'] as const;

/**
 * Holidays and early closes strictly after today's ET date and at most `days` days
 * ahead, ascending by date; on each date NYSE comes before NASDAQ, as in upstream samples.
 */
export function upcomingHolidays(nowMs: number, days = 365): MarketHoliday[] {
  const today = localDayOf(nowMs, NY);
  const last = today + days;
  const out: MarketHoliday[] = [];
  const firstYear = civilFromDays(today)[0];
  const lastYear = civilFromDays(last)[0];
  for (let year = firstYear; year <= lastYear; year++) {
    for (const e of yearCalendar(year).entries) {
      if (e.day <= today || e.day > last) continue;
      const date = dateOfDay(e.day);
      for (const exchange of HOLIDAY_EXCHANGES) {
        const holiday: MarketHoliday = { exchange, name: e.name, date, status: e.status };
        if (e.status === 'early-close') {
          const session = sessionOnDay(e.day)!;
          holiday.open = new Date(session.open).toISOString();
          holiday.close = new Date(session.close).toISOString();
        }
        out.push(holiday);
      }
    }
  }
  return out;
}
