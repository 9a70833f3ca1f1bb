// The operator's page shows upstream: GET /dashboard/api/admin/upstream gives the calls made and
// refused, what the ledger covers per data set, the failures, and read-through's counts; only
// operators may read it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Store } from '../../src/store/index.js';
import { DashboardClient } from '../dashboard/client.js';
import { engines } from '../helpers/engines.js';
import { FakeUpstream, serveGeneratedMarket } from '../helpers/fake-upstream-rest.js';

for (const engine of engines()) {
  describe(`operator's view of upstream (${engine.name})`, () => {
    let store: Store;
    let fake: FakeUpstream;
    beforeAll(async () => {
      store = await engine.open();
      fake = await FakeUpstream.start();
      serveGeneratedMarket(fake);
    });
    afterAll(async () => {
      await fake.close();
      await store.close();
    });

    it('shows calls made and refused, the ledger per data set, failures and read-through counts', async () => {
      const app = await buildApp({
        store,
        config: { envelope: 'wrapped' },
        dashboard: { signInLimit: { prefix: `tb:test:${Math.random()}` } },
        readThrough: { upstreamUrl: fake.baseUrl, upstreamKey: 'operator-key', deadlineMs: 5000 },
      });
      try {
        const { key } = await store.keys.create({ plan: 'demo', label: 'api' });
        const ask = (url: string) => app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
        expect((await ask('/v2/aggs/ticker/AAPL/range/1/day/2026-11-02/2026-11-06')).statusCode).toBe(200);
        fake.fail({ kind: 'status', status: 429, retryAfter: '20' });
        expect((await ask('/v2/aggs/ticker/MSFT/range/1/day/2026-11-02/2026-11-06')).statusCode).toBe(429);

        const op = new DashboardClient(app);
        expect(op.data(await op.signUp('boss@example.com')).account.is_admin).toBe(true);
        const res = await op.request('GET', '/dashboard/api/admin/upstream');
        expect(res.statusCode).toBe(200);
        const s = op.data(res);
        expect(s.read_through).toBe(true);
        expect(s.counters).toMatchObject({ calls: 2, refused: 1, rows: 5 });
        expect(s.datasets).toEqual(expect.arrayContaining([expect.objectContaining({ dataset: 'aggs-day', status: 'complete', units: 1, rows: 5, firstDay: '2026-11-02', lastDay: '2026-11-06' })]));
        expect(s.failures).toEqual([expect.objectContaining({ dataset: 'aggs-day', ticker: 'MSFT', error: expect.stringContaining('too many requests') })]);
        expect(s.read_through_stats).toMatchObject({ misses: 2, fetched: 1, failed: 1 });

        const user = new DashboardClient(app);
        await user.signUp('user@example.com');
        expect((await user.request('GET', '/dashboard/api/admin/upstream')).statusCode).toBe(403);
      } finally {
        await app.close();
      }
    });
  });
}
