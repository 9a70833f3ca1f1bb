// Snapshots made again from live state on the path of repeated requests (RouteSpec.renew,
// cached-hits.ts): after a published trade, a repeated single-ticker or full-market snapshot is
// answered there (not by Fastify's pipeline), shows the trade, and is what the full path answers
// to the same request. Both engines.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { CachedHits } from '../../src/server/cached-hits.js';
import { storeTicks } from '../../src/services/live-ticks.js';
import type { Store } from '../../src/store/index.js';
import { settledDataVersion } from '../helpers/data-version.js';
import { engines } from '../helpers/engines.js';
import { rawGet } from '../helpers/raw-get.js';
import { AFTER, loadSnapshotFixture, nsOf } from '../helpers/snapshot-fixture.js';

const ONE = '/v2/snapshot/locale/us/markets/stocks/tickers/AAA';
const ALL = '/v2/snapshot/locale/us/markets/stocks/tickers';

const withoutId = (body: Buffer | string): unknown => ({ ...JSON.parse(String(body)), request_id: 'x' });

for (const engine of engines()) {
  describe(`snapshots renewed from live state before the pipeline (${engine.name})`, () => {
    let store: Store;
    let app: Awaited<ReturnType<typeof buildApp>>;
    let hits: CachedHits;
    let url: string;
    let key: string;
    const clock = AFTER + 2 * 3_600_000; // later than every tick of the fixture: the live state answers
    let seq = 10n;

    beforeAll(async () => {
      store = await engine.open();
      await loadSnapshotFixture(store);
      await settledDataVersion(store, engine.name);
      app = await buildApp({ store, config: { envelope: 'native' }, now: () => clock, production: {} });
      await app.listen({ port: 0, host: '127.0.0.1' });
      url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      hits = app.ctx.hits as CachedHits;
      key = (await store.keys.create({ plan: 'business', label: 'renew' })).key;
    }, 120_000);
    afterAll(async () => {
      await app?.close();
      await store?.close();
    });

    const get = (path: string) => rawGet(url + path, { 'x-api-key': key });
    const full = async (path: string) => (await app.inject({ method: 'GET', url: path, headers: { 'x-api-key': key } })).rawPayload;

    for (const [what, path] of [['single-ticker', ONE], ['full-market', ALL]] as const) {
      it(`answers a repeated ${what} snapshot after a trade from live state, as the full path does`, async () => {
        await get(path);
        await get(path);
        for (const price of [51.25, 52.5]) {
          await storeTicks(store, [{ ticker: 'AAA', sip_timestamp: nsOf(clock) - 1000n, price, size: 7, exchange: 4, sequence_number: seq++ }], []);
          const served = hits.served;
          const fast = await get(path);
          expect(hits.served - served).toBe(1);
          expect(fast.status).toBe(200);
          const body = JSON.parse(String(fast.body));
          const aaa = path === ONE ? body.ticker : body.tickers.find((t: { ticker: string }) => t.ticker === 'AAA');
          expect(aaa.lastTrade.p).toBe(price);
          expect(withoutId(fast.body)).toEqual(withoutId(await full(path)));
        }
      });
    }
  });
}
