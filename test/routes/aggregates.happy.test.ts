import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nyMidnight, nyTime } from '../../src/domain/calendar.js';
import type { Store } from '../../src/store/index.js';
import { startTestApp, walkPages, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';
import { FIXTURE_NOW, aaplAdjusted, seedMarket, utc } from '../helpers/market-fixture.js';

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

for (const engine of engines()) {
  describe(`aggregates endpoints (${engine.name})`, () => {
    let store: Store;
    let t: TestApp; // native (upstream's flat bodies)
    let w: TestApp; // wrapped
    beforeAll(async () => {
      store = await engine.open();
      await seedMarket(store);
      t = await startTestApp(store, { envelope: 'native', now: () => FIXTURE_NOW });
      w = await startTestApp(store, { now: () => FIXTURE_NOW });
    });
    afterAll(async () => {
      await t.close();
      await w.close();
      await store.close();
    });

    describe('range', () => {
      it('second bars come from the trades over HTTP, and a far-future `to` is a bound past every row, not an error', async () => {
        const near = await t.get('/v2/aggs/ticker/AAPL/range/1/second/2024-03-11/2024-03-11?sort=asc');
        const far = await t.get('/v2/aggs/ticker/AAPL/range/1/second/2024-03-11/9999-12-31?sort=asc');
        expect(near.status).toBe(200);
        expect(far.status).toBe(200);
        expect(near.body.results.length).toBeGreaterThan(0);
        expect(far.body.results).toEqual(near.body.results);
      });

      it('the largest multiplier of a calendar unit is one bucket holding every bar, not a 500', async () => {
        const one = await t.get('/v2/aggs/ticker/AAPL/range/1000000/year/2024-03-07/2024-03-12?adjusted=false');
        expect(one.status).toBe(200);
        // from snaps back to 2024-01-01 and the one bucket runs on past every stored bar
        const days = await t.get('/v2/aggs/ticker/AAPL/range/1/day/2024-01-01/2099-12-31?adjusted=false');
        expect(one.body.results).toHaveLength(1);
        expect(one.body.results[0].v).toBeCloseTo(days.body.results.reduce((s: number, b: any) => s + b.v, 0), 6);
      });

      it('answers upstream’s body with bars in upstream’s key order', async () => {
        const res = await t.app.inject({ url: '/v2/aggs/ticker/AAPL/range/1/day/2024-03-07/2024-03-12', headers: { 'x-api-key': t.key } });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body).toMatchObject({ ticker: 'AAPL', queryCount: 4, resultsCount: 4, count: 4, adjusted: true, status: 'OK' });
        expect(body.request_id).toMatch(/^[0-9a-f]{32}$/);
        expect(body.next_url).toBeUndefined();
        const a = aaplAdjusted(8);
        expect(res.body).toContain(`"results":[{"v":${a.v},"vw":${a.vw},"o":${a.o},"c":${a.c},"h":${a.h},"l":${a.l},"t":${nyMidnight('2024-03-07')},"n":${a.n}},`);
      });

      it('wraps the same body in {ok, data} in the default mode', async () => {
        const res = await w.get('/v2/aggs/ticker/AAPL/range/1/day/2024-03-07/2024-03-12?adjusted=false');
        expect(res.body.ok).toBe(true);
        expect(res.body.data).toMatchObject({ ticker: 'AAPL', resultsCount: 4, adjusted: false });
        expect(res.body.data.results[0]).toMatchObject({ o: 216, v: 9000 });
      });

      it('answers an unknown ticker or an empty range with results [] and zero counts', async () => {
        for (const url of ['/v2/aggs/ticker/NOPE/range/1/day/2024-01-01/2024-12-31', '/v2/aggs/ticker/AAPL/range/1/day/2024-03-09/2024-03-10']) {
          const body = (await t.get(url)).body;
          expect(body).toMatchObject({ queryCount: 0, resultsCount: 0, count: 0, results: [], status: 'OK' });
        }
      });

      it('takes Unix ms bounds (inclusive after snapping)', async () => {
        const from = nyTime('2024-03-08', '09:30') + 30_000; // snaps back to 09:30
        const to = nyTime('2024-03-08', '09:32');
        const body = (await t.get(`/v2/aggs/ticker/AAPL/range/1/minute/${from}/${to}?adjusted=false`)).body;
        expect(body.results.map((b: any) => [b.t, b.o])).toEqual([
          [nyTime('2024-03-08', '09:30'), 1330],
          [nyTime('2024-03-08', '09:31'), 1331],
          [nyTime('2024-03-08', '09:32'), 1332],
        ]);
      });

      it('sorts newest first with sort=desc', async () => {
        const body = (await t.get('/v2/aggs/ticker/AAPL/range/1/day/2024-03-07/2024-03-12?sort=desc')).body;
        expect(body.results.map((b: any) => b.t)).toEqual(['2024-03-12', '2024-03-11', '2024-03-08', '2024-03-07'].map(nyMidnight));
      });

      it('serves forex day bars in UTC days, percent-encoded tickers and the C:EUR-USD spelling', async () => {
        for (const ticker of ['C%3AEURUSD', 'C:EURUSD', 'C:EUR-USD']) {
          const body = (await t.get(`/v2/aggs/ticker/${ticker}/range/1/day/2024-03-04/2024-03-08`)).body;
          expect(body.resultsCount).toBe(5);
          expect(body.results[0]).toMatchObject({ t: utc('2024-03-04T00:00:00Z'), o: 1.08, n: 1000 });
        }
        expect((await t.get('/v2/aggs/ticker/C%3AEURUSD/range/1/day/2024-03-04/2024-03-08')).body.ticker).toBe('C:EURUSD');
      });

      it('index bars carry o/h/l/c/t only and the body no adjusted flag', async () => {
        const body = (await t.get('/v2/aggs/ticker/I:SPX/range/1/day/2024-03-04/2024-03-08')).body;
        expect(body.adjusted).toBeUndefined();
        expect(body.results[0]).toEqual({ o: 5100, h: 5110, l: 5090, c: 5105, t: nyMidnight('2024-03-04') });
      });

      it('flags OTC tickers’ bars otc: true, and only theirs', async () => {
        const otc = (await t.get('/v2/aggs/ticker/OTCX/range/1/day/2024-03-04/2024-03-05')).body;
        expect(otc.results.map((b: any) => b.otc)).toEqual([true, true]);
        const aapl = (await t.get('/v2/aggs/ticker/AAPL/range/1/day/2024-03-04/2024-03-05')).body;
        expect(aapl.results.every((b: any) => !('otc' in b))).toBe(true);
      });

      it('serves option contracts', async () => {
        const body = (await t.get('/v2/aggs/ticker/O:SPY240315C00500000/range/1/week/2024-03-04/2024-03-08')).body;
        expect(body.results).toEqual([{ v: 500, vw: expect.any(Number), o: 5, c: 9.5, h: 10, l: 4, t: nyMidnight('2024-03-03'), n: 35 }]);
      });
    });

    describe('limit and next_url', () => {
      const all = async (url: string) => (await t.get(`${url}${url.includes('?') ? '&' : '?'}limit=50000`)).body.results;

      it('rewrites {from} to the next bucket and carries limit, sort and adjusted in a signed cursor', async () => {
        const body = (await t.get('/v2/aggs/ticker/AAPL/range/1/hour/2024-03-08/2024-03-11?limit=100&adjusted=false')).body;
        expect(body.queryCount).toBe(100);
        expect(body.resultsCount).toBe(1);
        const next = new URL(body.next_url);
        expect(next.pathname).toBe(`/v2/aggs/ticker/AAPL/range/1/hour/${nyTime('2024-03-08', '05:00')}/2024-03-11`);
        expect([...next.searchParams.keys()]).toEqual(['cursor']);
        const page2 = (await t.get(pathOf(body.next_url))).body;
        expect(page2.adjusted).toBe(false);
        expect(page2.queryCount).toBe(100);
        expect(page2.results[0]).toMatchObject({ t: nyTime('2024-03-08', '05:00'), o: 1060 });
      });

      for (const [name, url] of [
        ['1/hour asc, limit 100', '/v2/aggs/ticker/AAPL/range/1/hour/2024-03-08/2024-03-11'],
        ['1/hour desc, limit 100', '/v2/aggs/ticker/AAPL/range/1/hour/2024-03-08/2024-03-11?sort=desc'],
        ['5/minute asc, limit 23', '/v2/aggs/ticker/AAPL/range/5/minute/2024-03-08/2024-03-11'],
        ['1/hour asc, limit 30 (below one bucket)', '/v2/aggs/ticker/AAPL/range/1/hour/2024-03-08/2024-03-11'],
        ['1/week desc, limit 3', '/v2/aggs/ticker/AAPL/range/1/week/2024-02-01/2024-03-31?sort=desc'],
        ['1/hour crypto over the DST day, limit 250', '/v2/aggs/ticker/X:BTCUSD/range/1/hour/2024-03-09/2024-03-10'],
      ] as const) {
        it(`walking next_url yields every bar once: ${name}`, async () => {
          const limit = Number(/limit (\d+)/.exec(name)![1]);
          const pages = await walkPages(t, `${url}${url.includes('?') ? '&' : '?'}limit=${limit}`);
          expect(pages.length).toBeGreaterThan(1);
          const walked = pages.flatMap((p) => p.results);
          expect(walked).toEqual(await all(url));
          for (const p of pages) expect(p.resultsCount).toBe(p.results.length);
        });
      }
    });

    describe('previous close', () => {
      it('is the last completed session, with t at 16:00 ET and T', async () => {
        const body = (await t.get('/v2/aggs/ticker/AAPL/prev')).body;
        expect(body).toMatchObject({ ticker: 'AAPL', queryCount: 1, resultsCount: 1, adjusted: true, status: 'OK', count: 1 });
        expect(body.results).toEqual([{ T: 'AAPL', ...aaplAdjusted(14), t: nyTime('2024-03-15', '16:00') }]);
      });

      it('during a session, is the session before', async () => {
        const during = await startTestApp(store, { envelope: 'native', now: () => nyTime('2024-03-15', '11:00') });
        try {
          const body = (await during.get('/v2/aggs/ticker/AAPL/prev?adjusted=false')).body;
          expect(body.results[0]).toMatchObject({ t: nyTime('2024-03-14', '16:00'), o: 113 });
          const after = await startTestApp(store, { envelope: 'native', now: () => nyTime('2024-03-15', '16:01') });
          expect((await after.get('/v2/aggs/ticker/AAPL/prev')).body.results[0].t).toBe(nyTime('2024-03-15', '16:00'));
          await after.close();
        } finally {
          await during.close();
        }
      });

      it('splits adjust it: the session before the split, asked for right after it', async () => {
        const monday = await startTestApp(store, { envelope: 'native', now: () => nyTime('2024-03-11', '10:00') });
        try {
          const adj = (await monday.get('/v2/aggs/ticker/AAPL/prev')).body.results[0];
          const raw = (await monday.get('/v2/aggs/ticker/AAPL/prev?adjusted=false')).body.results[0];
          expect([adj.o, adj.v, raw.o, raw.v]).toEqual([109, 20_000, 218, 10_000]);
        } finally {
          await monday.close();
        }
      });

      it('forex t is 23:59:59.999 UTC; crypto t is 00:00 ET; indices have no adjusted flag', async () => {
        const fx = (await t.get('/v2/aggs/ticker/C:EURUSD/prev')).body;
        expect(fx.results[0]).toMatchObject({ T: 'C:EURUSD', t: utc('2024-03-08T23:59:59.999Z'), c: 1.08 + 4 / 100 });
        const btc = (await t.get('/v2/aggs/ticker/X%3ABTCUSD/prev')).body;
        expect(btc.results[0]).toMatchObject({ T: 'X:BTCUSD', t: nyMidnight('2024-03-10'), o: 51_440 });
        const spx = (await t.get('/v2/aggs/ticker/I:SPX/prev')).body;
        expect(spx.adjusted).toBeUndefined();
        expect(spx.results[0]).toEqual({ T: 'I:SPX', o: 5104, h: 5114, l: 5094, c: 5109, t: nyTime('2024-03-08', '16:00') });
      });

      it('an unknown ticker has no results', async () => {
        expect((await t.get('/v2/aggs/ticker/NOPE/prev')).body).toMatchObject({ queryCount: 0, resultsCount: 0, results: [] });
      });
    });

    describe('grouped daily', () => {
      it('one bar per stock with T, t at 16:00 ET, adjusted, OTC left out', async () => {
        const body = (await t.get('/v2/aggs/grouped/locale/us/market/stocks/2024-03-08')).body;
        expect(body).toMatchObject({ queryCount: 1, resultsCount: 1, count: 1, adjusted: true, status: 'OK' });
        expect(body.results).toEqual([{ T: 'AAPL', ...aaplAdjusted(9), t: nyTime('2024-03-08', '16:00') }]);
        const raw = (await t.get('/v2/aggs/grouped/locale/us/market/stocks/2024-03-08?adjusted=false')).body;
        expect(raw.results[0]).toMatchObject({ o: 218, v: 10_000 });
      });

      it('include_otc=true adds OTC tickers flagged otc: true', async () => {
        const body = (await t.get('/v2/aggs/grouped/locale/us/market/stocks/2024-03-08?include_otc=true')).body;
        expect(body.results.map((b: any) => [b.T, b.otc])).toEqual([['AAPL', undefined], ['OTCX', true]]);
      });

      it('forex bars at 23:59:59.999 UTC, crypto at 00:00 ET; a day without data is empty', async () => {
        const fx = (await t.get('/v2/aggs/grouped/locale/global/market/fx/2024-03-06')).body;
        const p = 1.08 + 2 / 100;
        expect(fx.results).toEqual([{ T: 'C:EURUSD', v: 1002, vw: p, o: p, c: p, h: p, l: p, t: utc('2024-03-06T23:59:59.999Z'), n: 1002 }]);
        const btc = (await t.get('/v2/aggs/grouped/locale/global/market/crypto/2024-03-10')).body;
        expect(btc.results.map((b: any) => [b.T, b.t, b.v])).toEqual([['X:BTCUSD', nyMidnight('2024-03-10'), 13_800]]);
        const sat = (await t.get('/v2/aggs/grouped/locale/us/market/stocks/2024-03-09')).body;
        expect(sat).toMatchObject({ resultsCount: 0, count: 0, results: [] });
      });
    });

    describe('daily open/close', () => {
      it('regular-session open and close, first pre-market and last after-hours price, day high/low/volume', async () => {
        const res = await t.get('/v1/open-close/AAPL/2024-03-08?adjusted=false');
        // minute k after 04:00 trades at 1000+k: 09:30 is k=330, 15:59 is k=719, 19:59 is k=959
        expect(res.body).toEqual({ status: 'OK', symbol: 'AAPL', from: '2024-03-08', open: 1330, high: 220, low: 216, close: 1719, volume: 10_000, preMarket: 1000, afterHours: 1959 });
      });

      it('is split-adjusted by default', async () => {
        const body = (await t.get('/v1/open-close/AAPL/2024-03-08')).body;
        expect(body).toMatchObject({ open: 665, close: 859.5, preMarket: 500, afterHours: 979.5, high: 110, volume: 20_000 });
      });

      it('ends the regular session at 13:00 and after hours at 17:00 on an early-close day', async () => {
        const body = (await t.get('/v1/open-close/MSFT/2024-07-03')).body;
        expect(body).toMatchObject({ open: 830, close: 500 + 539, preMarket: 500, afterHours: 500 + 779 });
      });

      it('falls back to the day bar when there are no minute bars', async () => {
        const body = (await t.get('/v1/open-close/AAPL/2024-03-12')).body;
        expect(body).toEqual({ status: 'OK', symbol: 'AAPL', from: '2024-03-12', open: 111, high: 112, low: 110, close: 111.5, volume: 24_000 });
      });

      it('flags OTC tickers', async () => {
        expect((await t.get('/v1/open-close/OTCX/2024-03-08')).body.otc).toBe(true);
      });

      it('crypto: first and last trades of the UTC day', async () => {
        const body = (await t.get('/v1/open-close/crypto/BTC/USD/2024-03-10')).body;
        expect(body).toEqual({
          symbol: 'BTC-USD',
          isUTC: true,
          day: '2024-03-10',
          open: 68_000.5,
          close: 69_000.25,
          openTrades: [
            { c: [2], i: 'b1', p: 68_000.5, s: 0.01, t: utc('2024-03-10T00:00:01Z'), x: 1 },
            { c: [1], i: 'b2', p: 68_001, s: 0.02, t: utc('2024-03-10T00:00:02Z'), x: 4 },
          ],
          closingTrades: [
            { c: [2], i: 'b3', p: 68_500, s: 0.5, t: utc('2024-03-10T12:00:00Z'), x: 1 },
            { c: [1], i: 'b4', p: 69_000.25, s: 0.003, t: utc('2024-03-10T23:59:59Z'), x: 2 },
          ],
        });
      });

      it('crypto without trades that day: from the minute bars', async () => {
        const body = (await t.get('/v1/open-close/crypto/btc/usd/2024-03-09')).body;
        // UTC day 03-09 starts at 19:00 EST on 03-08, before the bars begin (03-09 05:00Z)
        expect(body).toMatchObject({ symbol: 'BTC-USD', open: 50_000, close: 50_000 + 1139, openTrades: [], closingTrades: [] });
      });
    });
  });
}
