import { describe } from 'vitest';
import { conformanceCheck } from '../helpers/conformance.js';
import { engines } from '../helpers/engines.js';
import { FIXTURE_NOW, seedMarket } from '../helpers/market-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';

// Documented differences: the last trade carries `ds` (decimal size) and `e` (correction) when
// known, and omits `c`, `r`, `f` when the trade has none (all optional in the OpenAPI document);
// the last NBBO adds `f` (TRF time) when known.

for (const engine of engines()) {
  describe(`last trade/quote conformance with recorded upstream bodies (${engine.name})`, () => {
    const { t } = useSeededApp(engine, seedMarket, { envelope: 'native', now: () => FIXTURE_NOW });

    const check = conformanceCheck(t);

    check('last trade', 'v2/last/trade/AAPL.json', '/v2/last/trade/AAPL', { allowExtra: ['results.ds', 'results.e'], allowMissing: ['results.c', 'results.r', 'results.f'] });
    check('last NBBO', 'v2/last/nbbo/AAPL.json', '/v2/last/nbbo/AAPL', { allowExtra: ['results.f'] });
    check('last NBBO at the seed path', 'v2/last/nbbo/AAPL.json', '/v2/stocks/last/AAPL', { allowExtra: ['results.f'] });
    check('forex last quote', 'v1/last_quote/currencies/USD/GBP.json', '/v1/last_quote/currencies/EUR/USD');
    check('crypto last trade', 'v1/last/crypto/BTC/USD.json', '/v1/last/crypto/BTC/USD');
    check('crypto last trade (second recording)', 'v1/last/crypto/BTC/USD~2.json', '/v1/last/crypto/BTC/USD');
  });
}
