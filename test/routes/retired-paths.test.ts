// Upstream's retired paths that older clients still call: the Benzinga news list under v1, and
// the futures detail paths (one contract, one product, one product's schedules) that client-go's
// GetFuturesContract, GetFuturesProduct and ListFuturesProductSchedules read. Each answers what
// its current equivalent answers.
import { describe, expect, it } from 'vitest';
import { buildFuturesReferenceDemo } from '../../src/demo/futures.js';
import { upsertSets } from '../../src/demo/partner.js';
import type { Store } from '../../src/store/index.js';
import { FUTURES_CONTRACTS } from '../../src/store/repos/futures-catalog.js';
import { useSeededApps } from '../helpers/app-fixture.js';
import { engines } from '../helpers/engines.js';
import { seedPartner } from '../helpers/partner-fixture.js';

const AS_OF = '2026-11-26';

async function seed(store: Store): Promise<void> {
  await upsertSets(store, buildFuturesReferenceDemo(AS_OF));
  const esz6 = buildFuturesReferenceDemo(AS_OF)['futures-contracts']!.find((c) => c.ticker === 'ESZ6')!;
  await store.datasets.upsert(FUTURES_CONTRACTS, [{ ...esz6, date: '2026-12-21' }]);
  await seedPartner(store);
}

for (const engine of engines()) {
  describe(`retired upstream paths (${engine.name})`, () => {
    const { apps: [t] } = useSeededApps(engine, seed, {});
    const ok = async (url: string) => {
      const res = await t.get(url);
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
      return res.body.data;
    };

    it('/benzinga/v1/news answers the /benzinga/v2/news list', async () => {
      const v2 = await ok('/benzinga/v2/news?limit=3');
      expect(v2.results.length).toBeGreaterThan(0);
      const v1 = await ok('/benzinga/v1/news?limit=3');
      expect(v1.results).toEqual(v2.results);
    });

    it('/futures/vX/contracts/{ticker}: the contract as the list writes it, newest or as of a date', async () => {
      const [listed] = (await ok(`/futures/vX/contracts?ticker=ESZ6&date=${AS_OF}`)).results;
      expect((await ok(`/futures/vX/contracts/ESZ6?as_of=${AS_OF}`)).results).toEqual(listed);
      expect((await ok('/futures/vX/contracts/ESZ6')).results).toMatchObject({ ticker: 'ESZ6', date: '2026-12-21', active: false });
      const missing = await t.get('/futures/vX/contracts/NOPE1');
      expect(missing.status).toBe(404);
      expect(missing.body.data.message).toMatch(/NOPE1/);
      expect((await t.get('/futures/vX/contracts/ESZ6?as_of=2020-01-01')).status).toBe(404);
    });

    it('/futures/vX/products/{product_code}: the product as the list writes it', async () => {
      const [listed] = (await ok('/futures/vX/products?product_code=ES')).results;
      expect((await ok('/futures/vX/products/ES')).results).toEqual(listed);
      expect((await t.get('/futures/vX/products/NOPE')).status).toBe(404);
    });

    it('/futures/vX/products/{product_code}/schedules: the schedules of that product, paged as the list pages them', async () => {
      const all = await ok('/futures/vX/schedules?product_code=ES&limit=1000');
      expect(all.results.length).toBeGreaterThan(1);
      const mine = await ok('/futures/vX/products/ES/schedules?limit=1000');
      expect(mine.results).toEqual(all.results);
      const first = await ok('/futures/vX/products/ES/schedules?limit=1');
      expect(first.results).toEqual(all.results.slice(0, 1));
      const next = new URL(first.next_url);
      expect(next.pathname).toBe('/futures/vX/products/ES/schedules');
      expect((await ok(next.pathname + next.search)).results).toEqual(all.results.slice(1, 2));
      // the path names the product; the list's product_code filters are not this path's
      expect((await ok('/futures/vX/products/ES/schedules?product_code.any_of=CL&limit=1000')).results).toEqual(all.results);
    });
  });
}

describe('retired futures paths: a bad as_of (sqlite)', () => {
  const { apps: [t] } = useSeededApps(engines()[0]!, seed, {});
  it('is a 400 naming as_of, never a 5xx', async () => {
    for (const url of ['/futures/vX/products/ES?as_of=0000-00-00', '/futures/vX/contracts/ESZ6?as_of=2026-02-30', '/futures/vX/products/ES?as_of=2026-13-01']) {
      const res = await t.get(url);
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.data.error, url).toMatch(/as_of/);
    }
  });
});
