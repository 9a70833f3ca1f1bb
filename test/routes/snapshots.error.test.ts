import { describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { AFTER, loadSnapshotFixture } from '../helpers/snapshot-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';
import { expectNativeRejection } from '../helpers/bad-request.js';

for (const engine of engines()) {
  describe(`snapshots: bad requests and unknown tickers (${engine.name})`, () => {
    const { t } = useSeededApp(engine, loadSnapshotFixture, { envelope: 'native', now: () => AFTER });

    it.each([
      ['/v2/snapshot/locale/us/markets/stocks/sideways', 'direction must be one of: gainers, losers'],
      ['/v2/snapshot/locale/global/markets/forex/up', 'direction must be one of: gainers, losers'],
      ['/v2/snapshot/locale/us/markets/stocks/tickers?include_otc=maybe', 'include_otc must be true or false'],
      ['/v2/snapshot/locale/us/markets/stocks/gainers?include_otc=1x', 'include_otc must be true or false'],
    ])('%s → 400 naming the parameter', (url, message) => expectNativeRejection(t, url, message));

    it.each([
      '/v2/snapshot/locale/us/markets/stocks/tickers/NOPE',
      '/v2/snapshot/locale/us/markets/stocks/tickers/aaa', // tickers are case-sensitive
      '/v2/snapshot/locale/global/markets/forex/tickers/C:XXXYYY',
      '/v2/snapshot/locale/global/markets/crypto/tickers/X:NOPEUSD',
    ])('%s → 404 Ticker not found.', async (url) => {
      const res = await t.get(url);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ status: 'NOT_FOUND', message: 'Ticker not found.' });
    });

    it('an all-tickers request naming only unknown tickers is an empty list', async () => {
      const res = await t.get('/v2/snapshot/locale/us/markets/stocks/tickers?tickers=NOPE,ALSO_NOPE');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'OK', count: 0, tickers: [] });
    });

    it('requires a key', async () => {
      const res = await t.get('/v2/snapshot/locale/us/markets/stocks/tickers', { 'x-api-key': 'nope' });
      expect(res.status).toBe(401);
    });
  });
}
