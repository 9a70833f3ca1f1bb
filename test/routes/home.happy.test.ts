import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openStore, type Store } from '../../src/store/index.js';

// A browser opened on the server's address gets a page linking the dashboard and the docs, not a
// JSON 404; the page is the same for everyone and carries no key.

describe('GET /', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ sqliteFile: ':memory:' });
    await store.keys.create({ plan: 'demo', label: 'demo' });
  });
  afterAll(async () => store.close());

  it('answers an HTML page linking the dashboard, the docs and the API bases, without a key', async () => {
    const app = await buildApp({ store, config: { envelope: 'wrapped' }, production: { usage: false }, dashboard: { signup: 'open' } });
    try {
      const res = await app.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('href="/dashboard/"');
      expect(res.body).toContain('href="/docs"');
      expect(res.body).toContain('/upstream');
      expect(res.body).not.toMatch(/tb_[A-Za-z0-9_-]{20,}/);
      const docs = await app.inject({ method: 'GET', url: '/docs' });
      expect(docs.statusCode).toBeLessThan(400);
    } finally {
      await app.close();
    }
  });

  it('leaves the dashboard link out when the dashboard is off', async () => {
    const app = await buildApp({ store, config: { envelope: 'wrapped' }, production: { usage: false } });
    try {
      const res = await app.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('/dashboard/');
      expect(res.body).toContain('href="/docs"');
    } finally {
      await app.close();
    }
  });
});
