import { describe } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { conformanceCheck } from '../helpers/conformance.js';
import { engines } from '../helpers/engines.js';
import { ns, referenceContracts } from '../helpers/options-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';

// Documented differences: `fmv` is not served (Business plans only upstream); list bodies carry
// `count`; quotes carry `ask_exchange` / `bid_exchange` when known; the chain's greeks and implied
// volatility are computed for every contract whose price admits them (the recorded chain has `{}`).

const CLOCK = Date.parse('2026-11-20T02:00:00Z'); // 21:00 ET on 2026-11-19
const CALL = 'O:ZZA261218C00100000';

async function seed(store: Store): Promise<void> {
  await store.options.upsertContracts(referenceContracts());
  const prevStart = Date.parse('2026-11-18T05:00:00Z');
  const dayStart = Date.parse('2026-11-19T05:00:00Z');
  await store.market.insertBars('day', [
    { ticker: CALL, t: prevStart, o: 4, h: 4.5, l: 3.8, c: 4.2, v: 300, vw: 4.1, n: 40 },
    { ticker: CALL, t: dayStart, o: 4.3, h: 5, l: 4.3, c: 4.9, v: 120, vw: 4.6, n: 15 },
  ]);
  await store.market.insertTrades([
    { ticker: 'ZZA', sip_timestamp: ns(CLOCK - 3_600_000), price: 101, size: 100, exchange: 4, id: 'z1', sequence_number: 9n },
    { ticker: CALL, sip_timestamp: ns(CLOCK - 4 * 3_600_000), price: 4.85, size: 3, exchange: 312, sequence_number: 3n, conditions: [209] },
  ]);
  await store.market.insertQuotes([
    { ticker: CALL, sip_timestamp: ns(CLOCK - 4 * 3_600_000), bid_price: 4.8, ask_price: 5, bid_size: 40, ask_size: 55, sequence_number: 5n },
  ]);
  await store.options.upsertOpenInterest([{ ticker: CALL, date: '2026-11-19', open_interest: 1750 }]);
}

for (const engine of engines()) {
  describe(`options conformance with recorded upstream bodies (${engine.name})`, () => {
    const { t } = useSeededApp(engine, seed, { envelope: 'native', now: () => CLOCK });

    const check = conformanceCheck(t);

    check('contracts, a page with next_url', 'v3/reference/options/contracts.json', '/v3/reference/options/contracts?underlying_ticker=ZZB&limit=2', { allowExtra: ['count'] });
    check('contracts, the last page', 'v3/reference/options/contracts~2.json', '/v3/reference/options/contracts?underlying_ticker=ZZB&contract_type=call&expiration_date=2026-12-18', { allowExtra: ['count'] });
    check('one contract', 'v3/reference/options/contracts/O;EVRI240119C00002500.json', '/v3/reference/options/contracts/O:ZZB261218P00100000');
    check('one contract, requested without O:', 'v3/reference/options/contracts/OEVRI240119C00002500.json', '/v3/reference/options/contracts/ZZB261218P00100000');
    check('option chain', 'v3/snapshot/options/AAPL.json', '/v3/snapshot/options/ZZA?expiration_date=2026-12-18&strike_price=100&limit=1', {
      allowMissing: ['results[].fmv'],
      allowExtra: ['count', 'results[].greeks.delta', 'results[].greeks.gamma', 'results[].greeks.theta', 'results[].greeks.vega', 'results[].implied_volatility', 'results[].last_quote.ask_exchange', 'results[].last_quote.bid_exchange'],
    });
    check('option contract', 'v3/snapshot/options/AAPL/O;AAPL230616C00150000.json', `/v3/snapshot/options/ZZA/${CALL}`, {
      allowMissing: ['results.fmv'],
    });
  });
}
