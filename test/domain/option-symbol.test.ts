import { describe, expect, it } from 'vitest';
import { formatOptionTicker, parseOptionTicker, type OptionSymbol } from '../../src/domain/option-symbol.js';

describe('parseOptionTicker', () => {
  it("parses the example in upstream's documentation", () => {
    expect(parseOptionTicker('O:SPY251219C00650000')).toEqual({
      underlying: 'SPY',
      expiration_date: '2025-12-19',
      contract_type: 'call',
      strike_price: 650,
    });
  });

  it('parses puts and fractional strikes', () => {
    expect(parseOptionTicker('O:AAPL230616P00152500')).toEqual({
      underlying: 'AAPL',
      expiration_date: '2023-06-16',
      contract_type: 'put',
      strike_price: 152.5,
    });
    expect(parseOptionTicker('O:F240119C00012125')?.strike_price).toBe(12.125);
    expect(parseOptionTicker('O:X240119C00000001')?.strike_price).toBe(0.001);
  });

  it('takes the root as everything before the fixed 15-character tail', () => {
    // adjusted contracts carry a digit (AMD1), index weeklies a longer root (SPXW)
    expect(parseOptionTicker('O:AMD1251219C00100000')?.underlying).toBe('AMD1');
    expect(parseOptionTicker('O:SPXW251219P06500000')).toMatchObject({ underlying: 'SPXW', strike_price: 6500 });
    expect(parseOptionTicker('O:BRK.B251219C00500000')?.underlying).toBe('BRK.B');
    expect(parseOptionTicker('O:A251219C00100000')?.underlying).toBe('A');
  });

  it('reads years as 20YY', () => {
    expect(parseOptionTicker('O:SPY000121C00100000')?.expiration_date).toBe('2000-01-21');
    expect(parseOptionTicker('O:SPY991217C00100000')?.expiration_date).toBe('2099-12-17');
  });

  it('accepts 29 February only in leap years', () => {
    expect(parseOptionTicker('O:SPY240229C00100000')?.expiration_date).toBe('2024-02-29');
    expect(parseOptionTicker('O:SPY250229C00100000')).toBeNull();
  });

  it.each([
    ['no prefix', 'SPY251219C00650000'],
    ['another asset class', 'X:SPY251219C00650000'],
    ['lower case', 'O:spy251219c00650000'],
    ['root longer than 6', 'O:ABCDEFG251219C00650000'],
    ['empty root', 'O:251219C00650000'],
    ['strike with 7 digits', 'O:SPY251219C0065000'],
    ['strike with 9 digits', 'O:SPY251219C006500000'],
    ['contract type other than C/P', 'O:SPY251219X00650000'],
    ['month 13', 'O:SPY251319C00650000'],
    ['day 00', 'O:SPY251200C00650000'],
    ['31 April', 'O:SPY250431C00650000'],
    ['surrounding whitespace', ' O:SPY251219C00650000'],
    ['trailing garbage', 'O:SPY251219C00650000x'],
    ['empty string', ''],
  ])('returns null for %s', (_label, ticker) => {
    expect(parseOptionTicker(ticker)).toBeNull();
  });
});

describe('formatOptionTicker', () => {
  it("formats the example in upstream's documentation", () => {
    expect(
      formatOptionTicker({ underlying: 'SPY', expiration_date: '2025-12-19', contract_type: 'call', strike_price: 650 }),
    ).toBe('O:SPY251219C00650000');
  });

  it('pads strikes to 8 digits of thousandths and absorbs float noise', () => {
    const base = { underlying: 'F', expiration_date: '2024-01-19', contract_type: 'put' as const };
    expect(formatOptionTicker({ ...base, strike_price: 12.125 })).toBe('O:F240119P00012125');
    expect(formatOptionTicker({ ...base, strike_price: 650.1 })).toBe('O:F240119P00650100');
    expect(formatOptionTicker({ ...base, strike_price: 0.1 + 0.2 })).toBe('O:F240119P00000300');
    expect(formatOptionTicker({ ...base, strike_price: 99999.999 })).toBe('O:F240119P99999999');
  });

  it('is the inverse of parseOptionTicker', () => {
    const tickers = [
      'O:SPY251219C00650000',
      'O:AAPL230616P00152500',
      'O:SPXW251219P06500000',
      'O:AMD1251219C00100000',
      'O:BRK.B251219C00500000',
      'O:Z000101C00000001',
      'O:QQQ991231P99999999',
    ];
    for (const t of tickers) expect(formatOptionTicker(parseOptionTicker(t)!)).toBe(t);
  });

  it('round-trips random contracts', () => {
    let seed = 12345;
    const rand = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (let i = 0; i < 500; i++) {
      const len = 1 + Math.floor(rand() * 5);
      let underlying = '';
      for (let k = 0; k < len; k++) underlying += letters[Math.floor(rand() * 26)];
      const day = new Date(Date.UTC(2000, 0, 1) + Math.floor(rand() * 36_500) * 86_400_000);
      const option: OptionSymbol = {
        underlying,
        expiration_date: day.toISOString().slice(0, 10),
        contract_type: rand() < 0.5 ? 'call' : 'put',
        strike_price: Math.floor(rand() * 100_000_000) / 1000,
      };
      expect(parseOptionTicker(formatOptionTicker(option))).toEqual(option);
    }
  });

  it.each<[string, Partial<OptionSymbol>]>([
    ['a negative strike', { strike_price: -1 }],
    ['a strike of 100000', { strike_price: 100_000 }],
    ['a strike finer than 1/1000', { strike_price: 650.0001 }],
    ['a NaN strike', { strike_price: Number.NaN }],
    ['a lower-case root', { underlying: 'spy' }],
    ['a 7-character root', { underlying: 'ABCDEFG' }],
    ['an empty root', { underlying: '' }],
    ['a year before 2000', { expiration_date: '1999-12-17' }],
    ['a year after 2099', { expiration_date: '2100-01-15' }],
    ['an impossible date', { expiration_date: '2025-02-30' }],
    ['a malformed date', { expiration_date: '2025-2-3' }],
  ])('throws RangeError for %s', (_label, over) => {
    const option: OptionSymbol = {
      underlying: 'SPY',
      expiration_date: '2025-12-19',
      contract_type: 'call',
      strike_price: 650,
      ...over,
    };
    expect(() => formatOptionTicker(option)).toThrow(RangeError);
  });
});
