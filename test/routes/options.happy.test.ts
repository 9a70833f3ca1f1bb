import { describe, expect, it } from 'vitest';
import { bsGreeks, bsPrice } from '../../src/domain/greeks.js';
import { walkPages } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';
import { DIVIDEND_CASE, HULL_CALL, HULL_PUT, loadDividendCase, loadTextbookCases, ns, referenceContracts } from '../helpers/options-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';

const CONTRACTS = '/v3/reference/options/contracts';
// Thursday 2026-11-19, 11:00 ET
const CLOCK = Date.parse('2026-11-19T16:00:00Z');
const ZZA_CALL_100 = 'O:ZZA261218C00100000';
const ZZA_PUT_100 = 'O:ZZA261218P00100000';

for (const engine of engines()) {
  describe(`options contracts and chain snapshots (${engine.name})`, () => {
    let clock = CLOCK;
    let dividendPrice = 0;
    const { t } = useSeededApp(engine, async (store) => {
      await store.options.upsertContracts(referenceContracts());
      await loadTextbookCases(store);
      dividendPrice = await loadDividendCase(store, 0.05);
      const prevStart = Date.parse('2026-11-18T05:00:00Z');
      const dayStart = Date.parse('2026-11-19T05:00:00Z');
      await store.market.insertBars('day', [
        { ticker: ZZA_CALL_100, t: prevStart, o: 4, h: 4.5, l: 3.8, c: 4.2, v: 300, vw: 4.1, n: 40 },
        { ticker: ZZA_CALL_100, t: dayStart, o: 4.3, h: 5, l: 4.3, c: 4.9, v: 120, vw: 4.6, n: 15 },
        { ticker: 'ZZA', t: prevStart, o: 99, h: 100.5, l: 98, c: 100, v: 1e6, vw: 99.5, n: 1000 },
      ]);
      await store.market.insertBars('minute', [
        { ticker: ZZA_CALL_100, t: dayStart + 9.5 * 3600_000, o: 4.3, h: 4.6, l: 4.3, c: 4.5, v: 70, vw: 4.45, n: 9 },
        { ticker: ZZA_CALL_100, t: dayStart + 15.5 * 3600_000, o: 4.5, h: 5, l: 4.5, c: 4.9, v: 50, vw: 4.8, n: 6 },
      ]);
      await store.market.insertTrades([
        { ticker: 'ZZA', sip_timestamp: ns(CLOCK - 5000), price: 101, size: 100, exchange: 4, id: 'z1', sequence_number: 9n },
        { ticker: ZZA_CALL_100, sip_timestamp: ns(CLOCK - 60_000, 7n), price: 4.85, size: 3, exchange: 312, sequence_number: 3n, conditions: [209] },
      ]);
      await store.market.insertQuotes([
        { ticker: ZZA_CALL_100, sip_timestamp: ns(CLOCK - 20_000, 9n), bid_price: 4.8, ask_price: 5, bid_size: 40, ask_size: 55, bid_exchange: 301, ask_exchange: 302, sequence_number: 5n },
        { ticker: ZZA_PUT_100, sip_timestamp: ns(CLOCK - 20_000), bid_price: 3.1, ask_price: 3.3, bid_size: 10, ask_size: 20, sequence_number: 6n },
        // after the clock: must not be used
        { ticker: ZZA_CALL_100, sip_timestamp: ns(CLOCK + 20_000), bid_price: 9, ask_price: 9.2, sequence_number: 7n },
      ]);
      await store.options.upsertOpenInterest([
        { ticker: ZZA_CALL_100, date: '2026-11-18', open_interest: 1500 },
        { ticker: ZZA_CALL_100, date: '2026-11-19', open_interest: 1750 },
        { ticker: ZZA_CALL_100, date: '2026-11-20', open_interest: 9999 }, // tomorrow
      ]);
    }, { envelope: 'native', now: () => clock, config: { envelope: 'native', riskFreeRate: 0.05 } });

    async function ok(url: string, at = CLOCK) {
      clock = at;
      const res = await t.get(url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    }
    const tickers = (b: any) => b.results.map((r: any) => r.ticker);

    describe('reference contracts', () => {
      it('lists unexpired contracts as of today (ET) in ticker order, 10 per page by default', async () => {
        const b = await ok(CONTRACTS);
        expect(b.status).toBe('OK');
        expect(b.results).toHaveLength(10);
        expect(tickers(b)).toEqual([...tickers(b)].sort());
        expect(b.results.every((r: any) => r.expiration_date >= '2026-11-19')).toBe(true);
        expect(b.next_url).toMatch(/^http:\/\/localhost(:\d+)?\/v3\/reference\/options\/contracts\?cursor=/);
        expect(b.results[0]).toEqual({
          ticker: 'O:DIVY270618C00105000',
          underlying_ticker: 'DIVY',
          contract_type: 'call',
          exercise_style: 'american',
          expiration_date: '2027-06-18',
          strike_price: 105,
          shares_per_contract: 100,
          primary_exchange: 'BATO',
          cfi: 'OCASPS',
        });
      });

      it('walking next_url returns every matching contract once, with the first page\'s as_of', async () => {
        const pages = await walkPages(t, `${CONTRACTS}?underlying_ticker=ZZA&limit=4`);
        const all = pages.flatMap((p) => p.results.map((r: any) => r.ticker));
        expect(all).toHaveLength(13); // 2 expirations × 3 strikes × 2 types + the Jan contract
        expect(new Set(all).size).toBe(13);
        expect(pages[0].count).toBe(4);
      });

      it('filters: underlying, type, expiration and strike with range forms', async () => {
        const b = await ok(`${CONTRACTS}?underlying_ticker=ZZB&contract_type=put&expiration_date=2026-12-18&strike_price.gte=100&limit=100`);
        expect(tickers(b)).toEqual(['O:ZZB261218P00100000', 'O:ZZB261218P00110000']);
        const r = await ok(`${CONTRACTS}?underlying_ticker.gte=ZZA&underlying_ticker.lt=ZZB&expiration_date.gt=2026-11-20&expiration_date.lte=2027-01-15&strike_price.lt=60&limit=100`);
        expect(tickers(r)).toEqual(['O:ZZA270115C00052500']);
        const eq = await ok(`${CONTRACTS}?strike_price=110&underlying_ticker=ZZA&contract_type=call&limit=100`);
        expect(tickers(eq)).toEqual(['O:ZZA261120C00110000', 'O:ZZA261218C00110000']);
      });

      it('expired=true lists contracts that expired before as_of; as_of moves the point in time', async () => {
        const b = await ok(`${CONTRACTS}?underlying_ticker=ZZA&expired=true&limit=100`);
        expect(b.results).toHaveLength(6);
        expect(b.results.every((r: any) => r.expiration_date === '2026-11-13')).toBe(true);
        const past = await ok(`${CONTRACTS}?underlying_ticker=ZZA&as_of=2026-11-10&limit=100`);
        expect(past.results).toHaveLength(18); // all three September listings, not yet the Jan one
        const beforeListing = await ok(`${CONTRACTS}?underlying_ticker=ZZA&as_of=2026-08-01&limit=100`);
        expect(beforeListing.results).toHaveLength(0);
      });

      it('sorts by strike_price, expiration_date or underlying_ticker in either order, ties by ticker', async () => {
        const b = await ok(`${CONTRACTS}?underlying_ticker=ZZA&sort=strike_price&order=desc&limit=100`);
        const strikes = b.results.map((r: any) => r.strike_price);
        expect(strikes).toEqual([...strikes].sort((x: number, y: number) => y - x));
        expect(tickers(b).slice(0, 4)).toEqual(['O:ZZA261218P00110000', 'O:ZZA261218C00110000', 'O:ZZA261120P00110000', 'O:ZZA261120C00110000']);
        const pages = await walkPages(t, `${CONTRACTS}?sort=expiration_date&limit=3`);
        const exps = pages.flatMap((p) => p.results.map((r: any) => r.expiration_date));
        expect(exps).toEqual([...exps].sort());
        expect(exps).toHaveLength(28); // 13 ZZA + 12 ZZB unexpired, HULA, HULB, DIVY
      });

      it('one contract, with or without the O: prefix, keeping adjusted deliverables', async () => {
        const a = await ok(`${CONTRACTS}/O:ZZA270115C00052500`);
        expect(a.results).toEqual({
          ticker: 'O:ZZA270115C00052500',
          underlying_ticker: 'ZZA',
          contract_type: 'call',
          exercise_style: 'american',
          expiration_date: '2027-01-15',
          strike_price: 52.5,
          shares_per_contract: 150,
          primary_exchange: 'BATO',
          cfi: 'OCASPS',
          correction: 1,
          additional_underlyings: [{ type: 'equity', underlying: 'ZZC', amount: 50 }, { type: 'currency', underlying: 'USD', amount: 12.5 }],
        });
        expect((await ok(`${CONTRACTS}/ZZA270115C00052500`)).results).toEqual(a.results);
        expect((await ok(`${CONTRACTS}/O%3AZZA270115C00052500`)).results).toEqual(a.results);
      });
    });

    describe('chain snapshot', () => {
      it('returns the unexpired contracts of the underlying, 10 by default, with next_url', async () => {
        const b = await ok('/v3/snapshot/options/ZZA');
        expect(b.results).toHaveLength(10);
        expect(b.next_url).toMatch(/\/v3\/snapshot\/options\/ZZA\?cursor=/);
        const pages = await walkPages(t, '/v3/snapshot/options/ZZA?limit=5');
        const all = pages.flatMap((p) => p.results.map((r: any) => r.details.ticker));
        expect(all).toHaveLength(13);
        expect(all).toEqual([...all].sort());
      });

      it('computes a contract from its stored day, quote, trade and open interest at the clock', async () => {
        const b = await ok(`/v3/snapshot/options/ZZA/${ZZA_CALL_100}`);
        const r = b.results;
        expect(r.details).toEqual({ contract_type: 'call', exercise_style: 'american', expiration_date: '2026-12-18', shares_per_contract: 100, strike_price: 100, ticker: ZZA_CALL_100 });
        // in progress: day from the minute bars completed by 11:00 ET (only the 09:30 bar)
        expect(r.day).toMatchObject({ open: 4.3, high: 4.6, low: 4.3, close: 4.5, volume: 70, previous_close: 4.2 });
        expect(r.day.change).toBeCloseTo(0.3, 12);
        expect(r.day.change_percent).toBeCloseTo((0.3 / 4.2) * 100, 10);
        expect(r.last_quote).toEqual({ ask: 5, ask_size: 55, ask_exchange: 302, bid: 4.8, bid_size: 40, bid_exchange: 301, midpoint: 4.9, last_updated: Number(ns(CLOCK - 20_000, 9n)), timeframe: 'REAL-TIME' });
        expect(r.last_trade).toMatchObject({ price: 4.85, size: 3, exchange: 312, conditions: [209], timeframe: 'REAL-TIME' });
        expect(r.open_interest).toBe(1750);
        expect(r.break_even_price).toBeCloseTo(104.9, 12);
        expect(r.underlying_asset).toMatchObject({ ticker: 'ZZA', price: 101, timeframe: 'REAL-TIME' });
        expect(r.underlying_asset.change_to_break_even).toBeCloseTo(3.9, 12);
        expect(r.implied_volatility).toBeGreaterThan(0.05);
        expect(r.implied_volatility).toBeLessThan(1);
        // the greeks are those of BSM at the implied volatility (r = configured 5 %, q = 0)
        const T = (Date.parse('2026-12-18T21:00:00Z') - CLOCK) / (365 * 86_400_000);
        const g = bsGreeks({ type: 'call', S: 101, K: 100, T, r: 0.05, q: 0, sigma: r.implied_volatility })!;
        expect(r.greeks.delta).toBeCloseTo(g.delta, 9);
        expect(r.greeks.vega).toBeCloseTo(g.vega, 9);
        expect(bsPrice({ type: 'call', S: 101, K: 100, T, r: 0.05, q: 0, sigma: r.implied_volatility })).toBeCloseTo(4.9, 8);
      });

      it('put: break-even below the strike', async () => {
        const r = (await ok(`/v3/snapshot/options/ZZA/${ZZA_PUT_100}`)).results;
        expect(r.break_even_price).toBeCloseTo(96.8, 12);
        expect(r.greeks.delta).toBeLessThan(0);
        expect(r.open_interest).toBeUndefined();
      });

      it('a contract without a quote or trade has details but no greeks', async () => {
        const r = (await ok('/v3/snapshot/options/ZZA/O:ZZA261218C00110000')).results;
        expect(r.greeks).toEqual({});
        expect(r.implied_volatility).toBeUndefined();
        expect(r.last_quote).toBeUndefined();
        expect(r.break_even_price).toBeUndefined();
        expect(r.underlying_asset.price).toBe(101);
        // the whole day object, zero-filled, as other asset classes show a day without bars
        expect(Object.keys(r.day).sort()).toEqual(['change', 'change_percent', 'close', 'high', 'last_updated', 'low', 'open', 'previous_close', 'volume', 'vwap']);
        expect(r.day).toMatchObject({ open: 0, close: 0, volume: 0, vwap: 0, change: 0 });
      });

      it('filters strike, expiration and type, and sorts by strike_price or expiration_date', async () => {
        const b = await ok('/v3/snapshot/options/ZZA?contract_type=put&strike_price.gt=95&expiration_date.lte=2026-12-31&sort=strike_price&order=desc&limit=250');
        expect(b.results.map((r: any) => r.details.ticker)).toEqual([
          'O:ZZA261218P00110000', 'O:ZZA261120P00110000', 'O:ZZA261218P00100000', 'O:ZZA261120P00100000',
        ]);
        const byExp = await ok('/v3/snapshot/options/ZZA?sort=expiration_date&order=desc&limit=1');
        expect(byExp.results[0].details.expiration_date).toBe('2027-01-15');
      });

      it('before the chain date a contract is still listed; on expiry day itself it still trades', async () => {
        const onExpiry = await ok('/v3/snapshot/options/ZZA?expiration_date=2026-11-20&limit=250', Date.parse('2026-11-20T15:00:00Z'));
        expect(onExpiry.results).toHaveLength(6);
        const after = await ok('/v3/snapshot/options/ZZA?expiration_date=2026-11-20&limit=250', Date.parse('2026-11-21T15:00:00Z'));
        expect(after.results).toHaveLength(0);
      });
    });

    describe('implied volatility and greeks against published Black–Scholes values', () => {
      it("Hull's call (S 49, K 50, r 5 %, T 20 weeks, price 2.40): σ 0.20, Δ 0.522, Γ 0.066, Θ −4.31/y, vega 12.1", async () => {
        const r = (await ok(`/v3/snapshot/options/HULA/${HULL_CALL.contract.ticker}`, HULL_CALL.clockMs)).results;
        expect(r.underlying_asset.price).toBe(49);
        expect(r.last_quote.midpoint).toBeCloseTo(2.4, 12);
        expect(r.implied_volatility).toBeCloseTo(0.2, 3);
        expect(r.greeks.delta).toBeCloseTo(0.522, 3);
        expect(r.greeks.gamma).toBeCloseTo(0.066, 3);
        expect(r.greeks.theta * 365).toBeCloseTo(-4.31, 1); // per calendar day on the wire
        expect(r.greeks.vega * 100).toBeCloseTo(12.1, 1); // per volatility point on the wire
      });

      it("Hull's put (S 42, K 40, r 10 % from the stored 3-month yield, T 0.5, price 0.81): σ 0.20, Δ −0.221", async () => {
        const r = (await ok(`/v3/snapshot/options/HULB/${HULL_PUT.contract.ticker}`, HULL_PUT.clockMs)).results;
        expect(r.implied_volatility).toBeCloseTo(0.2, 2);
        expect(r.greeks.delta).toBeCloseTo(-0.221, 2);
        // with the configured 5 % instead, the same price would imply a clearly different σ
        const at5 = bsPrice({ type: 'put', S: 42, K: 40, T: 0.5, r: 0.05, q: 0, sigma: r.implied_volatility });
        expect(Math.abs(at5 - 0.81)).toBeGreaterThan(0.1);
      });

      it('uses the trailing-year dividends as the dividend yield', async () => {
        const r = (await ok(`/v3/snapshot/options/DIVY/${DIVIDEND_CASE.contract.ticker}`, DIVIDEND_CASE.clockMs)).results;
        expect(r.last_quote.midpoint).toBeCloseTo(dividendPrice, 10);
        expect(r.implied_volatility).toBeCloseTo(0.3, 6);
      });
    });
  });
}
