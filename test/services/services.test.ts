// The services answer without HTTP (the WebSocket feed and the dashboard will call them the same
// way): keyset pages resume exactly after the position they report, overviews carry the computed
// market cap, and tick times stay exact bigints beyond 2^53.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nyMidnight } from '../../src/domain/calendar.js';
import { createServices, type Services } from '../../src/services/index.js';
import type { TickerListParams } from '../../src/services/tickers.js';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { bulkTickers } from '../helpers/reference-fixture.js';

const LIST: TickerListParams = { active: true, sort: 'ticker', order: 'asc' };
// a nanosecond time past 2^53 whose last digits a double would lose
const T_NS = 1_709_913_600_123_456_789n;

for (const engine of engines()) {
  describe(`services over the store (${engine.name})`, () => {
    let store: Store;
    let services: Services;
    beforeAll(async () => {
      store = await engine.open();
      await store.reference.upsertTickers([
        ...bulkTickers(7),
        { ticker: 'MCAP', name: 'Market Cap Inc.', market: 'stocks', locale: 'us', active: true, last_updated_utc: '2024-01-02T00:00:00Z', valid_from: '2020-01-02', weighted_shares_outstanding: 1_000 },
      ]);
      await store.market.insertBars('day', [{ ticker: 'MCAP', t: nyMidnight('2024-03-04'), o: 2, h: 2, l: 2, c: 2.5, v: 10, vw: 2.5, n: 1 }]);
      await store.market.insertTrades([{ ticker: 'MCAP', sip_timestamp: T_NS, price: 2.5, size: 100, exchange: 4, id: '7' }]);
      services = createServices(store, { now: () => Date.parse('2024-03-08T17:00:00Z') });
    });
    afterAll(async () => {
      await store.close();
    });

    it('pages the ticker list: a read after the last position returns the next rows, none twice', async () => {
      const first = await services.tickers.list(LIST, { limit: 3 });
      expect(first.rows.map((r) => r.record.ticker)).toEqual(['MCAP', 'T0000', 'T0001']);
      const second = await services.tickers.list(LIST, { limit: 3, after: first.position(first.rows[2]!) });
      expect(second.rows.map((r) => r.record.ticker)).toEqual(['T0002', 'T0003', 'T0004']);
      const last = await services.tickers.list(LIST, { limit: 10, after: second.position(second.rows[2]!) });
      expect(last.rows.map((r) => r.record.ticker)).toEqual(['T0005', 'T0006']);
    });

    it('gives the overview with market cap = shares × the latest close, and nothing for an unknown ticker', async () => {
      expect((await services.tickers.overview('MCAP', undefined))?.market_cap).toBe(2_500);
      expect(await services.tickers.overview('NOPE', undefined)).toBeUndefined();
    });

    it('gives the last trade with its exact nanosecond time', async () => {
      const trade = await services.lastTicks.trade('MCAP');
      expect(trade).toMatchObject({ T: 'MCAP', p: 2.5, s: 100, x: 4, i: '7' });
      expect(trade?.t).toBe(T_NS);
      expect(await services.lastTicks.trade('NOPE')).toBeUndefined();
    });

    it('refuses a date that is not on the calendar with a 400 naming the parameter', async () => {
      await expect(services.tickers.overview('MCAP', '2024-02-30')).rejects.toMatchObject({ http: 400, message: expect.stringContaining('date') });
    });
  });
}
