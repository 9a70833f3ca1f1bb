// The access line's numbers and strings written byte by byte read back as the JSON text
// JavaScript itself writes for them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_HUNDREDTHS, putHundredths, putPlainAscii, putUint } from '../../src/server/ascii-bytes.js';

const buf = Buffer.alloc(4096);
const text = (start: number, end: number) => buf.toString('latin1', start, end);

describe('JSON text written into a buffer', () => {
  it('integers as String() prints them', () => {
    for (const n of [0, 1, 9, 10, 99, 100, 200, 404, 503, 1_764_424_800_123, 2 ** 53]) expect(text(7, putUint(buf, 7, n))).toBe(String(n));
    fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => text(3, putUint(buf, 3, n)) === String(n)));
  });

  it('hundredths as JavaScript prints n / 100 (a rounded duration in milliseconds)', () => {
    for (const n of [0, 1, 5, 10, 50, 99, 100, 101, 110, 12_345, MAX_HUNDREDTHS]) expect(text(0, putHundredths(buf, 0, n))).toBe(String(n / 100));
    fc.assert(fc.property(fc.integer({ min: 0, max: MAX_HUNDREDTHS }), (n) => text(1, putHundredths(buf, 1, n)) === String(n / 100)));
    // what the access line passes: a duration rounded to hundredths, times 100, rounded
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e6, noNaN: true }), (ms) => {
        const rounded = Math.round(ms * 100) / 100;
        return text(0, putHundredths(buf, 0, Math.round(rounded * 100))) === String(rounded);
      }),
    );
  });

  it('strings JSON needs no escape for, as JSON.stringify writes them between its quotes; any other refused', () => {
    expect(text(0, putPlainAscii(buf, 0, '/v3/reference/tickers/AAPL?limit=10&apiKey=[REDACTED]'))).toBe('/v3/reference/tickers/AAPL?limit=10&apiKey=[REDACTED]');
    for (const s of ['a"b', 'a\\b', 'line\n', 'é', '\u2028', '\ud800', '\x7f']) expect(putPlainAscii(buf, 0, s)).toBe(-1);
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\n', '\x7f', 'é', '€', '\ud83d'), fc.string({ minLength: 1, maxLength: 1, unit: 'binary' })), maxLength: 60 }), (s) => {
        const end = putPlainAscii(buf, 5, s);
        const plain = [...s].every((c) => c >= ' ' && c <= '~' && c !== '"' && c !== '\\');
        if (!plain) return end === -1;
        return end === 5 + s.length && text(5, end) === JSON.stringify(s).slice(1, -1);
      }),
    );
  });
});
