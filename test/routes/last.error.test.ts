import { describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { FIXTURE_NOW, seedMarket } from '../helpers/market-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';

for (const engine of engines()) {
  describe(`last trade and last quote errors (${engine.name})`, () => {
    const { t } = useSeededApp(engine, seedMarket, { envelope: 'native', now: () => FIXTURE_NOW });

    it('404 NOT_FOUND when nothing is stored for the ticker or pair', async () => {
      for (const [url, message] of [
        ['/v2/last/trade/NOPE', 'Trade not found.'],
        ['/v2/last/nbbo/MSFT', 'Quote not found.'],
        ['/v2/stocks/last/MSFT', 'Quote not found.'],
        ['/v1/last_quote/currencies/EUR/JPY', 'Quote not found.'],
        ['/v1/last/crypto/ETH/USD', 'Trade not found.'],
      ]) {
        const res = await t.get(url!);
        expect(res.status, url).toBe(404);
        expect(res.body).toMatchObject({ status: 'NOT_FOUND', message });
      }
    });

    it('400 naming the currency parameter when it is not a symbol', async () => {
      const res = await t.get('/v1/last_quote/currencies/E%2FR/USD');
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('from must be a currency symbol such as EUR');
      const res2 = await t.get('/v1/last/crypto/BTC/U%24D');
      expect(res2.body.error).toBe('to must be a currency symbol such as USD');
    });
  });
}
