// The social repository contract: posts replaced by id, and the mention counts (news and posts)
// per ticker in a window and the one before it, with sentiment sums.
import { describe, expect, it } from 'vitest';
import type { NewsArticle } from '../../../src/store/repos/news.js';
import type { SocialPost } from '../../../src/store/repos/social.js';
import { useStore, type MakeStore } from './store-fixture.js';

const T0 = Date.UTC(2026, 10, 20);
const DAY = 86_400_000;

function post(id: string, at: number, tickers: string[], sentiment?: number): { post: SocialPost; createdMs: number } {
  const p: SocialPost = { id, source: 'forum', author: 'ann', created_utc: new Date(at).toISOString(), text: `post ${id}`, tickers };
  if (sentiment !== undefined) p.sentiment = sentiment;
  return { post: p, createdMs: at };
}

function news(id: string, at: number, tickers: string[], positive: string[] = []): { article: NewsArticle; publishedMs: number } {
  return {
    publishedMs: at,
    article: {
      id, title: id, author: 'r', published_utc: new Date(at).toISOString(), article_url: `https://example.com/${id}`, tickers,
      publisher: { name: 'Wire', homepage_url: 'https://example.com', logo_url: 'https://example.com/l.png' },
      insights: positive.map((ticker) => ({ ticker, sentiment: 'positive' as const, sentiment_reasoning: 'good' })),
    },
  };
}

export function runSocialRepoContract(makeStore: MakeStore): void {
  describe('social repository', () => {
    const store = useStore(makeStore);

    it('replaces a post by id and keeps the last of one id in a batch', async () => {
      expect(await store().social.upsertPosts([post('p1', T0, ['AAPL']), post('p1', T0, ['AAPL', 'MSFT'], 0.5)])).toBe(1);
      await store().social.upsertPosts([post('p1', T0, ['AAPL', 'MSFT'], 0.5)]);
      expect(await store().social.countPosts()).toBe(1);
    });

    it('counts mentions per ticker in the window and the one before, from news and posts', async () => {
      await store().social.upsertPosts([
        post('p1', T0, ['AAPL', 'MSFT'], 0.5),
        post('p2', T0 + 1000, ['AAPL', 'AAPL'], -1), // a ticker twice in one post is one mention
        post('p3', T0 - DAY / 2, ['AAPL']), // previous window
        post('p4', T0 - 2 * DAY, ['AAPL']), // before both windows
        post('p5', T0 + DAY, ['AAPL']), // at the window's end: excluded
      ]);
      await store().news.upsertArticles([news('n1', T0 + 5000, ['AAPL', 'GOOG'], ['AAPL'])]);
      const counts = await store().social.mentionCounts({ previousStartMs: T0 - DAY, startMs: T0, endMs: T0 + DAY });
      const byTicker = Object.fromEntries(counts.map((c) => [c.ticker, c]));
      expect(byTicker.AAPL).toEqual({ ticker: 'AAPL', news_mentions: 1, post_mentions: 2, sentiment_sum: 0.5, sentiment_count: 3, previous_mentions: 1 });
      expect(byTicker.MSFT).toEqual({ ticker: 'MSFT', news_mentions: 0, post_mentions: 1, sentiment_sum: 0.5, sentiment_count: 1, previous_mentions: 0 });
      expect(byTicker.GOOG).toEqual({ ticker: 'GOOG', news_mentions: 1, post_mentions: 0, sentiment_sum: 0, sentiment_count: 0, previous_mentions: 0 });
      const only = await store().social.mentionCounts({ previousStartMs: T0 - DAY, startMs: T0, endMs: T0 + DAY, tickers: ['MSFT'] });
      expect(only.map((c) => c.ticker)).toEqual(['MSFT']);
    });
  });
}
