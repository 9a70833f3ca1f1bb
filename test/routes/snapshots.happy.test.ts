import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';
import { AFTER, DAY, DAY_START, MID, PREV, et, loadSessionPartsFixture, loadSnapshotFixture, nsOf } from '../helpers/snapshot-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';

const STOCKS = '/v2/snapshot/locale/us/markets/stocks';
const FX = '/v2/snapshot/locale/global/markets/forex';
const CRYPTO = '/v2/snapshot/locale/global/markets/crypto';

for (const engine of engines()) {
  describe(`stock, forex and crypto snapshots (${engine.name})`, () => {
    let clock = MID;
    const { store, t } = useSeededApp(engine, loadSnapshotFixture, { envelope: 'native', now: () => clock });

    async function body(url: string, at: number) {
      clock = at;
      const res = await t.get(url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    }

    /** The fold of range bars the way a client would compute a running day bar. */
    function fold(bars: any[]) {
      return {
        o: bars[0].o,
        h: Math.max(...bars.map((b) => b.h)),
        l: Math.min(...bars.map((b) => b.l)),
        c: bars[bars.length - 1].c,
        v: bars.reduce((s, b) => s + b.v, 0),
      };
    }

    describe('agreement with the aggregates, trades and quotes endpoints at the same clock', () => {
      it('mid-session: day = completed minutes so far, min = the last completed minute, ticks at or before the clock', async () => {
        const snap = (await body(`${STOCKS}/tickers/AAA`, MID)).ticker;
        const minutes = (await body(`/v2/aggs/ticker/AAA/range/1/minute/${DAY_START}/${MID - 60_000}`, MID)).results;
        expect(minutes.map((b: any) => b.t)).toEqual([et(DAY, '09:30'), et(DAY, '10:00'), et(DAY, '10:59')]);
        const day = fold(minutes);
        expect(snap.day.o).toBe(day.o);
        expect(snap.day.h).toBe(day.h);
        expect(snap.day.l).toBe(day.l);
        expect(snap.day.c).toBe(day.c);
        expect(snap.day.v).toBe(day.v);
        const last = minutes[minutes.length - 1];
        expect(snap.min).toMatchObject({ o: last.o, h: last.h, l: last.l, c: last.c, v: last.v, vw: last.vw, t: last.t, n: last.n, av: day.v });
        // the volumes again as decimal strings, written with a fractional part as upstream writes them
        expect(snap.day.dv).toBe('15000.0');
        expect(snap.min).toMatchObject({ dv: '4000.0', dav: '15000.0' });
        expect(snap.lastTrade.ds).toBe('300.0');

        const trade = (await body(`/v3/trades/AAA?timestamp.lte=${nsOf(MID)}&limit=1`, MID)).results[0];
        expect(snap.lastTrade).toMatchObject({ p: trade.price, s: trade.size, t: trade.sip_timestamp, x: trade.exchange, i: trade.id });
        expect(snap.lastTrade.p).toBe(104);
        const quote = (await body(`/v3/quotes/AAA?timestamp.lte=${nsOf(MID)}&limit=1`, MID)).results[0];
        expect(snap.lastQuote).toEqual({ P: quote.ask_price, S: quote.ask_size, p: quote.bid_price, s: quote.bid_size, t: quote.sip_timestamp });

        const prev = (await body(`/v2/aggs/ticker/AAA/range/1/day/${PREV}/${PREV}`, MID)).results[0];
        expect(snap.prevDay).toEqual({ o: prev.o, h: prev.h, l: prev.l, c: prev.c, v: prev.v, vw: prev.vw });
        expect(snap.todaysChange).toBe(4); // 104 − 100
        expect(snap.todaysChangePerc).toBe(4);
        expect(snap.updated).toBe(snap.lastTrade.t);
      });

      it('after the close: day is the stored day bar the range endpoint returns', async () => {
        const snap = (await body(`${STOCKS}/tickers/AAA`, AFTER)).ticker;
        const day = (await body(`/v2/aggs/ticker/AAA/range/1/day/${DAY}/${DAY}`, AFTER)).results[0];
        expect(snap.day).toEqual({ o: day.o, h: day.h, l: day.l, c: day.c, v: day.v, dv: `${day.v}.0`, vw: day.vw });
        expect(snap.min.t).toBe(et(DAY, '15:59'));
        expect(snap.min.av).toBe(day.v);
        expect(snap.lastTrade).toMatchObject({ p: 106, c: [14] });
        expect(snap.todaysChange).toBe(6);
        expect(snap.todaysChangePerc).toBe(6);
      });

      it('writes nanosecond times exactly, as bare integers', async () => {
        clock = MID;
        const res = await t.app.inject({ method: 'GET', url: `${STOCKS}/tickers/AAA`, headers: { 'x-api-key': t.key } });
        expect(res.body).toContain(`"t":${nsOf(et(DAY, '10:59', 30), 123_456n)}`);
        expect(res.body).toContain(`"t":${nsOf(et(DAY, '10:59', 40), 654_321n)}`);
      });

      it('before 04:00 ET the previous session is shown; a weekend shows Friday', async () => {
        const early = (await body(`${STOCKS}/tickers/AAA`, et('2026-11-20', '03:00'))).ticker;
        expect(early.day.c).toBe(106);
        expect(early.prevDay.c).toBe(100);
        const premarket = (await body(`${STOCKS}/tickers/AAA`, et('2026-11-20', '05:00'))).ticker;
        expect(premarket.day).toMatchObject({ o: 0, c: 0, v: 0 }); // nothing traded yet on the 20th
        expect(premarket.prevDay.c).toBe(106);
        expect(premarket.todaysChange).toBe(0); // last trade 106 against the previous close 106
      });
    });

    describe('all tickers', () => {
      it('lists every stock ticker with data in ticker order, leaving OTC out by default', async () => {
        const b = await body(`${STOCKS}/tickers`, AFTER);
        expect(b.status).toBe('OK');
        const names = b.tickers.map((x: any) => x.ticker);
        expect(names).toEqual([...names].sort());
        expect(names).toContain('AAA');
        expect(names).not.toContain('OTCX');
        expect(names).not.toContain('C:EURUSD');
        expect(b.count).toBe(names.length);
        expect(names).toHaveLength(3 + 50);
      });

      it('include_otc adds OTC tickers, flagged otc: true', async () => {
        const b = await body(`${STOCKS}/tickers?include_otc=true`, AFTER);
        const otc = b.tickers.find((x: any) => x.ticker === 'OTCX');
        expect(otc.day.otc).toBe(true);
        expect(otc.prevDay.otc).toBe(true);
        expect(b.tickers.find((x: any) => x.ticker === 'AAA').day.otc).toBeUndefined();
      });

      it('tickers as a comma list or the key repeated; unknown tickers are left out', async () => {
        const a = await body(`${STOCKS}/tickers?tickers=BBB,AAA,NOPE`, AFTER);
        expect(a.tickers.map((x: any) => x.ticker)).toEqual(['AAA', 'BBB']);
        const b = await body(`${STOCKS}/tickers?tickers=BBB&tickers=AAA`, AFTER);
        expect(b.tickers).toEqual(a.tickers);
      });

      it('agrees with the single-ticker form', async () => {
        const all = await body(`${STOCKS}/tickers?tickers=AAA`, MID);
        const one = await body(`${STOCKS}/tickers/AAA`, MID);
        expect(all.tickers[0]).toEqual(one.ticker);
      });
    });

    describe('gainers and losers', () => {
      it('gainers: 20 largest rises, ties by ticker, thin (<10,000 shares) and OTC tickers left out', async () => {
        const b = await body(`${STOCKS}/gainers`, AFTER);
        const names = b.tickers.map((x: any) => x.ticker);
        expect(names).toHaveLength(20);
        const expected = Array.from({ length: 19 }, (_, i) => `G${String(24 - i).padStart(2, '0')}`);
        expect(names).toEqual([...expected, 'AAA']); // AAA (+6 %) ties G05 and wins on ticker order
        expect(names).not.toContain('CCC');
        const percs = b.tickers.map((x: any) => x.todaysChangePerc);
        expect(percs).toEqual([...percs].sort((x: number, y: number) => y - x));
      });

      it('include_otc lets an OTC ticker in', async () => {
        const b = await body(`${STOCKS}/gainers?include_otc=true`, AFTER);
        expect(b.tickers[0].ticker).toBe('OTCX');
        expect(b.tickers[0].todaysChangePerc).toBe(200);
        expect(b.tickers).toHaveLength(20);
      });

      it('losers: most negative first', async () => {
        const b = await body(`${STOCKS}/losers`, AFTER);
        const names = b.tickers.map((x: any) => x.ticker);
        expect(names.slice(0, 3)).toEqual(['L24', 'L23', 'L22']);
        expect(names.slice(14, 20)).toEqual(['L10', 'BBB', 'L09', 'L08', 'L07', 'L06']);
        expect(b.tickers.every((x: any) => x.todaysChangePerc < 0)).toBe(true);
      });

      it('follow the clock: mid-session AAA is up only 4 % (its last trade at the clock), too little for the top 20', async () => {
        const b = await body(`${STOCKS}/gainers`, MID);
        const names = b.tickers.map((x: any) => x.ticker);
        expect(names).toEqual(Array.from({ length: 20 }, (_, i) => `G${String(24 - i).padStart(2, '0')}`));
        const aaa = (await body(`${STOCKS}/tickers?tickers=AAA`, MID)).tickers[0];
        expect(aaa.todaysChangePerc).toBe(4);
      });
    });

    describe('forex', () => {
      const FX_CLOCK = Date.parse(`${DAY}T16:00:00Z`);
      it('one pair: UTC day from completed minutes, quote-driven change, ms times', async () => {
        const snap = (await body(`${FX}/tickers/C:EURUSD`, FX_CLOCK)).ticker;
        expect(snap.ticker).toBe('C:EURUSD');
        expect(snap.day).toEqual({ o: 1.1, h: 1.123, l: 1.099, c: 1.122, v: 130 });
        expect(snap.min).toEqual({ o: 1.121, h: 1.123, l: 1.12, c: 1.122, v: 30, n: 30, t: Date.parse(`${DAY}T15:58:00Z`) });
        expect(snap.prevDay).toMatchObject({ c: 1.1 });
        expect(snap.lastQuote).toEqual({ a: 1.1221, b: 1.1219, t: Date.parse(`${DAY}T15:58:30Z`), x: 48 });
        expect(snap.todaysChange).toBeCloseTo(0.0219, 10);
        expect(snap.todaysChangePerc).toBe(1.991);
        expect(snap.updated).toBe(snap.lastQuote.t);
      });

      it('accepts the C:EUR-USD spelling and %3A-encoded tickers', async () => {
        const a = await body(`${FX}/tickers/C%3AEUR-USD`, FX_CLOCK);
        expect(a.ticker.ticker).toBe('C:EURUSD');
      });

      it('all pairs, and gainers/losers without a volume floor', async () => {
        const all = await body(`${FX}/tickers`, FX_CLOCK);
        expect(all.tickers.map((x: any) => x.ticker)).toEqual(['C:EURUSD', 'C:GBPUSD']);
        expect((await body(`${FX}/gainers`, FX_CLOCK)).tickers.map((x: any) => x.ticker)).toEqual(['C:EURUSD']);
        expect((await body(`${FX}/losers`, FX_CLOCK)).tickers.map((x: any) => x.ticker)).toEqual(['C:GBPUSD']);
      });
    });

    describe('crypto', () => {
      const CLOCK = et(DAY, '12:00');
      it('one pair: trade-driven change, lastTrade in ms', async () => {
        const snap = (await body(`${CRYPTO}/tickers/X:BTCUSD`, CLOCK)).ticker;
        expect(snap.day).toMatchObject({ o: 60_000, h: 63_100, l: 59_900, c: 63_000, v: 22 });
        expect(snap.lastTrade).toEqual({ c: [1], i: 'b1', p: 63_000, s: 0.5, t: et(DAY, '10:30', 45), x: 1 });
        expect(snap.todaysChange).toBe(3000);
        expect(snap.todaysChangePerc).toBe(5);
        expect(snap.updated).toBe(et(DAY, '10:30', 45));
      });

      it('gainers and losers', async () => {
        expect((await body(`${CRYPTO}/gainers`, CLOCK)).tickers.map((x: any) => x.ticker)).toEqual(['X:BTCUSD']);
        expect((await body(`${CRYPTO}/losers`, CLOCK)).tickers.map((x: any) => x.ticker)).toEqual(['X:ETHUSD']);
      });
    });

    it('is wrapped in {ok,data} in the default envelope', async () => {
      const wrapped = await startTestApp(store, { now: () => AFTER });
      try {
        const res = await wrapped.get(`${STOCKS}/tickers/AAA`);
        expect(res.body.ok).toBe(true);
        expect(res.body.data.ticker.ticker).toBe('AAA');
        expect(res.body.data.status).toBe('OK');
      } finally {
        await wrapped.close();
      }
    });
  });
}

for (const engine of engines()) {
  describe(`stock snapshot decimal volumes in fractional shares (${engine.name})`, () => {
    let clock = AFTER;
    const { t } = useSeededApp(engine, loadSessionPartsFixture, { envelope: 'native', now: () => clock });

    it('day.dv, min.dv, min.dav and lastTrade.ds keep the fractions that v, av and s round or lose', async () => {
      // EXT's day: 300.5 + 200.25 + 1000 + 2000 + 1500 + 400.125 + 100 shares; its last trade half a share
      for (const url of [`${STOCKS}/tickers/EXT`, `${STOCKS}/tickers?tickers=EXT`]) {
        const res = await t.get(url);
        expect(res.status).toBe(200);
        const snap = res.body.ticker ?? res.body.tickers[0];
        expect(snap.day).toMatchObject({ v: 5500.875, dv: '5500.875' });
        expect(snap.min).toMatchObject({ v: 100, dv: '100.0', av: 5501, dav: '5500.875' });
        expect(snap.lastTrade).toMatchObject({ s: 0.5, ds: '0.5' });
        expect(snap.prevDay).not.toHaveProperty('dv');
      }
      clock = et(DAY, '09:15');
      const early = (await t.get(`${STOCKS}/tickers/EXT`)).body.ticker;
      expect(early.day).toMatchObject({ v: 500.75, dv: '500.75' });
      expect(early.min).toMatchObject({ v: 200.25, dv: '200.25', dav: '500.75' });
    });
  });
}
