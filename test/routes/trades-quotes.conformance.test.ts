import { describe } from 'vitest';
import { conformanceCheck } from '../helpers/conformance.js';
import { engines } from '../helpers/engines.js';
import { FIXTURE_NOW, seedMarket } from '../helpers/market-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';

// Documented differences from the recordings, all optional fields of the OpenAPI document that the
// old recordings predate or happen not to use: trades' decimal_size (required for stocks in the
// current document), trf_id, trf_timestamp, correction; quotes' conditions, indicators, trf_timestamp.

for (const engine of engines()) {
  describe(`v3 trades and quotes conformance with recorded upstream bodies (${engine.name})`, () => {
    const { t } = useSeededApp(engine, seedMarket, { envelope: 'native', now: () => FIXTURE_NOW });

    const check = conformanceCheck(t);

    const tradeExtras = ['results[].decimal_size', 'results[].trf_id', 'results[].trf_timestamp', 'results[].correction'];
    check('trades, a page with next_url', 'v3/trades/AAPL.json', '/v3/trades/AAPL?order=asc&limit=5', { allowExtra: tradeExtras });
    const quoteExtras = ['results[].conditions', 'results[].indicators', 'results[].trf_timestamp'];
    check('quotes, a page with next_url', 'v3/quotes/AAPL.json', '/v3/quotes/AAPL?limit=2', { allowExtra: quoteExtras });
    check('quotes, the last page', 'v3/quotes/AAPL~2.json', '/v3/quotes/AAPL', { allowExtra: quoteExtras });
  });
}
