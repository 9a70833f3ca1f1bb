import { describe, expect, it } from 'vitest';
import {
  aggregateBars,
  barsFromTrades,
  bucketStart,
  dayBarsFromMinuteBars,
  isTimespan,
  nextBucketStart,
  snapRange,
  type Bar,
  type OhlcBar,
  type Timespan,
  type Zone,
} from '../../src/domain/bars.js';

const NY = 'America/New_York' as const;
const MIN = 60_000;
const HOUR = 3_600_000;
const utc = (iso: string): number => Date.parse(iso);

/** bucketStart of `at` is `start` and nextBucketStart is `next` (ISO times; either may be left out). */
function expectBucket(at: number, timespan: Timespan, multiplier: number, anchor: number, zone: Zone, expected: { start?: string; next?: string }): void {
  if (expected.start !== undefined) expect(bucketStart(at, timespan, multiplier, anchor, zone)).toBe(utc(expected.start));
  if (expected.next !== undefined) expect(nextBucketStart(at, timespan, multiplier, anchor, zone)).toBe(utc(expected.next));
}

/** A minute bar with o/h/l/c derived from one price unless given. */
function bar(t: number, fields: Partial<Bar> = {}): Bar {
  return { t, o: 10, h: 10, l: 10, c: 10, v: 100, ...fields };
}

describe('timespans', () => {
  it('recognises the eight upstream timespans', () => {
    expect(['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'].every(isTimespan)).toBe(true);
    expect(isTimespan('minutes')).toBe(false);
  });
});

describe('bucketStart / nextBucketStart: fixed-length units', () => {
  const anchor = utc('2024-03-11T04:00:00Z'); // 2024-03-11 00:00 EDT

  it('5/minute buckets start at :00, :05, … from the anchor', () => {
    const ms = utc('2024-03-11T13:33:20Z'); // 09:33:20 EDT
    expectBucket(ms, 'minute', 5, anchor, NY, { start: '2024-03-11T13:30:00Z', next: '2024-03-11T13:35:00Z' });
    expectBucket(utc('2024-03-11T13:35:00Z'), 'minute', 5, anchor, NY, { start: '2024-03-11T13:35:00Z' });
  });

  it('anchors at an unaligned from, and extends the grid before the anchor', () => {
    const odd = utc('2024-03-11T13:33:00Z');
    expectBucket(utc('2024-03-11T13:40:00Z'), 'minute', 5, odd, NY, { start: '2024-03-11T13:38:00Z' });
    expectBucket(utc('2024-03-11T13:32:00Z'), 'minute', 5, odd, NY, { start: '2024-03-11T13:28:00Z' });
  });

  it('2/hour buckets are fixed 2 h lengths, also across the DST change', () => {
    const sat = utc('2024-03-09T05:00:00Z'); // 2024-03-09 00:00 EST
    expectBucket(utc('2024-03-09T16:59:00Z'), 'hour', 2, sat, NY, { start: '2024-03-09T15:00:00Z' });
    // 27 h after the anchor (2024-03-10 04:00 EDT) → bucket 26 h after the anchor
    expectBucket(utc('2024-03-10T08:00:00Z'), 'hour', 2, sat, NY, { start: '2024-03-10T07:00:00Z', next: '2024-03-10T09:00:00Z' });
  });

  it('second buckets', () => {
    expectBucket(utc('2024-03-11T13:30:07.250Z'), 'second', 15, anchor, NY, { start: '2024-03-11T13:30:00Z' });
    expectBucket(utc('2024-03-11T13:30:07.250Z'), 'second', 1, anchor, NY, { next: '2024-03-11T13:30:08Z' });
  });
});

describe('bucketStart / nextBucketStart: calendar units', () => {
  it('day buckets are ET calendar days: 23 h in March, 25 h in November', () => {
    const a = utc('2024-03-01T05:00:00Z');
    expectBucket(utc('2024-03-10T12:00:00Z'), 'day', 1, a, NY, { start: '2024-03-10T05:00:00Z', next: '2024-03-11T04:00:00Z' });
    expectBucket(utc('2024-11-03T12:00:00Z'), 'day', 1, a, NY, { start: '2024-11-03T04:00:00Z', next: '2024-11-04T05:00:00Z' });
    // 23:59 EST on Nov 3 is still Nov 3
    expectBucket(utc('2024-11-04T04:59:00Z'), 'day', 1, a, NY, { start: '2024-11-03T04:00:00Z' });
  });

  it('day buckets in UTC (forex) start at 00:00Z', () => {
    expectBucket(utc('2024-03-10T23:30:00Z'), 'day', 1, 0, 'UTC', { start: '2024-03-10T00:00:00Z', next: '2024-03-11T00:00:00Z' });
  });

  it('3/day counts calendar days from the anchor date', () => {
    const a = utc('2024-03-01T05:00:00Z'); // Mar 1: buckets Mar 1-3, 4-6, 7-9, 10-12, …
    const ms = utc('2024-03-12T20:00:00Z');
    expectBucket(ms, 'day', 3, a, NY, { start: '2024-03-10T05:00:00Z', next: '2024-03-13T04:00:00Z' });
    expectBucket(utc('2024-02-29T12:00:00Z'), 'day', 3, a, NY, { start: '2024-02-27T05:00:00Z' });
  });

  it('week buckets start on Sunday 00:00 ET', () => {
    const a = utc('2024-03-03T05:00:00Z');
    expectBucket(utc('2024-03-13T16:00:00Z'), 'week', 1, a, NY, { start: '2024-03-10T05:00:00Z', next: '2024-03-17T04:00:00Z' });
    // Saturday 23:59 ET belongs to the week before, Sunday 00:00 ET starts a week
    expectBucket(utc('2024-03-17T03:59:00Z'), 'week', 1, a, NY, { start: '2024-03-10T05:00:00Z' });
    expectBucket(utc('2024-03-17T04:00:00Z'), 'week', 1, a, NY, { start: '2024-03-17T04:00:00Z' });
  });

  it('2/week counts weeks from the anchor week', () => {
    const a = utc('2024-03-06T05:00:00Z'); // a Wednesday: its week starts Sunday Mar 3
    expectBucket(utc('2024-03-13T16:00:00Z'), 'week', 2, a, NY, { start: '2024-03-03T05:00:00Z', next: '2024-03-17T04:00:00Z' });
    expectBucket(utc('2024-03-18T16:00:00Z'), 'week', 2, a, NY, { start: '2024-03-17T04:00:00Z', next: '2024-03-31T04:00:00Z' });
  });

  it('month buckets start on the 1st, 00:00 ET', () => {
    expectBucket(utc('2024-03-31T12:00:00Z'), 'month', 1, 0, NY, { start: '2024-03-01T05:00:00Z', next: '2024-04-01T04:00:00Z' });
    expectBucket(utc('2024-11-30T12:00:00Z'), 'month', 1, 0, NY, { start: '2024-11-01T04:00:00Z', next: '2024-12-01T05:00:00Z' });
    // Dec 31 evening ET is already Jan 1 in UTC: still December
    expectBucket(utc('2025-01-01T03:00:00Z'), 'month', 1, 0, NY, { start: '2024-12-01T05:00:00Z' });
  });

  it('2/month counts months from the anchor month', () => {
    const feb = utc('2024-02-01T05:00:00Z'); // Feb-Mar, Apr-May, …
    expectBucket(utc('2024-05-20T12:00:00Z'), 'month', 2, feb, NY, { start: '2024-04-01T04:00:00Z', next: '2024-06-01T04:00:00Z' });
    expectBucket(utc('2024-01-20T12:00:00Z'), 'month', 2, feb, NY, { start: '2023-12-01T05:00:00Z' });
  });

  it('quarter buckets start on Jan, Apr, Jul, Oct 1', () => {
    expectBucket(utc('2024-05-15T12:00:00Z'), 'quarter', 1, 0, NY, { start: '2024-04-01T04:00:00Z', next: '2024-07-01T04:00:00Z' });
    expectBucket(utc('2025-01-01T04:59:00Z'), 'quarter', 1, 0, NY, { start: '2024-10-01T04:00:00Z', next: '2025-01-01T05:00:00Z' });
    // 2 quarters from Q2 2024: Q2-Q3, Q4-Q1
    const q2 = utc('2024-04-01T04:00:00Z');
    expectBucket(utc('2024-11-15T12:00:00Z'), 'quarter', 2, q2, NY, { start: '2024-10-01T04:00:00Z', next: '2025-04-01T04:00:00Z' });
  });

  it('year buckets start on Jan 1', () => {
    expectBucket(utc('2024-07-01T12:00:00Z'), 'year', 1, 0, NY, { start: '2024-01-01T05:00:00Z', next: '2025-01-01T05:00:00Z' });
    expectBucket(utc('2024-12-31T23:00:00Z'), 'year', 1, 0, 'UTC', { start: '2024-01-01T00:00:00Z' });
    const y2020 = utc('2020-01-01T05:00:00Z');
    expectBucket(utc('2023-06-01T12:00:00Z'), 'year', 3, y2020, NY, { start: '2023-01-01T05:00:00Z', next: '2026-01-01T05:00:00Z' });
  });
});

describe('snapRange', () => {
  it('a bucket reaching past the last instant a Date holds ends there instead of failing', () => {
    const from = utc('2026-11-18T05:00:00Z'); // midnight EST
    for (const timespan of ['year', 'quarter', 'month', 'week', 'day'] as const) {
      const r = snapRange(from, from + 86_399_999, timespan, 1_000_000_000, NY);
      expect(r.endExclusive, timespan).toBe(8.64e15);
      expect(r.start, timespan).toBeLessThanOrEqual(from);
    }
    expect(nextBucketStart(from, 'year', 1_000_000, from, NY)).toBe(8.64e15);
    expectBucket(from, 'year', 1, from, NY, { next: '2027-01-01T05:00:00Z' });
  });

  it('moves from back to its minute and to forward to the end of its 5-minute bucket', () => {
    const r = snapRange(utc('2024-03-11T13:33:20Z'), utc('2024-03-11T14:02:00Z'), 'minute', 5, NY);
    expect(r).toEqual({ start: utc('2024-03-11T13:33:00Z'), endExclusive: utc('2024-03-11T14:03:00Z') });
  });

  it('from a date (midnight ET) 5/minute buckets run 00:00, 00:05, …', () => {
    const from = utc('2024-03-11T04:00:00Z');
    const r = snapRange(from, utc('2024-03-11T04:07:00Z'), 'minute', 5, NY);
    expect(r).toEqual({ start: from, endExclusive: utc('2024-03-11T04:10:00Z') });
  });

  it('hour: top of the hour', () => {
    const r = snapRange(utc('2024-03-11T13:45:00Z'), utc('2024-03-11T15:10:00Z'), 'hour', 1, NY);
    expect(r).toEqual({ start: utc('2024-03-11T13:00:00Z'), endExclusive: utc('2024-03-11T16:00:00Z') });
  });

  it('day: whole ET days across the March change', () => {
    const r = snapRange(utc('2024-03-10T16:00:00Z'), utc('2024-03-12T05:00:00Z'), 'day', 1, NY);
    expect(r).toEqual({ start: utc('2024-03-10T05:00:00Z'), endExclusive: utc('2024-03-13T04:00:00Z') });
  });

  it('3/day: to reaches the end of its 3-day bucket', () => {
    const r = snapRange(utc('2024-03-01T05:00:00Z'), utc('2024-03-05T05:00:00Z'), 'day', 3, NY);
    expect(r).toEqual({ start: utc('2024-03-01T05:00:00Z'), endExclusive: utc('2024-03-07T05:00:00Z') });
  });

  it('week, month, quarter, year', () => {
    expect(snapRange(utc('2024-03-13T16:00:00Z'), utc('2024-03-21T16:00:00Z'), 'week', 1, NY)).toEqual({
      start: utc('2024-03-10T05:00:00Z'),
      endExclusive: utc('2024-03-24T04:00:00Z'),
    });
    expect(snapRange(utc('2024-01-15T16:00:00Z'), utc('2024-02-10T16:00:00Z'), 'month', 1, NY)).toEqual({
      start: utc('2024-01-01T05:00:00Z'),
      endExclusive: utc('2024-03-01T05:00:00Z'),
    });
    expect(snapRange(utc('2024-02-15T16:00:00Z'), utc('2024-08-10T16:00:00Z'), 'quarter', 1, NY)).toEqual({
      start: utc('2024-01-01T05:00:00Z'),
      endExclusive: utc('2024-10-01T04:00:00Z'),
    });
    expect(snapRange(utc('2023-06-15T16:00:00Z'), utc('2024-02-10T16:00:00Z'), 'year', 1, 'UTC')).toEqual({
      start: utc('2023-01-01T00:00:00Z'),
      endExclusive: utc('2025-01-01T00:00:00Z'),
    });
  });
});

describe('aggregateBars', () => {
  const open = utc('2024-03-11T13:30:00Z'); // 09:30 EDT
  const anchor = utc('2024-03-11T04:00:00Z');

  it('folds 5 minute bars into one 5/minute bar and skips empty buckets', () => {
    const base: Bar[] = [
      bar(open + 0 * MIN, { o: 10, h: 11, l: 9.5, c: 10.5, v: 100, vw: 10.2, n: 3 }),
      bar(open + 1 * MIN, { o: 10.5, h: 12, l: 10, c: 11, v: 300, vw: 11.4, n: 5 }),
      bar(open + 4 * MIN, { o: 11, h: 11.5, l: 9, c: 9.25, v: 100, vw: 10, n: 2 }),
      // 09:35-09:44 empty; then one bar at 09:45
      bar(open + 15 * MIN, { o: 20, h: 21, l: 19, c: 20.5, v: 50, vw: 20, n: 1 }),
    ];
    const out = aggregateBars(base, { timespan: 'minute', multiplier: 5, anchorMs: anchor, zone: NY });
    expect(out).toHaveLength(2);
    expect(out[0]).toEqual({ t: open, o: 10, h: 12, l: 9, c: 9.25, v: 500, vw: (10.2 * 100 + 11.4 * 300 + 10 * 100) / 500, n: 10 });
    expect(out[0]!.vw).toBeCloseTo(10.88, 12); // (1020 + 3420 + 1000) / 500
    expect(out[1]).toEqual({ t: open + 15 * MIN, o: 20, h: 21, l: 19, c: 20.5, v: 50, vw: 20, n: 1 });
  });

  it('weights vw by volume: Σ(vw·v)/Σv', () => {
    const out = aggregateBars(
      [bar(open, { v: 100, vw: 10 }), bar(open + MIN, { v: 300, vw: 12 })],
      { timespan: 'hour', multiplier: 1, anchorMs: anchor, zone: NY },
    );
    expect(out[0]!.vw).toBe(11.5);
    expect(out[0]!.v).toBe(400);
  });

  it('computes vw only over bars that carry one, and omits vw and n when no bar has them', () => {
    const partial = aggregateBars([bar(open, { v: 100, vw: 10 }), bar(open + MIN, { v: 100 })], {
      timespan: 'minute', multiplier: 5, anchorMs: anchor, zone: NY,
    });
    expect(partial[0]!.vw).toBe(10);
    const none = aggregateBars([bar(open), bar(open + MIN)], { timespan: 'minute', multiplier: 5, anchorMs: anchor, zone: NY });
    expect(none[0]).not.toHaveProperty('vw');
    expect(none[0]).not.toHaveProperty('n');
    expect(none[0]!.v).toBe(200);
  });

  it('keeps a one-bar bucket exactly as it was (1/minute is the identity)', () => {
    const base = [bar(open, { o: 1.1, h: 1.3, l: 1.0, c: 1.2, v: 70790813, vw: 131.6292, n: 645365 })];
    const out = aggregateBars(base, { timespan: 'minute', multiplier: 1, anchorMs: anchor, zone: NY });
    expect(out).toEqual(base);
    expect(out[0]).not.toBe(base[0]);
  });

  it('writes keys in upstream order (v, vw, o, c, h, l, t, n)', () => {
    const out = aggregateBars([bar(open, { vw: 10, n: 1 })], { timespan: 'minute', multiplier: 1, anchorMs: anchor, zone: NY });
    expect(Object.keys(out[0]!)).toEqual(['v', 'vw', 'o', 'c', 'h', 'l', 't', 'n']);
  });

  it('leaves index bars as o, h, l, c, t only', () => {
    const index: OhlcBar[] = [
      { t: open, o: 5000, h: 5010, l: 4990, c: 5005 },
      { t: open + MIN, o: 5005, h: 5020, l: 5001, c: 5015 },
    ];
    const out = aggregateBars(index, { timespan: 'minute', multiplier: 5, anchorMs: anchor, zone: NY });
    expect(out).toEqual([{ t: open, o: 5000, h: 5020, l: 4990, c: 5015 }]);
    expect(Object.keys(out[0]!).sort()).toEqual(['c', 'h', 'l', 'o', 't']);
  });

  it('marks the bar otc when a base bar is otc', () => {
    const out = aggregateBars([bar(open), bar(open + MIN, { otc: true })], { timespan: 'hour', multiplier: 1, anchorMs: anchor, zone: NY });
    expect(out[0]!.otc).toBe(true);
    const plain = aggregateBars([bar(open)], { timespan: 'hour', multiplier: 1, anchorMs: anchor, zone: NY });
    expect(plain[0]).not.toHaveProperty('otc');
  });

  it('builds 1/hour bars on the top of the hour', () => {
    const base = [bar(utc('2024-03-11T13:30:00Z'), { c: 1 }), bar(utc('2024-03-11T13:59:00Z'), { c: 2 }), bar(utc('2024-03-11T14:00:00Z'), { c: 3 })];
    const out = aggregateBars(base, { timespan: 'hour', multiplier: 1, anchorMs: anchor, zone: NY });
    expect(out.map((b) => [b.t, b.c])).toEqual([
      [utc('2024-03-11T13:00:00Z'), 2],
      [utc('2024-03-11T14:00:00Z'), 3],
    ]);
  });

  it('puts a 25 h ET day into one day bar (crypto trades through the DST change)', () => {
    const base = [
      bar(utc('2024-11-03T04:00:00Z'), { o: 1, c: 1, h: 1, l: 1 }), // 00:00 EDT Nov 3
      bar(utc('2024-11-04T04:59:00Z'), { o: 2, c: 2, h: 2, l: 2 }), // 23:59 EST Nov 3
      bar(utc('2024-11-04T05:00:00Z'), { o: 3, c: 3, h: 3, l: 3 }), // 00:00 EST Nov 4
    ];
    const out = aggregateBars(base, { timespan: 'day', multiplier: 1, anchorMs: base[0]!.t, zone: NY });
    expect(out.map((b) => [b.t, b.o, b.c, b.v])).toEqual([
      [utc('2024-11-03T04:00:00Z'), 1, 2, 200],
      [utc('2024-11-04T05:00:00Z'), 3, 3, 100],
    ]);
  });

  // day bars of the week of Sunday 2024-03-10 (Mon Mar 11 - Fri Mar 15) and the next Monday
  const week = [
    bar(utc('2024-03-04T05:00:00Z'), { o: 1, h: 2, l: 1, c: 2 }), // previous week, EST midnight
    bar(utc('2024-03-11T04:00:00Z'), { o: 3, h: 5, l: 3, c: 4 }), // EDT midnights from here
    bar(utc('2024-03-12T04:00:00Z'), { o: 4, h: 9, l: 4, c: 6 }),
    bar(utc('2024-03-15T04:00:00Z'), { o: 6, h: 7, l: 2, c: 7 }),
    bar(utc('2024-03-18T04:00:00Z'), { o: 7, h: 8, l: 7, c: 8 }),
  ];

  it('builds week bars starting on Sunday 00:00 ET', () => {
    const out = aggregateBars(week, { timespan: 'week', multiplier: 1, anchorMs: utc('2024-03-03T05:00:00Z'), zone: NY });
    expect(out.map((b) => [b.t, b.o, b.h, b.l, b.c, b.v])).toEqual([
      [utc('2024-03-03T05:00:00Z'), 1, 2, 1, 2, 100],
      [utc('2024-03-10T05:00:00Z'), 3, 9, 2, 7, 300],
      [utc('2024-03-17T04:00:00Z'), 7, 8, 7, 8, 100],
    ]);
  });

  it('builds 2/week bars from the anchor week', () => {
    const out = aggregateBars(week, { timespan: 'week', multiplier: 2, anchorMs: utc('2024-03-03T05:00:00Z'), zone: NY });
    expect(out.map((b) => [b.t, b.o, b.h, b.l, b.c])).toEqual([
      [utc('2024-03-03T05:00:00Z'), 1, 9, 1, 7],
      [utc('2024-03-17T04:00:00Z'), 7, 8, 7, 8],
    ]);
  });

  it('builds 3/day bars from day bars counting calendar days', () => {
    const out = aggregateBars(week, { timespan: 'day', multiplier: 3, anchorMs: utc('2024-03-04T05:00:00Z'), zone: NY });
    // buckets from Mar 4: 4-6, 7-9, 10-12, 13-15, 16-18
    expect(out.map((b) => [b.t, b.o, b.c])).toEqual([
      [utc('2024-03-04T05:00:00Z'), 1, 2],
      [utc('2024-03-10T05:00:00Z'), 3, 6],
      [utc('2024-03-13T04:00:00Z'), 6, 7],
      [utc('2024-03-16T04:00:00Z'), 7, 8],
    ]);
  });

  it('builds month, quarter and year bars from day bars', () => {
    const days = [
      bar(utc('2024-01-31T05:00:00Z'), { o: 1, c: 1 }),
      bar(utc('2024-02-01T05:00:00Z'), { o: 2, c: 2 }),
      bar(utc('2024-03-28T04:00:00Z'), { o: 3, c: 3 }),
      bar(utc('2024-04-01T04:00:00Z'), { o: 4, c: 4 }),
      bar(utc('2024-12-31T05:00:00Z'), { o: 5, c: 5 }),
      bar(utc('2025-01-02T05:00:00Z'), { o: 6, c: 6 }),
    ];
    const spec = { multiplier: 1, anchorMs: days[0]!.t, zone: NY } as const;
    expect(aggregateBars(days, { ...spec, timespan: 'month' }).map((b) => [b.t, b.o, b.c])).toEqual([
      [utc('2024-01-01T05:00:00Z'), 1, 1],
      [utc('2024-02-01T05:00:00Z'), 2, 2],
      [utc('2024-03-01T05:00:00Z'), 3, 3],
      [utc('2024-04-01T04:00:00Z'), 4, 4],
      [utc('2024-12-01T05:00:00Z'), 5, 5],
      [utc('2025-01-01T05:00:00Z'), 6, 6],
    ]);
    expect(aggregateBars(days, { ...spec, timespan: 'quarter' }).map((b) => [b.t, b.o, b.c, b.v])).toEqual([
      [utc('2024-01-01T05:00:00Z'), 1, 3, 300],
      [utc('2024-04-01T04:00:00Z'), 4, 4, 100],
      [utc('2024-10-01T04:00:00Z'), 5, 5, 100],
      [utc('2025-01-01T05:00:00Z'), 6, 6, 100],
    ]);
    expect(aggregateBars(days, { ...spec, timespan: 'year' }).map((b) => [b.t, b.o, b.c, b.v])).toEqual([
      [utc('2024-01-01T05:00:00Z'), 1, 5, 500],
      [utc('2025-01-01T05:00:00Z'), 6, 6, 100],
    ]);
  });

  it('returns nothing for no bars', () => {
    expect(aggregateBars([], { timespan: 'day', multiplier: 1, anchorMs: 0, zone: NY })).toEqual([]);
  });

  it('handles 50,000 base bars in one pass', () => {
    const base: Bar[] = [];
    for (let i = 0; i < 50_000; i++) base.push(bar(anchor + i * MIN, { o: i, h: i, l: i, c: i, v: 1, vw: i, n: 1 }));
    const out = aggregateBars(base, { timespan: 'hour', multiplier: 1, anchorMs: anchor, zone: NY });
    expect(out).toHaveLength(Math.ceil(50_000 / 60));
    expect(out[1]).toMatchObject({ t: anchor + HOUR, o: 60, c: 119, v: 60, n: 60, vw: (60 + 119) / 2 });
  });
});

describe('barsFromTrades', () => {
  const ns = (iso: string, extraNs = 0n): bigint => BigInt(utc(iso)) * 1_000_000n + extraNs;

  it('builds minute bars with n = count and vw = Σ(p·s)/Σs, sorting unsorted trades', () => {
    const trades = [
      { t_ns: ns('2024-03-11T13:30:40Z'), price: 11, size: 300 },
      { t_ns: ns('2024-03-11T13:30:05Z'), price: 10, size: 100 },
      { t_ns: ns('2024-03-11T13:31:00Z'), price: 9, size: 50 },
      { t_ns: ns('2024-03-11T13:30:59Z', 999_999n), price: 10.5, size: 100 },
    ];
    expect(barsFromTrades(trades, 'minute', NY)).toEqual([
      { t: utc('2024-03-11T13:30:00Z'), o: 10, h: 11, l: 10, c: 10.5, v: 500, vw: (1000 + 3300 + 1050) / 500, n: 3 },
      { t: utc('2024-03-11T13:31:00Z'), o: 9, h: 9, l: 9, c: 9, v: 50, vw: 9, n: 1 },
    ]);
    expect(barsFromTrades(trades, 'minute', NY)[0]!.vw).toBe(10.7);
  });

  it('builds second bars', () => {
    const trades = [
      { t_ns: ns('2024-03-11T13:30:05.100Z'), price: 10, size: 1 },
      { t_ns: ns('2024-03-11T13:30:05.900Z'), price: 12, size: 3 },
      { t_ns: ns('2024-03-11T13:30:06Z'), price: 11, size: 1 },
    ];
    const out = barsFromTrades(trades, 'second', NY);
    expect(out.map((b) => [b.t, b.v, b.vw, b.n])).toEqual([
      [utc('2024-03-11T13:30:05Z'), 4, 11.5, 2],
      [utc('2024-03-11T13:30:06Z'), 1, 11, 1],
    ]);
  });

  it('builds day bars on ET calendar days', () => {
    const trades = [
      { t_ns: ns('2024-03-11T03:59:59Z'), price: 1, size: 1 }, // 23:59:59 EDT Mar 10
      { t_ns: ns('2024-03-11T04:00:00Z'), price: 2, size: 1 }, // 00:00 EDT Mar 11
      { t_ns: ns('2024-03-11T23:59:00Z'), price: 3, size: 1 },
    ];
    expect(barsFromTrades(trades, 'day', NY).map((b) => [b.t, b.o, b.c, b.n])).toEqual([
      [utc('2024-03-10T05:00:00Z'), 1, 1, 1],
      [utc('2024-03-11T04:00:00Z'), 2, 3, 2],
    ]);
    expect(barsFromTrades(trades, 'day', 'UTC').map((b) => b.t)).toEqual([utc('2024-03-11T00:00:00Z')]);
  });

  it('returns nothing for no trades', () => {
    expect(barsFromTrades([], 'minute', NY)).toEqual([]);
  });
});

describe('dayBarsFromMinuteBars', () => {
  it('covers the whole ET day, pre-market and after-hours included, with t at 00:00 ET', () => {
    const minutes = [
      bar(utc('2024-03-11T08:00:00Z'), { o: 1, h: 1, l: 1, c: 1, v: 10, vw: 1, n: 1 }), // 04:00 EDT
      bar(utc('2024-03-11T13:30:00Z'), { o: 2, h: 3, l: 2, c: 3, v: 100, vw: 2.5, n: 10 }),
      bar(utc('2024-03-11T23:59:00Z'), { o: 4, h: 4, l: 0.5, c: 4, v: 10, vw: 4, n: 1 }), // 19:59 EDT
      bar(utc('2024-03-12T08:00:00Z'), { o: 5, h: 5, l: 5, c: 5, v: 10, vw: 5, n: 1 }),
    ];
    expect(dayBarsFromMinuteBars(minutes, NY)).toEqual([
      { t: utc('2024-03-11T04:00:00Z'), o: 1, h: 4, l: 0.5, c: 4, v: 120, vw: (10 + 250 + 40) / 120, n: 12 },
      { t: utc('2024-03-12T04:00:00Z'), o: 5, h: 5, l: 5, c: 5, v: 10, vw: 5, n: 1 },
    ]);
  });
});

describe('multiplier validation', () => {
  it('rejects a multiplier that is not a positive integer', () => {
    expect(() => bucketStart(0, 'minute', 0, 0, NY)).toThrow(RangeError);
    expect(() => aggregateBars([bar(0)], { timespan: 'day', multiplier: 1.5, anchorMs: 0, zone: NY })).toThrow(RangeError);
  });
});

describe('summed volumes', () => {
  it('keep the exact decimal sum of fractional sizes, with no binary round-off', () => {
    const minute = (i: number, v: number): Bar => ({ t: 1_700_000_000_000 + i * 60_000, o: 1, h: 1, l: 1, c: 1, v, vw: 1, n: 1 });
    // 0.1 + 0.2 is 0.30000000000000004 in doubles; crypto minute volumes of 8 decimals add up alike
    const [bar] = aggregateBars([minute(0, 0.1), minute(1, 0.2)], { timespan: 'hour', multiplier: 1, anchorMs: 1_699_999_200_000, zone: 'UTC' });
    expect(bar!.v).toBe(0.3);
    const sizes = [0.01234567, 1.5, 0.00000001, 2.87654321, 0.33333333];
    const [sum] = barsFromTrades(sizes.map((size, i) => ({ t_ns: BigInt(1_700_000_000_000 + i) * 1_000_000n, price: 100, size })), 'minute', 'UTC');
    expect(sum!.v).toBe(4.72222222);
    // whole volumes stay as they are, however large
    const [big] = aggregateBars([minute(0, 2 ** 52 + 1), minute(1, 3)], { timespan: 'hour', multiplier: 1, anchorMs: 1_699_999_200_000, zone: 'UTC' });
    expect(big!.v).toBe(2 ** 52 + 4);
  });
});
