// The news repository contract: articles stored as their wire JSON, replaced by id, and listed
// newest (or oldest) first with ticker conditions, time bounds and keyset pages.
import { describe, expect, it } from 'vitest';
import type { NewsArticle, NewsQuery } from '../../../src/store/repos/news.js';
import { useStore, type MakeStore } from './store-fixture.js';

const T0 = Date.UTC(2026, 10, 20, 12);
const HOUR = 3_600_000;

function article(id: string, hoursAfter: number, tickers: string[], extra: Partial<NewsArticle> = {}): { article: NewsArticle; publishedMs: number } {
  const publishedMs = T0 + hoursAfter * HOUR;
  return {
    publishedMs,
    article: {
      id, title: `Title ${id}`, author: 'Reporter', published_utc: new Date(publishedMs).toISOString().replace('.000Z', 'Z'),
      article_url: `https://example.com/${id}`, tickers,
      publisher: { name: 'Wire', homepage_url: 'https://example.com', logo_url: 'https://example.com/logo.png' }, ...extra,
    },
  };
}

const ARTICLES = [
  article('a1', 0, ['AAPL']),
  article('a2', 1, ['AAPL', 'MSFT'], { insights: [{ ticker: 'AAPL', sentiment: 'positive', sentiment_reasoning: 'beat' }] }),
  article('a3', 2, ['MSFT']),
  article('a4', 2, ['GOOG'], { keywords: ['search'], description: 'same hour as a3' }),
];

export function runNewsRepoContract(makeStore: MakeStore): void {
  describe('news repository', () => {
    const store = useStore(makeStore);
    const list = async (q: Partial<NewsQuery>) => (await store().news.listArticles({ ticker: [], published: [], order: 'desc', limit: 50, ...q })).map((r) => (JSON.parse(r.json) as NewsArticle).id);
    const seeded = async () => {
      if ((await store().news.countArticles()) === 0) expect(await store().news.upsertArticles(ARTICLES)).toBe(4);
    };

    it('reads an article back as the same JSON it was given', async () => {
      await seeded();
      const rows = await store().news.listArticles({ ticker: [{ op: '=', value: 'AAPL' }], published: [], order: 'asc', limit: 1 });
      expect(JSON.parse(rows[0]!.json)).toEqual(ARTICLES[0]!.article);
      expect(rows[0]!.publishedMs).toBe(ARTICLES[0]!.publishedMs);
    });

    it('replaces an article by id, with its tickers, and keeps the last of one id in a batch', async () => {
      await seeded();
      await store().news.upsertArticles([article('a1', 0, ['TSLA'], { title: 'first' }), article('a1', 0, ['TSLA'], { title: 'Retitled' })]);
      expect(await store().news.countArticles()).toBe(4);
      expect(await list({ ticker: [{ op: '=', value: 'AAPL' }] })).toEqual(['a2']);
      const tsla = await store().news.listArticles({ ticker: [{ op: '=', value: 'TSLA' }], published: [], order: 'desc', limit: 5 });
      expect((JSON.parse(tsla[0]!.json) as NewsArticle).title).toBe('Retitled');
      await store().news.upsertArticles([ARTICLES[0]!]);
      expect(await list({ ticker: [{ op: '=', value: 'AAPL' }] })).toEqual(['a2', 'a1']);
    });

    it('orders by publication time with the store order breaking ties, both ways', async () => {
      await seeded();
      expect(await list({})).toEqual(['a4', 'a3', 'a2', 'a1']);
      expect(await list({ order: 'asc' })).toEqual(['a1', 'a2', 'a3', 'a4']);
    });

    it('filters by ticker ranges and publication bounds', async () => {
      await seeded();
      expect(await list({ ticker: [{ op: '>=', value: 'AAPL' }, { op: '<', value: 'MSFT' }] })).toEqual(['a4', 'a2', 'a1']);
      // One and the same ticker must meet every condition: a2 (AAPL, MSFT) has none in [B, M).
      expect(await list({ ticker: [{ op: '>=', value: 'B' }, { op: '<', value: 'M' }] })).toEqual(['a4']);
      expect(await list({ published: [{ op: '>', ms: T0 }, { op: '<=', ms: T0 + HOUR }] })).toEqual(['a2']);
      expect(await list({ ticker: [{ op: '=', value: 'MSFT' }], published: [{ op: '>=', ms: T0 + 2 * HOUR }] })).toEqual(['a3']);
    });

    it('pages by keyset (time, then store order) without repeats, with or without a ticker', async () => {
      await seeded();
      for (const ticker of [[], [{ op: '=' as const, value: 'MSFT' }]]) {
        const seen: string[] = [];
        let after: NewsQuery['after'];
        for (let i = 0; i < 10; i++) {
          const rows = await store().news.listArticles({ ticker, published: [], order: 'desc', limit: 1, after });
          if (rows.length === 0) break;
          seen.push((JSON.parse(rows[0]!.json) as NewsArticle).id);
          after = { value: rows[0]!.publishedMs, id: rows[0]!.pk };
        }
        expect(seen).toEqual(ticker.length ? ['a3', 'a2'] : ['a4', 'a3', 'a2', 'a1']);
      }
    });
  });
}
