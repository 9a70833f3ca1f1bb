import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// Parameter checks happen before the store is asked anything: one engine is enough.
describe('social rankings: bad parameters', () => {
  let store: Store;
  let t: TestApp;
  let native: TestApp;
  beforeAll(async () => {
    store = await openStore({ sqliteFile: ':memory:' });
    t = await startTestApp(store);
    native = await startTestApp(store, { envelope: 'native' });
  });
  afterAll(async () => {
    await t.close();
    await native.close();
    await store.close();
  });

  const bad = async (qs: string, message: string | RegExp) => {
    const res = await t.get(`/v3/social?${qs}`);
    expect(res.status, qs).toBe(400);
    expect(res.body.data.status).toBe('ERROR');
    if (typeof message === 'string') expect(res.body.data.error).toBe(message);
    else expect(res.body.data.error).toMatch(message);
  };

  it('names the parameter and its rule', async () => {
    await bad('window=2h', 'window must be one of: 1h, 24h, 7d, 30d');
    await bad('sort=volume', 'sort must be one of: mentions, sentiment, mentions_change');
    await bad('order=up', 'order must be one of: asc, desc');
    await bad('limit=0', 'limit must be an integer from 1 to 1000');
    await bad('limit=1001', 'limit must be an integer from 1 to 1000');
    for (const v of ['tomorrow', '2026-02-30', '2026-11-20T24:00:00Z', '1763640000000']) await bad(`as_of=${v}`, /^as_of must be a date \(YYYY-MM-DD/);
    await bad('ticker=AAPL,,MSFT', /^ticker must be a comma-separated list of at most 100 ticker symbols$/);
    await bad(`ticker=${Array.from({ length: 101 }, (_, i) => `T${i}`).join(',')}`, /^ticker must be/);
    await bad(`ticker=${'X'.repeat(65)}`, /^ticker must be/);
  });

  it('answers 401 without a key, in the native body too', async () => {
    const res = await native.app.inject({ method: 'GET', url: '/v3/social' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ status: 'ERROR', error: 'API Key was not provided' });
  });

  it('is documented in the OpenAPI document with every parameter', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/v3/social'].get;
    expect(op.summary).toBe('Social rankings');
    expect(op.description).toMatch(/no upstream twin/);
    expect(op.parameters.map((p: any) => p.name).sort()).toEqual(['as_of', 'limit', 'order', 'sort', 'ticker', 'window']);
  });
});
