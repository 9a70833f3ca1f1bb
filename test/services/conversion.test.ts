import { describe, expect, it } from 'vitest';
import type { QuoteRow } from '../../src/domain/market-records.js';
import { convert, roundHalfUp } from '../../src/services/conversion.js';

describe('roundHalfUp', () => {
  it.each([
    [1.005, 2, 1.01], // 1.005 × 100 is 100.49999… in binary
    [2.675, 2, 2.68],
    [0.56105, 4, 0.5611],
    [-1.005, 2, -1.01],
    [19128.2904, 2, 19128.29],
    [138.523245, 0, 139],
    [0.5, 0, 1],
    [5e-324, 2, 0], // the smallest double: exponent text, not 5e-324e2 = NaN
    [1e21, 2, 1e21],
    [0, 3, 0],
  ])('%s to %i decimals is %s', (x, p, want) => {
    expect(roundHalfUp(x, p)).toBe(want);
  });
});

describe('convert', () => {
  const quote = (bid: number, ask: number): QuoteRow => ({ ticker: '', participant_timestamp: 1_700_000_000_123_000_000n, bid_price: bid, ask_price: ask, ask_exchange: 48 });
  const book: Record<string, QuoteRow> = { 'C:EURUSD': quote(1.1, 1.2), 'C:USDJPY': quote(150, 151), 'X:BTCUSD': quote(60_000, 60_010) };
  const lookup = async (t: string) => book[t];
  const at = 1_800_000_000_000_000_000n;

  it('prefers the direct pair, then the inverse, then a USD cross; crypto pairs count too', async () => {
    expect(await convert(lookup, { from: 'EUR', to: 'USD', amount: 10, precision: 2, atNs: at })).toMatchObject({ converted: 12, symbol: 'EUR/USD' });
    expect(await convert(lookup, { from: 'USD', to: 'EUR', amount: 11, precision: 4, atNs: at })).toMatchObject({ converted: 10, symbol: 'EUR/USD', last: { bid: 1.1, ask: 1.2, timestamp: 1_700_000_000_123 } });
    const cross = await convert(lookup, { from: 'EUR', to: 'JPY', amount: 1, precision: 2, atNs: at });
    expect(cross).toMatchObject({ converted: 181.2, symbol: 'EUR/JPY', last: { exchange: 48 } });
    expect(cross!.last.bid).toBeCloseTo(165, 10);
    expect(await convert(lookup, { from: 'BTC', to: 'USD', amount: 0.5, precision: 2, atNs: at })).toMatchObject({ converted: 30_005, symbol: 'BTC/USD' });
  });

  it('a currency into itself is the amount; no route is undefined', async () => {
    expect(await convert(lookup, { from: 'GBP', to: 'GBP', amount: 5e-324, precision: 2, atNs: at })).toMatchObject({ converted: 0, symbol: 'GBP/GBP' });
    expect(await convert(lookup, { from: 'GBP', to: 'CHF', amount: 1, precision: 2, atNs: at })).toBeUndefined();
  });
});
