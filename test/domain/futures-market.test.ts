import { describe, expect, it } from 'vitest';
import {
  candlesOf, intradayCandleStart, parseResolution, periodCandleStart, sessionEndDateOfNs, tradingDateOfMs, tradingDateStartMs, windowStartInterval,
  type FuturesCandle,
} from '../../src/domain/futures-market.js';

const ns = (iso: string) => BigInt(Date.parse(iso)) * 1_000_000n;

describe('futures trading dates', () => {
  it('starts a trading date at 18:00 ET the evening before, in winter and summer time', () => {
    expect(new Date(tradingDateStartMs('2026-11-20')).toISOString()).toBe('2026-11-19T23:00:00.000Z');
    expect(new Date(tradingDateStartMs('2026-07-15')).toISOString()).toBe('2026-07-14T22:00:00.000Z');
    expect(tradingDateOfMs(Date.parse('2026-11-19T22:59:59.999Z'))).toBe('2026-11-19');
    expect(tradingDateOfMs(Date.parse('2026-11-19T23:00:00Z'))).toBe('2026-11-20');
  });

  it('gives a tick while Globex is shut the date of the next session', () => {
    expect(sessionEndDateOfNs(ns('2026-11-20T23:30:00Z'))).toBe('2026-11-23'); // Friday evening → Monday
    expect(sessionEndDateOfNs(ns('2026-12-24T23:30:00Z'))).toBe('2026-12-28'); // Christmas is closed; the 26th and 27th are a weekend
    expect(sessionEndDateOfNs(ns('2026-11-20T21:00:00Z'))).toBe('2026-11-20');
  });
});

describe('futures resolutions', () => {
  it('reads a multiplier and a unit, each unit up to its largest multiplier', () => {
    expect(parseResolution('1session')).toEqual({ multiplier: 1, unit: 'session' });
    expect(parseResolution('59min')).toEqual({ multiplier: 59, unit: 'min' });
    expect(parseResolution('23hour')).toEqual({ multiplier: 23, unit: 'hour' });
    for (const bad of ['60min', '24hour', '2week', '0sec', 'min', '1 min', '1minute', '1MIN']) expect(() => parseResolution(bad), bad).toThrow(/resolution/);
  });

  it('counts intraday candles from the start of the trading date, so none straddles 18:00 ET', () => {
    const r = parseResolution('5hour');
    expect(intradayCandleStart(ns('2026-11-19T22:30:00Z'), r)).toBe(ns('2026-11-19T19:00:00Z'));
    expect(intradayCandleStart(ns('2026-11-19T23:00:00Z'), r)).toBe(ns('2026-11-19T23:00:00Z'));
    expect(intradayCandleStart(ns('2026-11-20T03:59:59.999Z') + 999_999n, r)).toBe(ns('2026-11-19T23:00:00Z'));
    expect(intradayCandleStart(ns('2026-11-20T21:59:31Z') + 7n, parseResolution('15sec'))).toBe(ns('2026-11-20T21:59:30Z'));
  });

  it('starts session-or-longer candles at 00:00 UTC of the trading date, the Sunday of its week or the first of its period', () => {
    expect(periodCandleStart('2026-11-20', parseResolution('1session'))).toBe(ns('2026-11-20T00:00:00Z'));
    expect(periodCandleStart('2026-11-20', parseResolution('1week'))).toBe(ns('2026-11-15T00:00:00Z'));
    expect(periodCandleStart('2026-11-20', parseResolution('1month'))).toBe(ns('2026-11-01T00:00:00Z'));
    expect(periodCandleStart('2026-11-20', parseResolution('1quarter'))).toBe(ns('2026-10-01T00:00:00Z'));
    expect(periodCandleStart('2026-11-20', parseResolution('1year'))).toBe(ns('2026-01-01T00:00:00Z'));
  });

  it('reads a window_start filter as a trading date or the one candle holding an instant', () => {
    const hour = parseResolution('1hour');
    expect(windowStartInterval('2026-11-20', hour, 'window_start')).toEqual({ start: ns('2026-11-19T23:00:00Z'), end: ns('2026-11-20T23:00:00Z') });
    const at = ns('2026-11-20T15:42:00Z');
    expect(windowStartInterval(String(at), hour, 'window_start')).toEqual({ start: ns('2026-11-20T15:00:00Z'), end: ns('2026-11-20T15:00:00Z') + 1n });
    expect(windowStartInterval(String(at), parseResolution('1session'), 'window_start').start).toBe(ns('2026-11-20T00:00:00Z'));
    expect(() => windowStartInterval('2026-02-30', hour, 'window_start.gte')).toThrow('window_start.gte must be a date in the form YYYY-MM-DD or a Unix timestamp in nanoseconds');
  });

  it('folds rows into candles: first open, last close, extremes and sums, the last settlement', () => {
    const row = (m: number, o: number, h: number, l: number, c: number, settlement?: number): FuturesCandle => ({
      ticker: 'ESZ6', window_start: BigInt(m), session_end_date: `2026-11-${m}`, open: o, high: h, low: l, close: c, volume: m, transactions: 1, dollar_volume: 0.1,
      ...(settlement === undefined ? {} : { settlement_price: settlement }),
    });
    const candles = candlesOf([row(16, 10, 12, 9, 11, 11), row(17, 11, 15, 10, 14, 14), row(23, 14, 14, 8, 9, 9)], (r) => (r.window_start < 20n ? 15n : 22n));
    expect(candles).toEqual([
      { ticker: 'ESZ6', window_start: 15n, session_end_date: '2026-11-17', open: 10, high: 15, low: 9, close: 14, volume: 33, transactions: 2, dollar_volume: 0.2, settlement_price: 14 },
      { ticker: 'ESZ6', window_start: 22n, session_end_date: '2026-11-23', open: 14, high: 14, low: 8, close: 9, volume: 23, transactions: 1, dollar_volume: 0.1, settlement_price: 9 },
    ]);
  });
});
