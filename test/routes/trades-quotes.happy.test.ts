import { describe, expect, it } from 'vitest';
import { walkPages } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';
import { AAPL_QUOTES, AAPL_TRADES, FIXTURE_NOW, OPTION, seedMarket } from '../helpers/market-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';

const ids = (body: any) => body.results.map((r: any) => r.id);
const ALL_ASC = AAPL_TRADES.map((t) => t.id);

for (const engine of engines()) {
  describe(`v3 trades and quotes (${engine.name})`, () => {
    const { t } = useSeededApp(engine, seedMarket, { envelope: 'native', now: () => FIXTURE_NOW });

    it('writes nanosecond times above 2^53 exactly, as bare JSON integers', async () => {
      const res = await t.app.inject({ url: '/v3/trades/AAPL?order=asc', headers: { 'x-api-key': t.key } });
      const sips = [...res.body.matchAll(/"sip_timestamp":(\d+)[,}]/g)].map((m) => m[1]);
      expect(sips).toEqual(AAPL_TRADES.map((r) => r.sip_timestamp.toString()));
      expect(sips[0]).toBe('1710163800123456789');
      expect(BigInt(sips[0]!)).toBeGreaterThan(2n ** 53n);
      const parts = [...res.body.matchAll(/"participant_timestamp":(\d+)[,}]/g)].map((m) => m[1]);
      expect(parts).toEqual(AAPL_TRADES.map((r) => r.participant_timestamp!.toString()));
    });

    it('serves every field of a stock trade, with decimal_size', async () => {
      const body = (await t.get('/v3/trades/AAPL?order=asc&limit=2')).body;
      expect(body.results[0]).toEqual({
        conditions: [12, 37], decimal_size: '100.0', exchange: 4, id: 't1', participant_timestamp: Number(AAPL_TRADES[0]!.participant_timestamp),
        price: 170.01, sequence_number: 1, sip_timestamp: Number(AAPL_TRADES[0]!.sip_timestamp), size: 100, tape: 3, trf_id: 202,
        trf_timestamp: Number(AAPL_TRADES[0]!.trf_timestamp),
      });
      expect(body.results[1]).toMatchObject({ size: 5.5, decimal_size: '5.5' });
      expect(body.results[1].conditions).toBeUndefined();
    });

    it('is newest first by default, and the ET day of timestamp=YYYY-MM-DD includes 20:30 EDT', async () => {
      const body = (await t.get('/v3/trades/AAPL?timestamp=2024-03-11')).body;
      expect(ids(body)).toEqual([...ALL_ASC].reverse());
      expect(body.results[0]).toMatchObject({ id: 't11', correction: 1 });
      expect((await t.get('/v3/trades/AAPL?timestamp=2024-03-12')).body.results).toEqual([]);
    });

    it('filters with .gt/.gte/.lt/.lte on ns, RFC 3339 and dates; ties on the bound go with it', async () => {
      const t5 = AAPL_TRADES[2]!.sip_timestamp;
      const q = async (qs: string) => ids((await t.get(`/v3/trades/AAPL?order=asc&${qs}`)).body);
      expect(await q(`timestamp.gte=${t5}`)).toEqual(['t5', 't6', 't7', 't8a', 't8b', 't9', 't10', 't11']);
      expect(await q(`timestamp.gt=${t5}`)).toEqual(['t8a', 't8b', 't9', 't10', 't11']);
      expect(await q(`timestamp.lt=${t5}`)).toEqual(['t1', 't2']);
      expect(await q(`timestamp.lte=${t5}`)).toEqual(['t1', 't2', 't5', 't6', 't7']);
      expect(await q(`timestamp=${t5}`)).toEqual(['t5', 't6', 't7']);
      expect(await q('timestamp.lt=2024-03-11T13:30:00.5Z')).toEqual(['t1', 't2']);
      expect(await q('timestamp.lte=2024-03-11T13:30:00.500000001Z')).toEqual(['t1', 't2', 't5', 't6', 't7']);
      expect(await q('timestamp.lte=2024-03-11T09:30:00.500000001-04:00')).toEqual(['t1', 't2', 't5', 't6', 't7']);
      expect(await q('timestamp.gte=2024-03-11T13:30:01Z&timestamp.lt=2024-03-11T13:30:04Z')).toEqual(['t9', 't10']);
      expect(await q('timestamp.gt=2024-03-10&timestamp.lte=2024-03-11')).toEqual(ALL_ASC);
      expect(await q('timestamp.gt=2024-03-11')).toEqual([]);
      expect(await q(`timestamp.gt=${t5}&timestamp.lt=${t5}`)).toEqual([]);
    });

    it('bounds past the 64-bit nanosecond range (year 0001, year 9999) select nothing or everything, never a 500', async () => {
      const q = async (url: string) => {
        const r = await t.get(url);
        expect(r.status).toBe(200);
        return r.body.results.map((x: any) => x.id ?? x.sip_timestamp);
      };
      expect(await q('/v3/trades/AAPL?order=asc&timestamp.lt=9999-12-31')).toEqual(ALL_ASC);
      expect(await q('/v3/trades/AAPL?order=asc&timestamp.gte=0001-01-01T00:00:00Z')).toEqual(ALL_ASC);
      expect(await q('/v3/trades/AAPL?timestamp=0001-01-01')).toEqual([]);
      expect((await q('/v3/quotes/AAPL?timestamp.lte=9999-12-31T23:59:59Z')).length).toBeGreaterThan(0);
    });

    for (const [order, limit] of [['asc', 1], ['asc', 2], ['desc', 3], ['desc', 4]] as const) {
      it(`walking next_url (order=${order}, limit=${limit}) returns every trade once, ties included`, async () => {
        const pages = await walkPages(t, `/v3/trades/AAPL?order=${order}&limit=${limit}&timestamp.gte=2024-03-11`);
        expect(pages).toHaveLength(Math.ceil(AAPL_TRADES.length / limit));
        const walked = pages.flatMap(ids);
        expect(walked).toEqual(order === 'asc' ? ALL_ASC : [...ALL_ASC].reverse());
      });
    }

    it('next_url carries only a cursor, which replaces the filters', async () => {
      const body = (await t.get('/v3/trades/AAPL?order=asc&limit=2&timestamp.lt=2024-03-11T13:30:01Z')).body;
      const next = new URL(body.next_url);
      expect(next.pathname).toBe('/v3/trades/AAPL');
      expect([...next.searchParams.keys()]).toEqual(['cursor']);
      const page2 = (await t.get(`${next.pathname}${next.search}&order=desc&limit=50&timestamp.lt=1`)).body;
      expect(ids(page2)).toEqual(['t5', 't6']);
    });

    it('option trades have no decimal_size; crypto trades only a participant time, filtered by UTC day', async () => {
      const opt = (await t.get(`/v3/trades/${encodeURIComponent(OPTION)}`)).body.results;
      expect(opt).toEqual([{ conditions: [209], exchange: 312, price: 6.2, sip_timestamp: expect.any(Number), size: 3 }]);
      const btc = (await t.get('/v3/trades/X:BTCUSD?timestamp=2024-03-10&order=asc')).body.results;
      expect(btc.map((r: any) => r.id)).toEqual(['b1', 'b2', 'b3', 'b4']);
      expect(btc[0].sip_timestamp).toBeUndefined();
      expect(btc[0]).toMatchObject({ price: 68_000.5, size: 0.01, exchange: 1, conditions: [2], participant_timestamp: expect.any(Number) });
    });

    it('quotes: every field, newest first, and a keyset walk through a timestamp tie', async () => {
      const body = (await t.get('/v3/quotes/AAPL')).body;
      expect(body.results.map((r: any) => r.sequence_number)).toEqual([103, 102, 101, 100]);
      expect(body.results[3]).toEqual({
        ask_exchange: 11, ask_price: 170.03, ask_size: 3, bid_exchange: 19, bid_price: 170, bid_size: 4, conditions: [1], indicators: [604],
        participant_timestamp: Number(AAPL_QUOTES[0]!.participant_timestamp), sequence_number: 100, sip_timestamp: Number(AAPL_QUOTES[0]!.sip_timestamp), tape: 3,
      });
      expect(body.results[0].trf_timestamp).toBe(Number(AAPL_QUOTES[3]!.trf_timestamp));
      const raw = await t.app.inject({ url: '/v3/quotes/AAPL?order=asc', headers: { 'x-api-key': t.key } });
      expect(raw.body).toContain(`"sip_timestamp":${AAPL_QUOTES[0]!.sip_timestamp}`);
      const pages = await walkPages(t, '/v3/quotes/AAPL?limit=1&order=asc');
      expect(pages.flatMap((p) => p.results.map((r: any) => r.sequence_number))).toEqual([100, 101, 102, 103]);
    });

    it('forex quotes: participant time only, the UTC day, and the C:EUR-USD spelling', async () => {
      for (const ticker of ['C:EURUSD', 'C%3AEURUSD', 'C:EUR-USD']) {
        const body = (await t.get(`/v3/quotes/${ticker}?timestamp=2024-03-08`)).body;
        expect(body.results).toHaveLength(2);
        expect(Object.keys(body.results[0]).sort()).toEqual(['ask_exchange', 'ask_price', 'bid_exchange', 'bid_price', 'participant_timestamp']);
        expect(body.results[0]).toMatchObject({ ask_price: 1.0937, bid_price: 1.0935, ask_exchange: 48 });
      }
      expect((await t.get('/v3/quotes/C:EURUSD?timestamp=2024-03-09')).body.results).toEqual([]);
    });

    it('an unknown ticker has no rows', async () => {
      expect((await t.get('/v3/trades/NOPE')).body).toMatchObject({ status: 'OK', results: [] });
    });
  });
}
