import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { DashboardClient, dashboardApp } from './client.js';

// The operator sees every key's requests (keys that belong to no account, as the demo key and the
// CLI's, included), and the status card counts api_keys as the key list shows them.

for (const engine of engines()) {
  describe(`the operator's usage and key count (${engine.name})`, () => {
    let store: Store;
    let app: Awaited<ReturnType<typeof dashboardApp>>;
    let op: DashboardClient;
    beforeAll(async () => {
      store = await engine.open();
      app = await dashboardApp(store);
      op = new DashboardClient(app);
      expect((await op.signUp('ops@example.com')).statusCode).toBe(201);
    });
    afterAll(async () => {
      await app.close();
      await store.close();
    });

    it("counts a key without an account (the demo key) in the server's usage, not in the operator's own", async () => {
      const { key } = await store.keys.create({ plan: 'demo', label: 'demo key' });
      for (let i = 0; i < 4; i++) await app.inject({ method: 'GET', url: '/v1/marketstatus/now', headers: { authorization: `Bearer ${key}` } });
      const server = await op.request('GET', '/dashboard/api/admin/usage');
      expect(server.statusCode).toBe(200);
      const days = op.data(server).days as { requests: number; families: Record<string, number> }[];
      expect(days).toHaveLength(30);
      expect(days.at(-1)!.requests).toBeGreaterThanOrEqual(4);
      expect(days.at(-1)!.families['/v1/marketstatus/now']).toBeGreaterThanOrEqual(4);
      const own = op.data(await op.request('GET', '/dashboard/api/usage')).days as { requests: number }[];
      expect(own.at(-1)!.requests).toBe(0);
    });

    it('refuses the server usage to an account that is not an operator', async () => {
      const user = new DashboardClient(app);
      expect((await user.signUp('user@example.com')).statusCode).toBe(201);
      expect((await user.request('GET', '/dashboard/api/admin/usage')).statusCode).toBe(403);
    });

    it('counts as api_keys the keys the key list shows, not the explorer tokens', async () => {
      for (let i = 0; i < 3; i++) expect((await op.request('POST', '/dashboard/api/explorer-token')).statusCode).toBeLessThan(300);
      const listed = op.data(await op.request('GET', '/dashboard/api/admin/keys')).count as number;
      const status = op.data(await op.request('GET', '/dashboard/api/admin/status'));
      expect(status.store.rows.api_keys).toBe(listed);
    });
  });
}
