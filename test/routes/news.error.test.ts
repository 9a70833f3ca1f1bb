import { describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { seedNews } from '../helpers/news-fixture.js';
import { useSeededApps } from '../helpers/app-fixture.js';

for (const engine of engines()) {
  describe(`news errors (${engine.name})`, () => {
    const { apps: [t, native] } = useSeededApps(engine, seedNews, {}, { envelope: 'native' });

    const bad = async (qs: string, param: string) => {
      const res = await t.get(`/v2/reference/news?${qs}`);
      expect(res.status, qs).toBe(400);
      expect(res.body.ok).toBe(false);
      expect(res.body.data.status).toBe('ERROR');
      expect(res.body.data.error, qs).toMatch(new RegExp(`^${param.replace(/\./g, '\\.')} `));
      return res.body.data.error as string;
    };

    it('rejects limits outside 1..1000 and non-integers, naming limit', async () => {
      expect(await bad('limit=0', 'limit')).toBe('limit must be an integer from 1 to 1000');
      await bad('limit=1001', 'limit');
      await bad('limit=ten', 'limit');
      await bad('limit=2.5', 'limit');
    });

    it('rejects unknown order and sort values', async () => {
      expect(await bad('order=newest', 'order')).toBe('order must be one of: asc, desc');
      expect(await bad('sort=title', 'sort')).toBe('sort must be one of: published_utc');
    });

    it('rejects impossible or malformed published_utc values in every form', async () => {
      for (const p of ['published_utc', 'published_utc.gt', 'published_utc.gte', 'published_utc.lt', 'published_utc.lte']) {
        for (const v of ['2024-02-30', 'yesterday', '2024-06-21T25:00:00Z', '2024-06-21T10:00:00', '1719000000']) {
          expect(await bad(`${p}=${encodeURIComponent(v)}`, p)).toContain('RFC 3339');
        }
      }
    });

    it('rejects empty and over-long tickers', async () => {
      await bad('ticker=', 'ticker');
      await bad(`ticker.gt=${'A'.repeat(65)}`, 'ticker.gt');
    });

    it('rejects an edited cursor and a cursor from another endpoint', async () => {
      const first = (await t.get('/v2/reference/news?limit=2')).body.data;
      const cursor = new URL(first.next_url).searchParams.get('cursor')!;
      const edited = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
      const res = await t.get(`/v2/reference/news?cursor=${edited}`);
      expect(res.status).toBe(400);
      expect(res.body.data.code).toBe('BAD_CURSOR');
      const tickers = await t.get(`/v3/reference/tickers?cursor=${cursor}`);
      expect(tickers.status).toBe(400);
    });

    it('answers 401 without a key and 404 on an unknown path, in both envelopes', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v2/reference/news' });
      expect(res.statusCode).toBe(401);
      expect(res.json().data.status).toBe('ERROR');
      const n = await native.get('/v2/reference/newz');
      expect(n.status).toBe(404);
      expect(n.body.status).toBe('NOT_FOUND');
      const nb = await native.get('/v2/reference/news?limit=0');
      expect(nb.status).toBe(400);
      expect(nb.body).toMatchObject({ status: 'ERROR', error: 'limit must be an integer from 1 to 1000' });
    });
  });
}
