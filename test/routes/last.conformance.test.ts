import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { conformanceCheck } from '../helpers/conformance.js';
import { engines } from '../helpers/engines.js';
import { FIXTURE_NOW, ns, seedMarket } from '../helpers/market-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';

// Documented differences: the last trade carries `ds` (decimal size) and `e` (correction) when
// known, and omits `c`, `r`, `f` when the trade has none (all optional in the OpenAPI document);
// the last NBBO adds `f` (TRF time) when known. TRFX's last trade is an off-exchange (TRF) print
// that was corrected and its last quote has conditions, so every field upstream's recorded bodies
// carry (`c`, `r`, `f`, `y` on the trade; `y` on the quote) must be written when the tick has it.

const AT = '2024-03-11T15:00:00Z';

async function seed(store: Store): Promise<void> {
  await seedMarket(store);
  await store.market.insertTrades([{
    ticker: 'TRFX', sip_timestamp: ns(AT, 900n), participant_timestamp: ns(AT, 100n), trf_timestamp: ns(AT, 500n), trf_id: 202,
    price: 12.5, size: 300, exchange: 4, id: 'x1', conditions: [12, 37], correction: 1, sequence_number: 7n, tape: 3,
  }]);
  await store.market.insertQuotes([{
    ticker: 'TRFX', sip_timestamp: ns(AT, 700n), participant_timestamp: ns(AT, 600n), ask_price: 12.52, ask_size: 2, ask_exchange: 11,
    bid_price: 12.48, bid_size: 3, bid_exchange: 19, sequence_number: 6n, tape: 3, conditions: [1],
  }]);
}

for (const engine of engines()) {
  describe(`last trade/quote conformance with recorded upstream bodies (${engine.name})`, () => {
    const { t } = useSeededApp(engine, seed, { envelope: 'native', now: () => FIXTURE_NOW });

    const check = conformanceCheck(t);

    check('last trade', 'v2/last/trade/AAPL.json', '/v2/last/trade/AAPL', { allowExtra: ['results.ds', 'results.e'], allowMissing: ['results.c', 'results.r', 'results.f'] });
    check('last trade, a corrected TRF print', 'v2/last/trade/AAPL.json', '/v2/last/trade/TRFX', { allowExtra: ['results.ds', 'results.e'] });
    check('last NBBO', 'v2/last/nbbo/AAPL.json', '/v2/last/nbbo/AAPL', { allowExtra: ['results.f'] });
    check('last NBBO with conditions', 'v2/last/nbbo/AAPL.json', '/v2/last/nbbo/TRFX', { allowExtra: ['results.c'] });
    check('last NBBO at the seed path', 'v2/last/nbbo/AAPL.json', '/v2/stocks/last/AAPL', { allowExtra: ['results.f'] });
    it('the corrected TRF print carries its correction, TRF id and times; the quote its conditions and participant time', async () => {
      const trade = (await t.get('/v2/last/trade/TRFX')).body.results;
      expect(trade).toMatchObject({ e: 1, r: 202, c: [12, 37], x: 4 });
      const raw = (await t.app.inject({ url: '/v2/last/trade/TRFX', headers: { 'x-api-key': t.key } })).body;
      expect(raw).toContain(`"f":${ns(AT, 500n)}`);
      expect(raw).toContain(`"y":${ns(AT, 100n)}`);
      const quote = await t.app.inject({ url: '/v2/last/nbbo/TRFX', headers: { 'x-api-key': t.key } });
      expect(quote.json().results.c).toEqual([1]);
      expect(quote.body).toContain(`"y":${ns(AT, 600n)}`);
    });
    check('forex last quote', 'v1/last_quote/currencies/USD/GBP.json', '/v1/last_quote/currencies/EUR/USD');
    check('crypto last trade', 'v1/last/crypto/BTC/USD.json', '/v1/last/crypto/BTC/USD');
    check('crypto last trade (second recording)', 'v1/last/crypto/BTC/USD~2.json', '/v1/last/crypto/BTC/USD');
  });
}
