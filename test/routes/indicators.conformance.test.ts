import { describe } from 'vitest';
import { useSeededApp } from '../helpers/app-fixture.js';
import { conformanceCheck } from '../helpers/conformance.js';
import { engines } from '../helpers/engines.js';

// Documented difference: the recorded RSI body for an option has no `values` at all (an empty
// answer); ours always writes `values`, empty or not.

const CLOCK = Date.parse('2026-11-20T22:00:00Z');
const DAY_MS = 86_400_000;

for (const engine of engines()) {
  describe(`indicator conformance with recorded upstream bodies (${engine.name})`, () => {
    const { t } = useSeededApp(engine, async (store) => {
      const bars = (ticker: string) =>
        Array.from({ length: 80 }, (_, i) => {
          const c = 100 + 10 * Math.sin(i / 5) + i / 10;
          return { ticker, t: Date.parse('2026-08-01T04:00:00Z') + i * DAY_MS, o: c - 0.5, h: c + 1, l: c - 1, c, v: 1e6 + i, vw: c, n: 100 + i };
        });
      await store.market.insertBars('day', [...bars('IND'), ...bars('X:BTCUSD'), ...bars('O:SPY241220P00720000')]);
    }, { envelope: 'native', now: () => CLOCK });

    const check = conformanceCheck(t);

    check('SMA, expanded, with next_url', 'v1/indicators/sma/AAPL.json', '/v1/indicators/sma/IND?window=5&limit=3&expand_underlying=true');
    check('SMA, last page', 'v1/indicators/sma/AAPL~2.json', '/v1/indicators/sma/IND?window=6&order=asc&series_type=open&timestamp.gte=2026-10-01&limit=100');
    check('EMA', 'v1/indicators/ema/AAPL.json', '/v1/indicators/ema/IND?window=5&adjusted=false&timestamp.gte=2026-10-01&limit=100');
    check('EMA, crypto, expanded', 'v1/indicators/ema/X;BTC-USD.json', '/v1/indicators/ema/X:BTC-USD?window=10&limit=2&expand_underlying=true');
    check('MACD', 'v1/indicators/macd/AAPL.json', '/v1/indicators/macd/IND?timestamp.gte=2026-10-01&limit=100');
    check('RSI, option, with next_url', 'v1/indicators/rsi/O;SPY241220P00720000.json', '/v1/indicators/rsi/O:SPY241220P00720000?window=10&limit=2', { allowExtra: ['results.values'] });
  });
}
