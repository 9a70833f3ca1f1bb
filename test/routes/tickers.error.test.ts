import { describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { startTestApp } from '../helpers/app.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';
import { useSeededApps } from '../helpers/app-fixture.js';

for (const engine of engines()) {
  describe(`reference endpoint errors (${engine.name})`, () => {
    const { apps: [t, native] } = useSeededApps(engine, (store) => store.reference.upsertTickers(FIXTURE_TICKERS), {}, { envelope: 'native' });

    const cases: [string, string][] = [
      ['/v3/reference/tickers?limit=0', 'limit must be an integer from 1 to 1000'],
      ['/v3/reference/tickers?limit=1001', 'limit must be an integer from 1 to 1000'],
      ['/v3/reference/tickers?limit=ten', 'limit must be an integer from 1 to 1000'],
      ['/v3/reference/tickers?limit=2.5', 'limit must be an integer from 1 to 1000'],
      ['/v3/reference/tickers?order=up', 'order must be one of: asc, desc'],
      ['/v3/reference/tickers?sort=volume', 'sort must be one of'],
      ['/v3/reference/tickers?market=bonds', 'market must be one of'],
      ['/v3/reference/tickers?type=XYZ', 'type must be one of'],
      ['/v3/reference/tickers?active=maybe', 'active must be true or false'],
      ['/v3/reference/tickers?date=2023-13-01', 'date must be a real date'],
      ['/v3/reference/tickers?date=2023-02-30', 'date must be a real date'],
      ['/v3/reference/tickers?date=yesterday', 'date must be a date in the form YYYY-MM-DD'],
      ['/v3/reference/tickers/AAPL?date=20200101', 'date must be a date in the form YYYY-MM-DD'],
      ['/v3/reference/tickers/types?asset_class=bonds', 'asset_class must be one of'],
      ['/v3/reference/tickers/types?locale=eu', 'locale must be one of'],
      ['/v3/reference/exchanges?asset_class=stock', 'asset_class must be one of'],
      ['/v3/reference/conditions?limit=5000', 'limit must be an integer from 1 to 1000'],
      ['/v3/reference/conditions?data_type=tick', 'data_type must be one of: trade, bbo, nbbo'],
      ['/v3/reference/conditions?id=abc', 'id must be an integer'],
      ['/v3/reference/conditions?sip=NYSE', 'sip must be one of: CTA, UTP, OPRA'],
    ];
    for (const [url, message] of cases) {
      it(`400 for ${url}`, async () => {
        const res = await t.get(url);
        expect(res.status).toBe(400);
        expect(res.body.ok).toBe(false);
        expect(res.body.data.status).toBe('ERROR');
        expect(res.body.data.request_id).toMatch(/^[0-9a-f]{32}$/);
        expect(res.body.data.error).toContain(message);
      });
    }

    it('404 NOT_FOUND for an unknown ticker, in both envelopes', async () => {
      const res = await t.get('/v3/reference/tickers/NOPE');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ ok: false, data: { status: 'NOT_FOUND', message: 'Ticker not found.' } });
      const flat = await native.get('/v3/reference/tickers/NOPE');
      expect(flat.status).toBe(404);
      expect(flat.body).toMatchObject({ status: 'NOT_FOUND', message: 'Ticker not found.' });
      expect(flat.body.ok).toBeUndefined();
      expect(flat.headers['x-request-id']).toBe(flat.body.request_id);
    });

    it('tickers are case-sensitive', async () => {
      expect((await t.get('/v3/reference/tickers/aapl')).status).toBe(404);
    });

    it('404 NOT_FOUND for an unknown route, 405 for a wrong method', async () => {
      const res = await t.get('/v9/nothing/here');
      expect(res.status).toBe(404);
      expect(res.body.data.status).toBe('NOT_FOUND');
      const post = await t.app.inject({ method: 'POST', url: '/v3/reference/tickers', headers: { 'x-api-key': t.key } });
      expect(post.statusCode).toBe(405);
      expect(post.headers.allow).toContain('GET');
      expect(post.json().data.status).toBe('ERROR');
    });

    it('400 for an edited cursor, a cursor of another endpoint, and garbage', async () => {
      const first = (await t.get('/v3/reference/tickers?limit=2')).body.data;
      const cursor = new URL(first.next_url).searchParams.get('cursor') as string;
      const [payload, mac] = cursor.split('.');
      const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString());
      decoded.q.market = 'crypto';
      const forged = `${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${mac}`;
      for (const bad of [forged, `${payload}.AAAA${mac.slice(4)}`, 'garbage', `${payload}`, '%00']) {
        const res = await t.get(`/v3/reference/tickers?cursor=${encodeURIComponent(bad)}`);
        expect(res.status, bad).toBe(400);
        expect(res.body.data.error).toContain('cursor');
      }
      const cond = (await t.get('/v3/reference/conditions?cursor=' + encodeURIComponent(cursor)));
      expect(cond.status).toBe(400);
    });

    it('503 with a clear error when the store is unreachable, never a 500', async () => {
      const broken = await engine.open();
      const app = await startTestApp(broken);
      await broken.close();
      const res = await app.get('/v3/reference/tickers');
      expect(res.status).toBe(503);
      expect(res.body.data.status).toBe('ERROR');
      expect(res.body.data.error).toBe('The data store is unavailable; try again shortly');
      await app.close();
    });
  });
}
