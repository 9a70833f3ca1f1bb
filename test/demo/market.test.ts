// The demo market data generator: deterministic, calendar-true and self-consistent.
import { describe, expect, it } from 'vitest';
import {
  DEMO_SPLITS, TICK_STOCKS, cryptoRows, demoMarketPlan, forexRows, indexRows, splitFactor, stockRows, type Rows,
} from '../../src/demo/market.js';
import { volumeSum } from '../../src/domain/bars.js';
import { isForexOpen, isTradingDay, nyDateOf, nyMidnight, sessionOn } from '../../src/domain/calendar.js';
import type { BarRow, TradeRow } from '../../src/domain/market-records.js';

const AS_OF = '2026-11-20';
const plan = demoMarketPlan(AS_OF, 1);

function utcDay(ms: number): number {
  return new Date(ms).getUTCDay();
}

function expectBarShape(b: BarRow): void {
  expect(b.h).toBeGreaterThanOrEqual(Math.max(b.o, b.c));
  expect(b.l).toBeLessThanOrEqual(Math.min(b.o, b.c));
  expect(b.l).toBeGreaterThan(0);
}

/** o/h/l/c/v/n of a run of trades, as a bar built from them must show. */
function fold(trades: readonly TradeRow[]) {
  return {
    o: trades[0]!.price,
    h: Math.max(...trades.map((t) => t.price)),
    l: Math.min(...trades.map((t) => t.price)),
    c: trades.at(-1)!.price,
    v: volumeSum(trades.reduce((s, t) => s + t.size, 0)), // bars carry sums of fractional sizes to 15 digits
    n: trades.length,
  };
}

describe('demo market data', () => {
  const aapl = stockRows('AAPL', plan, { primaryExchange: 'XNAS' });

  it('is deterministic: the same plan gives the same rows', () => {
    expect(stockRows('AAPL', plan, { primaryExchange: 'XNAS' })).toEqual(aapl);
    expect(forexRows('C:EURUSD', plan)).toEqual(forexRows('C:EURUSD', plan));
    expect(cryptoRows('X:BTCUSD', plan)).toEqual(cryptoRows('X:BTCUSD', plan));
    // Streams are per ticker: another ticker's data does not shift AAPL's.
    expect(stockRows('MSFT', plan).day[0]!.o).not.toBe(aapl.day[0]!.o);
  });

  it('has stock day bars on every NYSE session of five years and on no other day', () => {
    const dates = aapl.day.map((b) => nyDateOf(b.t));
    expect(dates).toEqual(plan.sessions);
    expect(dates.at(-1)).toBe(AS_OF);
    expect(dates.length).toBeGreaterThan(1250);
    for (const b of aapl.day) {
      expect(b.t).toBe(nyMidnight(nyDateOf(b.t)));
      expect(isTradingDay(nyDateOf(b.t))).toBe(true);
      expectBarShape(b);
    }
    // Holidays and weekends inside the range are absent.
    for (const closed of ['2025-12-25', '2026-07-03', '2026-11-26', '2026-11-21', '2022-04-15']) expect(dates).not.toContain(closed);
  });

  it('has minute bars only within 04:00-20:00 ET for the last 20 sessions (regular hours for indices)', () => {
    const minuteDates = new Set(aapl.minute.map((b) => nyDateOf(b.t)));
    expect([...minuteDates]).toEqual(plan.sessions.slice(-20));
    for (const b of aapl.minute) {
      const s = sessionOn(nyDateOf(b.t))!;
      expect(b.t).toBeGreaterThanOrEqual(s.preOpen);
      expect(b.t).toBeLessThan(s.postClose);
      expect(b.t % 60_000).toBe(0);
      expectBarShape(b);
    }
    expect(aapl.minute.some((b) => b.t < sessionOn(nyDateOf(b.t))!.open)).toBe(true); // pre-market present
    const spx = indexRows('I:SPX', plan);
    for (const b of spx.minute) {
      const s = sessionOn(nyDateOf(b.t))!;
      expect(b.t >= s.open && b.t < s.close).toBe(true);
    }
  });

  it('ends an early-close session at 17:00 ET (13:00 for indices)', () => {
    const blackFriday = demoMarketPlan('2025-11-28', 1); // NYSE closes at 13:00
    const s = sessionOn('2025-11-28')!;
    expect(s.earlyClose).toBe(true);
    const last = stockRows('KO', blackFriday).minute.filter((b) => nyDateOf(b.t) === '2025-11-28').at(-1)!;
    expect(last.t).toBeLessThan(s.postClose);
    expect(last.t).toBeGreaterThanOrEqual(s.close);
    const spxLast = indexRows('I:SPX', blackFriday).minute.filter((b) => nyDateOf(b.t) === '2025-11-28').at(-1)!;
    expect(spxLast.t).toBe(s.close - 60_000);
  });

  it('builds the tick sessions\' day and minute bars from their trades', () => {
    const bySession = (r: Rows, date: string) => r.trades.filter((t) => nyDateOf(Number(t.sip_timestamp / 1_000_000n)) === date);
    for (const ticker of TICK_STOCKS.slice(0, 3)) {
      const rows = ticker === 'AAPL' ? aapl : stockRows(ticker, plan);
      for (const date of plan.sessions.slice(-2)) {
        const trades = bySession(rows, date);
        expect(trades.length).toBeGreaterThan(4000);
        const day = rows.day.find((b) => b.t === nyMidnight(date))!;
        expect(day).toMatchObject(fold(trades));
        const minute = rows.minute.find((b) => b.t === Number(trades[0]!.sip_timestamp / 60_000_000_000n) * 60_000)!;
        expect(minute).toMatchObject(fold(trades.filter((t) => t.sip_timestamp / 60_000_000_000n === trades[0]!.sip_timestamp / 60_000_000_000n)));
        // Quotes bracket the market: positive spread, sequence numbers rising with time.
        const quotes = rows.quotes.filter((q) => nyDateOf(Number(q.sip_timestamp! / 1_000_000n)) === date);
        expect(quotes.every((q) => q.ask_price > q.bid_price)).toBe(true);
        const ticks = [...trades, ...quotes].sort((a, b) => (a.sip_timestamp! < b.sip_timestamp! ? -1 : 1));
        for (let i = 1; i < ticks.length; i++) expect(ticks[i]!.sequence_number! > ticks[i - 1]!.sequence_number!).toBe(true);
      }
    }
    expect(stockRows('KO', plan).trades).toEqual([]);
  });

  it('keeps day bars consistent with the minute bars they come from', () => {
    for (const date of plan.sessions.slice(-20, -2)) {
      const minutes = aapl.minute.filter((b) => nyDateOf(b.t) === date);
      const day = aapl.day.find((b) => b.t === nyMidnight(date))!;
      expect(day.o).toBe(minutes[0]!.o);
      expect(day.c).toBe(minutes.at(-1)!.c);
      expect(day.h).toBe(Math.max(...minutes.map((m) => m.h)));
      expect(day.l).toBe(Math.min(...minutes.map((m) => m.l)));
      expect(day.v).toBeCloseTo(minutes.reduce((s, m) => s + m.v!, 0), 6);
    }
  });

  it('stores raw prices before each split, so the series jumps by the split ratio', () => {
    expect(DEMO_SPLITS.length).toBeGreaterThanOrEqual(2);
    for (const split of DEMO_SPLITS.filter((s) => ['NVDA', 'TSLA'].includes(s.ticker))) {
      const days = stockRows(split.ticker, plan).day;
      const at = days.findIndex((b) => nyDateOf(b.t) === split.execution_date);
      const before = days[at - 1]!;
      const after = days[at]!;
      const ratio = split.split_to / split.split_from;
      expect(before.c / after.o).toBeGreaterThan(ratio * 0.8);
      expect(before.c / after.o).toBeLessThan(ratio * 1.25);
      expect(splitFactor(split.ticker, nyDateOf(before.t))).toBe(ratio);
      expect(splitFactor(split.ticker, split.execution_date)).toBe(1);
    }
  });

  it('gives indices values only, forex UTC days with participant-time quotes, crypto trades without SIP time', () => {
    const spx = indexRows('I:SPX', plan);
    for (const b of [...spx.day, ...spx.minute]) expect([b.v, b.vw, b.n]).toEqual([undefined, undefined, undefined]);

    const fx = forexRows('C:EURUSD', plan);
    for (const b of fx.day) {
      expect(b.t % 86_400_000).toBe(0);
      expect(utcDay(b.t)).not.toBe(6); // no Saturday
      expect(b.v).toBe(b.n);
    }
    for (const b of fx.minute) expect(isForexOpen(b.t)).toBe(true);
    expect(fx.quotes.length).toBeGreaterThan(1000);
    for (const q of fx.quotes.slice(0, 50)) {
      expect(q.sip_timestamp).toBeUndefined();
      expect(q.participant_timestamp).toBeDefined();
      expect(q.ask_price).toBeGreaterThan(q.bid_price);
    }
    expect(new Set(fx.quotes.map((q) => new Date(Number(q.participant_timestamp! / 1_000_000n)).toISOString().slice(0, 10)))).toEqual(new Set(['2026-11-19', '2026-11-20']));

    const btc = cryptoRows('X:BTCUSD', plan);
    expect(btc.day.length).toBe(plan.calendarDays.length); // every day, weekends too
    expect(btc.trades.length).toBeGreaterThan(5000);
    for (const t of btc.trades.slice(0, 50)) {
      expect(t.sequence_number).toBeUndefined();
      expect(t.participant_timestamp).toBe(t.sip_timestamp);
      expect(t.size).toBeGreaterThan(0);
    }
    const lastDay = btc.day.at(-1)!;
    expect(lastDay).toMatchObject(fold(btc.trades.filter((t) => Number(t.sip_timestamp / 1_000_000n) >= lastDay.t)));
  });

  it('scales the tick rate and the minute sessions', () => {
    const big = demoMarketPlan(AS_OF, 2);
    expect(big.minuteSessions.size).toBe(40);
    expect(stockRows('AAPL', big).trades.length).toBeGreaterThan(aapl.trades.length * 1.8);
  });
});
