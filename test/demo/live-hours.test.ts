// The live demo tape keeps each market's hours: with the clock set to a Sunday evening it prints
// crypto (and forex once it opens at 17:00 ET) but no stock, option or index event; on a weekday
// morning it prints stocks, option quotes repriced from the underlying's price on the tape, and
// indices moving with their ETF. Its values stay plausible: whole-share stock sizes, crypto sizes
// with fixed decimals, I:SPX ten times SPY.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveDemo } from '../../src/demo/live.js';
import { tapeActivity } from '../../src/demo/live-hours.js';
import { nyTime } from '../../src/domain/calendar.js';
import { impliedVolatility, yearFraction } from '../../src/domain/greeks.js';
import { formatOptionTicker } from '../../src/domain/option-symbol.js';
import { openStore, type Store } from '../../src/store/index.js';
import type { OptionsContractRecord } from '../../src/store/repos/options.js';
import type { PublishedEvent } from '../../src/stream/publish-input.js';

const SUNDAY = '2026-12-06';
const MONDAY = '2026-12-07';
const CHRISTMAS = '2026-12-25';
const EXPIRY = '2027-01-15';

let store: Store;

function contract(type: 'call' | 'put', strike: number): OptionsContractRecord {
  return {
    ticker: formatOptionTicker({ underlying: 'SPY', expiration_date: EXPIRY, contract_type: type, strike_price: strike }),
    underlying_ticker: 'SPY', contract_type: type, exercise_style: 'american', expiration_date: EXPIRY, strike_price: strike,
    shares_per_contract: 100, primary_exchange: 'BATO', cfi: type === 'call' ? 'OCASPS' : 'OPASPS', list_date: '2026-09-01',
  };
}

beforeAll(async () => {
  store = await openStore({ sqliteFile: ':memory:' });
  // SPY starts at its stored last trade; its chain from deep in to far out of the money
  await store.market.insertTrades([{
    ticker: 'SPY', sip_timestamp: BigInt(nyTime('2026-12-04', '15:59')) * 1_000_000n, participant_timestamp: undefined, trf_timestamp: undefined,
    price: 680, size: 100, exchange: 4, id: 'seed', conditions: undefined, correction: undefined, sequence_number: undefined, tape: 2, trf_id: undefined,
  }]);
  await store.options.upsertContracts([560, 620, 680, 740, 800].flatMap((k) => [contract('call', k), contract('put', k)]));
});
afterAll(async () => store?.close());

/** The events the tape publishes over `runMs` of real time with its clock starting at `startMs`. */
async function tapeAt(startMs: number, runMs = 700, seed?: number): Promise<PublishedEvent[]> {
  const events: PublishedEvent[] = [];
  const began = Date.now();
  const demo = await startLiveDemo({
    market: store.market,
    options: store,
    publish: async (items) => {
      events.push(...items);
    },
    rate: 3000,
    seed,
    now: () => startMs + (Date.now() - began),
  });
  await new Promise((r) => setTimeout(r, runMs));
  await demo.stop();
  return events;
}

const marketsOf = (events: PublishedEvent[]) => new Set(events.map((e) => e.market));

describe('the live demo tape keeps market hours', () => {
  it('on Sunday 22:00 ET prints crypto and forex, and no stock, option or index event', async () => {
    const events = await tapeAt(nyTime(SUNDAY, '22:00'));
    const markets = marketsOf(events);
    expect(markets.has('crypto')).toBe(true);
    expect(markets.has('forex')).toBe(true);
    expect(markets.has('stocks')).toBe(false);
    expect(markets.has('options')).toBe(false);
    expect(markets.has('indices')).toBe(false);
  });

  it('on Sunday 16:00 ET prints crypto only: forex opens at 17:00 ET', async () => {
    const markets = marketsOf(await tapeAt(nyTime(SUNDAY, '16:00')));
    expect([...markets]).toEqual(['crypto']);
  });

  it('prints no stock on a market holiday, a weekday', async () => {
    const markets = marketsOf(await tapeAt(nyTime(CHRISTMAS, '11:00')));
    expect(markets.has('stocks')).toBe(false);
    expect(markets.has('crypto')).toBe(true);
  });

  it('on a weekday at 10:00 ET prints stocks, indices and option quotes priced from the underlying on the tape', async () => {
    const events = await tapeAt(nyTime(MONDAY, '10:00'));
    const markets = marketsOf(events);
    for (const m of ['stocks', 'options', 'indices', 'crypto', 'forex'] as const) expect(markets.has(m)).toBe(true);
    const trades = events.filter((e) => e.market === 'stocks' && e.event.ev === 'T');
    expect(trades.length).toBeGreaterThan(0);
    expect(trades.every((e) => e.event.c === undefined)).toBe(true); // regular-session prints carry no Form T
    // each option quote is worth what the option is worth with SPY where the tape had it then:
    // its mid has an implied volatility, near the chain's (16 % at the money, a smile around it)
    let spy = 680;
    let quotes = 0;
    for (const { market, event } of events) {
      if (market === 'stocks' && event.sym === 'SPY') spy = event.ev === 'T' ? (event.p as number) : ((event.bp as number) + (event.ap as number)) / 2;
      if (market !== 'options') continue;
      quotes++;
      const sym = String(event.sym);
      const type = sym.includes('C0') ? 'call' : 'put';
      const K = Number(sym.slice(-8)) / 1000;
      const mid = ((event.bp as number) + (event.ap as number)) / 2;
      const iv = impliedVolatility({ type, price: mid, S: spy, K, T: yearFraction(event.t as number, EXPIRY), r: 0.04, q: 0 });
      if (Math.abs(Math.log(K / spy)) < 0.1) expect(iv, `${sym} mid ${mid} with SPY at ${spy}`).toBeGreaterThan(0.1);
    }
    expect(quotes).toBeGreaterThan(10);
  });

  it('after hours prints stocks thinly, as Form T trades, and no index', async () => {
    const regular = await tapeAt(nyTime(MONDAY, '15:00'));
    const late = await tapeAt(nyTime(MONDAY, '18:00'));
    const stocks = (events: PublishedEvent[]) => events.filter((e) => e.market === 'stocks');
    expect(stocks(late).length).toBeGreaterThan(0);
    expect(stocks(late).length).toBeLessThan(stocks(regular).length / 3);
    expect(stocks(late).filter((e) => e.event.ev === 'T').every((e) => (e.event.c as number[])[0] === 12)).toBe(true);
    expect(marketsOf(late).has('indices')).toBe(false);
    expect(marketsOf(await tapeAt(nyTime(MONDAY, '20:30'))).has('stocks')).toBe(false);
  });

  it('follows the calendars of every market', () => {
    const sunday = nyTime(SUNDAY, '22:00');
    expect(tapeActivity('stocks', sunday)).toBe(0);
    expect(tapeActivity('crypto', sunday)).toBe(1);
    expect(tapeActivity('forex', sunday)).toBe(1);
    expect(tapeActivity('futures', sunday)).toBe(1); // Globex opens Sunday 18:00 ET
    expect(tapeActivity('futures', nyTime('2026-12-05', '12:00'))).toBe(0); // Saturday
    expect(tapeActivity('futures', nyTime(MONDAY, '17:30'))).toBe(0); // the daily maintenance hour
    expect(tapeActivity('stocks', nyTime(MONDAY, '04:30'))).toBeGreaterThan(0);
    expect(tapeActivity('stocks', nyTime(MONDAY, '04:30'))).toBeLessThan(1);
    expect(tapeActivity('stocks', nyTime(MONDAY, '03:59'))).toBe(0);
    expect(tapeActivity('indices', nyTime(MONDAY, '09:29'))).toBe(0);
    expect(tapeActivity('indices', nyTime(MONDAY, '09:30'))).toBe(1);
  });
});

describe('the live demo tape prints plausible values', () => {
  it('whole-share stock sizes, crypto sizes with fixed decimals, I:SPX ten times SPY', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 389 }), fc.integer({ min: 1, max: 2 ** 31 }), async (minute, seed) => {
        const events = await tapeAt(nyTime(MONDAY, '09:30') + minute * 60_000, 250, seed);
        let spy: number | undefined;
        for (const { market, event } of events) {
          if (market === 'stocks' && event.ev === 'T') expect(Number.isInteger(event.s)).toBe(true);
          if (market === 'crypto') {
            for (const size of [event.s, event.bs, event.as].filter((v) => v !== undefined) as number[]) {
              expect(size).toBeGreaterThan(0);
              expect(Number(size.toFixed(5))).toBe(size);
            }
          }
          if (market === 'stocks' && event.sym === 'SPY' && event.ev === 'T') spy = event.p as number;
          if (market === 'indices' && event.T === 'I:SPX' && spy !== undefined) expect(Math.abs((spy * 10) / (event.val as number) - 1)).toBeLessThan(0.005);
        }
      }),
      { numRuns: 6 },
    );
  }, 30_000);
});
