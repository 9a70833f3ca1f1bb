import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { startTestApp, walkPages, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';
import { NEWS_FIXTURE, bulkArticles, seedNews } from '../helpers/news-fixture.js';
import { useSeededApps } from '../helpers/app-fixture.js';
import { sqlOf } from '../../src/store/inspect.js';

const ids = (body: any): string[] => body.results.map((r: any) => r.id);

for (const engine of engines()) {
  describe(`news (${engine.name})`, () => {
    const { store, apps: [t, native] } = useSeededApps(engine, seedNews, {}, { envelope: 'native' });

    const list = async (qs: string) => {
      const res = await t.get(`/v2/reference/news${qs}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return ids(res.body.data);
    };

    it('lists newest first, 10 by default, inside the seed envelope', async () => {
      const res = await t.get('/v2/reference/news');
      expect(res.body.ok).toBe(true);
      const data = res.body.data;
      expect(data.status).toBe('OK');
      expect(data.request_id).toMatch(/^[0-9a-f]{32}$/);
      expect(ids(data)).toEqual(['a8', 'a7', 'a6', 'a5', 'a4', 'a3', 'a2', 'a1']);
      expect(data.count).toBe(8);
      expect(data.next_url).toBeUndefined();
    });

    it('returns every field of an article, and omits the optional ones it lacks', async () => {
      const data = (await t.get('/v2/reference/news?ticker=MSFT')).body.data;
      expect(data.results).toEqual([NEWS_FIXTURE[0]]);
      const bare = (await t.get('/v2/reference/news?ticker=UBS')).body.data.results[0];
      expect(Object.keys(bare).sort()).toEqual(['article_url', 'author', 'id', 'published_utc', 'publisher', 'tickers', 'title']);
      expect(bare.publisher).toEqual({ name: 'Test Wire', homepage_url: 'https://wire.example/', logo_url: 'https://wire.example/logo.svg' });
      const empty = (await t.get('/v2/reference/news?published_utc=2024-06-25')).body.data.results[0];
      expect(empty.tickers).toEqual([]);
    });

    it('serves the flat upstream body in native mode', async () => {
      const res = await native.get('/v2/reference/news?limit=2');
      expect(res.body.ok).toBeUndefined();
      expect(res.body.status).toBe('OK');
      expect(res.body.count).toBe(2);
      expect(ids(res.body)).toEqual(['a8', 'a7']);
      expect(res.body.next_url).toMatch(/^http:\/\/localhost(:\d+)?\/v2\/reference\/news\?cursor=[^&]+$/);
    });

    it('filters by ticker (case-sensitive; unknown tickers give an empty list)', async () => {
      expect(await list('?ticker=AAPL')).toEqual(['a6', 'a3', 'a1']);
      expect(await list('?ticker=BRK.B')).toEqual(['a5']);
      expect(await list('?ticker=aapl')).toEqual([]);
      expect(await list('?ticker=NOPE')).toEqual([]);
    });

    it('filters by ticker ranges: one ticker of the article must meet every bound', async () => {
      expect(await list('?ticker.gte=NVDA')).toEqual(['a7', 'a6', 'a4', 'a2']);
      expect(await list('?ticker.gt=NVDA')).toEqual(['a7', 'a4']);
      expect(await list('?ticker.lt=B')).toEqual(['a6', 'a3', 'a1']);
      expect(await list('?ticker.lte=AAPL')).toEqual(['a6', 'a3', 'a1']);
      // a1 has AAPL (not > AAPL) and MSFT (not < MSFT): no single ticker is inside the range.
      expect(await list('?ticker.gt=AAPL&ticker.lt=MSFT')).toEqual(['a5', 'a4']);
      expect(await list('?ticker=AAPL&ticker.gt=AAPL')).toEqual([]);
      expect(await list('?ticker=NVDA&ticker.gte=A')).toEqual(['a6', 'a2']);
    });

    it('filters by published_utc: a date is the whole UTC day, a timestamp is that instant', async () => {
      expect(await list('?published_utc=2024-06-21')).toEqual(['a3', 'a2']);
      expect(await list('?published_utc=2024-06-24T18:33:53Z')).toEqual(['a7']);
      expect(await list('?published_utc=2024-06-24T20:33:53%2B02:00')).toEqual(['a7']);
      expect(await list('?published_utc=2024-06-24T18:33:54Z')).toEqual([]);
    });

    it('filters by published_utc ranges: a bare date is 00:00:00Z of that day', async () => {
      expect(await list('?published_utc.gte=2024-06-22&published_utc.lt=2024-06-24')).toEqual(['a6', 'a5', 'a4']);
      expect(await list('?published_utc.gt=2024-06-22')).toEqual(['a8', 'a7', 'a6', 'a5']);
      expect(await list('?published_utc.lte=2024-06-22T00:00:00Z')).toEqual(['a4', 'a3', 'a2', 'a1']);
      expect(await list('?published_utc.lt=2024-06-21T11:30:00%2B02:00')).toEqual(['a1']);
      expect(await list('?published_utc.lte=2024-06-21T11:30:00%2B02:00')).toEqual(['a2', 'a1']);
      expect(await list('?published_utc.gte=2024-06-21&ticker=AAPL')).toEqual(['a6', 'a3']);
    });

    it('orders ascending on request, ties by store order', async () => {
      expect(await list('?order=asc')).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8']);
      expect(await list('?order=asc&sort=published_utc&ticker=AAPL')).toEqual(['a1', 'a3', 'a6']);
      expect(await list('?order=desc&limit=3')).toEqual(['a8', 'a7', 'a6']);
    });

    it('pages with a cursor that carries the whole query and never the key', async () => {
      const first = (await t.get(`/v2/reference/news?ticker=AAPL&limit=2&api_key=${t.key}`)).body.data;
      expect(ids(first)).toEqual(['a6', 'a3']);
      expect(first.next_url).not.toContain(t.key);
      expect(first.next_url).not.toContain('ticker=');
      const url = new URL(first.next_url);
      const second = (await t.get(url.pathname + url.search)).body.data;
      expect(ids(second)).toEqual(['a1']);
      expect(second.next_url).toBeUndefined();
    });

    it('sends article text verbatim, replacement patterns and unicode included, in both envelopes', async () => {
      const odd = { ...NEWS_FIXTURE[6]!, id: 'odd', tickers: ['ODD'], title: 'Costs $& $\' $` $$ $1 "quoted" \\ back', description: 'Ünïcödé — 株価 \u2028 line\nbreak \u0000 nul' };
      await store.news.upsertArticles([{ article: odd, publishedMs: Date.parse(odd.published_utc) }]);
      expect((await t.get('/v2/reference/news?ticker=ODD')).body.data.results).toEqual([odd]);
      expect((await native.get('/v2/reference/news?ticker=ODD')).body.results).toEqual([odd]);
      await sqlOf(store).run("DELETE FROM news_articles WHERE id = 'odd'");
    });

    it('replaces an article re-stored under the same id, tickers included', async () => {
      const a3 = NEWS_FIXTURE[2]!;
      await store.news.upsertArticles([{ article: { ...a3, tickers: ['AAPL'] }, publishedMs: Date.parse(a3.published_utc) }]);
      expect(await store.news.countArticles()).toBe(8);
      await store.news.upsertArticles([{ article: { ...a3, tickers: ['IBM'], title: 'Moved' }, publishedMs: Date.parse(a3.published_utc) }]);
      expect(await list('?ticker=AAPL')).toEqual(['a6', 'a1']);
      const ibm = (await t.get('/v2/reference/news?ticker=IBM')).body.data.results;
      expect(ibm.map((r: any) => r.title)).toEqual(['Moved']);
      await store.news.upsertArticles([{ article: a3, publishedMs: Date.parse(a3.published_utc) }]);
      expect(await list('?ticker=AAPL')).toEqual(['a6', 'a3', 'a1']);
      expect(await store.news.countArticles()).toBe(8);
    });
  });

  describe(`news paging (${engine.name})`, () => {
    let store: Store;
    let t: TestApp;
    const bulk = bulkArticles(230, { perInstant: 4 });
    beforeAll(async () => {
      store = await engine.open();
      await store.news.upsertArticles(bulk.map((a) => ({ article: a, publishedMs: Date.parse(a.published_utc) })));
      t = await startTestApp(store, { envelope: 'native' });
    });
    afterAll(async () => {
      await t.close();
      await store.close();
    });

    for (const order of ['asc', 'desc'] as const) {
      for (const filter of ['', '&ticker=BBB', '&ticker.gte=CCC', '&published_utc.gte=2025-01-01T00:20:00Z']) {
        it(`walks every page exactly once (order=${order}${filter})`, async () => {
          const pages = await walkPages(t, `/v2/reference/news?limit=7&order=${order}${filter}`);
          const walked = pages.flatMap(ids);
          const all = (await t.get(`/v2/reference/news?limit=1000&order=${order}${filter}`)).body;
          expect(all.next_url).toBeUndefined();
          expect(walked).toEqual(ids(all));
          expect(new Set(walked).size).toBe(walked.length);
          expect(walked.length).toBeGreaterThan(20);
          for (const p of pages.slice(0, -1)) expect(p.count).toBe(7);
        });
      }
    }

    it('a walk is not disturbed by articles published meanwhile', async () => {
      const before = ids((await t.get('/v2/reference/news?limit=1000')).body);
      let n = 0;
      const pages = await walkPages(t, '/v2/reference/news?limit=50', async () => {
        const fresh = bulkArticles(3, { start: '2030-01-01T00:00:00Z', prefix: `late${n++}-` });
        await store.news.upsertArticles(fresh.map((a) => ({ article: a, publishedMs: Date.parse(a.published_utc) })));
      });
      expect(pages.flatMap(ids)).toEqual(before);
    });
  });
}
