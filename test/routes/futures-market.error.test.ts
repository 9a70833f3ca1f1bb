// Bad requests to the futures market data endpoints: a 400 naming the parameter, never a 5xx.
import { describe, expect, it } from 'vitest';
import { storeFuturesMarketDemo } from '../../src/demo/futures-market.js';
import { futuresDemoStep } from '../../src/demo/futures.js';
import type { Store } from '../../src/store/index.js';
import { useSeededApp } from '../helpers/app-fixture.js';
import { expectNativeRejection } from '../helpers/bad-request.js';
import { engines } from '../helpers/engines.js';

const AS_OF = '2026-11-20';
const TIME_RULE = 'must be a Unix timestamp in nanoseconds, an RFC 3339 time or a date in the form YYYY-MM-DD';
const WINDOW_RULE = 'must be a date in the form YYYY-MM-DD or a Unix timestamp in nanoseconds';

async function seed(store: Store): Promise<void> {
  await futuresDemoStep.run(store, { asOf: AS_OF, scale: 0.1, log: () => {} });
  await storeFuturesMarketDemo(store, AS_OF, 0.1);
}

for (const engine of engines()) {
  describe(`futures market data errors (${engine.name})`, () => {
    const { t } = useSeededApp(engine, seed, { envelope: 'native', now: () => Date.parse('2026-11-20T23:30:00Z') });

    const badRequests: [url: string, message: string][] = [
      ['/futures/vX/aggs/ESZ6?resolution=5minutes', "resolution must be a number followed by a unit (1sec…59sec, 1min…59min, 1hour…23hour, 1session, 1week, 1month, 1quarter, 1year); got '5minutes'"],
      ['/futures/vX/aggs/ESZ6?resolution=60min', 'resolution 60min is not supported: min candles go up to 59min'],
      ['/futures/v1/aggs/ESZ6?resolution=2session', 'resolution 2session is not supported: session candles go up to 1session'],
      ['/futures/vX/aggs/ESZ6?resolution=0hour', 'resolution must be a number followed by a unit'],
      ['/futures/vX/aggs/ESZ6?window_start=yesterday', `window_start ${WINDOW_RULE}`],
      ['/futures/vX/aggs/ESZ6?window_start.gte=2026-02-30', `window_start.gte ${WINDOW_RULE}`],
      ['/futures/vX/aggs/ESZ6?window_start.lt=99999999999999999999', `window_start.lt ${WINDOW_RULE}`],
      ['/futures/vX/aggs/ESZ6?limit=50001', 'limit must be an integer from 1 to 50000'],
      ['/futures/vX/aggs/ESZ6?sort=close.desc', 'sort must be one of: window_start.asc, window_start.desc'],
      ['/futures/vX/trades/ESZ6?timestamp=yesterday', `timestamp ${TIME_RULE}`],
      ['/futures/vX/trades/ESZ6?timestamp.gt=1.5e18', `timestamp.gt ${TIME_RULE}`],
      ['/futures/v1/quotes/ESZ6?timestamp.lte=2026-11-20T25:00:00Z', `timestamp.lte ${TIME_RULE}`],
      ['/futures/vX/trades/ESZ6?session_end_date=2026-13-01', 'session_end_date must be a real date in the form YYYY-MM-DD'],
      ['/futures/vX/quotes/ESZ6?session_end_date=today', 'session_end_date'],
      ['/futures/vX/trades/ESZ6?limit=0', 'limit must be an integer from 1 to 50000'],
      ['/futures/vX/quotes/ESZ6?limit=50001', 'limit must be an integer from 1 to 50000'],
      ['/futures/vX/trades/ESZ6?sort=price.asc', 'sort must be one of: timestamp.asc, timestamp.desc'],
      ['/futures/vX/trades/ESZ6?cursor=x.y', 'cursor is invalid'],
      ['/futures/vX/aggs/ESZ6?cursor=x.y', 'cursor is invalid'],
      ['/futures/vX/snapshot?cursor=x.y', 'cursor is invalid'],
      ['/futures/vX/snapshot?limit=50002', 'limit must be an integer from 1 to 50001'],
      ['/futures/vX/snapshot?sort=volume.desc', 'sort must be one of: ticker.asc, ticker.desc, product_code.asc, product_code.desc'],
      ['/futures/vX/snapshot?ticker.any_of=,,', 'ticker.any_of must be a comma-separated list of 1 to 1000 values'],
      [`/futures/vX/snapshot?product_code=${'X'.repeat(65)}`, 'product_code'],
    ];

    for (const [url, message] of badRequests) {
      it(`400 for ${url}`, () => expectNativeRejection(t, url, message, 'contains'));
    }

    it('refuses a cursor of another contract, another endpoint or another resolution, and an edited one', async () => {
      const cursorOf = async (url: string) => new URL((await t.get(url)).body.next_url as string).searchParams.get('cursor')!;
      const trades = await cursorOf('/futures/vX/trades/ESZ6?limit=1');
      const aggs = await cursorOf('/futures/vX/aggs/ESZ6?resolution=1min&limit=1');
      for (const url of [
        `/futures/vX/trades/CLZ6?cursor=${trades}`, `/futures/vX/quotes/ESZ6?cursor=${trades}`, `/futures/vX/trades/ESZ6?cursor=${trades.slice(0, -2)}xx`,
        `/futures/vX/aggs/CLZ6?cursor=${aggs}`, `/futures/vX/trades/ESZ6?cursor=${aggs}`, `/futures/vX/snapshot?cursor=${aggs}`,
      ]) {
        const res = await t.get(url);
        expect(res.status, url).toBe(400);
        expect(res.body.error).toContain('cursor');
      }
    });
  });
}
