import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ASSETS_DIR } from '../../src/routes/dashboard/static.js';
import { openStore, type Store } from '../../src/store/index.js';
import { dashboardApp } from './client.js';

const built = existsSync(join(DEFAULT_ASSETS_DIR, 'index.html'));
if (!built) console.log(`dashboard static tests skipped: ${DEFAULT_ASSETS_DIR}/index.html is missing (npm run build makes it)`);

describe.skipIf(!built)('the dashboard single-page app', () => {
  let store: Store;
  let app: Awaited<ReturnType<typeof dashboardApp>>;
  beforeAll(async () => {
    store = await openStore({ sqliteFile: ':memory:' });
    app = await dashboardApp(store);
  });
  afterAll(async () => {
    await app.close();
    await store.close();
  });

  it('serves index.html under /dashboard and /dashboard/, revalidated every load, with a self-only policy', async () => {
    for (const url of ['/dashboard', '/dashboard/']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.body).toContain('/dashboard/assets/');
      expect(res.body).not.toMatch(/https?:\/\//); // no CDN
    }
  });

  it('serves the hashed assets with a year-long immutable cache', async () => {
    const file = readdirSync(join(DEFAULT_ASSETS_DIR, 'assets')).find((f) => f.endsWith('.js'))!;
    expect(file).toMatch(/-[A-Za-z0-9_-]{8}\.js$/);
    const res = await app.inject({ method: 'GET', url: `/dashboard/assets/${file}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
