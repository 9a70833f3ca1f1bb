// A small market whose snapshot answers can be worked out by hand.
//
// Stocks trade on Thursday 2026-11-19 (previous session Wednesday 11-18). Clocks used:
//   MID   = 11:00 ET on 11-19 (minute bars starting ≤ 10:59 are complete)
//   AFTER = 21:00 ET on 11-19 (the session is over: stored day bars apply)
// Forex C:EURUSD / C:GBPUSD have UTC days; crypto X:BTCUSD / X:ETHUSD New York days.
import type { BarRow, QuoteRow, TradeRow } from '../../src/domain/market-records.js';
import type { Store } from '../../src/store/index.js';
import type { TickerRecord } from '../../src/store/records.js';

export const NY_OFFSET_H = 5; // November: EST
export const et = (date: string, hhmm: string, sec = 0): number => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return Date.parse(`${date}T00:00:00Z`) + ((h + NY_OFFSET_H) * 3600 + m * 60 + sec) * 1000;
};
export const nsOf = (ms: number, extra = 0n): bigint => BigInt(ms) * 1_000_000n + extra;

export const DAY = '2026-11-19';
export const PREV = '2026-11-18';
export const MID = et(DAY, '11:00');
export const AFTER = et(DAY, '21:00');
export const DAY_START = et(DAY, '00:00');
export const PREV_START = et(PREV, '00:00');

type Minute = [hhmm: string, o: number, h: number, l: number, c: number, v: number, vw: number, n: number];

function minutes(ticker: string, date: string, rows: Minute[]): BarRow[] {
  return rows.map(([hhmm, o, h, l, c, v, vw, n]) => ({ ticker, t: et(date, hhmm), o, h, l, c, v, vw, n }));
}

/** The day bar the store would derive from these minute bars. */
export function foldBars(ticker: string, t: number, bars: readonly BarRow[]): BarRow {
  const v = bars.reduce((s, b) => s + (b.v ?? 0), 0);
  const pv = bars.reduce((s, b) => s + (b.vw ?? 0) * (b.v ?? 0), 0);
  return {
    ticker,
    t,
    o: bars[0]!.o,
    h: Math.max(...bars.map((b) => b.h)),
    l: Math.min(...bars.map((b) => b.l)),
    c: bars[bars.length - 1]!.c,
    v,
    vw: pv / v,
    n: bars.reduce((s, b) => s + (b.n ?? 0), 0),
  };
}

export const AAA_MINUTES = minutes('AAA', DAY, [
  ['09:30', 101, 102, 100.5, 101.5, 6000, 101.2, 30],
  ['10:00', 101.5, 104, 101, 103.5, 5000, 103, 25],
  ['10:59', 103.5, 104.5, 103, 104, 4000, 104.1, 20],
  ['11:00', 104, 105.5, 104, 105, 7000, 104.8, 35], // not complete at MID
  ['15:59', 105, 106.5, 104.5, 106, 9000, 105.9, 40],
]);

const stock = (ticker: string, name: string, market: 'stocks' | 'otc' = 'stocks'): TickerRecord => ({
  ticker,
  name,
  market,
  locale: 'us',
  type: market === 'otc' ? 'OS' : 'CS',
  active: true,
  currency_name: 'usd',
  last_updated_utc: '2026-11-20T00:00:00Z',
  valid_from: '2000-01-01',
});

/** Trades: [ticker, ms, price, size, seq, conditions?] */
function trades(rows: [string, number, number, number, number, number[]?][]): TradeRow[] {
  return rows.map(([ticker, ms, price, size, seq, conditions]) => ({
    ticker,
    sip_timestamp: nsOf(ms, 123_456n),
    participant_timestamp: nsOf(ms, 100_000n),
    price,
    size,
    exchange: 4,
    id: `T${seq}`,
    conditions,
    sequence_number: BigInt(seq),
    tape: 3,
  }));
}

function quotes(rows: [string, number, number, number, number][]): QuoteRow[] {
  return rows.map(([ticker, ms, bid, ask, seq]) => ({
    ticker,
    sip_timestamp: nsOf(ms, 654_321n),
    participant_timestamp: nsOf(ms, 600_000n),
    bid_price: bid,
    ask_price: ask,
    bid_size: 3,
    ask_size: 5,
    bid_exchange: 11,
    ask_exchange: 12,
    sequence_number: BigInt(seq),
    tape: 3,
  }));
}

/** 25 tickers G00..G24 moving +1 %..+25 % (G24 largest) and L00..L24 moving −1 %..−25 %, all with 20,000 shares. */
function movers(): { bars: BarRow[]; minutes: BarRow[] } {
  const bars: BarRow[] = [];
  const mins: BarRow[] = [];
  for (let i = 0; i < 25; i++) {
    for (const [prefix, sign] of [['G', 1], ['L', -1]] as const) {
      const ticker = `${prefix}${String(i).padStart(2, '0')}`;
      const close = 100 + sign * (i + 1);
      bars.push({ ticker, t: PREV_START, o: 100, h: 100, l: 100, c: 100, v: 50_000, vw: 100, n: 10 });
      bars.push({ ticker, t: DAY_START, o: 100, h: Math.max(100, close), l: Math.min(100, close), c: close, v: 20_000, vw: 100, n: 10 });
      mins.push({ ticker, t: et(DAY, '10:00'), o: 100, h: Math.max(100, close), l: Math.min(100, close), c: close, v: 20_000, vw: 100, n: 10 });
    }
  }
  return { bars, minutes: mins };
}

export async function loadSnapshotFixture(store: Store): Promise<void> {
  await store.reference.upsertTickers([
    stock('AAA', 'Alpha'), stock('BBB', 'Beta'), stock('CCC', 'Thin Volume'), stock('OTCX', 'Pink Sheet', 'otc'),
  ]);
  const dayBars: BarRow[] = [
    { ticker: 'AAA', t: PREV_START, o: 98, h: 101, l: 97, c: 100, v: 1_000_000, vw: 99.5, n: 5000 },
    foldBars('AAA', DAY_START, AAA_MINUTES),
    { ticker: 'BBB', t: PREV_START, o: 50, h: 51, l: 49, c: 50, v: 500_000, vw: 50.2, n: 3000 },
    { ticker: 'BBB', t: DAY_START, o: 49, h: 49.5, l: 44, c: 45, v: 300_000, vw: 46, n: 2000 },
    // +100 % on 5,000 shares: too thin for the movers lists
    { ticker: 'CCC', t: PREV_START, o: 10, h: 10, l: 10, c: 10, v: 8000, vw: 10, n: 10 },
    { ticker: 'CCC', t: DAY_START, o: 10, h: 20, l: 10, c: 20, v: 5000, vw: 15, n: 10 },
    // +200 % OTC: only with include_otc
    { ticker: 'OTCX', t: PREV_START, o: 1, h: 1, l: 1, c: 1, v: 100_000, vw: 1, n: 10 },
    { ticker: 'OTCX', t: DAY_START, o: 1, h: 3, l: 1, c: 3, v: 200_000, vw: 2, n: 10 },
  ];
  const m = movers();
  await store.market.insertBars('day', [...dayBars, ...m.bars]);
  await store.market.insertBars('minute', [
    ...AAA_MINUTES,
    ...minutes('BBB', DAY, [['10:30', 49, 49.5, 46, 46.5, 150_000, 47, 900], ['15:59', 45.5, 45.5, 44, 45, 150_000, 45, 1100]]),
    ...minutes('CCC', DAY, [['10:00', 10, 20, 10, 20, 5000, 15, 10]]),
    ...minutes('OTCX', DAY, [['10:00', 1, 3, 1, 3, 200_000, 2, 10]]),
    ...m.minutes,
  ]);
  await store.market.insertTrades(
    trades([
      ['AAA', et(PREV, '15:59', 50), 100, 100, 1],
      ['AAA', et(DAY, '09:30', 1), 101, 200, 10, [12, 37]],
      ['AAA', et(DAY, '10:59', 30), 104, 300, 20],
      ['AAA', et(DAY, '11:00', 30), 105, 100, 30], // after MID
      ['AAA', et(DAY, '15:59', 59), 106, 400, 40, [14]],
      ['BBB', et(DAY, '10:30', 5), 46.5, 1000, 5],
      ['BBB', et(DAY, '15:59', 10), 45, 500, 6],
    ]),
  );
  await store.market.insertQuotes(
    quotes([
      ['AAA', et(DAY, '10:59', 40), 103.9, 104.1, 100],
      ['AAA', et(DAY, '11:00', 40), 104.9, 105.1, 101],
      ['AAA', et(DAY, '15:59', 59), 105.9, 106.1, 102],
    ]),
  );

  // Forex: UTC days. Previous day 11-18 closes 1.1000; on 11-19 EUR rises to 1.1220 by 16:00Z.
  const fx = (ticker: string, t: number, o: number, h: number, l: number, c: number, v: number): BarRow => ({ ticker, t, o, h, l, c, v, n: v });
  const utc = (date: string, hhmm: string) => Date.parse(`${date}T${hhmm}:00Z`);
  await store.market.insertBars('day', [
    fx('C:EURUSD', utc(PREV, '00:00'), 1.09, 1.105, 1.088, 1.1, 90_000),
    fx('C:GBPUSD', utc(PREV, '00:00'), 1.3, 1.31, 1.29, 1.3, 80_000),
  ]);
  await store.market.insertBars('minute', [
    fx('C:EURUSD', utc(DAY, '00:00'), 1.1, 1.101, 1.099, 1.1005, 40),
    fx('C:EURUSD', utc(DAY, '10:00'), 1.11, 1.115, 1.109, 1.114, 60),
    fx('C:EURUSD', utc(DAY, '15:58'), 1.121, 1.123, 1.12, 1.122, 30),
    fx('C:EURUSD', utc(DAY, '16:30'), 1.13, 1.13, 1.13, 1.13, 10), // after the fx clock
    fx('C:GBPUSD', utc(DAY, '09:00'), 1.3, 1.3, 1.27, 1.274, 50),
  ]);
  const fxQuote = (ticker: string, ms: number, bid: number, ask: number): QuoteRow => ({
    ticker,
    participant_timestamp: nsOf(ms, 5n),
    bid_price: bid,
    ask_price: ask,
    bid_exchange: 48,
    ask_exchange: 48,
  });
  await store.market.insertQuotes([
    fxQuote('C:EURUSD', utc(DAY, '15:58') + 30_000, 1.1219, 1.1221),
    fxQuote('C:EURUSD', utc(DAY, '16:30'), 1.1299, 1.1301),
    fxQuote('C:GBPUSD', utc(DAY, '09:00') + 10_000, 1.274, 1.2742),
    fxQuote('C:USDJPY', utc(DAY, '09:00') + 10_000, 150.1, 150.12),
    fxQuote('C:EURGBP', utc(DAY, '09:00') + 10_000, 0.8601, 0.8603),
  ]);

  // Crypto: New York days; BTC from 60,000 (prev close) to 63,000.
  await store.market.insertBars('day', [
    { ticker: 'X:BTCUSD', t: PREV_START, o: 59_000, h: 61_000, l: 58_000, c: 60_000, v: 1200, vw: 59_800, n: 9000 },
    { ticker: 'X:ETHUSD', t: PREV_START, o: 3000, h: 3100, l: 2900, c: 3000, v: 9000, vw: 3010, n: 9000 },
  ]);
  await store.market.insertBars('minute', [
    { ticker: 'X:BTCUSD', t: et(DAY, '01:00'), o: 60_000, h: 61_000, l: 59_900, c: 60_500, v: 10, vw: 60_300, n: 50 },
    { ticker: 'X:BTCUSD', t: et(DAY, '10:30'), o: 62_000, h: 63_100, l: 61_900, c: 63_000, v: 12, vw: 62_500, n: 60 },
    { ticker: 'X:ETHUSD', t: et(DAY, '10:30'), o: 3000, h: 3000, l: 2850, c: 2880, v: 100, vw: 2900, n: 60 },
  ]);
  await store.market.insertTrades([
    { ticker: 'X:BTCUSD', sip_timestamp: nsOf(et(DAY, '10:30', 45)), participant_timestamp: nsOf(et(DAY, '10:30', 45)), price: 63_000, size: 0.5, exchange: 1, id: 'b1', conditions: [1] },
    { ticker: 'X:ETHUSD', sip_timestamp: nsOf(et(DAY, '10:30', 50)), participant_timestamp: nsOf(et(DAY, '10:30', 50)), price: 2880, size: 2, exchange: 1, id: 'e1', conditions: [1] },
  ]);
}

// EXT trades in every part of the 11-19 session, in fractional shares: pre-market (04:00–09:30 ET)
// last 51.5, regular (09:30–16:00) close 54, after hours (16:00–20:00) last 53.5, against a
// previous close of 50. Each minute's trade is at :30, so a clock inside a minute sees the trade
// before the minute bar is complete.
export const EXT_MINUTES = minutes('EXT', DAY, [
  ['07:00', 50.2, 51, 50.2, 51, 300.5, 50.6, 3],
  ['09:00', 51, 51.6, 51, 51.5, 200.25, 51.3, 2],
  ['09:30', 51.5, 52.2, 51.4, 52, 1000, 51.9, 10],
  ['10:30', 52, 53.1, 52, 53, 2000, 52.6, 20],
  ['15:59', 53, 54.2, 53, 54, 1500, 53.8, 15],
  ['16:30', 54, 55, 54, 55, 400.125, 54.6, 4],
  ['19:59', 55, 55, 53.5, 53.5, 100, 54, 1],
]);

export async function loadSessionPartsFixture(store: Store): Promise<void> {
  await store.reference.upsertTickers([stock('EXT', 'Extended Hours')]);
  await store.market.insertBars('day', [
    { ticker: 'EXT', t: PREV_START, o: 49, h: 50.5, l: 48.5, c: 50, v: 9000, vw: 49.7, n: 90 },
    foldBars('EXT', DAY_START, EXT_MINUTES),
  ]);
  await store.market.insertBars('minute', EXT_MINUTES);
  // the last trade of each minute is its close; the after-hours one is half a share
  await store.market.insertTrades(trades(EXT_MINUTES.map((b, i) => ['EXT', b.t + 30_000, b.c, i === EXT_MINUTES.length - 1 ? 0.5 : 100, 100 + i])));
}
