// Tickers are upper case. Upstream answers the overview of a lower-case ticker with 404 NOT_FOUND
// and its aggregates and trades with an empty page; the empty pages here add a `notice` saying
// tickers are upper case, so a user does not take the mistake for missing data. Both engines,
// both envelopes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';
import { FIXTURE_NOW, seedMarket } from '../helpers/market-fixture.js';

const HINT = /tickers are upper case \(AAPL\)/;

for (const engine of engines()) {
  for (const envelope of ['wrapped', 'native'] as const) {
    describe(`lower-case tickers (${engine.name}, ${envelope})`, () => {
      let store: Store;
      let t: TestApp;
      beforeAll(async () => {
        store = await engine.open();
        await seedMarket(store);
        t = await startTestApp(store, { envelope, now: () => FIXTURE_NOW });
      });
      afterAll(async () => {
        await t?.close();
        await store?.close();
      });

      it('the overview of a lower-case ticker is 404 NOT_FOUND, as upstream answers', async () => {
        expect((await t.get('/v3/reference/tickers/AAPL')).status).toBe(200);
        const res = await t.get('/v3/reference/tickers/aapl');
        expect(res.status).toBe(404);
        expect(t.data(res).status).toBe('NOT_FOUND');
      });

      for (const [what, lower, upper] of [
        ['aggregates', '/v2/aggs/ticker/aapl/range/1/day/2024-03-01/2024-03-15', '/v2/aggs/ticker/AAPL/range/1/day/2024-03-01/2024-03-15'],
        ['trades', '/v3/trades/aapl', '/v3/trades/AAPL'],
        ['quotes', '/v3/quotes/aapl', '/v3/quotes/AAPL'],
      ] as const) {
        it(`${what}: an empty page whose notice says tickers are upper case, asked twice (the second from the cache)`, async () => {
          for (let i = 0; i < 2; i++) {
            const res = await t.get(lower);
            expect(res.status).toBe(200);
            const body = t.data(res);
            expect(body.results ?? []).toEqual([]);
            expect(body.notice).toMatch(HINT);
          }
          const right = t.data(await t.get(upper));
          expect(right.results.length).toBeGreaterThan(0);
          expect(right.notice).toBeUndefined();
        });
      }
    });
  }
}
