import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_CACHE_TTL_MS } from '../../src/server/auth.js';
import { buildApp } from '../../src/app.js';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Two apps over one store stand for two server processes: each has its own key cache.
for (const engine of engines()) {
  describe(`key revocation reaches every process within a second (${engine.name})`, () => {
    let store: Store;
    let a: Awaited<ReturnType<typeof buildApp>>;
    let b: Awaited<ReturnType<typeof buildApp>>;
    beforeAll(async () => {
      store = await engine.open();
      a = await buildApp({ store, config: { envelope: 'wrapped' } });
      b = await buildApp({ store, config: { envelope: 'wrapped' } });
    });
    afterAll(async () => {
      await a.close();
      await b.close();
      await store.close();
    });

    it('a key revoked elsewhere (another process, the CLI) is refused after the key cache TTL, well under 1 s', async () => {
      expect(KEY_CACHE_TTL_MS).toBeLessThan(1000);
      const { key, record } = await store.keys.create({ plan: 'demo' });
      const call = (app: typeof a) => app.inject({ method: 'GET', url: '/v1/marketstatus/now', headers: { 'x-api-key': key } });
      expect((await call(a)).statusCode).toBe(200);
      expect((await call(b)).statusCode).toBe(200); // now cached in b
      await store.keys.revoke(record.id);
      a.ctx.auth.forget(); // what the revoking process does
      expect((await call(a)).statusCode).toBe(401);
      await sleep(KEY_CACHE_TTL_MS + 50);
      const res = await call(b);
      expect(res.statusCode).toBe(401);
      expect(res.json().data.message).toMatch(/revoked/);
      expect(res.json().data.code).toBe('REVOKED_KEY');
      const unknown = await b.inject({ method: 'GET', url: '/v1/marketstatus/now', headers: { 'x-api-key': 'no-such-key-0000000000' } });
      expect([unknown.statusCode, unknown.json().data.code]).toEqual([401, 'UNKNOWN_KEY']);
    });

    it('an expired key is refused with its own code', async () => {
      const { key } = await store.keys.create({ plan: 'demo', expires_utc: '2001-01-01T00:00:00Z' });
      const res = await a.inject({ method: 'GET', url: '/v1/marketstatus/now', headers: { 'x-api-key': key } });
      expect(res.statusCode).toBe(401);
      expect(res.json().data.code).toBe('EXPIRED_KEY');
    });
  });
}
