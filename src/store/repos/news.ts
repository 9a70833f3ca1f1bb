import type { SqlDriver, SqlValue } from '../driver.js';
import { toNumber } from '../driver.js';
import { keysetCondition, type KeysetPosition } from './keyset.js';

// A news article exactly as upstream's /v2/reference/news sends it. Optional fields are
// omitted, never null.

export type Sentiment = 'positive' | 'neutral' | 'negative';

export interface NewsPublisher {
  name: string;
  homepage_url: string;
  logo_url: string;
  favicon_url?: string;
}

export interface NewsInsight {
  ticker: string;
  sentiment: Sentiment;
  sentiment_reasoning: string;
}

export interface NewsArticle {
  id: string;
  publisher: NewsPublisher;
  title: string;
  author: string;
  /** RFC 3339 UTC (`…Z`), normalised on import. */
  published_utc: string;
  article_url: string;
  tickers: string[];
  amp_url?: string;
  image_url?: string;
  description?: string;
  keywords?: string[];
  insights?: NewsInsight[];
}

/** Insight sentiment on the social rankings' −1..1 scale. */
export const SENTIMENT_SCORE: Record<Sentiment, number> = { positive: 1, neutral: 0, negative: -1 };

export type RangeOp = '>' | '>=' | '<' | '<=' | '=';

export interface NewsQuery {
  /** Conditions that one and the same ticker of the article must meet (equality and ranges). */
  ticker: { op: RangeOp; value: string }[];
  /** Bounds on the publication instant, Unix ms; all must hold. */
  published: { op: RangeOp; ms: number }[];
  order: 'asc' | 'desc';
  limit: number;
  after?: KeysetPosition;
}

export interface NewsRow {
  pk: number;
  publishedMs: number;
  /** The article's wire JSON as stored (JSON.parse gives a NewsArticle). */
  json: string;
}

const ID_CHUNK = 500;

export class NewsRepository {
  constructor(private readonly db: SqlDriver) {}

  /**
   * Inserts articles, or replaces those whose id is already stored (the later record of one id
   * wins), with their ticker rows. Runs in one transaction, or joins the caller's.
   * `publishedMs` must be the parsed `published_utc` of each article.
   */
  async upsertArticles(items: { article: NewsArticle; publishedMs: number }[]): Promise<number> {
    const byId = new Map<string, { article: NewsArticle; publishedMs: number }>();
    for (const it of items) byId.set(it.article.id, it);
    const unique = [...byId.values()];
    if (unique.length === 0) return 0;
    return this.db.transaction(async (tx) => {
      for (let i = 0; i < unique.length; i += ID_CHUNK) {
        const chunk = unique.slice(i, i + ID_CHUNK);
        await tx.insertMany({
          table: 'news_articles',
          columns: ['id', 'published_ms', 'body'],
          rows: chunk.map((c) => [c.article.id, c.publishedMs, JSON.stringify(c.article)]),
          conflictColumns: ['id'],
          updateColumns: ['published_ms', 'body'],
        });
        const ids = chunk.map((c) => c.article.id);
        const marks = ids.map(() => '?').join(', ');
        const pks = new Map<string, number>();
        for (const row of await tx.all(`SELECT pk, id FROM news_articles WHERE id IN (${marks})`, ids)) {
          pks.set(String(row.id), toNumber(row.pk));
        }
        const pkList = [...pks.values()];
        await tx.run(`DELETE FROM news_tickers WHERE article_pk IN (${pkList.map(() => '?').join(', ')})`, pkList);
        const tickerRows: SqlValue[][] = [];
        for (const c of chunk) {
          const pk = pks.get(c.article.id)!;
          const sentiment = new Map<string, number>();
          for (const ins of c.article.insights ?? []) sentiment.set(ins.ticker, SENTIMENT_SCORE[ins.sentiment]);
          for (const ticker of new Set(c.article.tickers)) {
            tickerRows.push([pk, ticker, c.publishedMs, sentiment.get(ticker) ?? null]);
          }
        }
        await tx.insertMany({ table: 'news_tickers', columns: ['article_pk', 'ticker', 'published_ms', 'sentiment'], rows: tickerRows });
      }
      return unique.length;
    });
  }

  async countArticles(): Promise<number> {
    return toNumber((await this.db.get('SELECT COUNT(*) AS n FROM news_articles'))?.n ?? 0);
  }

  /**
   * Articles newest (or oldest) first, keyset-paged on (published_ms, pk). With a ticker
   * equality the scan starts from that ticker's index rows; other ticker conditions test whether
   * any one ticker of the article meets them all.
   */
  async listArticles(q: NewsQuery): Promise<NewsRow[]> {
    const dir = q.order === 'asc' ? 'ASC' : 'DESC';
    const eq = q.ticker.find((c) => c.op === '=');
    const where: string[] = [];
    const params: SqlValue[] = [];
    let from: string;
    let timeCol: string;
    let pkCol: string;
    if (eq) {
      from = 'news_tickers t JOIN news_articles a ON a.pk = t.article_pk';
      timeCol = 't.published_ms';
      pkCol = 't.article_pk';
      for (const c of q.ticker) {
        where.push(`t.ticker ${c.op} ?`);
        params.push(c.value);
      }
    } else {
      from = 'news_articles a';
      timeCol = 'a.published_ms';
      pkCol = 'a.pk';
      if (q.ticker.length > 0) {
        where.push(`EXISTS (SELECT 1 FROM news_tickers t WHERE t.article_pk = a.pk AND ${q.ticker.map((c) => `t.ticker ${c.op} ?`).join(' AND ')})`);
        params.push(...q.ticker.map((c) => c.value));
      }
    }
    for (const c of q.published) {
      where.push(`${timeCol} ${c.op} ?`);
      params.push(c.ms);
    }
    if (q.after) {
      // The plain bound on the time column lets the index seek to the position (the OR inside the
      // keyset condition alone makes SQLite scan from the start: 11 ms instead of 2 ms deep in 20k rows).
      where.push(`${timeCol} ${q.order === 'asc' ? '>=' : '<='} ?`);
      params.push(q.after.value ?? 0);
      const k = keysetCondition(timeCol, pkCol, q.order, q.after);
      where.push(k.sql);
      params.push(...k.params);
    }
    params.push(q.limit);
    const rows = await this.db.all(
      `SELECT a.pk, a.published_ms, a.body FROM ${from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${timeCol} ${dir}, ${pkCol} ${dir} LIMIT ?`,
      params,
    );
    return rows.map((r) => ({ pk: toNumber(r.pk), publishedMs: toNumber(r.published_ms), json: String(r.body) }));
  }
}
