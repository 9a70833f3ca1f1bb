import type { SqlDriver, SqlValue } from '../driver.js';
import { toNumber } from '../driver.js';

/**
 * A social-media post as imported (product format, docs/social.md): one mention of each of its
 * tickers at `created_utc`, with an optional sentiment in [-1, 1].
 */
export interface SocialPost {
  id: string;
  source: string;
  author: string;
  /** RFC 3339 UTC (`…Z`), normalised on import. */
  created_utc: string;
  text: string;
  tickers: string[];
  sentiment?: number;
}

/** Mention counts of one ticker in the current window [start, end) and the one before it. */
export interface MentionCounts {
  ticker: string;
  news_mentions: number;
  post_mentions: number;
  /** Sum and number of the current window's mentions that carry a sentiment. */
  sentiment_sum: number;
  sentiment_count: number;
  previous_mentions: number;
}

export interface MentionWindow {
  previousStartMs: number;
  startMs: number;
  endMs: number;
  /** Only these tickers; absent = every ticker mentioned in either window. */
  tickers?: string[];
}

const ID_CHUNK = 500;

export class SocialRepository {
  constructor(private readonly db: SqlDriver) {}

  /** Inserts posts or replaces those whose id is stored (the later record of one id wins). */
  async upsertPosts(items: { post: SocialPost; createdMs: number }[]): Promise<number> {
    const byId = new Map<string, { post: SocialPost; createdMs: number }>();
    for (const it of items) byId.set(it.post.id, it);
    const unique = [...byId.values()];
    if (unique.length === 0) return 0;
    return this.db.transaction(async (tx) => {
      for (let i = 0; i < unique.length; i += ID_CHUNK) {
        const chunk = unique.slice(i, i + ID_CHUNK);
        await tx.insertMany({
          table: 'social_posts',
          columns: ['id', 'created_ms', 'body'],
          rows: chunk.map((c) => [c.post.id, c.createdMs, JSON.stringify(c.post)]),
          conflictColumns: ['id'],
          updateColumns: ['created_ms', 'body'],
        });
        const ids = chunk.map((c) => c.post.id);
        const pks = new Map<string, number>();
        for (const row of await tx.all(`SELECT pk, id FROM social_posts WHERE id IN (${ids.map(() => '?').join(', ')})`, ids)) {
          pks.set(String(row.id), toNumber(row.pk));
        }
        const pkList = [...pks.values()];
        await tx.run(`DELETE FROM social_post_tickers WHERE post_pk IN (${pkList.map(() => '?').join(', ')})`, pkList);
        const rows: SqlValue[][] = [];
        for (const c of chunk) {
          for (const ticker of new Set(c.post.tickers)) rows.push([pks.get(c.post.id)!, ticker, c.createdMs, c.post.sentiment ?? null]);
        }
        await tx.insertMany({ table: 'social_post_tickers', columns: ['post_pk', 'ticker', 'created_ms', 'sentiment'], rows });
      }
      return unique.length;
    });
  }

  async countPosts(): Promise<number> {
    return toNumber((await this.db.get('SELECT COUNT(*) AS n FROM social_posts'))?.n ?? 0);
  }

  /** Per ticker: news and post mentions in [startMs, endMs), and all mentions in [previousStartMs, startMs). */
  async mentionCounts(w: MentionWindow): Promise<MentionCounts[]> {
    const tickerFilter = w.tickers ? ` AND ticker IN (${w.tickers.map(() => '?').join(', ')})` : '';
    const tickerParams = w.tickers ?? [];
    const s = w.startMs;
    const rows = await this.db.all(
      `SELECT ticker,
         SUM(CASE WHEN at >= ? AND kind = 1 THEN 1 ELSE 0 END) AS news_mentions,
         SUM(CASE WHEN at >= ? AND kind = 2 THEN 1 ELSE 0 END) AS post_mentions,
         SUM(CASE WHEN at >= ? AND sentiment IS NOT NULL THEN sentiment ELSE 0 END) AS sentiment_sum,
         SUM(CASE WHEN at >= ? AND sentiment IS NOT NULL THEN 1 ELSE 0 END) AS sentiment_count,
         SUM(CASE WHEN at < ? THEN 1 ELSE 0 END) AS previous_mentions
       FROM (
         SELECT ticker, published_ms AS at, 1 AS kind, CAST(sentiment AS REAL) AS sentiment FROM news_tickers
           WHERE published_ms >= ? AND published_ms < ?${tickerFilter}
         UNION ALL
         SELECT ticker, created_ms AS at, 2 AS kind, sentiment FROM social_post_tickers
           WHERE created_ms >= ? AND created_ms < ?${tickerFilter}
       ) m
       GROUP BY ticker`,
      [s, s, s, s, s, w.previousStartMs, w.endMs, ...tickerParams, w.previousStartMs, w.endMs, ...tickerParams],
    );
    return rows.map((r) => ({
      ticker: String(r.ticker),
      news_mentions: toNumber(r.news_mentions),
      post_mentions: toNumber(r.post_mentions),
      sentiment_sum: toNumber(r.sentiment_sum),
      sentiment_count: toNumber(r.sentiment_count),
      previous_mentions: toNumber(r.previous_mentions),
    }));
  }
}
