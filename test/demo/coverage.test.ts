// The demo data set's promised coverage, checked the way a user would: load the demo into an
// in-memory SQLite store (default scale, as `tickerbase demo` and the first start load it) and ask
// the public endpoints with a demo-plan key.
//
// Promises: ≥ 5 option underlyings whose chains have several expirations with calls and puts;
// ≥ 10 currency pairs (C:) with quotes and bars; ≥ 5 crypto pairs (X:) with ticks and bars (the
// demo prints crypto trades, not quotes: upstream's crypto tape is trades); ≥ 10 stocks with
// trades and quotes in each of the last 2 sessions; ≥ 2 splits; ≥ 60 real-name tickers with day
// bars covering 5 years.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AS_OF, loadDemo } from '../../src/demo/load.js';
import { REAL_STOCK_SYMBOLS } from '../../src/demo/universe.js';
import { previousTradingDay, tradingDaysBetween } from '../../src/domain/calendar.js';
import { openStore, type Store } from '../../src/store/index.js';
import { startTestApp, walkPages, type TestApp } from '../helpers/app.js';

const AS_OF = DEMO_AS_OF; // the demo's "today" (docs/demo-data.md: "--as-of 2026-11-20")
const PREVIOUS_SESSION = previousTradingDay(AS_OF);
/** Five years back from the demo's today, as a user would ask for "5 years of daily bars". */
const FIVE_YEARS_AGO = `${Number(AS_OF.slice(0, 4)) - 5}${AS_OF.slice(4)}`;
const SESSIONS_IN_5_YEARS = tradingDaysBetween(FIVE_YEARS_AGO, AS_OF).length;

/** Well-known pairs a user would try first; the promise is that at least 10 / 5 of them have data. */
const FX_CANDIDATES = ['C:EURUSD', 'C:USDJPY', 'C:GBPUSD', 'C:AUDUSD', 'C:USDCAD', 'C:USDCHF', 'C:NZDUSD', 'C:EURGBP', 'C:EURJPY', 'C:GBPJPY', 'C:USDMXN', 'C:EURCHF'];
const CRYPTO_CANDIDATES = ['X:BTCUSD', 'X:ETHUSD', 'X:SOLUSD', 'X:XRPUSD', 'X:LTCUSD', 'X:DOGEUSD', 'X:ADAUSD', 'X:BCHUSD'];
const STOCK_CANDIDATES = ['AAPL', 'MSFT', 'NVDA', 'TSLA', 'AMZN', 'GOOGL', 'GOOG', 'META', 'AMD', 'NFLX', 'SPY', 'QQQ', 'IWM', 'JPM'];

describe('demo data set coverage (default scale, SQLite in memory, through the HTTP API)', () => {
  let store: Store;
  let t: TestApp;

  beforeAll(async () => {
    store = await openStore({ sqliteFile: ':memory:' });
    await loadDemo(store); // default scale: about 13 s on 2 cores
    t = await startTestApp(store, { envelope: 'native', plan: 'demo' });
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await store?.close();
  });

  async function ok(url: string): Promise<any> {
    const res = await t.get(url);
    if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    return t.data(res);
  }

  /** Tickers among `candidates` for which `has` holds; failures are listed in the assertion message. */
  async function those(candidates: readonly string[], has: (ticker: string) => Promise<string | undefined>): Promise<{ good: string[]; missing: string[] }> {
    const good: string[] = [];
    const missing: string[] = [];
    for (const c of candidates) {
      const why = await has(c);
      if (why === undefined) good.push(c);
      else missing.push(`${c}: ${why}`);
    }
    return { good, missing };
  }

  it('has at least 5 option underlyings, each with several expirations carrying both calls and puts', async () => {
    const pages = await walkPages(t, `/v3/reference/options/contracts?as_of=${AS_OF}&limit=1000`);
    const contracts = pages.flatMap((p) => p.results as { ticker: string; underlying_ticker: string; contract_type: string; expiration_date: string; strike_price: number }[]);
    const byUnderlying = new Map<string, typeof contracts>();
    for (const c of contracts) byUnderlying.set(c.underlying_ticker, [...(byUnderlying.get(c.underlying_ticker) ?? []), c]);
    expect(byUnderlying.size).toBeGreaterThanOrEqual(5);

    for (const underlying of byUnderlying.keys()) {
      // The same chain through the filter a user would use.
      const chain = (await walkPages(t, `/v3/reference/options/contracts?underlying_ticker=${underlying}&as_of=${AS_OF}&limit=1000`)).flatMap((p) => p.results) as typeof contracts;
      expect(chain.length, underlying).toBe(byUnderlying.get(underlying)!.length);
      expect(chain.every((c) => c.underlying_ticker === underlying && c.ticker.startsWith(`O:${underlying}`))).toBe(true);
      const types = new Map<string, Set<string>>();
      for (const c of chain) {
        expect(c.expiration_date >= AS_OF, `${c.ticker} is unexpired as of ${AS_OF}`).toBe(true);
        types.set(c.expiration_date, (types.get(c.expiration_date) ?? new Set()).add(c.contract_type));
      }
      const withBoth = [...types].filter(([, s]) => s.has('call') && s.has('put')).map(([d]) => d);
      expect(withBoth.length, `${underlying}: expirations with calls and puts: ${withBoth.join(', ')}`).toBeGreaterThanOrEqual(3);
      // Each expiration offers several strikes on both sides.
      const first = chain.filter((c) => c.expiration_date === withBoth[0]);
      expect(new Set(first.filter((c) => c.contract_type === 'call').map((c) => c.strike_price)).size, underlying).toBeGreaterThanOrEqual(5);
      expect(new Set(first.filter((c) => c.contract_type === 'put').map((c) => c.strike_price)).size, underlying).toBeGreaterThanOrEqual(5);
      // contract_type filters agree.
      const puts = (await ok(`/v3/reference/options/contracts?underlying_ticker=${underlying}&contract_type=put&expiration_date=${withBoth[0]}&as_of=${AS_OF}&limit=1000`)).results;
      expect(puts.length).toBe(first.filter((c) => c.contract_type === 'put').length);
      expect(puts.every((c: { contract_type: string }) => c.contract_type === 'put')).toBe(true);
    }
    // The demo also keeps some expired contracts (a user's "expired=true" query).
    const expired = await ok(`/v3/reference/options/contracts?underlying_ticker=AAPL&expired=true&as_of=${AS_OF}&limit=5`);
    expect(expired.results.length).toBeGreaterThan(0);
    expect(expired.results.every((c: { expiration_date: string }) => c.expiration_date < AS_OF)).toBe(true);
  }, 60_000);

  it('has at least 10 currency pairs (C:) with quotes and day bars', async () => {
    const { good, missing } = await those(FX_CANDIDATES, async (pair) => {
      const quotes = await ok(`/v3/quotes/${pair}?timestamp=${AS_OF}&limit=5`);
      if (quotes.results.length === 0) return `no quotes on ${AS_OF}`;
      const q = quotes.results[0];
      if (!(q.bid_price > 0 && q.ask_price >= q.bid_price)) return `implausible quote ${JSON.stringify(q)}`;
      const days = await ok(`/v2/aggs/ticker/${pair}/range/1/day/${FIVE_YEARS_AGO}/${AS_OF}?limit=50000`);
      if (days.resultsCount < 1000) return `only ${days.resultsCount} day bars in 5 years`;
      const minutes = await ok(`/v2/aggs/ticker/${pair}/range/1/minute/${AS_OF}/${AS_OF}?limit=50000`);
      if (minutes.resultsCount === 0) return `no minute bars on ${AS_OF}`;
      return undefined;
    });
    expect(good.length, `pairs without data: ${missing.join('; ')}`).toBeGreaterThanOrEqual(10);
    // The forex-specific last-quote endpoint answers for them too.
    const last = await ok('/v1/last_quote/currencies/EUR/USD');
    expect(last.last.bid).toBeGreaterThan(0);
  }, 60_000);

  it('has at least 5 crypto pairs (X:) with trades and day bars', async () => {
    const { good, missing } = await those(CRYPTO_CANDIDATES, async (pair) => {
      const trades = await ok(`/v3/trades/${pair}?timestamp=${AS_OF}&limit=5`);
      if (trades.results.length === 0) return `no trades on ${AS_OF}`;
      if (!(trades.results[0].price > 0 && trades.results[0].size > 0)) return `implausible trade ${JSON.stringify(trades.results[0])}`;
      const days = await ok(`/v2/aggs/ticker/${pair}/range/1/day/${FIVE_YEARS_AGO}/${AS_OF}?limit=50000`);
      if (days.resultsCount < 1500) return `only ${days.resultsCount} day bars in 5 years (crypto trades every day)`;
      const minutes = await ok(`/v2/aggs/ticker/${pair}/range/1/minute/${AS_OF}/${AS_OF}?limit=50000`);
      if (minutes.resultsCount === 0) return `no minute bars on ${AS_OF}`;
      return undefined;
    });
    expect(good.length, `pairs without data: ${missing.join('; ')}`).toBeGreaterThanOrEqual(5);
    const last = await ok('/v1/last/crypto/BTC/USD');
    expect(last.last.price).toBeGreaterThan(0);
  }, 60_000);

  it('has at least 10 stocks with trades and quotes in each of the last 2 sessions', async () => {
    const { good, missing } = await those(STOCK_CANDIDATES, async (ticker) => {
      for (const day of [PREVIOUS_SESSION, AS_OF]) {
        const trades = await ok(`/v3/trades/${ticker}?timestamp=${day}&limit=50000`);
        if (trades.results.length < 100) return `${trades.results.length} trades on ${day}`;
        const quotes = await ok(`/v3/quotes/${ticker}?timestamp=${day}&limit=50000`);
        if (quotes.results.length < 100) return `${quotes.results.length} quotes on ${day}`;
      }
      return undefined;
    });
    expect(good.length, `stocks without ticks: ${missing.join('; ')}`).toBeGreaterThanOrEqual(10);
    // The last trade and NBBO agree with the tape.
    const lastTrade = await ok('/v2/last/trade/AAPL');
    const tape = await ok(`/v3/trades/AAPL?timestamp=${AS_OF}&order=desc&limit=1`);
    expect(lastTrade.results.p).toBe(tape.results[0].price);
    const nbbo = await ok('/v2/last/nbbo/AAPL');
    expect(nbbo.results.P).toBeGreaterThanOrEqual(nbbo.results.p);
  }, 60_000);

  it('has at least 2 splits, and adjusted bars differ from raw bars before a split', async () => {
    const splits = (await ok('/v3/reference/splits?limit=1000')).results as { ticker: string; execution_date: string; split_from: number; split_to: number }[];
    expect(splits.length).toBeGreaterThanOrEqual(2);
    const inWindow = splits.filter((s) => s.execution_date > FIVE_YEARS_AGO && s.execution_date <= AS_OF);
    expect(inWindow.length).toBeGreaterThanOrEqual(2);
    const s = inWindow.find((x) => x.split_to / x.split_from >= 2)!;
    expect(s, 'a split with a ratio of at least 2').toBeDefined();
    const before = previousTradingDay(s.execution_date);
    const raw = await ok(`/v2/aggs/ticker/${s.ticker}/range/1/day/${before}/${before}?adjusted=false`);
    const adj = await ok(`/v2/aggs/ticker/${s.ticker}/range/1/day/${before}/${before}?adjusted=true`);
    expect(raw.resultsCount).toBe(1);
    expect(raw.results[0].c / adj.results[0].c).toBeCloseTo(s.split_to / s.split_from, 6);
  });

  it('has at least 60 real-name tickers with day bars covering 5 years', async () => {
    // The real US stocks and ETFs of the demo universe (docs/demo-data.md: about 60).
    expect(REAL_STOCK_SYMBOLS).toEqual(expect.arrayContaining(['AAPL', 'MSFT', 'SPY', 'QQQ', 'JPM', 'KO']));
    const { good, missing } = await those(REAL_STOCK_SYMBOLS, async (ticker) => {
      const ref = await t.get(`/v3/reference/tickers/${encodeURIComponent(ticker)}`);
      if (ref.status !== 200) return `reference HTTP ${ref.status}`;
      if (!t.data(ref).results.name) return 'no name';
      const days = await ok(`/v2/aggs/ticker/${encodeURIComponent(ticker)}/range/1/day/${FIVE_YEARS_AGO}/${AS_OF}?limit=50000`);
      const bars = days.results as { t: number }[];
      if (bars.length < SESSIONS_IN_5_YEARS - 5) return `${bars.length} of ${SESSIONS_IN_5_YEARS} sessions`;
      const first = new Date(bars[0]!.t).toISOString().slice(0, 10);
      const last = new Date(bars.at(-1)!.t + 12 * 3_600_000).toISOString().slice(0, 10);
      if (first > tradingDaysBetween(FIVE_YEARS_AGO, AS_OF)[5]!) return `first bar ${first}`;
      if (last !== AS_OF) return `last bar ${last}`;
      return undefined;
    });
    expect(good.length, `real tickers without 5 years of day bars: ${missing.join('; ')}`).toBeGreaterThanOrEqual(60);
  }, 90_000);

  it('has the five futures products, each with listed contracts and a session ending on the demo date', async () => {
    const products = (await ok('/futures/vX/products')).results as { product_code: string }[];
    expect(products.map((p) => p.product_code).sort()).toEqual(['CL', 'ES', 'GC', 'NQ', 'ZN']);
    for (const code of ['CL', 'ES', 'GC', 'NQ', 'ZN']) {
      const contracts = (await ok(`/futures/vX/contracts?product_code=${code}&date=${AS_OF}&active=true`)).results;
      expect(contracts.length, code).toBeGreaterThanOrEqual(3);
      const events = (await ok(`/futures/vX/schedules?product_code=${code}&session_end_date=${AS_OF}`)).results as { event: string }[];
      expect(events.map((e) => e.event), code).toEqual(['pre_open', 'open', 'close']);
    }
  });
});
