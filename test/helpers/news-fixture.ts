import type { Store } from '../../src/store/index.js';
import type { NewsArticle } from '../../src/store/repos/news.js';
import type { SocialPost } from '../../src/store/repos/social.js';

const publisher = { name: 'Test Wire', homepage_url: 'https://wire.example/', logo_url: 'https://wire.example/logo.svg' };

const article = (id: string, published_utc: string, tickers: string[], extra: Partial<NewsArticle> = {}): NewsArticle => ({
  id,
  publisher,
  title: `Story ${id}`,
  author: 'Staff',
  published_utc,
  article_url: `https://wire.example/${id}`,
  tickers,
  ...extra,
});

/**
 * Eight hand-made articles; newest first they are a8 a7 a6 a5 a4 a3 a2 a1 (a5 and a6 share a
 * time, a6 was stored later so it sorts first when descending).
 */
export const NEWS_FIXTURE: NewsArticle[] = [
  article('a1', '2024-06-20T10:00:00Z', ['AAPL', 'MSFT'], {
    publisher: { ...publisher, favicon_url: 'https://wire.example/favicon.ico' },
    amp_url: 'https://wire.example/amp/a1',
    image_url: 'https://wire.example/a1.jpg',
    description: 'Apple and Microsoft.',
    keywords: ['earnings', 'cloud'],
    insights: [
      { ticker: 'AAPL', sentiment: 'positive', sentiment_reasoning: 'Beat estimates.' },
      { ticker: 'MSFT', sentiment: 'neutral', sentiment_reasoning: 'Mentioned in passing.' },
    ],
  }),
  article('a2', '2024-06-21T09:30:00Z', ['NVDA'], { insights: [{ ticker: 'NVDA', sentiment: 'negative', sentiment_reasoning: 'Supply issues.' }] }),
  article('a3', '2024-06-21T15:00:00Z', ['AAPL']),
  article('a4', '2024-06-22T00:00:00Z', ['TSLA', 'F']),
  article('a5', '2024-06-23T12:00:00Z', ['BRK.B']),
  article('a6', '2024-06-23T12:00:00Z', ['AAPL', 'NVDA']),
  article('a7', '2024-06-24T18:33:53Z', ['UBS']),
  article('a8', '2024-06-25T08:00:00Z', []),
];

export async function seedNews(store: Store, articles: NewsArticle[] = NEWS_FIXTURE): Promise<void> {
  // One at a time so that store order (the tiebreaker) is the array order.
  for (const a of articles) await store.news.upsertArticles([{ article: a, publishedMs: Date.parse(a.published_utc) }]);
}

/** n articles, `perInstant` sharing each publication time, tickers cycling through `tickers`. */
export function bulkArticles(n: number, opts: { start?: string; perInstant?: number; tickers?: string[]; prefix?: string } = {}): NewsArticle[] {
  const start = Date.parse(opts.start ?? '2025-01-01T00:00:00Z');
  const per = opts.perInstant ?? 3;
  const tickers = opts.tickers ?? ['AAA', 'BBB', 'CCC', 'DDD'];
  return Array.from({ length: n }, (_, i) =>
    article(`${opts.prefix ?? 'b'}${String(i).padStart(5, '0')}`, new Date(start + Math.floor(i / per) * 60_000).toISOString().replace('.000Z', 'Z'), [
      tickers[i % tickers.length]!,
      ...(i % 5 === 0 ? [tickers[(i + 1) % tickers.length]!] : []),
    ]),
  );
}

export const post = (id: string, created_utc: string, tickers: string[], sentiment?: number): SocialPost => ({
  id,
  source: 'forum',
  author: `user_${id}`,
  created_utc,
  text: `talking about ${tickers.map((t) => `$${t}`).join(' ')}`,
  tickers,
  ...(sentiment !== undefined ? { sentiment } : {}),
});

export async function seedPosts(store: Store, posts: SocialPost[]): Promise<void> {
  await store.social.upsertPosts(posts.map((p) => ({ post: p, createdMs: Date.parse(p.created_utc) })));
}
