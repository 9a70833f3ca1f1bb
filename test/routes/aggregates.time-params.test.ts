import { describe, expect, it } from 'vitest';
import { msOfSizedInteger, parseAggregateBound, parseFlexibleTimeMs, parseRfc3339Ns, parseTickTime, tickBounds } from '../../src/routes/time-params.js';

const NY = 'America/New_York' as const;
const utc = (iso: string) => Date.parse(iso);

describe('aggregates from/to', () => {
  it('a date is that day in the zone: from its first ms, to its last', () => {
    expect(parseAggregateBound('2024-03-10', 'from', NY)).toBe(utc('2024-03-10T05:00:00Z'));
    expect(parseAggregateBound('2024-03-10', 'to', NY)).toBe(utc('2024-03-11T04:00:00Z') - 1); // 23-hour day
    expect(parseAggregateBound('2024-03-10', 'from', 'UTC')).toBe(utc('2024-03-10T00:00:00Z'));
    expect(parseAggregateBound('2024-03-10', 'to', 'UTC')).toBe(utc('2024-03-11T00:00:00Z') - 1);
  });

  it('an integer is Unix ms as given', () => {
    expect(parseAggregateBound('1710000000123', 'from', NY)).toBe(1_710_000_000_123);
    expect(parseAggregateBound('0', 'to', NY)).toBe(0);
  });

  it('anything else is a 400 naming the parameter', () => {
    for (const v of ['2024-02-30', '2024-3-1', '1e12', '-5', '1710000000000.5', '', 'now']) {
      expect(() => parseAggregateBound(v, 'from', NY)).toThrow("Could not parse the time parameter: 'from'");
    }
    expect(() => parseAggregateBound('99999999999999999', 'to', NY)).toThrow("'to'");
  });
});

describe('tick timestamps', () => {
  it('RFC 3339 keeps every nanosecond digit and honours offsets', () => {
    expect(parseRfc3339Ns('2022-05-10T14:11:12.690661189Z')).toBe(1_652_191_872_690_661_189n);
    expect(parseRfc3339Ns('2022-05-10T10:11:12.690661189-04:00')).toBe(1_652_191_872_690_661_189n);
    expect(parseRfc3339Ns('2022-05-10T14:11:12.5Z')).toBe(1_652_191_872_500_000_000n);
    expect(parseRfc3339Ns('2022-05-10T14:11:12Z')).toBe(1_652_191_872_000_000_000n);
    for (const bad of ['2022-05-10T14:11:12', '2022-05-10T24:00:00Z', '2022-02-30T00:00:00Z', '2022-05-10T14:11:12.1234567890Z', '2022-05-10T14:11:12+25:00']) {
      expect(parseRfc3339Ns(bad)).toBeNull();
    }
  });

  it('each input is an interval: a whole zone day, or one nanosecond', () => {
    expect(parseTickTime('2024-03-11', 'timestamp', NY)).toEqual({ start: BigInt(utc('2024-03-11T04:00:00Z')) * 1_000_000n, end: BigInt(utc('2024-03-12T04:00:00Z')) * 1_000_000n });
    expect(parseTickTime('1710163800123456789', 'timestamp', NY)).toEqual({ start: 1_710_163_800_123_456_789n, end: 1_710_163_800_123_456_790n });
    expect(() => parseTickTime('9223372036854775808', 'timestamp.gt', NY)).toThrow('timestamp.gt must be');
  });

  it('filters intersect: gte/gt/lte/lt/equality on a day', () => {
    const day = (d: string) => BigInt(utc(`${d}T00:00:00Z`)) * 1_000_000n;
    expect(tickBounds({ 'timestamp.gte': '2024-03-11', 'timestamp.lte': '2024-03-12' }, 'UTC')).toEqual({ gte: day('2024-03-11'), lt: day('2024-03-13'), empty: false });
    expect(tickBounds({ 'timestamp.gt': '2024-03-11', 'timestamp.lt': '2024-03-13' }, 'UTC')).toEqual({ gte: day('2024-03-12'), lt: day('2024-03-13'), empty: false });
    expect(tickBounds({ timestamp: '2024-03-11', 'timestamp.gt': '2024-03-11' }, 'UTC').empty).toBe(true);
    expect(tickBounds({}, 'UTC')).toEqual({ gte: undefined, lt: undefined, empty: false });
  });
});

describe('indicator-style integers, read by size', () => {
  it('ns, µs, ms and seconds all land on the same ms', () => {
    const ms = 1_483_958_600_000;
    for (const n of [1_483_958_600_000_000_000n, 1_483_958_600_000_000n, 1_483_958_600_000n, 1_483_958_600n]) expect(msOfSizedInteger(n)).toBe(ms);
  });

  it('a date is its whole day; an integer one ms; junk a 400 naming the parameter', () => {
    expect(parseFlexibleTimeMs('2024-03-10', 'timestamp.gte', NY)).toEqual({ startMs: utc('2024-03-10T05:00:00Z'), endMs: utc('2024-03-11T04:00:00Z') });
    expect(parseFlexibleTimeMs('1483958600', 'timestamp', NY)).toEqual({ startMs: 1_483_958_600_000, endMs: 1_483_958_600_001 });
    expect(() => parseFlexibleTimeMs('2024-13-01', 'timestamp.lt', NY)).toThrow('timestamp.lt must be');
  });
});
