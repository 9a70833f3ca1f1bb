import { describe, expect, it } from 'vitest';
import { globexSession, globexSessions, utcOffsetTimestamp } from '../../src/domain/futures-calendar.js';

const times = (date: string) => {
  const s = globexSession(date);
  return s && [utcOffsetTimestamp(s.preOpen), utcOffsetTimestamp(s.open), utcOffsetTimestamp(s.close)];
};

describe('CME Globex calendar', () => {
  it('runs sessions from 18:00 ET the day before to 17:00 ET, Sunday evening opening Monday', () => {
    // Monday 2026-11-23 (EST): opens Sunday 18:00 ET = 23:00 UTC
    expect(times('2026-11-23')).toEqual(['2026-11-22T22:00:00+00:00', '2026-11-22T23:00:00+00:00', '2026-11-23T22:00:00+00:00']);
    // summer (EDT), as upstream's example: pre-open 21:00, open 22:00, close 21:00 UTC
    expect(times('2024-06-10')).toEqual(['2024-06-09T21:00:00+00:00', '2024-06-09T22:00:00+00:00', '2024-06-10T21:00:00+00:00']);
    expect(globexSession('2026-11-21')).toBeNull();
    expect(globexSession('2026-11-22')).toBeNull();
  });

  it('halts early on holidays and early-close days and closes on New Year, Good Friday and Christmas', () => {
    expect(globexSession('2026-11-26')).toMatchObject({ holiday: 'Thanksgiving' });
    expect(times('2026-11-26')![2]).toBe('2026-11-26T18:00:00+00:00');
    expect(times('2026-11-27')).toEqual(['2026-11-26T22:00:00+00:00', '2026-11-26T23:00:00+00:00', '2026-11-27T18:15:00+00:00']);
    expect(times('2026-12-24')![2]).toBe('2026-12-24T18:15:00+00:00');
    expect(globexSession('2026-12-25')).toBeNull();
    expect(globexSession('2027-01-01')).toBeNull();
    expect(globexSession('2026-04-03')).toBeNull();
    expect(globexSessions('2026-12-21', '2026-12-31').map((s) => s.sessionEndDate)).toEqual([
      '2026-12-21', '2026-12-22', '2026-12-23', '2026-12-24', '2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31',
    ]);
  });
});
