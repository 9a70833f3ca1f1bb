import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { productionApp, type ProductionTestApp } from '../server/production-app.js';

for (const engine of engines()) {
  describe(`health and readiness (${engine.name})`, () => {
    let store: Store;
    let t: ProductionTestApp;
    let closing = false;

    beforeAll(async () => {
      store = await engine.open();
      t = await productionApp(store, { production: { usage: false, closing: () => closing } });
    });
    afterAll(async () => {
      await t.close();
    });

    it('/health answers without a key, never cached', async () => {
      const res = await t.get('/health');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ok: true, data: { status: 'OK' } });
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('/ready checks the store and says Redis is not configured', async () => {
      const res = await t.get('/ready');
      expect(res.status).toBe(200);
      expect(res.body.data.checks).toEqual({ store: 'ok', redis: 'not configured' });
    });

    it('/ready answers 503 while shutting down, so balancers drain the process', async () => {
      closing = true;
      const res = await t.get('/ready');
      closing = false;
      expect(res.status).toBe(503);
      expect(res.body.data.error).toBe('Not ready: the server is shutting down');
    });

    it('neither appears in the OpenAPI document', async () => {
      const doc = (await t.get('/openapi.json')).body;
      for (const p of ['/health', '/ready', '/metrics', '/admin/keys']) expect(doc.paths[p]).toBeUndefined();
    });

    it('/ready answers 503 naming the store when it cannot answer', async () => {
      await store.close();
      const res = await t.get('/ready');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ ok: false, data: { status: 'ERROR', code: 'DEPENDENCY_UNAVAILABLE', error: `Not ready: store (${engine.name}) is unreachable` } });
      expect(res.body.data.checks.store).toMatch(/^unreachable: /);
      expect((await t.get('/health')).status).toBe(200);
    });
  });
}
