import { describe, expect, it } from 'vitest';
import type { NewsArticle } from '../../src/store/repos/news.js';
import { engines } from '../helpers/engines.js';
import { post, seedNews, seedPosts } from '../helpers/news-fixture.js';
import { useSeededApps } from '../helpers/app-fixture.js';

// Hand-worked example. as_of 2026-11-20T12:00Z, 24h window [11-19T12:00, 11-20T12:00),
// previous window [11-18T12:00, 11-19T12:00). See each expectation for the arithmetic.

const AS_OF = '2026-11-20T12:00:00Z';
const pub = { name: 'W', homepage_url: 'https://w.example/', logo_url: 'https://w.example/l.png' };
const news = (id: string, at: string, tickers: string[], insights: NewsArticle['insights'] = undefined): NewsArticle => ({
  id, publisher: pub, title: id, author: 'a', published_utc: at, article_url: `https://w.example/${id}`, tickers, ...(insights ? { insights } : {}),
});

const ARTICLES = [
  news('n1', '2026-11-20T10:00:00Z', ['AAPL', 'MSFT'], [
    { ticker: 'AAPL', sentiment: 'positive', sentiment_reasoning: 'r' },
    { ticker: 'MSFT', sentiment: 'negative', sentiment_reasoning: 'r' },
  ]),
  news('n2', '2026-11-19T13:00:00Z', ['AAPL'], [{ ticker: 'AAPL', sentiment: 'neutral', sentiment_reasoning: 'r' }]),
  news('n3', '2026-11-19T11:59:59Z', ['AAPL']), // previous window
  news('n4', '2026-11-18T12:00:00Z', ['TSLA']), // previous window, its inclusive start
  news('n5', '2026-11-20T12:00:00Z', ['NVDA']), // at as_of: outside (the end is exclusive)
  news('n6', '2026-11-18T11:59:59Z', ['GME']), // before the previous window
];
const POSTS = [
  post('p1', '2026-11-20T09:00:00Z', ['AAPL'], 0.5),
  post('p2', '2026-11-20T09:30:00Z', ['TSLA', 'AAPL'], -0.8),
  post('p3', '2026-11-20T11:00:00Z', ['TSLA']),
  post('p4', '2026-11-19T20:00:00Z', ['MSFT'], 1),
  post('p5', '2026-11-19T00:00:00Z', ['MSFT']), // previous
  post('p6', '2026-11-19T01:00:00Z', ['MSFT']), // previous
  post('p7', '2026-11-19T02:00:00Z', ['TSLA']), // previous
  post('p8', '2026-11-20T08:00:00Z', ['AMD', 'AMD']), // a ticker listed twice is one mention
];

// AAPL: news n1 (+1), n2 (0); posts p1 (0.5), p2 (-0.8) → 4 mentions, sentiment 0.7/4 = 0.175; previous n3 → 1.
const AAPL = { rank: 1, ticker: 'AAPL', mentions: 4, news_mentions: 2, post_mentions: 2, sentiment: 0.175, sentiment_mentions: 4, previous_mentions: 1, mentions_change: 3, mentions_change_percent: 300 };
// MSFT: n1 (-1), p4 (+1) → 2, sentiment 0; previous p5, p6 → 2.
const MSFT = { ticker: 'MSFT', mentions: 2, news_mentions: 1, post_mentions: 1, sentiment: 0, sentiment_mentions: 2, previous_mentions: 2, mentions_change: 0, mentions_change_percent: 0 };
// TSLA: p2 (-0.8), p3 (none) → 2, sentiment -0.8 from 1; previous n4, p7 → 2.
const TSLA = { ticker: 'TSLA', mentions: 2, news_mentions: 0, post_mentions: 2, sentiment: -0.8, sentiment_mentions: 1, previous_mentions: 2, mentions_change: 0, mentions_change_percent: 0 };
// AMD: p8 (none) → 1, no sentiment, nothing before: no percent.
const AMD = { ticker: 'AMD', mentions: 1, news_mentions: 0, post_mentions: 1, sentiment_mentions: 0, previous_mentions: 0, mentions_change: 1 };

for (const engine of engines()) {
  describe(`social rankings (${engine.name})`, () => {
    const { store, apps: [t, native] } = useSeededApps(engine, async (store) => {
      await seedNews(store, ARTICLES);
      await seedPosts(store, POSTS);
    }, { now: () => Date.parse(AS_OF) }, { envelope: 'native', now: () => Date.parse('2030-01-01T00:00:00Z') });

    const rank = async (qs: string) => {
      const res = await t.get(`/v3/social?${qs}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    };
    const order = (data: any) => data.results.map((r: any) => r.ticker);

    it('ranks by mentions over the last 24h of the server clock, with the arithmetic of the example', async () => {
      const data = await rank('');
      expect(data.status).toBe('OK');
      expect(data.window).toBe('24h');
      expect(data.window_start).toBe('2026-11-19T12:00:00Z');
      expect(data.window_end).toBe('2026-11-20T12:00:00Z');
      expect(data.previous_window_start).toBe('2026-11-18T12:00:00Z');
      expect(data.count).toBe(4);
      expect(data.results).toEqual([AAPL, { rank: 2, ...MSFT }, { rank: 3, ...TSLA }, { rank: 4, ...AMD }]);
    });

    it('takes as_of as a timestamp, or a date meaning the end of that UTC day', async () => {
      expect((await rank(`as_of=${AS_OF}`)).results).toEqual((await rank('')).results);
      const nativeDefault = (await native.get('/v3/social')).body;
      expect(nativeDefault.results).toEqual([]);
      expect(nativeDefault.window_end).toBe('2030-01-01T00:00:00Z');
      const byDate = (await native.get('/v3/social?as_of=2026-11-19')).body;
      // [11-19T00:00, 11-20T00:00): n2, n3 (AAPL); p4, p5, p6 (MSFT); p7 (TSLA).
      // GME (n6) was mentioned only in the previous window: ranked with 0.
      expect(byDate.window_start).toBe('2026-11-19T00:00:00Z');
      expect(byDate.window_end).toBe('2026-11-20T00:00:00Z');
      expect(byDate.results.map((r: any) => [r.ticker, r.mentions])).toEqual([['MSFT', 3], ['AAPL', 2], ['TSLA', 1], ['GME', 0]]);
      const offset = await rank('as_of=2026-11-20T14:00:00%2B02:00');
      expect(offset.window_end).toBe(AS_OF);
    });

    it('windows of 1h, 7d and 30d, each compared with the one before', async () => {
      // [11:00, 12:00): p3 TSLA; before it [10:00, 11:00): n1 (AAPL, MSFT)
      const h = await rank('window=1h');
      expect(h.window_start).toBe('2026-11-20T11:00:00Z');
      expect(h.results.map((r: any) => [r.ticker, r.mentions, r.previous_mentions, r.mentions_change, r.mentions_change_percent])).toEqual([
        ['TSLA', 1, 0, 1, undefined],
        ['AAPL', 0, 1, -1, -100],
        ['MSFT', 0, 1, -1, -100],
      ]);
      const w = await rank('window=7d');
      expect(w.results.map((r: any) => [r.ticker, r.mentions])).toEqual([['AAPL', 5], ['MSFT', 4], ['TSLA', 4], ['AMD', 1], ['GME', 1]]);
      expect((await rank('window=30d')).window_start).toBe('2026-10-21T12:00:00Z');
    });

    it('sorts by sentiment (tickers without one last) and by change in mentions, both ways', async () => {
      expect(order(await rank('sort=sentiment'))).toEqual(['AAPL', 'MSFT', 'TSLA', 'AMD']);
      expect(order(await rank('sort=sentiment&order=asc'))).toEqual(['TSLA', 'MSFT', 'AAPL', 'AMD']);
      expect(order(await rank('sort=mentions_change'))).toEqual(['AAPL', 'AMD', 'MSFT', 'TSLA']);
      expect(order(await rank('sort=mentions_change&order=asc'))).toEqual(['MSFT', 'TSLA', 'AMD', 'AAPL']);
      expect(order(await rank('sort=mentions&order=asc'))).toEqual(['AMD', 'MSFT', 'TSLA', 'AAPL']);
      const ranks = (await rank('sort=sentiment&order=asc')).results.map((r: any) => r.rank);
      expect(ranks).toEqual([1, 2, 3, 4]);
    });

    it('filters to a comma list of tickers and caps with limit', async () => {
      expect(order(await rank('ticker=TSLA,AMD,NOPE'))).toEqual(['TSLA', 'AMD']);
      expect(order(await rank('ticker=%20MSFT%20'))).toEqual(['MSFT']);
      const top = await rank('limit=2');
      expect(order(top)).toEqual(['AAPL', 'MSFT']);
      expect(top.count).toBe(2);
    });

    it('follows re-imported posts (replaced by id) and serves /v3/social/ with a trailing slash', async () => {
      await seedPosts(store, [post('p8', '2026-11-20T08:00:00Z', ['AMD'], -1)]);
      const amd = (await rank('ticker=AMD')).results[0];
      expect(amd).toMatchObject({ mentions: 1, sentiment: -1, sentiment_mentions: 1 });
      const slash = await t.get(`/v3/social/?ticker=AMD`);
      expect(slash.status).toBe(200);
      await seedPosts(store, [post('p8', '2026-11-20T08:00:00Z', ['AMD', 'AMD'])]);
    });
  });
}
