import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { DashboardClient, dashboardApp } from './client.js';

for (const engine of engines()) {
  describe(`dashboard sign-up, sign-in and keys (${engine.name})`, () => {
    let store: Store;
    let app: Awaited<ReturnType<typeof dashboardApp>>;
    beforeAll(async () => {
      store = await engine.open();
      app = await dashboardApp(store);
    });
    afterAll(async () => {
      await app.close();
      await store.close();
    });

    it('signs up the first account as operator, the next as a user, and keeps each signed in', async () => {
      const op = new DashboardClient(app);
      const res = await op.signUp('Operator@Example.com');
      expect(res.statusCode).toBe(201);
      expect(op.data(res).account).toMatchObject({ email: 'Operator@Example.com', is_admin: true, plan: 'free' });
      expect((await op.session()).signed_in).toBe(true);

      const user = new DashboardClient(app);
      const r2 = await user.signUp('user@example.com');
      expect(r2.statusCode).toBe(201);
      expect(user.data(r2).account.is_admin).toBe(false);
      expect((await user.session()).account.email).toBe('user@example.com');

      const dup = await new DashboardClient(app).signUp('USER@example.com');
      expect(dup.statusCode).toBe(409);
    });

    it("names the base URL for the official clients (the quickstart's), which answers in upstream's bodies", async () => {
      const session = await new DashboardClient(app).session();
      expect(session.client_url).toBe(`${session.public_url}/upstream`);
      const { key } = await store.keys.create({ plan: 'demo' });
      const res = await app.inject({ method: 'GET', url: `${new URL(session.client_url).pathname}/v1/marketstatus/now`, headers: { 'x-api-key': key } });
      expect(res.statusCode).toBe(200);
      expect(res.json().ok).toBeUndefined();
      expect(res.json().market).toBeDefined();
    });

    it('signs out, and the old cookie no longer opens a session', async () => {
      const c = new DashboardClient(app);
      expect((await c.signIn('user@example.com')).statusCode).toBe(200);
      const cookie = c.cookies.get('tb_session');
      expect((await c.request('POST', '/dashboard/api/logout')).statusCode).toBe(200);
      expect((await c.session()).signed_in).toBe(false);
      const replay = await app.inject({ method: 'GET', url: '/dashboard/api/keys', headers: { cookie: `tb_session=${cookie}` } });
      expect(replay.statusCode).toBe(401);
    });

    it('creates a key whose secret works on the REST API once revoked no more, and lists it by prefix only', async () => {
      const c = new DashboardClient(app);
      await c.signIn('user@example.com');
      const created = await c.request('POST', '/dashboard/api/keys', { label: 'laptop' });
      expect(created.statusCode).toBe(201);
      const { key, results } = c.data(created);
      expect(key).toMatch(/^tb_/);
      expect(results).toMatchObject({ label: 'laptop', prefix: key.slice(0, 7), plan: 'free', requests_today: 0 });

      const rest = await app.inject({ method: 'GET', url: '/v1/marketstatus/now', headers: { authorization: `Bearer ${key}` } });
      expect(rest.statusCode).toBe(200);

      const list = await c.request('GET', '/dashboard/api/keys');
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain(key);
      const row = c.data(list).results.find((k: { id: string }) => k.id === results.id);
      expect(row).toMatchObject({ prefix: key.slice(0, 7), requests_today: 1 });
      expect(row.last_used_day).toBe(new Date().toISOString().slice(0, 10));

      const usage = c.data(await c.request('GET', '/dashboard/api/usage'));
      expect(usage.days).toHaveLength(30);
      expect(usage.days.at(-1).requests).toBe(1);
      expect(usage.plan.name).toBe('free');
      expect(usage.plan.entitlements.find((e: { dataset: string }) => e.dataset === 'aggregates').markets.stocks).toBe(true);
      expect(usage.plan.entitlements.find((e: { dataset: string }) => e.dataset === 'trades').markets.stocks).toBe(false);
      expect(usage.rate_limit).toMatchObject({ requests: 5, per_seconds: 60 });
      expect(usage.rate_limit.keys[0].remaining).toBe(4);

      const revoked = await c.request('DELETE', `/dashboard/api/keys/${results.id}`);
      expect(revoked.statusCode).toBe(200);
      expect(c.data(revoked).results.revoked_utc).toBeDefined();
      const after = await app.inject({ method: 'GET', url: '/v1/marketstatus/now', headers: { authorization: `Bearer ${key}` } });
      expect(after.statusCode).toBe(401);
    });

    it('gives the explorer a short-lived token that works on the REST API and is not listed as a key', async () => {
      const c = new DashboardClient(app);
      await c.signIn('user@example.com');
      const res = await c.request('POST', '/dashboard/api/explorer-token');
      expect(res.statusCode).toBe(200);
      const { token, expires_utc } = c.data(res);
      const minutes = (Date.parse(expires_utc) - Date.now()) / 60_000;
      expect(minutes).toBeGreaterThan(14);
      expect(minutes).toBeLessThanOrEqual(15);
      expect((await app.inject({ method: 'GET', url: '/v1/marketstatus/now', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
      const keys = c.data(await c.request('GET', '/dashboard/api/keys')).results;
      expect(keys.every((k: { label?: string }) => k.label !== 'dashboard explorer')).toBe(true);
    });

    it("gives explorer tokens at least 60 requests a minute, while the free plan's own keys keep 5", async () => {
      const c = new DashboardClient(app);
      await c.signIn('user@example.com');
      const { token } = c.data(await c.request('POST', '/dashboard/api/explorer-token'));
      const { key } = c.data(await c.request('POST', '/dashboard/api/keys', { label: 'rate' }));
      const statuses = async (k: string) => {
        const out: number[] = [];
        for (let i = 0; i < 7; i++) out.push((await app.inject({ method: 'GET', url: '/v1/marketstatus/now', headers: { 'x-api-key': k } })).statusCode);
        return out;
      };
      expect(await statuses(token)).toEqual([200, 200, 200, 200, 200, 200, 200]);
      expect((await statuses(key)).slice(4)).toEqual([200, 429, 429]);
    });

    it('documents the dashboard API in the OpenAPI document', async () => {
      const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/dashboard/api/session', '/dashboard/api/keys', '/dashboard/api/keys/{id}', '/dashboard/api/usage', '/dashboard/api/admin/accounts']));
    });
  });
}
