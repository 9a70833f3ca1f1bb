// The data sets and markets that plans sell and routes declare, with the other spellings accepted
// for them in plan files and route declarations.

/**
 * Data sets a route may declare (`dataset` in getRoute). Upstream's own entitlement data types are
 * reference, aggregates, trades, nbbo and snapshots; the others split upstream's "reference" and
 * add-on products so that plans can sell them separately. `fmv` is a field-level entitlement
 * (the `fmv` key of snapshots), checked by handlers with `entitled(req, 'fmv')`. `benzinga`,
 * `etf-global`, `tmx` and `consumer-spending` are upstream's partner add-ons, sold apart from any tier.
 */
export const DATASETS = [
  'reference',
  'aggregates',
  'snapshots',
  'indicators',
  'trades',
  'nbbo',
  'fundamentals',
  'filings',
  'economy',
  'news',
  'fmv',
  'benzinga',
  'etf-global',
  'tmx',
  'consumer-spending',
] as const;
export type Dataset = (typeof DATASETS)[number];

export const MARKETS = ['stocks', 'options', 'fx', 'crypto', 'indices', 'futures'] as const;
export type Market = (typeof MARKETS)[number];

/** Other spellings routes may use, mapped to the names above. */
const DATASET_ALIASES: Record<string, Dataset> = {
  quotes: 'nbbo',
  quote: 'nbbo',
  trade: 'trades',
  aggs: 'aggregates',
  bars: 'aggregates',
  snapshot: 'snapshots',
  indicator: 'indicators',
  financials: 'fundamentals',
  fundamental: 'fundamentals',
  filing: 'filings',
  sec_filings: 'filings',
  corporate_actions: 'reference',
  dividends: 'reference',
  splits: 'reference',
  branding: 'reference',
  market_status: 'reference',
  social: 'news',
  sentiment: 'news',
  etf_global: 'etf-global',
  etfglobal: 'etf-global',
  consumer_spending: 'consumer-spending',
};

const MARKET_ALIASES: Record<string, Market> = { otc: 'stocks', forex: 'fx', currencies: 'fx', index: 'indices' };

/** Data sets that upstream sells without a market (reference and add-ons): the market is not checked. */
const MARKETLESS = new Set<string>(['reference', 'fundamentals', 'filings', 'economy', 'news', 'benzinga', 'etf-global', 'tmx', 'consumer-spending']);

/** Whether a data set is sold without a market (the route's market is then not checked). */
export function isMarketless(dataset: string): boolean {
  return MARKETLESS.has(normaliseDataset(dataset));
}

/** Data sets whose rows carry times that history and delay limits apply to. */
export const TIME_SERIES = new Set<string>(['aggregates', 'snapshots', 'indicators', 'trades', 'nbbo']);

export function normaliseDataset(name: string | undefined): string {
  if (!name) return 'reference';
  const n = name.toLowerCase();
  return DATASET_ALIASES[n] ?? n;
}

export function normaliseMarket(name: string | undefined): string | undefined {
  if (!name) return undefined;
  const n = name.toLowerCase();
  return MARKET_ALIASES[n] ?? n;
}
