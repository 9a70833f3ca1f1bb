import { describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { productionApp } from '../server/production-app.js';
import { useStoreAndApps } from '../helpers/app-fixture.js';

const TOKEN = 'adm_0123456789abcdefghijklmnop';

for (const engine of engines()) {
  describe(`admin API access (${engine.name})`, () => {
    const { store, apps: [t, off] } = useStoreAndApps(
      engine,
      async () => {},
      (store) => productionApp(store, { production: { adminToken: TOKEN, usage: false } }),
      (store) => productionApp(store, { production: { usage: false } }),
    );

    it('is never reachable with an API key, even one on the demo plan, in any header or the query', async () => {
      const key = await t.key('demo');
      for (const headers of [{ 'x-api-key': key }, { authorization: `Bearer ${key}` }, { 'x-admin-token': key }]) {
        const res = await t.app.inject({ url: '/admin/keys', headers });
        expect(res.statusCode).toBe(401);
        expect(res.json().data.code).toMatch(/MISSING_KEY|UNKNOWN_KEY/);
      }
      expect((await t.app.inject({ url: `/admin/keys?apiKey=${key}` })).statusCode).toBe(401);
      const create = await t.app.inject({ method: 'POST', url: '/admin/keys', headers: { authorization: `Bearer ${key}` }, payload: { plan: 'demo' } });
      expect(create.statusCode).toBe(401);
    });

    it('401 without a token or with a wrong one, before looking at the request', async () => {
      const none = await t.app.inject({ method: 'DELETE', url: '/admin/keys/key_x' });
      expect(none.statusCode).toBe(401);
      expect(none.json().data.error).toMatch(/Admin token was not provided/);
      const wrong = await t.app.inject({ url: '/admin/keys', headers: { 'x-admin-token': `${TOKEN}x` } });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().data.error).toBe('Invalid admin token');
    });

    it('does not exist when no admin token is configured', async () => {
      const res = await off.app.inject({ url: '/admin/keys', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(404);
    });

    it('validates its input and names the field', async () => {
      const post = (payload: object) => t.app.inject({ method: 'POST', url: '/admin/keys', headers: { 'x-admin-token': TOKEN }, payload });
      const badPlan = await post({ plan: 'gold' });
      expect(badPlan.statusCode).toBe(400);
      expect(badPlan.json().data.error).toBe('plan must be one of: free, starter, developer, advanced, business, demo');
      const past = await post({ expires_utc: '2001-01-01' });
      expect(past.statusCode).toBe(400);
      expect(past.json().data.error).toMatch(/^expires_utc must be an ISO 8601 date or time in the future/);
      const unknown = await t.app.inject({ method: 'DELETE', url: '/admin/keys/key_nope', headers: { 'x-admin-token': TOKEN } });
      expect(unknown.statusCode).toBe(404);
      const big = await t.app.inject({ method: 'POST', url: '/admin/keys', headers: { 'x-admin-token': TOKEN, 'content-type': 'application/json' }, payload: JSON.stringify({ label: 'x'.repeat(100_000) }) });
      expect(big.statusCode).toBe(413);
    });

    it('refuses a short admin token at start', async () => {
      await expect(productionApp(store, { production: { adminToken: 'short' } })).rejects.toThrow(/at least 24 characters/);
    });
  });
}
