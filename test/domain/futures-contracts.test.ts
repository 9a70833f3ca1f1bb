import { describe, expect, it } from 'vitest';
import { contractTicker, daysBetween, lastTradeDate, listedMonths } from '../../src/domain/futures-contracts.js';

describe('futures contract rules', () => {
  it('spells tickers as product, month code and the last digit of the year', () => {
    expect(contractTicker('ES', 2026, 12)).toBe('ESZ6');
    expect(contractTicker('CL', 2027, 1)).toBe('CLF7');
    expect(contractTicker('GC', 2027, 2)).toBe('GCG7');
  });

  it('dates the last trading day by each product\'s rule', () => {
    // CME's published last trading days
    expect(lastTradeDate('third-friday', 2026, 12)).toBe('2026-12-18');
    expect(lastTradeDate('third-friday', 2027, 3)).toBe('2027-03-19');
    // CL Jan 2027: 25 Dec 2026 is a Friday, three weekdays before it
    expect(lastTradeDate('crude', 2027, 1)).toBe('2026-12-22');
    // CL Mar 2027: 25 Feb 2027 is a Thursday
    expect(lastTradeDate('crude', 2027, 3)).toBe('2027-02-22');
    // CL Dec 2026: 25 Nov 2026 is a Wednesday
    expect(lastTradeDate('crude', 2026, 12)).toBe('2026-11-20');
    // GC Dec 2026: last weekday is Thu 31 Dec, third-last is Tue 29 Dec
    expect(lastTradeDate('third-last-weekday', 2026, 12)).toBe('2026-12-29');
    // ZN Dec 2026: seven weekdays before Thu 31 Dec (holidays are not skipped)
    expect(lastTradeDate('seventh-before-last-weekday', 2026, 12)).toBe('2026-12-22');
    expect(lastTradeDate('seventh-before-last-weekday', 2027, 3)).toBe('2027-03-22');
  });

  it('lists the next contracts still trading on a date', () => {
    expect(listedMonths('third-friday', [3, 6, 9, 12], '2026-11-26', 3)).toEqual([[2026, 12], [2027, 3], [2027, 6]]);
    expect(listedMonths('third-friday', [3, 6, 9, 12], '2026-12-19', 1)).toEqual([[2027, 3]]);
    expect(daysBetween('2026-11-26', '2026-12-18')).toBe(22);
  });
});
