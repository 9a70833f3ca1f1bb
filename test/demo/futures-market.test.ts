// The demo's futures market data: deterministic, the same rows for a session whichever as-of date
// generates it, consistent between ticks and minutes, and extended by a roll of the demo.
import { describe, expect, it } from 'vitest';
import { writeDemoState } from '../../src/demo/demo-state.js';
import { futuresDemoStep } from '../../src/demo/futures.js';
import { buildFuturesMarketDemo, frontContracts, futuresMarketDemoStep } from '../../src/demo/futures-market.js';
import { rollDemo } from '../../src/demo/roll.js';
import { engines } from '../helpers/engines.js';

const AS_OF = '2026-11-20';

describe('futures demo market data', () => {
  const demo = buildFuturesMarketDemo(AS_OF, 1);

  it('covers the front contract of each demo product over the last two sessions, with ticks in the last hour of each', () => {
    expect(frontContracts(AS_OF).map((c) => c.ticker)).toEqual(['ESZ6', 'NQZ6', 'CLZ6', 'GCZ6', 'ZNZ6']);
    expect(new Set(demo.bars.map((b) => b.ticker))).toEqual(new Set(['ESZ6', 'NQZ6', 'CLZ6', 'GCZ6', 'ZNZ6']));
    expect(new Set(demo.bars.map((b) => b.session_end_date))).toEqual(new Set(['2026-11-19', '2026-11-20']));
    // 23 hours a session: 18:00 ET the day before to 17:00 ET
    expect(demo.bars.filter((b) => b.ticker === 'ESZ6')).toHaveLength(2 * 23 * 60);
    const esTrades = demo.trades.filter((t) => t.ticker === 'ESZ6' && t.session_end_date === '2026-11-20');
    expect(esTrades[0]!.timestamp).toBeGreaterThanOrEqual(BigInt(Date.parse('2026-11-20T21:00:00Z')) * 1_000_000n);
    expect(esTrades.at(-1)!.timestamp).toBeLessThan(BigInt(Date.parse('2026-11-20T22:00:00Z')) * 1_000_000n);
  });

  it('makes the last hour\'s minutes from its trades', () => {
    const minute = demo.bars.filter((b) => b.ticker === 'GCZ6').at(-1)!;
    const trades = demo.trades.filter((t) => t.ticker === 'GCZ6' && t.timestamp >= minute.window_start && t.timestamp < minute.window_start + 60_000_000_000n);
    expect(minute).toMatchObject({
      open: trades[0]!.price, close: trades.at(-1)!.price, high: Math.max(...trades.map((t) => t.price)), low: Math.min(...trades.map((t) => t.price)),
      volume: trades.reduce((s, t) => s + t.size, 0), transactions: trades.length,
    });
  });

  it('gives the same rows for the same date, and for a session shared with a later as-of date', () => {
    expect(buildFuturesMarketDemo(AS_OF, 1)).toEqual(demo);
    const later = buildFuturesMarketDemo('2026-11-23', 1);
    // CLZ6 expires on the 20th: CLF7 is CL's front contract on the 23rd
    const both = new Set(frontContracts('2026-11-23').map((c) => c.ticker).filter((t) => frontContracts(AS_OF).some((c) => c.ticker === t)));
    expect([...both]).toEqual(['ESZ6', 'NQZ6', 'GCZ6', 'ZNZ6']);
    const of20 = <T extends { session_end_date: string; ticker: string }>(rows: T[]) => rows.filter((r) => r.session_end_date === '2026-11-20' && both.has(r.ticker));
    expect(of20(later.bars)).toEqual(of20(demo.bars));
    expect(of20(later.trades)).toEqual(of20(demo.trades));
    expect(of20(later.quotes)).toEqual(of20(demo.quotes));
  });
});

for (const engine of engines()) {
  describe(`futures demo data in a store (${engine.name})`, () => {
    it('is stored by the demo step, and extended to the new sessions by a roll', async () => {
      const store = await engine.open();
      try {
        const opts = { asOf: AS_OF, scale: 0.1, log: () => {} };
        await futuresDemoStep.run(store, opts);
        expect(await futuresMarketDemoStep.run(store, opts)).toMatch(/^13,800 futures minute bars, [\d,]+ trades, [\d,]+ quotes$/);
        await writeDemoState(store, { asOf: AS_OF, scale: 0.1, pinned: false });
        // Wednesday 2 December, 10:00 ET: every session up to the 1st has closed, Thanksgiving's
        // (the 26th, halted at 13:00 ET) included
        const now = Date.parse('2026-12-02T15:00:00Z');
        const summary = await rollDemo(store, { nowMs: now });
        expect(summary?.futures).toMatch(/futures minute bars/);
        const sessions = await store.futures.sessionCandles({ ticker: 'ESZ6', order: 'asc' });
        expect(sessions.map((s) => s.session_end_date)).toEqual(['2026-11-19', '2026-11-20', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-30', '2026-12-01']);
        const last = await store.futures.lastTrade('ESZ6', BigInt(now) * 1_000_000n);
        expect(last?.session_end_date).toBe('2026-12-01');
        // CL's front contract is CLF7 once CLZ6 has expired
        expect((await store.futures.sessionCandles({ ticker: 'CLF7', order: 'asc' })).map((s) => s.session_end_date)[0]).toBe('2026-11-23');
      } finally {
        await store.close();
      }
    }, 120_000);
  });
}
