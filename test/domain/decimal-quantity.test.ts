import { describe, expect, it } from 'vitest';
import { decimalQuantity } from '../../src/domain/decimal-quantity.js';

describe('decimalQuantity', () => {
  it('writes whole quantities with ".0", as upstream bodies do', () => {
    expect(decimalQuantity(236)).toBe('236.0');
    expect(decimalQuantity(28_727_868)).toBe('28727868.0');
    expect(decimalQuantity(0)).toBe('0.0');
  });

  it('keeps fractional shares to the millionth, without trailing zeros', () => {
    expect(decimalQuantity(0.5)).toBe('0.5');
    expect(decimalQuantity(5500.875)).toBe('5500.875');
    expect(decimalQuantity(1.0000004)).toBe('1.0');
    expect(decimalQuantity(2.1234567)).toBe('2.123457');
    expect(decimalQuantity(0.1 + 0.2)).toBe('0.3');
  });
});
