// A small market whose aggregates, trades and quotes can be worked out by hand.
//
// AAPL   day bars on the 15 sessions 2024-02-26 … 2024-03-15, a 2-for-1 split executed 2024-03-11.
//        Session i (0-based) adjusted: o=100+i h=101+i l=99+i c=100.5+i v=2000(i+1) vw=100.25+i n=10+i;
//        stored raw: before the split prices ×2 and volume ÷2 (o=2(100+i), v=1000(i+1), …).
//        Minute bars on 2024-03-08 (EST, raw, pre-split) and 2024-03-11 (EDT, post-split), every
//        minute 04:00–19:59: minute k (0 = 04:00) has o=h=l=c=vw=1000+k, v=10, n=1.
//        Trades and quotes on 2024-03-11 (see AAPL_TRADES), with timestamp ties.
// MSFT   day bars 2024-07-01 … 2024-07-05 (07-04 is a holiday, 07-03 closes at 13:00): o=h=l=c=400+i;
//        minute bars on 2024-07-03 04:00–16:59 (early close: after hours end 17:00), price 500+k.
// OTCX   an OTC ticker (reference market otc) with day bars like AAPL's, price 1.
// X:BTCUSD minute bars every minute 2024-03-09 00:00 EST … 2024-03-10 23:59 EDT (47 h: the DST
//        day has 23 h), price 50000+k; crypto trades on 2024-03-10 (UTC day).
// C:EURUSD day bars at 00:00 UTC 2024-03-04 … 03-08, o=h=l=c=1.08+i/100; quotes (participant time only).
// BNDY   day bars on calendar-boundary sessions (BNDY_DATES), o=h=l=c=index, v=1.
// I:SPX  day bars (no v, vw, n) on 2024-03-04 … 03-08.
// O:SPY240315C00500000 day bars 2024-03-04 … 03-08 and one trade.
import { nyMidnight, nyTime, tradingDaysBetween } from '../../src/domain/calendar.js';
import type { BarRow, QuoteRow, TradeRow } from '../../src/domain/market-records.js';
import type { Store } from '../../src/store/index.js';
import { FIXTURE_TICKERS } from './reference-fixture.js';

export const MIN = 60_000;
export const HOUR = 3_600_000;
export const utc = (iso: string): number => Date.parse(iso);
export const ns = (iso: string, extra = 0n): bigint => BigInt(Date.parse(iso)) * 1_000_000n + extra;

export const AAPL_SESSIONS = tradingDaysBetween('2024-02-26', '2024-03-15');
export const SPLIT_DATE = '2024-03-11';
export const OPTION = 'O:SPY240315C00500000';

/** AAPL's day bar of session i as the API shows it adjusted. */
export function aaplAdjusted(i: number) {
  return { o: 100 + i, h: 101 + i, l: 99 + i, c: 100.5 + i, v: 2000 * (i + 1), vw: 100.25 + i, n: 10 + i };
}

function aaplDayBars(): BarRow[] {
  return AAPL_SESSIONS.map((d, i) => {
    const a = aaplAdjusted(i);
    const k = d < SPLIT_DATE ? 2 : 1;
    return { ticker: 'AAPL', t: nyMidnight(d), o: a.o * k, h: a.h * k, l: a.l * k, c: a.c * k, v: a.v / k, vw: a.vw * k, n: a.n };
  });
}

/** Minute bars every minute of [from, to) with price base+k (k = minutes since `from`). */
export function minuteRun(ticker: string, fromMs: number, toMs: number, base: number): BarRow[] {
  const out: BarRow[] = [];
  for (let t = fromMs, k = 0; t < toMs; t += MIN, k++) {
    const p = base + k;
    out.push({ ticker, t, o: p, h: p, l: p, c: p, v: 10, vw: p, n: 1 });
  }
  return out;
}

export const AAPL_MINUTE_DAYS = ['2024-03-08', '2024-03-11'];

// Trades of AAPL on 2024-03-11 (EDT). Ten rows; three share one SIP time with sequence numbers
// 5, 6, 7 and two more share both SIP time and sequence number (only the store's key differs).
const T0 = '2024-03-11T13:30:00Z'; // 09:30 EDT
export const AAPL_TRADES: TradeRow[] = [
  { ticker: 'AAPL', sip_timestamp: ns(T0, 123_456_789n), participant_timestamp: ns(T0, 123_000_001n), price: 170.01, size: 100, exchange: 4, id: 't1', conditions: [12, 37], sequence_number: 1n, tape: 3, trf_id: 202, trf_timestamp: ns(T0, 123_400_000n) },
  { ticker: 'AAPL', sip_timestamp: ns(T0, 223_456_789n), participant_timestamp: ns(T0, 223_000_001n), price: 170.02, size: 5.5, exchange: 11, id: 't2', sequence_number: 2n, tape: 3 },
  { ticker: 'AAPL', sip_timestamp: ns(T0, 500_000_001n), participant_timestamp: ns(T0, 500_000_000n), price: 170.05, size: 10, exchange: 4, id: 't5', sequence_number: 5n, tape: 3 },
  { ticker: 'AAPL', sip_timestamp: ns(T0, 500_000_001n), participant_timestamp: ns(T0, 500_000_000n), price: 170.06, size: 10, exchange: 4, id: 't6', sequence_number: 6n, tape: 3 },
  { ticker: 'AAPL', sip_timestamp: ns(T0, 500_000_001n), participant_timestamp: ns(T0, 500_000_000n), price: 170.07, size: 10, exchange: 4, id: 't7', sequence_number: 7n, tape: 3 },
  { ticker: 'AAPL', sip_timestamp: ns(T0, 600_000_001n), participant_timestamp: ns(T0, 600_000_000n), price: 170.08, size: 1, exchange: 4, id: 't8a', sequence_number: 8n, tape: 3 },
  { ticker: 'AAPL', sip_timestamp: ns(T0, 600_000_001n), participant_timestamp: ns(T0, 600_000_000n), price: 170.09, size: 1, exchange: 12, id: 't8b', sequence_number: 8n, tape: 3 },
  { ticker: 'AAPL', sip_timestamp: ns('2024-03-11T13:30:01Z', 1n), participant_timestamp: ns('2024-03-11T13:30:01Z'), price: 170.1, size: 20, exchange: 4, id: 't9', sequence_number: 9n, tape: 3 },
  { ticker: 'AAPL', sip_timestamp: ns('2024-03-11T13:30:03Z', 999_999_999n), participant_timestamp: ns('2024-03-11T13:30:03Z'), price: 170.2, size: 30, exchange: 4, id: 't10', sequence_number: 10n, tape: 3 },
  // 20:30 EDT = 00:30Z on 03-12: the ET day is still 03-11
  { ticker: 'AAPL', sip_timestamp: ns('2024-03-12T00:30:00Z', 42n), participant_timestamp: ns('2024-03-12T00:30:00Z'), price: 171, size: 1, exchange: 4, id: 't11', sequence_number: 11n, tape: 3, correction: 1 },
];

export const AAPL_QUOTES: QuoteRow[] = [
  { ticker: 'AAPL', sip_timestamp: ns(T0, 100_000_007n), participant_timestamp: ns(T0, 100_000_000n), ask_price: 170.03, ask_size: 3, ask_exchange: 11, bid_price: 170.0, bid_size: 4, bid_exchange: 19, sequence_number: 100n, tape: 3, conditions: [1], indicators: [604] },
  { ticker: 'AAPL', sip_timestamp: ns(T0, 400_000_007n), participant_timestamp: ns(T0, 400_000_000n), ask_price: 170.04, ask_size: 2, ask_exchange: 11, bid_price: 170.01, bid_size: 5, bid_exchange: 15, sequence_number: 101n, tape: 3 },
  { ticker: 'AAPL', sip_timestamp: ns(T0, 400_000_007n), participant_timestamp: ns(T0, 400_000_000n), ask_price: 170.05, ask_size: 2, ask_exchange: 11, bid_price: 170.02, bid_size: 5, bid_exchange: 15, sequence_number: 102n, tape: 3 },
  { ticker: 'AAPL', sip_timestamp: ns(T0, 900_000_007n), participant_timestamp: ns(T0, 900_000_000n), ask_price: 170.06, ask_size: 1, ask_exchange: 12, bid_price: 170.03, bid_size: 1, bid_exchange: 12, sequence_number: 103n, tape: 3, trf_timestamp: ns(T0, 900_000_005n) },
];

export const EURUSD_QUOTES: QuoteRow[] = [
  { ticker: 'C:EURUSD', participant_timestamp: ns('2024-03-08T21:59:58Z', 1n), ask_price: 1.0936, ask_exchange: 48, bid_price: 1.0934, bid_exchange: 48 },
  { ticker: 'C:EURUSD', participant_timestamp: ns('2024-03-08T21:59:59Z', 7n), ask_price: 1.0937, ask_exchange: 48, bid_price: 1.0935, bid_exchange: 48 },
];

export const BTC_TRADES: TradeRow[] = [
  { ticker: 'X:BTCUSD', sip_timestamp: ns('2024-03-10T00:00:01Z', 5n), participant_timestamp: ns('2024-03-10T00:00:01Z', 5n), price: 68000.5, size: 0.01, exchange: 1, id: 'b1', conditions: [2] },
  { ticker: 'X:BTCUSD', sip_timestamp: ns('2024-03-10T00:00:02Z'), participant_timestamp: ns('2024-03-10T00:00:02Z'), price: 68001, size: 0.02, exchange: 4, id: 'b2', conditions: [1] },
  { ticker: 'X:BTCUSD', sip_timestamp: ns('2024-03-10T12:00:00Z'), participant_timestamp: ns('2024-03-10T12:00:00Z'), price: 68500, size: 0.5, exchange: 1, id: 'b3', conditions: [2] },
  { ticker: 'X:BTCUSD', sip_timestamp: ns('2024-03-10T23:59:59Z'), participant_timestamp: ns('2024-03-10T23:59:59Z'), price: 69000.25, size: 0.003, exchange: 2, id: 'b4', conditions: [1] },
];

/** Sessions either side of year, quarter and month ends, and of the November DST change. */
export const BNDY_DATES = ['2023-12-29', '2024-01-02', '2024-03-28', '2024-04-01', '2024-06-28', '2024-07-01', '2024-11-01', '2024-11-04'];

const tradingWeek = tradingDaysBetween('2024-03-04', '2024-03-08');

export async function seedMarket(store: Store): Promise<void> {
  await store.reference.upsertTickers(FIXTURE_TICKERS);
  const m = store.market;
  await m.insertBars('day', aaplDayBars());
  await m.insertBars('day', AAPL_SESSIONS.map((d) => ({ ticker: 'OTCX', t: nyMidnight(d), o: 1, h: 1.1, l: 0.9, c: 1, v: 500, vw: 1, n: 3 })));
  for (const d of AAPL_MINUTE_DAYS) await m.insertBars('minute', minuteRun('AAPL', nyTime(d, '04:00'), nyTime(d, '20:00'), 1000));
  await m.insertBars('day', tradingDaysBetween('2024-07-01', '2024-07-05').map((d, i) => {
    const p = 400 + i;
    return { ticker: 'MSFT', t: nyMidnight(d), o: p, h: p, l: p, c: p, v: 100, vw: p, n: 5 };
  }));
  await m.insertBars('day', BNDY_DATES.map((d, i) => ({ ticker: 'BNDY', t: nyMidnight(d), o: i, h: i, l: i, c: i, v: 1, vw: i, n: 1 })));
  await m.insertBars('minute', minuteRun('MSFT', nyTime('2024-07-03', '04:00'), nyTime('2024-07-03', '17:00'), 500));
  await m.insertBars('minute', minuteRun('X:BTCUSD', nyMidnight('2024-03-09'), nyMidnight('2024-03-11'), 50_000));
  await m.deriveDayBars(['X:BTCUSD']);
  await m.insertBars('day', tradingWeek.map((d, i) => {
    const p = 1.08 + i / 100;
    return { ticker: 'C:EURUSD', t: utc(`${d}T00:00:00Z`), o: p, h: p, l: p, c: p, v: 1000 + i, vw: p, n: 1000 + i };
  }));
  await m.insertBars('day', tradingWeek.map((d, i) => ({ ticker: 'I:SPX', t: nyMidnight(d), o: 5100 + i, h: 5110 + i, l: 5090 + i, c: 5105 + i })));
  await m.insertBars('day', tradingWeek.map((d, i) => ({ ticker: OPTION, t: nyMidnight(d), o: 5 + i, h: 6 + i, l: 4 + i, c: 5.5 + i, v: 100, vw: 5.2 + i, n: 7 })));
  await m.insertTrades(AAPL_TRADES);
  await m.insertTrades(BTC_TRADES);
  await m.insertTrades([{ ticker: OPTION, sip_timestamp: ns('2024-03-08T15:00:00Z', 17n), price: 6.2, size: 3, exchange: 312, conditions: [209] }]);
  await m.insertQuotes(AAPL_QUOTES);
  await m.insertQuotes(EURUSD_QUOTES);
  await store.corporateActions.upsertSplits([{ ticker: 'AAPL', execution_date: SPLIT_DATE, split_from: 1, split_to: 2, adjustment_type: 'forward_split' }]);
}

/** A clock after every fixture row (data dated later than `now` would be cut as not yet public). */
export const FIXTURE_NOW = utc('2024-12-31T12:00:00Z');
