import { describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { FIXTURE_NOW, seedMarket } from '../helpers/market-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';
import { expectNativeRejection } from '../helpers/bad-request.js';

const TIME_RULE = 'must be a Unix timestamp in nanoseconds, an RFC 3339 time or a date in the form YYYY-MM-DD';

for (const engine of engines()) {
  describe(`v3 trades and quotes errors (${engine.name})`, () => {
    const { t } = useSeededApp(engine, seedMarket, { envelope: 'native', now: () => FIXTURE_NOW });

    const badRequests: [url: string, message: string][] = [
      ['/v3/trades/AAPL?timestamp=yesterday', `timestamp ${TIME_RULE}`],
      ['/v3/trades/AAPL?timestamp.gte=2024-13-01', `timestamp.gte ${TIME_RULE}`],
      ['/v3/trades/AAPL?timestamp.gt=1.5e18', `timestamp.gt ${TIME_RULE}`],
      ['/v3/trades/AAPL?timestamp.lt=-5', `timestamp.lt ${TIME_RULE}`],
      ['/v3/trades/AAPL?timestamp.lte=2024-03-11T13:30:00', `timestamp.lte ${TIME_RULE}`], // no zone
      ['/v3/trades/AAPL?timestamp.lte=2024-03-11T25:30:00Z', `timestamp.lte ${TIME_RULE}`],
      ['/v3/trades/AAPL?timestamp.lte=2024-03-11T13:30:00.1234567891Z', `timestamp.lte ${TIME_RULE}`], // 10 digits
      ['/v3/trades/AAPL?timestamp=99999999999999999999', `timestamp ${TIME_RULE}`], // beyond int64
      ['/v3/quotes/AAPL?timestamp.gt=soon', `timestamp.gt ${TIME_RULE}`],
      ['/v3/trades/AAPL?limit=0', 'limit must be an integer from 1 to 50000'],
      ['/v3/quotes/AAPL?limit=50001', 'limit must be an integer from 1 to 50000'],
      ['/v3/trades/AAPL?order=newest', 'order must be one of: asc, desc'],
      ['/v3/trades/AAPL?sort=price', 'sort must be one of: timestamp'],
      ['/v3/trades/AAPL?cursor=x.y', 'cursor is invalid'],
    ];

    for (const [url, message] of badRequests) {
      it(`400 for ${url}`, () => expectNativeRejection(t, url, message, 'contains'));
    }

    it('refuses a cursor of another ticker or of the other endpoint, and an edited one', async () => {
      const next = (await t.get('/v3/trades/AAPL?limit=1')).body.next_url as string;
      const cursor = new URL(next).searchParams.get('cursor')!;
      for (const url of [`/v3/trades/MSFT?cursor=${cursor}`, `/v3/quotes/AAPL?cursor=${cursor}`, `/v3/trades/AAPL?cursor=${cursor.slice(0, -2)}xx`]) {
        const res = await t.get(url);
        expect(res.status).toBe(400);
        expect(res.body.error).toContain('cursor');
      }
    });
  });
}
