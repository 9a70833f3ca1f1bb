import { describe } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { conformanceCheck } from '../helpers/conformance.js';
import { engines } from '../helpers/engines.js';
import { AFTER, DAY_START, PREV_START, et, DAY, nsOf } from '../helpers/snapshot-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';

// Documented differences: `fmv` is served to plans that include it (the test key's demo plan does);
// the one-ticker body adds `count`, as the lists carry it; `lastTrade.ds`,
// `day.dv`, `min.dv` and `min.dav` (the size and volumes as decimal text, newer upstream fields that
// its schema declares and these recorded bodies predate) are added; `lastTrade.c` is [] when the trade has no
// conditions (upstream's schema declares an array; its recorded body has null there); bodies carry
// `request_id`.

const STOCKS = '/v2/snapshot/locale/us/markets/stocks';

async function seed(store: Store): Promise<void> {
  const bars = (ticker: string, prev: number, close: number) => [
    { ticker, t: PREV_START, o: prev, h: prev + 1, l: prev - 1, c: prev, v: 300_000, vw: prev, n: 900 },
    { ticker, t: DAY_START, o: prev, h: close + 1, l: prev - 1, c: close, v: 200_000, vw: (prev + close) / 2, n: 700 },
  ];
  await store.market.insertBars('day', [...bars('CONA', 20, 24), ...bars('CONB', 300, 310)]);
  await store.market.insertBars('minute', [
    { ticker: 'CONA', t: et(DAY, '15:59'), o: 24, h: 24.1, l: 23.9, c: 24, v: 5000, vw: 24, n: 5 },
    { ticker: 'CONB', t: et(DAY, '15:59'), o: 310, h: 310.5, l: 309.5, c: 310, v: 9000, vw: 310, n: 9 },
  ]);
  await store.market.insertTrades([
    { ticker: 'CONA', sip_timestamp: nsOf(et(DAY, '15:59', 50)), price: 24, size: 2416, exchange: 4, id: '71675577320245', conditions: [14, 41], sequence_number: 1n },
    { ticker: 'CONB', sip_timestamp: nsOf(et(DAY, '15:59', 51)), price: 310, size: 200, exchange: 12, id: '121351', sequence_number: 2n },
  ]);
  await store.market.insertQuotes([
    { ticker: 'CONA', sip_timestamp: nsOf(et(DAY, '15:59', 55)), bid_price: 23.99, ask_price: 24.01, bid_size: 13, ask_size: 22, sequence_number: 3n },
    { ticker: 'CONB', sip_timestamp: nsOf(et(DAY, '15:59', 56)), bid_price: 309.98, ask_price: 310.02, bid_size: 3, ask_size: 5, sequence_number: 4n },
  ]);
}

for (const engine of engines()) {
  describe(`stock snapshot conformance with recorded upstream bodies (${engine.name})`, () => {
    const { t } = useSeededApp(engine, seed, { envelope: 'native', now: () => AFTER });

    const check = conformanceCheck(t);

    check('one ticker', 'v2/snapshot/locale/us/markets/stocks/tickers/AAPL.json', `${STOCKS}/tickers/CONB`, {
      // count as the list snapshots carry it, for older clients
      allowExtra: ['count', 'ticker.lastTrade.ds', 'ticker.day.dv', 'ticker.min.dv', 'ticker.min.dav'],
      allowNull: ['ticker.lastTrade.c'],
    });
    for (const file of ['tickers.json', 'tickers~2.json']) {
      check(`all tickers (${file})`, `v2/snapshot/locale/us/markets/stocks/${file}`, `${STOCKS}/tickers`, {
        allowExtra: ['tickers[].lastTrade.ds', 'tickers[].day.dv', 'tickers[].min.dv', 'tickers[].min.dav', 'request_id'],
      });
    }
    check('gainers', 'v2/snapshot/locale/us/markets/stocks/gainers~2.json', `${STOCKS}/gainers`, {
      allowExtra: ['tickers[].lastTrade.ds', 'tickers[].day.dv', 'tickers[].min.dv', 'tickers[].min.dav', 'request_id'],
    });
  });
}
