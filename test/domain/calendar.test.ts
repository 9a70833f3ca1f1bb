import { describe, expect, it } from 'vitest';
import {
  dateOfDay,
  dayOfDate,
  holidaysInYear,
  isCryptoOpen,
  isForexOpen,
  isTradingDay,
  lastCompletedSession,
  lastExtendedSession,
  marketStatusAt,
  nextTradingDay,
  nyDateOf,
  nyMidnight,
  nyOffsetString,
  nyRfc3339,
  nyTime,
  parseDate,
  previousTradingDay,
  sessionOn,
  tradingDaysBetween,
  upcomingHolidays,
  weekdayOfDay,
} from '../../src/domain/calendar.js';

const HOUR = 3_600_000;
const utc = (iso: string): number => Date.parse(iso);

function closedDates(year: number): string[] {
  return holidaysInYear(year)
    .filter((h) => h.status === 'closed')
    .map((h) => h.date);
}
function earlyDates(year: number): string[] {
  return holidaysInYear(year)
    .filter((h) => h.status === 'early-close')
    .map((h) => h.date);
}

describe('dates', () => {
  it('round-trips dates and rejects impossible ones', () => {
    expect(dateOfDay(dayOfDate('2024-02-29'))).toBe('2024-02-29');
    expect(dayOfDate('1970-01-01')).toBe(0);
    expect(dateOfDay(-1)).toBe('1969-12-31');
    expect(parseDate('2023-02-29')).toBeNull();
    expect(parseDate('2024-13-01')).toBeNull();
    expect(parseDate('2024-1-01')).toBeNull();
    expect(() => dayOfDate('nope')).toThrow(RangeError);
    expect(weekdayOfDay(dayOfDate('2024-03-10'))).toBe(0); // Sunday
    expect(weekdayOfDay(dayOfDate('2024-03-16'))).toBe(6); // Saturday
  });
});

describe('holidaysInYear', () => {
  it('2021: July 4 on Sunday → Monday Jul 5; Christmas on Saturday → Friday Dec 24', () => {
    expect(holidaysInYear(2021)).toEqual([
      { date: '2021-01-01', name: "New Year's Day", status: 'closed' },
      { date: '2021-01-18', name: 'Martin Luther King, Jr. Day', status: 'closed' },
      { date: '2021-02-15', name: "Washington's Birthday", status: 'closed' },
      { date: '2021-04-02', name: 'Good Friday', status: 'closed' },
      { date: '2021-05-31', name: 'Memorial Day', status: 'closed' },
      { date: '2021-07-05', name: 'Independence Day', status: 'closed' },
      { date: '2021-09-06', name: 'Labor Day', status: 'closed' },
      { date: '2021-11-25', name: 'Thanksgiving', status: 'closed' },
      { date: '2021-11-26', name: 'Thanksgiving', status: 'early-close' },
      { date: '2021-12-24', name: 'Christmas', status: 'closed' },
    ]);
    // New Year's Day 2022 is a Saturday: NYSE does not close on Friday Dec 31.
    expect(isTradingDay('2021-12-31')).toBe(true);
  });

  it('2022: no New Year holiday, Juneteenth (Sunday) observed Monday Jun 20, Christmas Monday Dec 26', () => {
    expect(closedDates(2022)).toEqual([
      '2022-01-17', '2022-02-21', '2022-04-15', '2022-05-30', '2022-06-20',
      '2022-07-04', '2022-09-05', '2022-11-24', '2022-12-26',
    ]);
    expect(earlyDates(2022)).toEqual(['2022-11-25']); // Jul 3 and Dec 24 fall on weekends
    expect(holidaysInYear(2022).find((h) => h.date === '2022-06-20')?.name).toBe('Juneteenth');
  });

  it('2023: New Year observed Jan 2, Jul 3 (Monday) early close', () => {
    expect(closedDates(2023)).toEqual([
      '2023-01-02', '2023-01-16', '2023-02-20', '2023-04-07', '2023-05-29', '2023-06-19',
      '2023-07-04', '2023-09-04', '2023-11-23', '2023-12-25',
    ]);
    expect(earlyDates(2023)).toEqual(['2023-07-03', '2023-11-24']);
  });

  it('2024: three early closes', () => {
    expect(holidaysInYear(2024).filter((h) => h.status === 'early-close')).toEqual([
      { date: '2024-07-03', name: 'Independence Day', status: 'early-close' },
      { date: '2024-11-29', name: 'Thanksgiving', status: 'early-close' },
      { date: '2024-12-24', name: 'Christmas', status: 'early-close' },
    ]);
  });

  it('2026: July 4 on Saturday → Friday Jul 3 closed, no early close that week', () => {
    expect(closedDates(2026)).toEqual([
      '2026-01-01', '2026-01-19', '2026-02-16', '2026-04-03', '2026-05-25', '2026-06-19',
      '2026-07-03', '2026-09-07', '2026-11-26', '2026-12-25',
    ]);
    expect(earlyDates(2026)).toEqual(['2026-11-27', '2026-12-24']);
  });

  it('2027: Juneteenth (Saturday) → Jun 18, Christmas (Saturday) → Dec 24 closed', () => {
    expect(closedDates(2027)).toEqual([
      '2027-01-01', '2027-01-18', '2027-02-15', '2027-03-26', '2027-05-31', '2027-06-18',
      '2027-07-05', '2027-09-06', '2027-11-25', '2027-12-24',
    ]);
    expect(earlyDates(2027)).toEqual(['2027-11-26']);
    // Jan 1 2028 is a Saturday: Dec 31 2027 stays open.
    expect(isTradingDay('2027-12-31')).toBe(true);
  });

  it('Good Friday follows Easter for any year', () => {
    const goodFriday = (y: number) => holidaysInYear(y).find((h) => h.name === 'Good Friday')?.date;
    expect(goodFriday(2000)).toBe('2000-04-21');
    expect(goodFriday(2019)).toBe('2019-04-19');
    expect(goodFriday(2025)).toBe('2025-04-18');
    expect(goodFriday(2038)).toBe('2038-04-23'); // Easter on its latest possible date, Apr 25
    expect(goodFriday(2285)).toBe('2285-03-20'); // Easter on its earliest possible date, Mar 22
  });

  it('MLK Day only from 1998, Juneteenth only from 2022', () => {
    expect(holidaysInYear(1997).some((h) => h.name.startsWith('Martin'))).toBe(false);
    expect(holidaysInYear(1998).find((h) => h.name.startsWith('Martin'))?.date).toBe('1998-01-19');
    expect(holidaysInYear(2021).some((h) => h.name === 'Juneteenth')).toBe(false);
    expect(isTradingDay('2021-06-18')).toBe(true);
  });

  it('includes unscheduled closures such as the Carter day of mourning', () => {
    expect(isTradingDay('2025-01-09')).toBe(false);
    expect(isTradingDay('2012-10-29')).toBe(false);
    expect(holidaysInYear(2025).find((h) => h.date === '2025-01-09')?.status).toBe('closed');
  });

  it('ascends by date for every year', () => {
    for (let y = 1990; y <= 2060; y++) {
      const dates = holidaysInYear(y).map((h) => h.date);
      expect([...dates].sort()).toEqual(dates);
      expect(dates.every((d) => d.startsWith(`${y}-`))).toBe(true);
    }
  });
});

describe('trading days', () => {
  it('weekends and holidays are not trading days; early closes are', () => {
    expect(isTradingDay('2024-03-09')).toBe(false);
    expect(isTradingDay('2024-03-10')).toBe(false);
    expect(isTradingDay('2024-07-04')).toBe(false);
    expect(isTradingDay('2024-07-03')).toBe(true);
    expect(isTradingDay('2024-03-11')).toBe(true);
  });

  it('counts the known number of sessions per year', () => {
    expect(tradingDaysBetween('2023-01-01', '2023-12-31')).toHaveLength(250);
    expect(tradingDaysBetween('2024-01-01', '2024-12-31')).toHaveLength(252);
  });

  it('lists trading days inclusively and is empty for a reversed range', () => {
    expect(tradingDaysBetween('2024-12-20', '2025-01-03')).toEqual([
      '2024-12-20', '2024-12-23', '2024-12-24', '2024-12-26', '2024-12-27',
      '2024-12-30', '2024-12-31', '2025-01-02', '2025-01-03',
    ]);
    expect(tradingDaysBetween('2024-03-11', '2024-03-11')).toEqual(['2024-03-11']);
    expect(tradingDaysBetween('2024-03-12', '2024-03-11')).toEqual([]);
  });

  it('steps to the next and previous trading day over weekends and holidays', () => {
    expect(nextTradingDay('2024-07-03')).toBe('2024-07-05');
    expect(nextTradingDay('2024-11-27')).toBe('2024-11-29');
    expect(nextTradingDay('2024-12-31')).toBe('2025-01-02');
    expect(nextTradingDay('2024-03-08')).toBe('2024-03-11');
    expect(previousTradingDay('2024-01-02')).toBe('2023-12-29');
    expect(previousTradingDay('2025-01-10')).toBe('2025-01-08');
    expect(previousTradingDay('2024-04-01')).toBe('2024-03-28'); // over Good Friday
  });
});

describe('sessions', () => {
  it('is null on weekends and holidays', () => {
    expect(sessionOn('2024-03-10')).toBeNull();
    expect(sessionOn('2024-12-25')).toBeNull();
  });

  it('uses EST before and EDT after the March change', () => {
    // Friday 2024-03-08 is EST (UTC-5), Monday 2024-03-11 is EDT (UTC-4)
    expect(sessionOn('2024-03-08')).toEqual({
      date: '2024-03-08',
      preOpen: utc('2024-03-08T09:00:00Z'),
      open: 1709908200000,
      close: utc('2024-03-08T21:00:00Z'),
      postClose: utc('2024-03-09T01:00:00Z'),
      earlyClose: false,
    });
    expect(sessionOn('2024-03-11')).toEqual({
      date: '2024-03-11',
      preOpen: utc('2024-03-11T08:00:00Z'),
      open: 1710163800000,
      close: utc('2024-03-11T20:00:00Z'),
      postClose: utc('2024-03-12T00:00:00Z'),
      earlyClose: false,
    });
  });

  it('uses EDT before and EST after the November change', () => {
    expect(sessionOn('2024-11-01')?.open).toBe(1730467800000); // 13:30Z
    expect(sessionOn('2024-11-04')?.open).toBe(1730730600000); // 14:30Z
    expect(sessionOn('2024-11-04')?.close).toBe(utc('2024-11-04T21:00:00Z'));
  });

  it('closes at 13:00 ET and ends after-hours at 17:00 ET on early-close days', () => {
    const jul3 = sessionOn('2024-07-03')!;
    expect(jul3.earlyClose).toBe(true);
    expect(jul3.close).toBe(1720026000000); // 17:00Z (EDT)
    expect(jul3.postClose).toBe(utc('2024-07-03T21:00:00Z'));
    expect(sessionOn('2024-11-29')?.close).toBe(1732903200000); // 18:00Z (EST)
    expect(sessionOn('2024-11-29')?.postClose).toBe(utc('2024-11-29T22:00:00Z'));
    expect(sessionOn('2024-12-24')?.close).toBe(1735063200000);
    expect(sessionOn('2024-12-24')?.open).toBe(utc('2024-12-24T14:30:00Z'));
  });
});

describe('New York clock', () => {
  it('finds midnight on DST days (23 h and 25 h days)', () => {
    expect(nyMidnight('2024-03-10')).toBe(1710046800000); // 05:00Z
    expect(nyMidnight('2024-03-11')).toBe(1710129600000); // 04:00Z
    expect(nyMidnight('2024-03-11') - nyMidnight('2024-03-10')).toBe(23 * HOUR);
    expect(nyMidnight('2024-11-03')).toBe(1730606400000); // 04:00Z
    expect(nyMidnight('2024-11-04')).toBe(1730696400000); // 05:00Z
    expect(nyMidnight('2024-11-04') - nyMidnight('2024-11-03')).toBe(25 * HOUR);
  });

  it('has 23 h days only on the 2nd Sunday of March and 25 h days only on the 1st Sunday of November (2007+)', () => {
    for (let day = dayOfDate('2007-01-01'); day < dayOfDate('2040-01-01'); day++) {
      const date = dateOfDay(day);
      const length = nyMidnight(dateOfDay(day + 1)) - nyMidnight(date);
      const [, m, d] = date.split('-').map(Number) as [number, number, number];
      const sunday = weekdayOfDay(day) === 0;
      const expected = sunday && m === 3 && d >= 8 && d <= 14 ? 23 : sunday && m === 11 && d <= 7 ? 25 : 24;
      if (length !== expected * HOUR) expect.fail(`${date}: ${length / HOUR} h, expected ${expected}`);
    }
  });

  it('follows the pre-2007 US rule too (first Sunday of April)', () => {
    expect(nyMidnight('2006-04-03') - nyMidnight('2006-04-02')).toBe(23 * HOUR);
    expect(nyMidnight('2006-10-30') - nyMidnight('2006-10-29')).toBe(25 * HOUR);
  });

  it('resolves wall times, including the skipped and repeated hours', () => {
    expect(nyTime('2024-03-10', '01:00')).toBe(utc('2024-03-10T06:00:00Z'));
    expect(nyTime('2024-03-10', '03:00')).toBe(utc('2024-03-10T07:00:00Z'));
    expect(nyTime('2024-03-10', '02:30')).toBe(utc('2024-03-10T07:30:00Z')); // skipped: read as 03:30 EDT
    expect(nyTime('2024-11-03', '01:30')).toBe(utc('2024-11-03T05:30:00Z')); // repeated: first (EDT)
    expect(nyTime('2024-11-03', '02:00')).toBe(utc('2024-11-03T07:00:00Z'));
    expect(() => nyTime('2024-11-03', '9:30')).toThrow(RangeError);
  });

  it('gives the ET date of an instant', () => {
    expect(nyDateOf(utc('2024-03-11T03:59:59.999Z'))).toBe('2024-03-10');
    expect(nyDateOf(utc('2024-03-11T04:00:00Z'))).toBe('2024-03-11');
    expect(nyDateOf(utc('2024-01-01T04:59:59.999Z'))).toBe('2023-12-31');
    expect(nyDateOf(utc('2024-01-01T05:00:00Z'))).toBe('2024-01-01');
  });

  it('formats offsets and RFC 3339 times', () => {
    expect(nyOffsetString(utc('2024-01-15T12:00:00Z'))).toBe('-05:00');
    expect(nyOffsetString(utc('2024-07-15T12:00:00Z'))).toBe('-04:00');
    expect(nyRfc3339(utc('2020-11-10T22:37:37.999Z'))).toBe('2020-11-10T17:37:37-05:00');
    expect(nyRfc3339(utc('2024-03-10T06:59:59.999Z'))).toBe('2024-03-10T01:59:59-05:00');
    expect(nyRfc3339(utc('2024-03-10T07:00:00Z'))).toBe('2024-03-10T03:00:00-04:00');
    expect(nyRfc3339(utc('2024-11-03T05:30:00Z'))).toBe('2024-11-03T01:30:00-04:00');
    expect(nyRfc3339(utc('2024-11-03T06:30:00Z'))).toBe('2024-11-03T01:30:00-05:00');
  });
});

describe('marketStatusAt', () => {
  const ALL_INDICES = ['s_and_p', 'societe_generale', 'msci', 'ftse_russell', 'mstar', 'mstarc', 'cccy', 'cgi', 'nasdaq', 'dow_jones'];

  it('is open in the regular session, with every indices group open', () => {
    const s = marketStatusAt(1710163800000); // 2024-03-11 09:30 EDT
    expect(s).toEqual({
      market: 'open',
      serverTime: '2024-03-11T09:30:00-04:00',
      earlyHours: false,
      afterHours: false,
      exchanges: { nyse: 'open', nasdaq: 'open', otc: 'open' },
      currencies: { fx: 'open', crypto: 'open' },
      indicesGroups: Object.fromEntries(ALL_INDICES.map((k) => [k, 'open'])),
    });
    expect(Object.keys(s.indicesGroups).sort()).toEqual([...ALL_INDICES].sort());
  });

  it('reports pre-market from 04:00 ET (first EDT Monday)', () => {
    expect(marketStatusAt(utc('2024-03-11T07:59:59Z')).market).toBe('closed'); // 03:59:59 EDT
    const pre = marketStatusAt(utc('2024-03-11T08:00:00Z')); // 04:00 EDT
    expect(pre.market).toBe('extended-hours');
    expect(pre.earlyHours).toBe(true);
    expect(pre.afterHours).toBe(false);
    expect(pre.exchanges).toEqual({ nyse: 'extended-hours', nasdaq: 'extended-hours', otc: 'extended-hours' });
    expect(pre.indicesGroups.s_and_p).toBe('closed');
    expect(marketStatusAt(utc('2024-03-11T13:29:59Z')).earlyHours).toBe(true);
  });

  it('reports after-hours until 20:00 ET (first EST Monday)', () => {
    const post = marketStatusAt(utc('2024-11-05T00:59:00Z')); // 2024-11-04 19:59 EST
    expect(post.market).toBe('extended-hours');
    expect(post.afterHours).toBe(true);
    expect(post.serverTime).toBe('2024-11-04T19:59:00-05:00');
    expect(marketStatusAt(utc('2024-11-05T01:00:00Z')).market).toBe('closed'); // 20:00 EST
    expect(marketStatusAt(utc('2024-11-04T20:59:59Z')).market).toBe('open'); // 15:59:59 EST
    expect(marketStatusAt(utc('2024-11-04T21:00:00Z')).afterHours).toBe(true); // 16:00 EST
  });

  it('switches to after-hours at 13:00 ET on an early-close day and closes at 17:00', () => {
    expect(marketStatusAt(utc('2024-11-29T17:59:00Z')).market).toBe('open'); // 12:59 EST
    const s = marketStatusAt(utc('2024-11-29T18:30:00Z')); // 13:30 EST
    expect(s.market).toBe('extended-hours');
    expect(s.afterHours).toBe(true);
    expect(s.serverTime).toBe('2024-11-29T13:30:00-05:00');
    expect(s.indicesGroups.dow_jones).toBe('closed');
    expect(marketStatusAt(utc('2024-11-29T22:00:00Z')).market).toBe('closed'); // 17:00 EST
  });

  it('is closed on weekends: fx closed on Saturday, crypto open', () => {
    const s = marketStatusAt(utc('2024-06-15T16:00:00Z')); // Saturday noon EDT
    expect(s.market).toBe('closed');
    expect(s.earlyHours).toBe(false);
    expect(s.afterHours).toBe(false);
    expect(s.currencies).toEqual({ fx: 'closed', crypto: 'open' });
  });

  it('is closed all day on a holiday while fx trades', () => {
    const s = marketStatusAt(utc('2024-07-04T15:00:00Z')); // 11:00 EDT
    expect(s.market).toBe('closed');
    expect(s.exchanges.nyse).toBe('closed');
    expect(s.currencies.fx).toBe('open');
    expect(marketStatusAt(utc('2024-07-04T09:00:00Z')).earlyHours).toBe(false);
  });

  it('is closed on the DST-change Sundays and carries the right offset', () => {
    expect(marketStatusAt(utc('2024-03-10T07:00:00Z'))).toMatchObject({ market: 'closed', serverTime: '2024-03-10T03:00:00-04:00' });
    expect(marketStatusAt(utc('2024-11-03T06:30:00Z'))).toMatchObject({ market: 'closed', serverTime: '2024-11-03T01:30:00-05:00' });
  });
});

describe('forex and crypto hours', () => {
  it('opens Sunday 17:00 ET and closes Friday 17:00 ET, in summer and winter', () => {
    expect(isForexOpen(utc('2024-06-14T20:59:59Z'))).toBe(true); // Fri 16:59:59 EDT
    expect(isForexOpen(utc('2024-06-14T21:00:00Z'))).toBe(false); // Fri 17:00 EDT
    expect(isForexOpen(utc('2024-06-16T20:59:59Z'))).toBe(false); // Sun 16:59:59 EDT
    expect(isForexOpen(utc('2024-06-16T21:00:00Z'))).toBe(true); // Sun 17:00 EDT
    expect(isForexOpen(utc('2024-01-07T21:59:59Z'))).toBe(false); // Sun 16:59:59 EST
    expect(isForexOpen(utc('2024-01-07T22:00:00Z'))).toBe(true); // Sun 17:00 EST
    expect(isForexOpen(utc('2024-01-10T03:00:00Z'))).toBe(true); // Tue night
    expect(isForexOpen(utc('2024-12-25T15:00:00Z'))).toBe(true); // US holidays do not close fx
  });

  it('keeps crypto open', () => {
    expect(isCryptoOpen()).toBe(true);
  });
});

describe('upcomingHolidays', () => {
  it('lists only dates after today, NYSE then NASDAQ, with UTC open/close on early closes', () => {
    // Thanksgiving Day itself, 10:00 EST: today is not listed
    expect(upcomingHolidays(utc('2024-11-28T15:00:00Z'), 30)).toEqual([
      { exchange: 'NYSE', name: 'Thanksgiving', date: '2024-11-29', status: 'early-close', open: '2024-11-29T14:30:00.000Z', close: '2024-11-29T18:00:00.000Z' },
      { exchange: 'NASDAQ', name: 'Thanksgiving', date: '2024-11-29', status: 'early-close', open: '2024-11-29T14:30:00.000Z', close: '2024-11-29T18:00:00.000Z' },
      { exchange: 'NYSE', name: 'Christmas', date: '2024-12-24', status: 'early-close', open: '2024-12-24T14:30:00.000Z', close: '2024-12-24T18:00:00.000Z' },
      { exchange: 'NASDAQ', name: 'Christmas', date: '2024-12-24', status: 'early-close', open: '2024-12-24T14:30:00.000Z', close: '2024-12-24T18:00:00.000Z' },
      { exchange: 'NYSE', name: 'Christmas', date: '2024-12-25', status: 'closed' },
      { exchange: 'NASDAQ', name: 'Christmas', date: '2024-12-25', status: 'closed' },
    ]);
  });

  it('uses EDT times in summer', () => {
    const list = upcomingHolidays(utc('2025-06-01T12:00:00Z'), 40);
    expect(list.map((h) => `${h.date} ${h.exchange} ${h.status}`)).toEqual([
      '2025-06-19 NYSE closed', '2025-06-19 NASDAQ closed',
      '2025-07-03 NYSE early-close', '2025-07-03 NASDAQ early-close',
      '2025-07-04 NYSE closed', '2025-07-04 NASDAQ closed',
    ]);
    expect(list[2]).toMatchObject({ name: 'Independence Day', open: '2025-07-03T13:30:00.000Z', close: '2025-07-03T17:00:00.000Z' });
    expect(list[0]).not.toHaveProperty('open');
  });

  it('uses the ET date for "today" and spans year ends with the default window', () => {
    // 2024-12-25 03:00Z is still Dec 24 in New York: Christmas Day is upcoming
    expect(upcomingHolidays(utc('2024-12-25T03:00:00Z'), 1).map((h) => h.date)).toEqual(['2024-12-25', '2024-12-25']);
    const year = upcomingHolidays(utc('2024-06-01T12:00:00Z'));
    const dates = year.map((h) => h.date);
    expect(dates[0]).toBe('2024-06-19');
    expect(dates[dates.length - 1]).toBe('2025-05-26');
    expect([...dates].sort()).toEqual(dates);
    expect(year.length % 2).toBe(0);
  });
});

describe('lastCompletedSession', () => {
  // November 2026: Thanksgiving Thursday the 26th is closed, Friday the 27th closes at 13:00 ET.
  it('is the previous session before the close, the same day once the close has passed', () => {
    expect(lastCompletedSession(utc('2026-11-24T20:59:59.999Z'))).toBe('2026-11-23'); // 15:59:59 ET
    expect(lastCompletedSession(utc('2026-11-24T21:00:00Z'))).toBe('2026-11-24'); // 16:00 ET
    expect(lastCompletedSession(utc('2026-11-24T13:00:00Z'))).toBe('2026-11-23'); // 08:00 ET, before the open
    expect(lastCompletedSession(utc('2026-11-25T04:30:00Z'))).toBe('2026-11-24'); // 23:30 ET on the 24th
  });

  it('skips weekends and holidays', () => {
    expect(lastCompletedSession(utc('2026-11-22T18:00:00Z'))).toBe('2026-11-20'); // Sunday
    expect(lastCompletedSession(utc('2026-11-21T12:00:00Z'))).toBe('2026-11-20'); // Saturday
    expect(lastCompletedSession(utc('2026-11-26T22:00:00Z'))).toBe('2026-11-25'); // Thanksgiving, after 16:00 ET
  });

  it('counts an early-close session as completed from 13:00 ET', () => {
    expect(lastCompletedSession(utc('2026-11-27T17:59:00Z'))).toBe('2026-11-25'); // 12:59 ET
    expect(lastCompletedSession(utc('2026-11-27T18:00:00Z'))).toBe('2026-11-27'); // 13:00 ET
  });
});

describe('lastExtendedSession', () => {
  it('is the same day only once its after-hours have ended at 20:00 ET', () => {
    expect(lastExtendedSession(utc('2026-11-24T22:00:00Z'))).toBe('2026-11-23'); // 17:00 ET: after-hours still running
    expect(lastExtendedSession(utc('2026-11-25T00:59:59.999Z'))).toBe('2026-11-23'); // 19:59:59 ET
    expect(lastExtendedSession(utc('2026-11-25T01:00:00Z'))).toBe('2026-11-24'); // 20:00 ET
    expect(lastExtendedSession(utc('2026-11-26T22:00:00Z'))).toBe('2026-11-25'); // Thanksgiving
  });

  it('ends an early-close session at 17:00 ET', () => {
    expect(lastExtendedSession(utc('2026-11-27T18:00:00Z'))).toBe('2026-11-25'); // 13:00 ET: closed, after-hours running
    expect(lastExtendedSession(utc('2026-11-27T21:59:00Z'))).toBe('2026-11-25'); // 16:59 ET
    expect(lastExtendedSession(utc('2026-11-27T22:00:00Z'))).toBe('2026-11-27'); // 17:00 ET
  });
});
