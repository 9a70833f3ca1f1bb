import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { expectSameShape, haveUpstream, skipConformance, upstreamBody } from '../helpers/conformance.js';
import { engines } from '../helpers/engines.js';
import { FIXTURE_NOW, seedMarket } from '../helpers/market-fixture.js';

// Documented differences from the recordings, all optional fields of the OpenAPI document that the
// old recordings predate or happen not to use: trades' decimal_size (required for stocks in the
// current document), trf_id, trf_timestamp, correction; quotes' conditions, indicators, trf_timestamp.

for (const engine of engines()) {
  describe(`v3 trades and quotes conformance with recorded upstream bodies (${engine.name})`, () => {
    let store: Store;
    let t: TestApp;
    beforeAll(async () => {
      store = await engine.open();
      await seedMarket(store);
      t = await startTestApp(store, { envelope: 'native', now: () => FIXTURE_NOW });
    });
    afterAll(async () => {
      await t.close();
      await store.close();
    });

    const check = (what: string, file: string, url: string, opts: Parameters<typeof expectSameShape>[2]) =>
      it(what, async () => {
        const upstream = upstreamBody(file);
        if (!haveUpstream || upstream === undefined) return skipConformance(what);
        expectSameShape((await t.get(url)).body, upstream, opts);
      });

    const tradeExtras = ['results[].decimal_size', 'results[].trf_id', 'results[].trf_timestamp', 'results[].correction'];
    check('trades, a page with next_url', 'v3/trades/AAPL.json', '/v3/trades/AAPL?order=asc&limit=5', { allowExtra: tradeExtras });
    const quoteExtras = ['results[].conditions', 'results[].indicators', 'results[].trf_timestamp'];
    check('quotes, a page with next_url', 'v3/quotes/AAPL.json', '/v3/quotes/AAPL?limit=2', { allowExtra: quoteExtras });
    check('quotes, the last page', 'v3/quotes/AAPL~2.json', '/v3/quotes/AAPL', { allowExtra: quoteExtras });
  });
}
