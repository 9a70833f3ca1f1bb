// Whether the ledger's complete day ranges cover a request, and which days they lack: ranges
// join where they meet or overlap, in any order.
import { describe, expect, it } from 'vitest';
import { rangesCover, rangesMissing } from '../../src/store/repos/upstream-ledger.js';

const r = (from: string, to: string) => ({ from, to });

describe('ledger day ranges', () => {
  it('cover a request with ranges that meet or overlap, not across a gap', () => {
    const ranges = [r('2026-11-07', '2026-11-10'), r('2026-11-01', '2026-11-06')];
    expect(rangesCover(ranges, '2026-11-01', '2026-11-10')).toBe(true);
    expect(rangesCover(ranges, '2026-11-03', '2026-11-03')).toBe(true);
    expect(rangesCover(ranges, '2026-10-31', '2026-11-02')).toBe(false);
    expect(rangesCover([r('2026-11-01', '2026-11-05'), r('2026-11-07', '2026-11-10')], '2026-11-01', '2026-11-10')).toBe(false);
    expect(rangesCover([], '2026-11-01', '2026-11-01')).toBe(false);
  });

  it('name the days a request lacks as ranges', () => {
    const ranges = [r('2026-11-03', '2026-11-04'), r('2026-11-08', '2026-11-09')];
    expect(rangesMissing(ranges, '2026-11-01', '2026-11-12')).toEqual([r('2026-11-01', '2026-11-02'), r('2026-11-05', '2026-11-07'), r('2026-11-10', '2026-11-12')]);
    expect(rangesMissing(ranges, '2026-11-03', '2026-11-04')).toEqual([]);
    expect(rangesMissing([r('2026-10-01', '2026-12-31')], '2026-11-01', '2026-11-30')).toEqual([]);
    expect(rangesMissing([], '2026-11-01', '2026-11-01')).toEqual([r('2026-11-01', '2026-11-01')]);
  });
});
