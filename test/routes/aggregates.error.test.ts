import { describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { FIXTURE_NOW, seedMarket } from '../helpers/market-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';
import { expectNativeRejection } from '../helpers/bad-request.js';

const R = '/v2/aggs/ticker/AAPL/range';

for (const engine of engines()) {
  describe(`aggregates endpoint errors (${engine.name})`, () => {
    const { t } = useSeededApp(engine, seedMarket, { envelope: 'native', now: () => FIXTURE_NOW });

    const badRequests: [url: string, message: string][] = [
      [`${R}/0/day/2024-03-01/2024-03-15`, 'multiplier must be an integer from 1 to 1000000'],
      [`${R}/1.5/day/2024-03-01/2024-03-15`, 'multiplier must be an integer from 1 to 1000000'],
      [`${R}/two/day/2024-03-01/2024-03-15`, 'multiplier must be an integer from 1 to 1000000'],
      [`${R}/-1/day/2024-03-01/2024-03-15`, 'multiplier must be an integer from 1 to 1000000'],
      [`${R}/1/days/2024-03-01/2024-03-15`, 'timespan must be one of: second, minute, hour, day, week, month, quarter, year'],
      [`${R}/1/day/2024-02-30/2024-03-15`, "Could not parse the time parameter: 'from'. Use YYYY-MM-DD or Unix MS Timestamps"],
      [`${R}/1/day/2024-03-01/2024-13-01`, "Could not parse the time parameter: 'to'. Use YYYY-MM-DD or Unix MS Timestamps"],
      [`${R}/1/day/yesterday/2024-03-15`, "Could not parse the time parameter: 'from'"],
      [`${R}/1/day/2024-03-01/1.7e12`, "Could not parse the time parameter: 'to'"],
      [`${R}/1/day/2024-03-15/2024-03-01`, "The parameter 'to' cannot be a time that occurs before 'from'"],
      [`${R}/1/day/1710000000000/1709999999999`, "The parameter 'to' cannot be a time that occurs before 'from'"],
      [`${R}/1/day/2024-03-01/2024-03-15?limit=0`, 'limit must be an integer from 1 to 50000'],
      [`${R}/1/day/2024-03-01/2024-03-15?limit=50001`, 'limit must be an integer from 1 to 50000'],
      [`${R}/1/day/2024-03-01/2024-03-15?limit=many`, 'limit must be an integer from 1 to 50000'],
      [`${R}/1/day/2024-03-01/2024-03-15?sort=up`, 'sort must be one of: asc, desc'],
      [`${R}/1/day/2024-03-01/2024-03-15?adjusted=maybe`, 'adjusted must be true or false'],
      [`${R}/1/day/2024-03-01/2024-03-15?cursor=abc.def`, 'cursor is invalid'],
      ['/v2/aggs/ticker/AAPL/prev?adjusted=yes', 'adjusted must be true or false'],
      ['/v2/aggs/grouped/locale/us/market/stocks/2024-02-30', 'date must be a real date'],
      ['/v2/aggs/grouped/locale/us/market/stocks/20240301', 'date must be a date in the form YYYY-MM-DD'],
      ['/v2/aggs/grouped/locale/us/market/stocks/2024-03-01?include_otc=1x', 'include_otc must be true or false'],
      ['/v2/aggs/grouped/locale/global/market/fx/2024-13-01', 'date must be a real date'],
      ['/v1/open-close/AAPL/2024-02-30', 'date must be a real date'],
      ['/v1/open-close/AAPL/March-1', 'date must be a date in the form YYYY-MM-DD'],
      ['/v1/open-close/crypto/B-C/USD/2024-03-10', 'from must be a currency symbol such as BTC'],
    ];

    for (const [url, message] of badRequests) {
      it(`400 for ${url}`, () => expectNativeRejection(t, url, message, 'contains'));
    }

    it('a cursor signed for another endpoint is refused', async () => {
      const trades = (await t.get('/v3/trades/AAPL?limit=1')).body;
      const cursor = new URL(trades.next_url).searchParams.get('cursor');
      const res = await t.get(`${R}/1/day/2024-03-01/2024-03-15?cursor=${cursor}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('cursor');
    });

    it('open/close: 404 “Data not found.” on a weekend, a holiday and a session without data', async () => {
      for (const url of ['/v1/open-close/AAPL/2024-03-09', '/v1/open-close/MSFT/2024-07-04', '/v1/open-close/NOPE/2024-03-08', '/v1/open-close/crypto/ETH/USD/2024-03-10']) {
        const res = await t.get(url);
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ status: 'NOT_FOUND', message: 'Data not found.' });
      }
    });
  });
}
