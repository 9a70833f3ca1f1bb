// The stored demo history keeps plausible levels: I:SPX is ten times SPY and I:NDX 41 times QQQ
// (the indices are built from their ETF, so they move together), each crypto pair stays near its
// level so the pairs keep sane ratios (ETH well under BTC) over the years, and stock trade sizes
// and bar volumes are whole shares.
import { describe, expect, it } from 'vitest';
import { writeDemoState } from '../../src/demo/demo-state.js';
import { cryptoRows, demoMarketPlan, indexRows, loadDemoMarket, stockRows } from '../../src/demo/market.js';
import { rollDemo } from '../../src/demo/roll.js';
import { nyMidnight, nyTime } from '../../src/domain/calendar.js';
import { openStore } from '../../src/store/index.js';

const plan = demoMarketPlan('2026-12-04', 1);
const closes = (rows: { day: { t: number; c: number }[] }) => new Map(rows.day.map((b) => [b.t, b.c]));

describe('demo history levels', () => {
  it('I:SPX closes at ten times SPY, I:NDX at 41 times QQQ, every session', () => {
    for (const [index, etf, ratio] of [['I:SPX', 'SPY', 10], ['I:NDX', 'QQQ', 41]] as const) {
      const idx = closes(indexRows(index, plan));
      const fund = closes(stockRows(etf, plan));
      expect(idx.size).toBe(fund.size);
      // within 2 %: the ETF's day close on tick sessions is its last after-hours print, the index's its 16:00 value
      for (const [t, c] of idx) expect(Math.abs(c / (fund.get(t)! * ratio) - 1), `${index} on ${new Date(t).toISOString()}`).toBeLessThan(0.02);
    }
  });

  it('crypto pairs keep their order and sane ratios to BTC every day', () => {
    const btc = closes(cryptoRows('X:BTCUSD', plan));
    for (const [pair, low, high] of [['X:ETHUSD', 0.025, 0.2], ['X:SOLUSD', 0.001, 0.01], ['X:DOGEUSD', 1e-6, 1e-5]] as const) {
      for (const [t, c] of closes(cryptoRows(pair, plan))) {
        const ratio = c / btc.get(t)!;
        expect(ratio, `${pair} / BTC on ${new Date(t).toISOString()}`).toBeGreaterThan(low);
        expect(ratio, `${pair} / BTC on ${new Date(t).toISOString()}`).toBeLessThan(high);
      }
    }
  });

  it('stock trade sizes and bar volumes are whole shares, without float noise', () => {
    const rows = stockRows('AAPL', plan);
    expect(rows.trades.length).toBeGreaterThan(1000);
    for (const t of rows.trades) expect(Number.isInteger(t.size), `trade size ${t.size}`).toBe(true);
    const recent = nyTime('2026-11-01', '00:00');
    for (const b of [...rows.day, ...rows.minute].filter((b) => b.t >= recent)) expect(Number.isInteger(b.v), `volume ${b.v}`).toBe(true);
  });

  it('a roll carries I:SPX on as ten times the rolled SPY', async () => {
    const store = await openStore({ sqliteFile: ':memory:' });
    try {
      await loadDemoMarket(store, { asOf: '2026-11-20', scale: 1 }, ['SPY', 'I:SPX']);
      await writeDemoState(store, { asOf: '2026-11-20', scale: 1, pinned: false });
      await rollDemo(store, { nowMs: Date.parse('2026-11-25T15:00:00Z'), log: () => {} });
      const read = (ticker: string) => store.market.readBars('day', { ticker, fromMs: nyMidnight('2026-11-21'), toMs: nyMidnight('2026-12-01'), order: 'asc', limit: 10 });
      const spy = await read('SPY');
      const spx = await read('I:SPX');
      expect(spx.map((b) => b.t)).toEqual([nyMidnight('2026-11-23'), nyMidnight('2026-11-24')]);
      spx.forEach((b, i) => expect(Math.abs(b.c / (spy[i]!.c * 10) - 1)).toBeLessThan(0.02));
    } finally {
      await store.close();
    }
  }, 120_000);
});
