// Social rankings: tickers ranked by how often stored news articles and imported social posts
// mention them in a window, with average sentiment and the change against the window before.
import type { Ranking } from '../domain/social-schema.js';
import type { Store } from '../store/index.js';
import type { MentionCounts } from '../store/repos/social.js';

export const SOCIAL_SORTS = ['mentions', 'sentiment', 'mentions_change'] as const;
export type SocialSort = (typeof SOCIAL_SORTS)[number];

const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;

function toRanking(c: MentionCounts): Ranking {
  const mentions = c.news_mentions + c.post_mentions;
  const change = mentions - c.previous_mentions;
  return {
    rank: 0,
    ticker: c.ticker,
    mentions,
    news_mentions: c.news_mentions,
    post_mentions: c.post_mentions,
    ...(c.sentiment_count > 0 ? { sentiment: round(c.sentiment_sum / c.sentiment_count, 4) } : {}),
    sentiment_mentions: c.sentiment_count,
    previous_mentions: c.previous_mentions,
    mentions_change: change,
    ...(c.previous_mentions > 0 ? { mentions_change_percent: round((100 * change) / c.previous_mentions, 2) } : {}),
  };
}

/**
 * Orders by the sort key in `order`; tickers with no sentiment come last when sorting by it. Ties
 * go to more mentions, then to the ticker in byte order, so the ranking is deterministic.
 */
export function rankTickers(counts: MentionCounts[], sort: SocialSort, order: 'asc' | 'desc', limit: number): Ranking[] {
  const sign = order === 'asc' ? 1 : -1;
  const key = (r: Ranking): number | undefined => (sort === 'mentions' ? r.mentions : sort === 'sentiment' ? r.sentiment : r.mentions_change);
  const ranked = counts.map(toRanking).sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) {
      if (ka === undefined) return 1;
      if (kb === undefined) return -1;
      return sign * (ka - kb);
    }
    if (a.mentions !== b.mentions) return b.mentions - a.mentions;
    return a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0;
  });
  return ranked.slice(0, limit).map((r, i) => ({ ...r, rank: i + 1 }));
}

export interface RankingRequest {
  /** The window is [endMs − widthMs, endMs); the previous one the same width just before. */
  endMs: number;
  widthMs: number;
  /** Only these tickers (default: every ticker mentioned in either window). */
  tickers?: string[];
  sort: SocialSort;
  order: 'asc' | 'desc';
  limit: number;
}

export class SocialService {
  constructor(private readonly store: Pick<Store, 'social'>) {}

  async rankings(r: RankingRequest): Promise<Ranking[]> {
    const startMs = r.endMs - r.widthMs;
    const counts = await this.store.social.mentionCounts({ previousStartMs: startMs - r.widthMs, startMs, endMs: r.endMs, tickers: r.tickers });
    return rankTickers(counts, r.sort, r.order, r.limit);
  }
}
