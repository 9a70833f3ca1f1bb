import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { DashboardClient, dashboardApp } from './client.js';

for (const engine of engines()) {
  describe(`sign-up modes and the operator's account management (${engine.name})`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
    });
    afterAll(async () => {
      await store.close();
    });

    it('closed: nobody signs up', async () => {
      const app = await dashboardApp(store, { dashboard: { signup: 'closed' } });
      try {
        const c = new DashboardClient(app);
        expect((await c.session()).signup_mode).toBe('closed');
        const res = await c.signUp('first@example.com');
        expect(res.statusCode).toBe(403);
        expect(c.data(res).message).toMatch(/closed/);
      } finally {
        await app.close();
      }
    });

    it('invite: the first account (operator) signs up; later ones only with an invitation, used once, on its plan', async () => {
      const app = await dashboardApp(store, { dashboard: { signup: 'invite' } });
      try {
        const op = new DashboardClient(app);
        expect(op.data(await op.signUp('boss@example.com')).account.is_admin).toBe(true);
        const stranger = new DashboardClient(app);
        expect((await stranger.signUp('stranger@example.com')).statusCode).toBe(403);

        const inv = await op.request('POST', '/dashboard/api/admin/invitations', { email: 'guest@example.com', plan: 'starter' });
        expect(inv.statusCode).toBe(201);
        const { token, url } = op.data(inv);
        expect(url).toContain(`#/signup?invitation=${token}`);

        const wrongEmail = new DashboardClient(app);
        await wrongEmail.session();
        expect((await wrongEmail.request('POST', '/dashboard/api/signup', { email: 'other@example.com', password: 'long enough pw', invitation: token })).statusCode).toBe(403);

        const guest = new DashboardClient(app);
        await guest.session();
        const ok = await guest.request('POST', '/dashboard/api/signup', { email: 'Guest@example.com', password: 'long enough pw', invitation: token });
        expect(ok.statusCode).toBe(201);
        expect(guest.data(ok).account).toMatchObject({ plan: 'starter', is_admin: false });
        const again = new DashboardClient(app);
        await again.session();
        expect((await again.request('POST', '/dashboard/api/signup', { email: 'guest2@example.com', password: 'long enough pw', invitation: token })).statusCode).toBe(403);

        // the operator moves the guest to another plan: keys follow
        const { results } = guest.data(await guest.request('POST', '/dashboard/api/keys', { label: 'g' }));
        expect(results.plan).toBe('starter');
        const id = guest.data(ok).account.id;
        const moved = await op.request('PATCH', `/dashboard/api/admin/accounts/${id}`, { plan: 'developer' });
        expect(op.data(moved).account.plan).toBe('developer');
        expect(guest.data(await guest.request('GET', '/dashboard/api/keys')).results[0].plan).toBe('developer');
        expect((await op.request('PATCH', `/dashboard/api/admin/accounts/${id}`, { plan: 'nope' })).statusCode).toBe(400);

        // the operator creates an account directly, and sees every key (CLI keys too) and the status
        expect((await op.request('POST', '/dashboard/api/admin/accounts', { email: 'made@example.com', password: 'long enough pw', plan: 'free' })).statusCode).toBe(201);
        const cli = await store.keys.create({ plan: 'free', label: 'from the cli' });
        const all = op.data(await op.request('GET', '/dashboard/api/admin/keys')).results;
        expect(all.find((k: { id: string }) => k.id === cli.record.id)).toBeDefined();
        const revoked = await op.request('DELETE', `/dashboard/api/admin/keys/${cli.record.id}`);
        expect(op.data(revoked).results.revoked_utc).toBeDefined();
        const status = op.data(await op.request('GET', '/dashboard/api/admin/status'));
        expect(status.ready).toMatchObject({ ready: true, checks: { store: 'ok' } });
        expect(status.store.engine).toBe(engine.name);
        expect(status.store.size_bytes).toBeGreaterThan(0);
        expect(status.store.rows.accounts).toBeGreaterThanOrEqual(3);
        expect(status.version).toMatch(/^\d+\.\d+\.\d+/);
      } finally {
        await app.close();
      }
    });
  });
}
