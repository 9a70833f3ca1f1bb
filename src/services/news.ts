// News articles: the list's filters on tickers and publication time, keyset-paged on the
// publication time, with each article's stored JSON.
import { badParameter } from '../domain/errors.js';
import { DAY_MS, parseInstant } from '../domain/rfc3339.js';
import type { Store } from '../store/index.js';
import type { NewsRow, NewsQuery as StoreNewsQuery, RangeOp } from '../store/repos/news.js';
import type { KeysetRows, PageRequest } from './paging.js';

export const PUBLISHED_RULE = 'a date (YYYY-MM-DD) or an RFC 3339 timestamp such as 2024-06-24T18:33:53Z';

/** The list's parameters as the request names them (a cursor of a later page carries them). */
export interface NewsListParams {
  ticker?: string;
  'ticker.gt'?: string;
  'ticker.gte'?: string;
  'ticker.lt'?: string;
  'ticker.lte'?: string;
  published_utc?: string;
  'published_utc.gt'?: string;
  'published_utc.gte'?: string;
  'published_utc.lt'?: string;
  'published_utc.lte'?: string;
  order: 'asc' | 'desc';
}

const RANGE_OPS = [['gt', '>'], ['gte', '>='], ['lt', '<'], ['lte', '<=']] as const;

function instantParam(name: string, value: string): { ms: number; dateOnly: boolean } {
  const t = parseInstant(value);
  if (!t) throw badParameter(`${name} must be ${PUBLISHED_RULE}`);
  return t;
}

/** The store query for the wire parameters: a bare date means the whole UTC day for equality, its 00:00:00Z for a bound. */
function storeQuery(q: NewsListParams): Omit<StoreNewsQuery, 'limit' | 'after'> {
  const ticker: StoreNewsQuery['ticker'] = [];
  const published: StoreNewsQuery['published'] = [];
  if (q.ticker !== undefined) ticker.push({ op: '=', value: q.ticker });
  for (const [suffix, op] of RANGE_OPS) {
    const v = q[`ticker.${suffix}`];
    if (v !== undefined) ticker.push({ op, value: v });
  }
  if (q.published_utc !== undefined) {
    const t = instantParam('published_utc', q.published_utc);
    if (t.dateOnly) published.push({ op: '>=', ms: t.ms }, { op: '<', ms: t.ms + DAY_MS });
    else published.push({ op: '=', ms: t.ms });
  }
  for (const [suffix, op] of RANGE_OPS) {
    const name = `published_utc.${suffix}` as const;
    const v = q[name];
    if (v !== undefined) published.push({ op: op as RangeOp, ms: instantParam(name, v).ms });
  }
  return { ticker, published, order: q.order };
}

export class NewsService {
  constructor(private readonly store: Pick<Store, 'news'>) {}

  /** Articles matching the filters; each row holds the article's stored wire JSON. */
  async list(q: NewsListParams, page: PageRequest): Promise<KeysetRows<NewsRow>> {
    const rows = await this.store.news.listArticles({ ...storeQuery(q), limit: page.limit, after: page.after });
    return { rows, position: (r) => ({ value: r.publishedMs, id: r.pk }) };
  }
}
