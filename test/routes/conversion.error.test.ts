import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';
import { DAY, loadSnapshotFixture } from '../helpers/snapshot-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';
import { expectNativeRejection } from '../helpers/bad-request.js';

for (const engine of engines()) {
  describe(`currency conversion: bad requests and missing routes (${engine.name})`, () => {
    const { store, t } = useSeededApp(engine, loadSnapshotFixture, { envelope: 'native', now: () => Date.parse(`${DAY}T16:00:00Z`) });

    it.each([
      ['/v1/conversion/EUR/USD?precision=11', 'precision must be an integer from 0 to 10'],
      ['/v1/conversion/EUR/USD?precision=1.5', 'precision must be an integer from 0 to 10'],
      ['/v1/conversion/EUR/USD?amount=-1', 'amount must be a number of at least 0'],
      ['/v1/conversion/EUR/USD?amount=lots', 'amount must be a number of at least 0'],
      ['/v1/conversion/EUR/USD?amount=1e16', 'amount must be a number of at least 0'],
      ['/v1/conversion/E$R/USD', 'from must be a currency code such as AUD'],
      ['/v1/conversion/EUR/U', 'to must be a currency code such as USD'],
    ])('%s → 400 naming the parameter', (url, message) => expectNativeRejection(t, url, message));

    it('extreme amounts stay valid JSON (found by the route fuzzer)', async () => {
      // plain decimal notation only (1e15 is a 400): the smallest double and 10^15 written out
      const tiny = await t.get(`/v1/conversion/AAPL/AAPL?amount=0.${'0'.repeat(323)}5`);
      expect(tiny.status).toBe(200);
      expect(tiny.body.converted).toBe(0);
      const big = await t.get('/v1/conversion/USD/JPY?amount=1000000000000000&precision=10');
      expect(big.status).toBe(200);
      expect(Number.isFinite(big.body.converted)).toBe(true);
    });

    it('404 when neither the pair, its inverse nor a USD cross is stored', async () => {
      for (const url of ['/v1/conversion/XAU/XAG', '/v1/conversion/EUR/CHF', '/v1/conversion/USD/CHF']) {
        const res = await t.get(url);
        expect(res.status, url).toBe(404);
        expect(res.body.status).toBe('NOT_FOUND');
        expect(res.body.message).toContain('No quote converts');
      }
    });

    it('404 before the first quote exists (the clock bounds the quotes)', async () => {
      const early = await startTestApp(store, { envelope: 'native', now: () => Date.parse(`${DAY}T00:00:00Z`) });
      try {
        expect((await early.get('/v1/conversion/EUR/USD')).status).toBe(404);
      } finally {
        await early.close();
      }
    });
  });
}
