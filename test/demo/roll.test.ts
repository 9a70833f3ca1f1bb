// Rolling a demo data set forward: a set loaded at 2026-11-20 and started on later days is
// extended (never regenerated) to the last completed session, forex and crypto to the minute.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nyMidnight } from '../../src/domain/calendar.js';
import type { BarRow } from '../../src/domain/market-records.js';
import { readDemoState, writeDemoState } from '../../src/demo/demo-state.js';
import { loadDemoMarket } from '../../src/demo/market.js';
import { optionsStep } from '../../src/demo/options.js';
import { rollDemo, type RollSummary } from '../../src/demo/roll.js';
import type { Store } from '../../src/store/index.js';
import { sqlOf } from '../../src/store/inspect.js';
import { startTestApp } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';

const AS_OF = '2026-11-20';
const SOME = ['AAPL', 'I:SPX', 'C:EURUSD', 'X:BTCUSD'];
const NOW = Date.parse('2026-11-25T15:00:00Z'); // Wednesday 10:00 ET: the 24th is the last completed session
const SATURDAY = Date.parse('2026-11-28T15:00:00Z'); // after Thanksgiving and the early close of the 27th
const END = Date.UTC(2030, 0);

async function bars(store: Store, kind: 'day' | 'minute', ticker: string, fromMs = 0, toMs = END): Promise<BarRow[]> {
  return store.market.readBars(kind, { ticker, fromMs, toMs, order: 'asc', limit: 1_000_000 });
}

async function trades(store: Store, ticker: string, toNs?: bigint) {
  return (await store.market.readTrades({ ticker, lt: toNs, order: 'asc', limit: 1_000_000 })).map((r) => r.row);
}

async function quotes(store: Store, ticker: string, toNs?: bigint) {
  return (await store.market.readQuotes({ ticker, lt: toNs, order: 'asc', limit: 1_000_000 })).map((r) => r.row);
}

/** Every stored row of the loaded set, before the first instant a roll may add to (per ticker). */
async function loadedRows(store: Store) {
  const out: Record<string, unknown> = {};
  for (const t of SOME) {
    const end = t === 'C:EURUSD' ? Date.parse('2026-11-21T00:00:00Z') : nyMidnight('2026-11-21');
    out[t] = {
      day: await bars(store, 'day', t, 0, end),
      minute: await bars(store, 'minute', t, 0, end),
      trades: await trades(store, t, BigInt(end) * 1_000_000n),
      quotes: await quotes(store, t, BigInt(end) * 1_000_000n),
    };
  }
  // AAPL's option chains: bars, ticks and open interest of the loaded sessions
  const db = sqlOf(store);
  const cut = nyMidnight('2026-11-21');
  out.options = {
    day: await db.all("SELECT ticker, t, o, h, l, c, v, n FROM day_bars WHERE ticker LIKE 'O:%' AND t < ? ORDER BY ticker, t", [cut]),
    minute: await db.all("SELECT ticker, t, o, h, l, c, v, n FROM minute_bars WHERE ticker LIKE 'O:%' AND t < ? ORDER BY ticker, t", [cut]),
    trades: await db.all("SELECT ticker, sip_timestamp, price, size FROM trades WHERE ticker LIKE 'O:%' AND sip_timestamp < ? ORDER BY ticker, sip_timestamp", [BigInt(cut) * 1_000_000n]),
    quotes: await db.all("SELECT ticker, ts, bid_price, ask_price FROM quotes WHERE ticker LIKE 'O:%' AND ts < ? ORDER BY ticker, ts", [BigInt(cut) * 1_000_000n]),
    openInterest: await db.all("SELECT ticker, date, open_interest FROM options_open_interest WHERE date <= ? ORDER BY ticker, date", [AS_OF]),
  };
  return out;
}

/** The day bar of a ticker's minutes: o first, h max, l min, c last, v and n summed. */
function aggregate(minutes: BarRow[]) {
  return {
    o: minutes[0]!.o,
    h: Math.max(...minutes.map((m) => m.h)),
    l: Math.min(...minutes.map((m) => m.l)),
    c: minutes.at(-1)!.c,
    v: minutes.reduce((s, m) => s + m.v!, 0),
    n: minutes.reduce((s, m) => s + m.n!, 0),
  };
}

function expectDayBarOfMinutes(day: BarRow | undefined, minutes: BarRow[]) {
  const a = aggregate(minutes);
  expect(day).toBeDefined();
  expect({ o: day!.o, h: day!.h, l: day!.l, c: day!.c, n: day!.n }).toEqual({ o: a.o, h: a.h, l: a.l, c: a.c, n: a.n });
  expect(day!.v).toBeCloseTo(a.v, 6);
}

for (const engine of engines()) {
  describe(`rolling the demo forward (${engine.name})`, () => {
    let store: Store;
    let before: Record<string, unknown>;
    let lastClose: Map<string, number>;
    let first: RollSummary | undefined;
    const lines: string[] = [];
    beforeAll(async () => {
      store = await engine.open();
      await loadDemoMarket(store, { asOf: AS_OF, scale: 1 }, SOME);
      await optionsStep.run(store, { asOf: AS_OF, scale: 1, log: () => {} });
      await writeDemoState(store, { asOf: AS_OF, scale: 1, pinned: false });
      before = await loadedRows(store);
      lastClose = new Map();
      for (const t of SOME) lastClose.set(t, (await bars(store, 'minute', t)).at(-1)!.c);
      first = await rollDemo(store, { nowMs: NOW, log: (l) => lines.push(l) });
    }, 240_000);
    afterAll(async () => {
      await store?.close();
    });

    it('adds the sessions of the 23rd and 24th for stocks and indices, and nothing of the 25th', async () => {
      expect(first?.sessions).toEqual(['2026-11-23', '2026-11-24']);
      expect((await readDemoState(store))?.asOf).toBe('2026-11-24');
      for (const t of ['AAPL', 'I:SPX']) {
        const days = (await bars(store, 'day', t, nyMidnight('2026-11-21'))).map((b) => b.t);
        expect(days, t).toEqual([nyMidnight('2026-11-23'), nyMidnight('2026-11-24')]);
      }
      // AAPL prints trades on the last sessions, as a load at the 24th would give it
      const aaplTrades = await trades(store, 'AAPL');
      expect(aaplTrades.filter((x) => x.sip_timestamp >= BigInt(nyMidnight('2026-11-24')) * 1_000_000n).length).toBeGreaterThan(1000);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^demo: extended to 2026-11-24: .*2 sessions.*forex and crypto to 2026-11-25 15:00 UTC/);
    });

    it('extends forex and crypto up to the current minute', async () => {
      for (const t of ['C:EURUSD', 'X:BTCUSD']) {
        const minutes = await bars(store, 'minute', t, nyMidnight('2026-11-21'));
        expect(minutes.at(-1)!.t, t).toBe(NOW - 60_000);
        expect(minutes.length, t).toBeGreaterThan(3000);
      }
      const btc = await trades(store, 'X:BTCUSD');
      expect(btc.at(-1)!.sip_timestamp < BigInt(NOW) * 1_000_000n).toBe(true);
      expect(btc.at(-1)!.sip_timestamp >= BigInt(NOW - 60_000) * 1_000_000n).toBe(true);
    });

    it('leaves every row of the loaded days as it was, option chains included', async () => {
      expect((before.options as { day: unknown[] }).day.length).toBeGreaterThan(100);
      expect(await loadedRows(store)).toEqual(before);
    });

    it('prices option chains on the new sessions', async () => {
      const db = sqlOf(store);
      const newQuotes = await db.get("SELECT COUNT(*) AS n FROM quotes WHERE ticker LIKE 'O:AAPL%' AND ts >= ?", [BigInt(nyMidnight('2026-11-24')) * 1_000_000n]);
      expect(Number(newQuotes!.n)).toBeGreaterThan(1000);
    });

    it('carries each walk on from the stored last close (no jump to another level)', async () => {
      const firstMinute = async (t: string) => (await bars(store, 'minute', t, nyMidnight('2026-11-21'), END))[0]!;
      for (const t of SOME) {
        const o = (await firstMinute(t)).o;
        // one overnight step and a few minutes: well within 3 % (the walks have drifted far more over five years)
        expect(Math.abs(o / lastClose.get(t)! - 1), `${t}: ${lastClose.get(t)} → ${o}`).toBeLessThan(0.03);
      }
    });

    it('stores the part of the current crypto and forex day as a day bar equal to the aggregate of its minutes', async () => {
      const btcDayStart = nyMidnight('2026-11-25');
      const btcMinutes = await bars(store, 'minute', 'X:BTCUSD', btcDayStart, NOW);
      expectDayBarOfMinutes((await bars(store, 'day', 'X:BTCUSD', btcDayStart, btcDayStart + 1))[0], btcMinutes);
      const fxDayStart = Date.parse('2026-11-25T00:00:00Z');
      const fxMinutes = await bars(store, 'minute', 'C:EURUSD', fxDayStart, NOW);
      expectDayBarOfMinutes((await bars(store, 'day', 'C:EURUSD', fxDayStart, fxDayStart + 1))[0], fxMinutes);
    });

    it('adds nothing when rolled again at the same instant', async () => {
      const counts = async () => Promise.all(SOME.map(async (t) => [(await bars(store, 'day', t)).length, (await bars(store, 'minute', t)).length, (await trades(store, t)).length]));
      const was = await counts();
      expect(await rollDemo(store, { nowMs: NOW + 30_000 })).toBeUndefined();
      expect(await counts()).toEqual(was);
    });

    it('rolled again on Saturday: adds the 25th and the early-close 27th, completes the partial crypto day, and the snapshot shows the 27th', async () => {
      const t = await startTestApp(store, { envelope: 'native', now: () => SATURDAY });
      try {
        const snapshot = async () => (await t.get('/v2/snapshot/locale/us/markets/stocks/tickers/AAPL')).body.ticker;
        expect((await snapshot())?.day?.c ?? 0).toBe(0); // nothing stored for the 27th yet
        const second = await rollDemo(store, { nowMs: SATURDAY });
        expect(second?.sessions).toEqual(['2026-11-25', '2026-11-27']);
        const day27 = (await bars(store, 'day', 'AAPL', nyMidnight('2026-11-27'), nyMidnight('2026-11-28')))[0]!;
        const after = await snapshot();
        expect(after.day.c).toBeGreaterThan(0);
        expect(after.day.v).toBeGreaterThan(0);
        expect(after.day.c).toBe(day27.c);
        // the 27th closes at 13:00 ET: its after-hours end at 17:00 ET
        const minutes27 = await bars(store, 'minute', 'AAPL', nyMidnight('2026-11-27'), nyMidnight('2026-11-28'));
        expect(minutes27.at(-1)!.t).toBeLessThan(Date.parse('2026-11-27T22:00:00Z'));
        const btcDay = nyMidnight('2026-11-25');
        const whole = await bars(store, 'minute', 'X:BTCUSD', btcDay, nyMidnight('2026-11-26'));
        expect(whole.length).toBeGreaterThan(1400);
        expectDayBarOfMinutes((await bars(store, 'day', 'X:BTCUSD', btcDay, btcDay + 1))[0], whole);
      } finally {
        await t.close();
      }
    }, 120_000);

    it('rolled at 17:00 ET on a weekday: the session waits for the end of its after-hours, nothing stored lies past the clock', async () => {
      const at17 = Date.parse('2026-11-30T22:00:00Z'); // Monday 17:00 ET
      const summary = await rollDemo(store, { nowMs: at17 });
      expect(summary?.sessions).toEqual([]);
      expect((await readDemoState(store))?.asOf).toBe('2026-11-27');
      const db = sqlOf(store);
      const latest = async (sql: string) => BigInt(String((await db.get(sql))!.m));
      expect(await latest('SELECT MAX(t) AS m FROM minute_bars')).toBeLessThan(BigInt(at17));
      expect(await latest('SELECT MAX(t) AS m FROM day_bars')).toBeLessThan(BigInt(at17));
      expect(await latest('SELECT MAX(sip_timestamp) AS m FROM trades')).toBeLessThan(BigInt(at17) * 1_000_000n);
      expect(await latest('SELECT MAX(ts) AS m FROM quotes')).toBeLessThan(BigInt(at17) * 1_000_000n);
      const t = await startTestApp(store, { envelope: 'native', now: () => at17 });
      try {
        const minutesOfDay = async (ticker: string) =>
          ((await t.get(`/v2/aggs/ticker/${ticker}/range/1/minute/2026-11-30/2026-11-30?limit=50000`)).body.results ?? []).map((b: { t: number }) => b.t);
        for (const ticker of ['AAPL', 'I:SPX']) expect((await minutesOfDay(ticker)).filter((ms: number) => ms >= at17), ticker).toEqual([]);
        expect((await minutesOfDay('X:BTCUSD')).at(-1)).toBe(at17 - 60_000);
      } finally {
        await t.close();
      }
      // 20:30 ET: the session is over, after-hours included, and is added whole
      const at2030 = Date.parse('2026-12-01T01:30:00Z');
      expect((await rollDemo(store, { nowMs: at2030 }))?.sessions).toEqual(['2026-11-30']);
      const minutes = await bars(store, 'minute', 'AAPL', nyMidnight('2026-11-30'), nyMidnight('2026-12-01'));
      expect(minutes[0]!.t).toBeLessThan(Date.parse('2026-11-30T14:30:00Z')); // pre-market, before 09:30 ET
      expect(minutes.at(-1)!.t).toBeGreaterThanOrEqual(Date.parse('2026-12-01T00:00:00Z')); // after 19:00 ET
      expect(minutes.at(-1)!.t).toBeLessThan(Date.parse('2026-12-01T01:00:00Z')); // before 20:00 ET
    }, 120_000);

    it('never rolls a pinned data set', async () => {
      const state = (await readDemoState(store))!;
      await writeDemoState(store, { ...state, pinned: true });
      const days = (await bars(store, 'day', 'AAPL')).length;
      expect(await rollDemo(store, { nowMs: Date.parse('2026-12-10T15:00:00Z') })).toBeUndefined();
      expect((await bars(store, 'day', 'AAPL')).length).toBe(days);
      expect((await readDemoState(store))?.asOf).toBe(state.asOf);
    });
  });
}

for (const engine of engines()) {
  describe(`rolling a demo loaded before the as-of date was recorded (${engine.name})`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
      await loadDemoMarket(store, { asOf: AS_OF, scale: 1 }, ['I:SPX', 'C:EURUSD']);
    }, 120_000);
    afterAll(async () => {
      await store?.close();
    });

    it('rolls from the date of its latest index day bar when the demo marker is present, and leaves data without the marker alone', async () => {
      expect(await rollDemo(store, { nowMs: NOW })).toBeUndefined(); // not a demo store
      expect((await bars(store, 'day', 'I:SPX', nyMidnight('2026-11-21'))).length).toBe(0);
      await store.meta.set('demo_loaded', '2026-11-20T23:00:00.000Z');
      const summary = await rollDemo(store, { nowMs: NOW });
      expect(summary?.fromAsOf).toBe(AS_OF);
      expect(summary?.sessions).toEqual(['2026-11-23', '2026-11-24']);
      expect(await readDemoState(store)).toEqual({ asOf: '2026-11-24', scale: 1, pinned: false, rolledMs: NOW });
      expect((await bars(store, 'day', 'I:SPX', nyMidnight('2026-11-21'))).map((b) => b.t)).toEqual([nyMidnight('2026-11-23'), nyMidnight('2026-11-24')]);
      expect((await bars(store, 'minute', 'C:EURUSD')).at(-1)!.t).toBe(NOW - 60_000);
    }, 60_000);
  });
}
