import { describe, expect, it } from 'vitest';
import { adjustForDividends, adjustForSplits, dividendFactors } from '../../src/domain/adjustment.js';
import type { Bar, OhlcBar } from '../../src/domain/bars.js';

const NY = 'America/New_York' as const;
const utc = (iso: string): number => Date.parse(iso);

describe('adjustForSplits', () => {
  // 4-for-1 split executed Monday 2024-06-10 (cutoff 2024-06-10 00:00 EDT = 04:00Z)
  const split = [{ execution_date: '2024-06-10', split_from: 1, split_to: 4 }];
  const friday: Bar = { t: utc('2024-06-07T04:00:00Z'), o: 400, h: 404, l: 396, c: 402, v: 1000, vw: 401, n: 50 };
  const sundayNight: Bar = { t: utc('2024-06-10T03:59:00Z'), o: 8, h: 8, l: 8, c: 8, v: 10 }; // Jun 9 23:59 EDT
  const monday: Bar = { t: utc('2024-06-10T04:00:00Z'), o: 101, h: 102, l: 100, c: 101, v: 4100, vw: 101, n: 60 };

  it('divides prices and multiplies volume for bars before the execution date; n unchanged', () => {
    const [a, b] = adjustForSplits([friday, sundayNight, monday], split, NY);
    expect(a).toEqual({ t: friday.t, o: 100, h: 101, l: 99, c: 100.5, v: 4000, vw: 100.25, n: 50 });
    expect(b).toEqual({ t: sundayNight.t, o: 2, h: 2, l: 2, c: 2, v: 40 });
  });

  it('leaves bars on and after the execution date untouched (same object) and never mutates input', () => {
    const input = [friday, sundayNight, monday];
    const out = adjustForSplits(input, split, NY);
    expect(out[2]).toBe(monday);
    expect(friday.o).toBe(400);
    expect(out).not.toBe(input);
  });

  it('compounds successive splits', () => {
    const splits = [
      { execution_date: '2024-06-10', split_from: 1, split_to: 3 },
      { execution_date: '2024-01-10', split_from: 1, split_to: 2 },
    ];
    const bars: Bar[] = [
      { t: utc('2024-01-09T05:00:00Z'), o: 600, h: 600, l: 600, c: 600, v: 100 },
      { t: utc('2024-03-01T05:00:00Z'), o: 300, h: 300, l: 300, c: 300, v: 100 },
      { t: utc('2024-06-10T04:00:00Z'), o: 100, h: 100, l: 100, c: 100, v: 100 },
    ];
    expect(adjustForSplits(bars, splits, NY).map((b) => [b.c, b.v])).toEqual([
      [100, 600],
      [100, 300],
      [100, 100],
    ]);
  });

  it('handles reverse splits and non-integer ratios', () => {
    const bar: Bar = { t: utc('2024-03-01T05:00:00Z'), o: 0.5, h: 0.5, l: 0.5, c: 0.5, v: 1000 };
    const reverse = adjustForSplits([bar], [{ execution_date: '2024-03-04', split_from: 10, split_to: 1 }], NY);
    expect([reverse[0]!.c, reverse[0]!.v]).toEqual([5, 100]);
    const threeForTwo = adjustForSplits([{ ...bar, c: 150, v: 200 }], [{ execution_date: '2024-03-04', split_from: 2, split_to: 3 }], NY);
    expect([threeForTwo[0]!.c, threeForTwo[0]!.v]).toEqual([100, 300]);
  });

  it('cuts at midnight of the given zone', () => {
    const late: Bar = { t: utc('2024-06-10T02:00:00Z'), o: 8, h: 8, l: 8, c: 8, v: 10 }; // Jun 9 ET, Jun 10 UTC
    expect(adjustForSplits([late], split, NY)[0]!.c).toBe(2);
    expect(adjustForSplits([late], split, 'UTC')[0]).toBe(late);
  });

  it('keeps index bars without volume fields', () => {
    const index: OhlcBar = { t: utc('2024-06-07T04:00:00Z'), o: 400, h: 400, l: 400, c: 400 };
    const [out] = adjustForSplits([index], split, NY);
    expect(out).toEqual({ t: index.t, o: 100, h: 100, l: 100, c: 100 });
  });

  it('ignores splits with a zero or missing ratio', () => {
    const out = adjustForSplits([friday], [{ execution_date: '2024-06-10', split_from: 0, split_to: 4 }], NY);
    expect(out[0]).toBe(friday);
  });
});

describe('dividends', () => {
  // Day bars (midnight EST); closes 100, 102, 98, 99
  const bars: Bar[] = [
    { t: utc('2024-03-01T05:00:00Z'), o: 99, h: 101, l: 98, c: 100, v: 1000, vw: 100, n: 10 },
    { t: utc('2024-03-04T05:00:00Z'), o: 100, h: 103, l: 99, c: 102, v: 1000 },
    { t: utc('2024-03-05T05:00:00Z'), o: 97, h: 99, l: 96, c: 98, v: 1000 },
    { t: utc('2024-03-06T05:00:00Z'), o: 98, h: 100, l: 97, c: 99, v: 1000 },
  ];

  it('computes factor = 1 − D / previous close', () => {
    const factors = dividendFactors(bars, [{ ex_dividend_date: '2024-03-05', cash_amount: 1.02 }], NY);
    expect(factors).toHaveLength(1);
    expect(factors[0]!.ex_dividend_date).toBe('2024-03-05');
    expect(factors[0]!.cutoffMs).toBe(utc('2024-03-05T05:00:00Z'));
    expect(factors[0]!.factor).toBeCloseTo(0.99, 14); // 1 − 1.02 / 102
  });

  it('multiplies prices before the ex-date by the factor; volume and n unchanged', () => {
    const out = adjustForDividends(bars, [{ ex_dividend_date: '2024-03-05', cash_amount: 1.02 }], NY);
    expect(out[0]!.o).toBeCloseTo(98.01, 10);
    expect(out[0]!.h).toBeCloseTo(99.99, 10);
    expect(out[0]!.l).toBeCloseTo(97.02, 10);
    expect(out[0]!.c).toBeCloseTo(99, 10);
    expect(out[0]!.vw).toBeCloseTo(99, 10);
    expect(out[0]!.v).toBe(1000);
    expect(out[0]!.n).toBe(10);
    expect(out[1]!.c).toBeCloseTo(100.98, 10);
    expect(out[2]).toBe(bars[2]);
    expect(out[3]).toBe(bars[3]);
  });

  it('chains dividends, each using the unadjusted close before its ex-date', () => {
    const dividends = [
      { ex_dividend_date: '2024-03-06', cash_amount: 0.98 }, // 1 − 0.98 / 98 = 0.99
      { ex_dividend_date: '2024-03-05', cash_amount: 1.02 }, // 1 − 1.02 / 102 = 0.99
    ];
    expect(dividendFactors(bars, dividends, NY).map((f) => f.ex_dividend_date)).toEqual(['2024-03-05', '2024-03-06']);
    const closes = adjustForDividends(bars, dividends, NY).map((b) => b.c);
    expect(closes[0]).toBeCloseTo(100 * 0.9801, 10);
    expect(closes[1]).toBeCloseTo(102 * 0.9801, 10);
    expect(closes[2]).toBeCloseTo(98 * 0.99, 10);
    expect(closes[3]).toBe(99);
  });

  it('adds dividends sharing an ex-date', () => {
    const two = dividendFactors(bars, [
      { ex_dividend_date: '2024-03-05', cash_amount: 0.51 },
      { ex_dividend_date: '2024-03-05', cash_amount: 0.51 },
    ], NY);
    expect(two).toHaveLength(1);
    expect(two[0]!.factor).toBeCloseTo(0.99, 14);
  });

  it('skips dividends with no earlier bar, no cash, or a cash amount at or above the close', () => {
    expect(dividendFactors(bars, [{ ex_dividend_date: '2024-03-01', cash_amount: 1 }], NY)).toEqual([]);
    expect(dividendFactors(bars, [{ ex_dividend_date: '2024-03-05', cash_amount: 0 }], NY)).toEqual([]);
    expect(dividendFactors(bars, [{ ex_dividend_date: '2024-03-05', cash_amount: 102 }], NY)).toEqual([]);
    expect(adjustForDividends(bars, [], NY)).toEqual(bars);
  });

  it('finds the previous close in unsorted bars', () => {
    const factors = dividendFactors([...bars].reverse(), [{ ex_dividend_date: '2024-03-05', cash_amount: 1.02 }], NY);
    expect(factors[0]!.factor).toBeCloseTo(0.99, 14);
  });

  it('gives the same result whether splits are applied before or after', () => {
    const split = [{ execution_date: '2024-03-06', split_from: 1, split_to: 2 }];
    const dividendsFirst = adjustForSplits(adjustForDividends(bars, [{ ex_dividend_date: '2024-03-05', cash_amount: 1.02 }], NY), split, NY);
    const splitsFirst = adjustForDividends(adjustForSplits(bars, split, NY), [{ ex_dividend_date: '2024-03-05', cash_amount: 0.51 }], NY);
    for (let i = 0; i < bars.length; i++) expect(dividendsFirst[i]!.c).toBeCloseTo(splitsFirst[i]!.c, 10);
    expect(dividendsFirst[0]!.c).toBeCloseTo(49.5, 10); // 100 × 0.99 / 2
  });
});
