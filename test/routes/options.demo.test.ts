import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { yearFraction } from '../../src/domain/greeks.js';
import { loadDemoMarket } from '../../src/demo/market.js';
import { DEMO_OPTION_UNDERLYINGS, demoVolatility, optionsStep } from '../../src/demo/options.js';
import { dividendYield, riskFreeRate } from '../../src/services/options-chain.js';
import type { Store } from '../../src/store/index.js';
import { TREASURY_YIELDS } from '../../src/store/repos/dataset-catalog.js';
import { startTestApp, walkPages, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';

// The demo chains on two underlyings (the step skips underlyings without market data), with a
// stored 3-month yield and AAPL dividends so that r and q come from the store.
const AS_OF = '2026-11-20';
const UNDERLYINGS = ['AAPL', 'SPY'];
const CLOSE_CLOCK = Date.parse('2026-11-21T01:00:00Z'); // 20:00 ET on asOf: after the last quotes
const atmVol = new Map(DEMO_OPTION_UNDERLYINGS);

for (const engine of engines()) {
  describe(`demo option chains (${engine.name})`, () => {
    let store: Store;
    let t: TestApp;
    let clock = CLOSE_CLOCK;
    beforeAll(async () => {
      store = await engine.open();
      await loadDemoMarket(store, { asOf: AS_OF, scale: 1 }, UNDERLYINGS);
      await store.datasets.upsert(TREASURY_YIELDS, [
        { date: '2026-11-19', yield_3_month: 4.21 },
        { date: '2026-11-20', yield_3_month: 4.18 },
      ]);
      const div = (ex: string) => ({ ticker: 'AAPL', cash_amount: 0.26, ex_dividend_date: ex, frequency: 4, distribution_type: 'recurring', dividend_type: 'CD' });
      await store.corporateActions.upsertDividends(['2026-02-09', '2026-05-11', '2026-08-10', '2026-11-09'].map(div));
      await optionsStep.run(store, { asOf: AS_OF, scale: 1, log: () => {} });
      t = await startTestApp(store, { envelope: 'native', now: () => clock });
    }, 120_000);
    afterAll(async () => {
      await t.close();
      await store.close();
    });

    async function chain(underlying: string, query = '') {
      const pages = await walkPages(t, `/v3/snapshot/options/${underlying}?limit=250${query}`);
      return pages.flatMap((p) => p.results);
    }

    it('lists several expirations, strikes around spot, calls and puts; expired contracts only with expired=true', async () => {
      for (const u of UNDERLYINGS) {
        const all = await chain(u);
        const exps = [...new Set(all.map((r: any) => r.details.expiration_date))].sort();
        expect(exps.length, u).toBeGreaterThanOrEqual(5);
        expect(exps[0]! >= AS_OF).toBe(true);
        const spot = all[0].underlying_asset.price;
        const strikes = all.map((r: any) => r.details.strike_price);
        expect(Math.min(...strikes)).toBeLessThan(spot * 0.9);
        expect(Math.max(...strikes)).toBeGreaterThan(spot * 1.1);
        expect(new Set(all.map((r: any) => r.details.contract_type))).toEqual(new Set(['call', 'put']));
        const expired = (await t.get(`/v3/reference/options/contracts?underlying_ticker=${u}&expired=true&limit=1000`)).body.results;
        expect(new Set(expired.map((r: any) => r.expiration_date)).size).toBeGreaterThanOrEqual(2);
      }
    });

    it('put–call parity holds at the close: C − P = S·e^(−qT) − K·e^(−rT) within the quotes’ rounding', async () => {
      const date = AS_OF;
      let pairs = 0;
      for (const u of UNDERLYINGS) {
        const rows = await chain(u, `&expiration_date.gt=${AS_OF}`);
        const S = rows[0].underlying_asset.price;
        const r = await riskFreeRate(store, date);
        const q = await dividendYield(store, u, date, S);
        if (u === 'AAPL') expect(q).toBeGreaterThan(0);
        expect(r).toBeCloseTo(Math.log1p(0.0418), 12);
        const byKey = new Map<string, any>();
        for (const row of rows) byKey.set(`${row.details.expiration_date}|${row.details.strike_price}|${row.details.contract_type}`, row);
        for (const row of rows) {
          if (row.details.contract_type !== 'call') continue;
          const put = byKey.get(`${row.details.expiration_date}|${row.details.strike_price}|put`);
          if (!put?.last_quote || !row.last_quote) continue;
          const K = row.details.strike_price;
          const T = yearFraction(clock, row.details.expiration_date);
          const parity = S * Math.exp(-q * T) - K * Math.exp(-r * T);
          const diff = row.last_quote.midpoint - put.last_quote.midpoint - parity;
          expect(Math.abs(diff), `${row.details.ticker} S=${S}`).toBeLessThanOrEqual(0.0101);
          expect(put.underlying_asset.price).toBe(S);
          pairs++;
        }
      }
      expect(pairs).toBeGreaterThan(100);
    });

    it('implied volatilities recover the generating smile for liquid contracts', async () => {
      let checked = 0;
      for (const u of UNDERLYINGS) {
        for (const row of await chain(u, `&expiration_date.gt=${AS_OF}`)) {
          const mid = row.last_quote?.midpoint;
          const S = row.underlying_asset.price;
          const K = row.details.strike_price;
          // out of the money: an in-the-money price is mostly intrinsic value, where a cent of
          // quote rounding moves the implied volatility a lot
          const otm = row.details.contract_type === 'call' ? K >= S : K <= S;
          if (!otm || !(mid > 0.5) || Math.abs(Math.log(K / S)) > 0.08) continue;
          const T = yearFraction(clock, row.details.expiration_date);
          expect(row.implied_volatility, row.details.ticker).toBeCloseTo(demoVolatility(atmVol.get(u)!, S, K, T), 2);
          expect(Math.abs(row.greeks.delta)).toBeLessThanOrEqual(1);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(20);
    });

    it('option bars, trades, quotes and open interest flow through the core endpoints and agree with the snapshot', async () => {
      const rows = await chain('SPY', `&expiration_date.gt=${AS_OF}`);
      const traded = rows.find((r: any) => r.last_trade && r.day.volume > 0)!;
      expect(traded).toBeDefined();
      const ticker = traded.details.ticker;
      const enc = encodeURIComponent(ticker);
      const day = (await t.get(`/v2/aggs/ticker/${enc}/range/1/day/${AS_OF}/${AS_OF}`)).body.results[0];
      expect(traded.day).toMatchObject({ open: day.o, high: day.h, low: day.l, close: day.c, volume: day.v });
      const minutes = (await t.get(`/v2/aggs/ticker/${enc}/range/1/minute/${AS_OF}/${AS_OF}?limit=50000`)).body.results;
      expect(minutes.reduce((s: number, b: any) => s + b.v, 0)).toBe(day.v);
      const last = (await t.get(`/v2/last/trade/${enc}`)).body.results;
      expect(last.p).toBe(traded.last_trade.price);
      const trades = (await t.get(`/v3/trades/${enc}?limit=1`)).body.results;
      expect(trades[0].price).toBe(traded.last_trade.price);
      const quotes = (await t.get(`/v3/quotes/${enc}?limit=1`)).body.results;
      expect(quotes[0]).toMatchObject({ bid_price: traded.last_quote.bid, ask_price: traded.last_quote.ask });
      const oc = await t.get(`/v1/open-close/${enc}/${AS_OF}`);
      expect(oc.status).toBe(200);
      expect(oc.body.close).toBe(day.c);
      expect(traded.open_interest).toBeGreaterThan(0);
    });

    it('mid-session the chain follows the underlying at the clock', async () => {
      clock = Date.parse('2026-11-20T17:00:00Z'); // 12:00 ET
      try {
        const rows = await chain('AAPL', `&expiration_date.gt=${AS_OF}`);
        const S = rows[0].underlying_asset.price;
        const spot = (await t.get(`/v3/trades/AAPL?timestamp.lte=${BigInt(clock) * 1_000_000n}&limit=1`)).body.results[0].price;
        expect(S).toBe(spot);
        // quotes in force at noon were priced within five minutes of the clock: parity still holds loosely
        const call = rows.find((r: any) => r.details.contract_type === 'call' && Math.abs(r.details.strike_price - S) < 5 && r.last_quote);
        expect(call.last_quote.last_updated).toBeLessThanOrEqual(Number(BigInt(clock) * 1_000_000n));
        expect(call.implied_volatility).toBeGreaterThan(0.1);
      } finally {
        clock = CLOSE_CLOCK;
      }
    });

    it('after hours the model prices the chain against the underlying when it was last quoted, not a later trade', async () => {
      clock = Date.parse('2026-11-21T04:00:00Z'); // 23:00 ET: after every stored tick
      try {
        const before = await chain('AAPL', `&expiration_date.gt=${AS_OF}`);
        const S = before[0].underlying_asset.price;
        // a print an hour after the extended session, far from the close
        await store.market.insertTrades([{ ticker: 'AAPL', sip_timestamp: BigInt(Date.parse('2026-11-21T03:00:00Z')) * 1_000_000n, price: Math.round(S * 120) / 100, size: 100, exchange: 4, sequence_number: 9_999_999n, tape: 3 }]);
        const after = await chain('AAPL', `&expiration_date.gt=${AS_OF}`);
        expect(after[0].underlying_asset.price).toBe(Math.round(S * 120) / 100);
        const ivs = (rows: any[]) => rows.map((r) => [r.details.ticker, r.implied_volatility, r.greeks.delta]);
        expect(ivs(after)).toEqual(ivs(before));
        expect(after.filter((r: any) => r.implied_volatility !== undefined).length).toBeGreaterThan(after.length * 0.9);
      } finally {
        clock = CLOSE_CLOCK;
      }
    });
  });
}
