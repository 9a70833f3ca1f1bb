import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';
import { AAPL_QUOTES, AAPL_TRADES, FIXTURE_NOW, OPTION, seedMarket, utc } from '../helpers/market-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';

for (const engine of engines()) {
  describe(`last trade and last quote (${engine.name})`, () => {
    const { store, t } = useSeededApp(engine, seedMarket, { envelope: 'native', now: () => FIXTURE_NOW });

    const raw = async (url: string) => (await t.app.inject({ url, headers: { 'x-api-key': t.key } })).body;

    it('last trade: the latest trade with its exact ns times', async () => {
      const last = AAPL_TRADES[AAPL_TRADES.length - 1]!;
      const text = await raw('/v2/last/trade/AAPL');
      const body = JSON.parse(text);
      expect(body.status).toBe('OK');
      expect(body.request_id).toMatch(/^[0-9a-f]{32}$/);
      expect(body.results).toEqual({ T: 'AAPL', i: 't11', p: 171, s: 1, ds: '1.0', x: 4, e: 1, z: 3, q: 11, t: Number(last.sip_timestamp), y: Number(last.participant_timestamp) });
      expect(text).toContain(`"t":${last.sip_timestamp}`);
      expect(last.sip_timestamp % 1000n).toBe(42n); // digits a double would lose
    });

    it('last trade of an option: no decimal size, no tape', async () => {
      const body = (await t.get(`/v2/last/trade/${encodeURIComponent(OPTION)}`)).body;
      expect(body.results).toEqual({ T: OPTION, i: '', p: 6.2, s: 3, x: 312, c: [209], t: expect.any(Number) });
    });

    it('last NBBO, and the same body at the seed path /v2/stocks/last/{ticker}', async () => {
      const q = AAPL_QUOTES[3]!;
      const text = await raw('/v2/last/nbbo/AAPL');
      const body = JSON.parse(text);
      expect(body.results).toEqual({ T: 'AAPL', P: 170.06, S: 1, X: 12, p: 170.03, s: 1, x: 12, z: 3, q: 103, t: Number(q.sip_timestamp), y: Number(q.participant_timestamp), f: Number(q.trf_timestamp) });
      expect(text).toContain(`"t":${q.sip_timestamp}`);
      const alias = (await t.get('/v2/stocks/last/AAPL')).body;
      expect(alias.results).toEqual(body.results);
      expect(alias.status).toBe('OK');
    });

    it('forex last quote: status success, FROM/TO symbol, ms timestamp; case-insensitive currencies', async () => {
      for (const url of ['/v1/last_quote/currencies/EUR/USD', '/v1/last_quote/currencies/eur/usd']) {
        const body = (await t.get(url)).body;
        expect(body).toMatchObject({ status: 'success', symbol: 'EUR/USD', last: { ask: 1.0937, bid: 1.0935, exchange: 48, timestamp: utc('2024-03-08T21:59:59Z') } });
        expect(body.request_id).toMatch(/^[0-9a-f]{32}$/);
      }
    });

    it('crypto last trade: status success, FROM-TO symbol, ms timestamp', async () => {
      const body = (await t.get('/v1/last/crypto/BTC/USD')).body;
      expect(body).toMatchObject({ status: 'success', symbol: 'BTC-USD', last: { conditions: [1], exchange: 2, price: 69_000.25, size: 0.003, timestamp: utc('2024-03-10T23:59:59Z') } });
    });

    it('wrapped mode wraps the same bodies', async () => {
      const w = await startTestApp(store, { now: () => FIXTURE_NOW });
      try {
        const res = await w.get('/v1/last_quote/currencies/EUR/USD');
        expect(res.body).toMatchObject({ ok: true, data: { status: 'success', symbol: 'EUR/USD' } });
      } finally {
        await w.close();
      }
    });
  });
}
