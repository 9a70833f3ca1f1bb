import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { DashboardClient, dashboardApp } from './client.js';

for (const engine of engines()) {
  describe(`dashboard bad input gets a clear 4xx (${engine.name})`, () => {
    let store: Store;
    let app: Awaited<ReturnType<typeof dashboardApp>>;
    let c: DashboardClient;
    beforeAll(async () => {
      store = await engine.open();
      app = await dashboardApp(store);
      c = new DashboardClient(app);
      await c.signUp('someone@example.com');
    });
    afterAll(async () => {
      await app.close();
      await store.close();
    });

    it('names the parameter of a bad body, in the error envelope', async () => {
      const cases: [string, unknown, RegExp][] = [
        ['/dashboard/api/keys', { label: 'x'.repeat(101) }, /label/],
        ['/dashboard/api/keys', { label: '   ' }, /label/],
        ['/dashboard/api/keys', {}, /label/],
        ['/dashboard/api/signup', { email: 'someone-else@example.com', password: 'short' }, /password must be at least 8/],
        ['/dashboard/api/signup', { email: 'nope', password: 'long enough password' }, /email must be/],
      ];
      for (const [url, body, message] of cases) {
        const res = await c.request('POST', url, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(c.data(res)).toMatchObject({ status: 'ERROR', code: 'BAD_PARAMETER' });
        expect(c.data(res).message, JSON.stringify(body)).toMatch(message);
        expect(c.data(res).request_id).toMatch(/^[0-9a-f]{32}$/);
      }
    });

    it('never lets a user choose the plan of a key (extra fields are dropped; the account plan applies)', async () => {
      const res = await c.request('POST', '/dashboard/api/keys', { label: 'ok', plan: 'business' });
      expect(res.statusCode).toBe(201);
      expect(c.data(res).results.plan).toBe('free');
    });

    it('answers a malformed JSON body with 400, and an unknown key id with 404', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/dashboard/api/keys',
        headers: { cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': c.csrf!, 'content-type': 'application/json' },
        payload: '{"label":',
      });
      expect(res.statusCode).toBe(400);
      const missing = await c.request('DELETE', '/dashboard/api/keys/key_000000000000');
      expect(missing.statusCode).toBe(404);
      expect(c.data(missing).message).toMatch(/no key with id key_000000000000/);
    });

    it("does not let an account revoke another account's key", async () => {
      const other = new DashboardClient(app);
      await other.signUp('other@example.com');
      const { results } = other.data(await other.request('POST', '/dashboard/api/keys', { label: 'theirs' }));
      expect((await c.request('DELETE', `/dashboard/api/keys/${results.id}`)).statusCode).toBe(404);
      expect(other.data(await other.request('GET', '/dashboard/api/keys')).results[0].revoked_utc).toBeUndefined();
    });
  });
}
