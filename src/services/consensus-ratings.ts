// Consensus of analyst ratings for one ticker, computed from the stored Benzinga ratings: each
// analyst counts once, with their latest rating (and, separately, their latest price target) in
// the requested date range.
import { BENZINGA_RATINGS } from '../store/repos/partner-catalog.js';
import type { DatasetRecord, DatasetRow } from '../store/repos/datasets.js';
import type { Store } from '../store/index.js';
import { parseFilters } from './dataset-lists.js';

/** The five categories, weight 5 (strong buy) down to 1 (strong sell). */
const CATEGORIES = ['strong_sell', 'sell', 'hold', 'buy', 'strong_buy'] as const;

/** Rating words (lowercase, letters only) by weight; ratings outside these ("not rated", "tender") are not counted. */
const WEIGHTS: Record<string, number> = {
  strongbuy: 5, convictionbuy: 5, toppick: 5,
  buy: 4, outperform: 4, overweight: 4, accumulate: 4, add: 4, positive: 4, marketoutperform: 4, sectoroutperform: 4, moderatebuy: 4, speculativebuy: 4, longtermbuy: 4,
  hold: 3, neutral: 3, equalweight: 3, marketperform: 3, sectorperform: 3, inline: 3, peerperform: 3, sectorweight: 3, marketweight: 3, mixed: 3, perform: 3,
  sell: 2, underperform: 2, underweight: 2, reduce: 2, negative: 2, marketunderperform: 2, sectorunderperform: 2, moderatesell: 2,
  strongsell: 1,
};

export function ratingWeight(rating: unknown): number | undefined {
  return typeof rating === 'string' ? WEIGHTS[rating.toLowerCase().replace(/[^a-z]/g, '')] : undefined;
}

/** The ratings' declaration with only its date filters: the ticker is the path's. */
export const CONSENSUS_FILTERS = { ...BENZINGA_RATINGS, filters: { date: BENZINGA_RATINGS.filters.date! } };

const PAGE = 5000;
const round2 = (x: number) => Math.round(x * 100) / 100;

export interface ConsensusRecord {
  ticker: string;
  strong_buy_ratings: number;
  buy_ratings: number;
  hold_ratings: number;
  sell_ratings: number;
  strong_sell_ratings: number;
  ratings_contributors: number;
  price_target_contributors: number;
  consensus_rating?: string;
  consensus_rating_value?: number;
  consensus_price_target?: number;
  high_price_target?: number;
  low_price_target?: number;
}

export class ConsensusRatingService {
  constructor(private readonly store: Pick<Store, 'datasets'>) {}

  /** The consensus of `ticker` over the ratings the query's date filters select; [] when there are none. */
  async consensus(ticker: string, query: Record<string, unknown>): Promise<ConsensusRecord[]> {
    const where = [{ field: 'ticker', op: 'eq' as const, value: ticker }, ...parseFilters(CONSENSUS_FILTERS, query)];
    const sort = [{ field: 'date', dir: 'desc' as const }, { field: 'last_updated', dir: 'desc' as const }];
    // The first (latest) rating of an analyst decides, even one that counts for nothing
    // ("terminates coverage"): their older ratings no longer stand.
    const decided = new Set<string>();
    const rating = new Map<string, number>();
    const target = new Map<string, number>();
    let seen = 0;
    let after: DatasetRow['position'] | undefined;
    for (;;) {
      const rows = await this.store.datasets.list(BENZINGA_RATINGS, { where, sort, limit: PAGE, after });
      for (const { record } of rows) {
        seen++;
        const who = analystOf(record);
        const w = ratingWeight(record.rating);
        if (!decided.has(who)) {
          decided.add(who);
          if (w !== undefined) rating.set(who, w);
        }
        if (typeof record.price_target === 'number' && !target.has(who)) target.set(who, record.price_target);
      }
      if (rows.length < PAGE) break;
      after = rows.at(-1)!.position;
    }
    if (seen === 0) return [];
    const counts = [0, 0, 0, 0, 0];
    for (const w of rating.values()) counts[w - 1]!++;
    const out: ConsensusRecord = {
      ticker,
      strong_buy_ratings: counts[4]!,
      buy_ratings: counts[3]!,
      hold_ratings: counts[2]!,
      sell_ratings: counts[1]!,
      strong_sell_ratings: counts[0]!,
      ratings_contributors: rating.size,
      price_target_contributors: target.size,
    };
    if (rating.size > 0) {
      const mean = [...rating.values()].reduce((a, b) => a + b, 0) / rating.size;
      out.consensus_rating_value = round2(mean);
      out.consensus_rating = CATEGORIES[Math.round(mean) - 1];
    }
    if (target.size > 0) {
      const targets = [...target.values()];
      out.consensus_price_target = round2(targets.reduce((a, b) => a + b, 0) / targets.length);
      out.high_price_target = Math.max(...targets);
      out.low_price_target = Math.min(...targets);
    }
    return [out];
  }
}

/** Who gave a rating: the analyst id, else the analyst's name at the firm, else the rating itself. */
function analystOf(r: DatasetRecord): string {
  if (typeof r.benzinga_analyst_id === 'string') return `id:${r.benzinga_analyst_id}`;
  if (typeof r.analyst === 'string') return `name:${String(r.firm ?? '')}:${r.analyst}`;
  return `rating:${String(r.benzinga_id)}`;
}
