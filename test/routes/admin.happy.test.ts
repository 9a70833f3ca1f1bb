import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';
import { productionApp, type ProductionTestApp } from '../server/production-app.js';

const TOKEN = 'adm_0123456789abcdefghijklmnop';

for (const engine of engines()) {
  for (const envelope of ['wrapped', 'native'] as const) {
    describe(`admin API (${engine.name}, ${envelope})`, () => {
      let store: Store;
      let t: ProductionTestApp;
      const admin = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
        t.app.inject({ method, url, headers: { authorization: `Bearer ${TOKEN}` }, ...(payload ? { payload } : {}) });
      const inner = (res: { json(): any }) => (envelope === 'wrapped' ? res.json().data : res.json());

      beforeAll(async () => {
        store = await engine.open();
        await store.reference.upsertTickers(FIXTURE_TICKERS);
        t = await productionApp(store, { envelope, production: { adminToken: TOKEN, usage: { flushIntervalMs: 60_000 } } });
      });
      afterAll(async () => {
        await t.close();
        await store.close();
      });

      it('creates a key on a plan with a label and expiry; the key works at once and is shown only then', async () => {
        const expires = new Date(Date.now() + 86_400_000).toISOString();
        const res = await admin('POST', '/admin/keys', { plan: 'starter', label: 'team a', expires_utc: expires });
        expect(res.statusCode).toBe(201);
        const created = inner(res).results;
        expect(created).toMatchObject({ plan: 'starter', label: 'team a', expires_utc: expires });
        expect(created.key).toMatch(/^tb_/);
        expect((await t.get('/v3/reference/tickers/AAPL', created.key)).status).toBe(200);
        const list = inner(await admin('GET', '/admin/keys'));
        const listed = list.results.find((k: { id: string }) => k.id === created.id);
        expect(listed).toMatchObject({ label: 'team a', plan: 'starter', expires_utc: expires });
        expect(JSON.stringify(list)).not.toContain(created.key);
      });

      it('the default plan applies when none is given', async () => {
        const res = await admin('POST', '/admin/keys', {});
        expect(inner(res).results.plan).toBe('free');
      });

      it('revokes a key: it stops working at once', async () => {
        const { results: k } = inner(await admin('POST', '/admin/keys', { plan: 'demo' }));
        expect((await t.get('/v3/reference/tickers/AAPL', k.key)).status).toBe(200);
        const res = await admin('DELETE', `/admin/keys/${k.id}`);
        expect(res.statusCode).toBe(200);
        expect(inner(res).results.revoked_utc).toBeDefined();
        const after = await t.get('/v3/reference/tickers/AAPL', k.key);
        expect(after.status).toBe(401);
        expect(t.data(after).error).toBe('API Key has been revoked');
      });

      it('reports usage per day and endpoint family, including requests not yet written', async () => {
        const { results: k } = inner(await admin('POST', '/admin/keys', { plan: 'demo', label: 'usage' }));
        for (let i = 0; i < 3; i++) await t.get('/v3/reference/tickers/AAPL', k.key);
        await t.get('/v3/reference/tickers/NOPE', k.key); // a 404: counted, as an error
        await t.get('/v3/reference/tickers?limit=1', k.key);
        const today = new Date().toISOString().slice(0, 10);
        const usage = inner(await admin('GET', `/admin/keys/${k.id}/usage`));
        expect(usage.totals).toEqual({ requests: 5, errors: 1 });
        expect(usage.results).toEqual([
          { day: today, family: '/v3/reference/tickers', requests: 1, errors: 0 },
          { day: today, family: '/v3/reference/tickers/:ticker', requests: 4, errors: 1 },
        ]);
        const one = inner(await admin('GET', `/admin/keys/${k.id}`)).results;
        expect(one.usage).toEqual({ requests_today: 5, requests_30_days: 5, errors_30_days: 1 });
        expect(inner(await admin('GET', `/admin/keys/${k.id}/usage?from=2000-01-01&to=2000-01-02`)).results).toEqual([]);
      });

      it('lists the configured plans', async () => {
        const plans = inner(await admin('GET', '/admin/plans'));
        expect(plans.results.map((p: { name: string }) => p.name)).toEqual(['free', 'starter', 'developer', 'advanced', 'business', 'demo']);
        expect(plans.default_plan).toBe('free');
      });
    });
  }
}
