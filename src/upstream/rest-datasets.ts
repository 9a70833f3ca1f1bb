// The data sets `sync rest` fetches and where upstream serves them: for each, whether it is
// fetched per ticker, whether by day range, and the first request of a unit at the largest page
// upstream allows (its OpenAPI maximum of `limit`). A unit is one (data set, ticker, range) the
// ledger records; some data sets take several requests per unit (financials: three statements).
import { dateOfDay, dayOfDate, nyMidnight, tradingDaysBetween } from '../domain/calendar.js';

/**
 * Further data sets upstream lists, each loaded by the `import --dataset` of the same name: its
 * list endpoint, largest page, and whether it is asked per ticker (`ticker=`).
 */
const LIST_DATASETS = {
  ratios: { path: '/stocks/financials/v1/ratios', limit: 50000, perTicker: true },
  float: { path: '/stocks/vX/float', limit: 5000, perTicker: true },
  'short-interest': { path: '/stocks/v1/short-interest', limit: 50000, perTicker: true },
  'short-volume': { path: '/stocks/v1/short-volume', limit: 50000, perTicker: true },
  ipos: { path: '/vX/reference/ipos', limit: 1000, perTicker: true },
  inflation: { path: '/fed/v1/inflation', limit: 50000, perTicker: false },
  'inflation-expectations': { path: '/fed/v1/inflation-expectations', limit: 50000, perTicker: false },
  'treasury-yields': { path: '/fed/v1/treasury-yields', limit: 50000, perTicker: false },
  'labor-market': { path: '/fed/v1/labor-market', limit: 50000, perTicker: false },
} as const;
type ListDatasetName = keyof typeof LIST_DATASETS;
/** The further data sets, whose records load through the importer of the same name. */
export const LIST_DATASET_NAMES = Object.keys(LIST_DATASETS) as ListDatasetName[];

export const REST_DATASETS = [
  'tickers', 'exchanges', 'conditions', 'ticker-types', 'aggs-day', 'aggs-minute', 'trades', 'quotes',
  'splits', 'dividends', 'news', 'financials', 'holidays', ...LIST_DATASET_NAMES,
] as const;
export type RestDatasetName = (typeof REST_DATASETS)[number];

/** One request of a unit: `part` names what its records are (the writer is chosen by it). */
export interface UnitRequest {
  part: RestPart;
  path: string;
}

export type RestPart =
  | 'ticker-overview' | 'ticker-list' | 'exchanges' | 'conditions' | 'ticker-types' | 'aggs-day' | 'aggs-grouped' | 'aggs-minute'
  | 'trades' | 'quotes' | 'splits' | 'dividends' | 'news' | 'income-statements' | 'balance-sheets'
  | 'cash-flow-statements' | 'holidays' | ListDatasetName;

export interface RestDatasetSpec {
  name: RestDatasetName;
  /** Fetched per ticker (given by --tickers, or every stored ticker with --all-tickers); else once for all ('*'). */
  perTicker: 'always' | 'optional' | 'never';
  /** Units cover day ranges (--from/--to); undated units are fetched whole. */
  dated: boolean;
  requests(unit: { ticker: string; from: string; to: string }): UnitRequest[];
}

const q = (params: Record<string, string | number | undefined>) =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
const seg = (ticker: string) => encodeURIComponent(ticker);
const all = (ticker: string) => (ticker === '*' ? undefined : ticker);

/** Unix nanoseconds of 00:00 America/New_York of a day (tick days of US markets are New York days), as text. */
const nyMidnightNs = (day: string) => (BigInt(nyMidnight(day)) * 1_000_000n).toString();
const dayAfter = (day: string) => dateOfDay(dayOfDate(day) + 1);

function listDatasetSpec(name: ListDatasetName): RestDatasetSpec {
  const d = LIST_DATASETS[name];
  return {
    name,
    perTicker: d.perTicker ? 'optional' : 'never',
    dated: false,
    requests: (u) => [{ part: name, path: `${d.path}?${q({ ticker: d.perTicker ? all(u.ticker) : undefined, limit: d.limit })}` }],
  };
}

function restDatasetSpecs(): Record<RestDatasetName, RestDatasetSpec> {
  const ticks = (name: 'trades' | 'quotes'): RestDatasetSpec => ({
    name,
    perTicker: 'always',
    dated: true,
    requests: (u) => [{ part: name, path: `/v3/${name}/${seg(u.ticker)}?${q({ 'timestamp.gte': nyMidnightNs(u.from), 'timestamp.lt': nyMidnightNs(dayAfter(u.to)), order: 'asc', sort: 'timestamp', limit: 50000 })}` }],
  });
  // Raw bars: Tickerbase adjusts for splits itself when asked (adjusted=true), from the splits it holds.
  const aggs = (name: 'aggs-day' | 'aggs-minute', timespan: 'day' | 'minute'): RestDatasetSpec => ({
    name,
    perTicker: 'always',
    dated: true,
    requests: (u) => [{ part: name, path: `/v2/aggs/ticker/${seg(u.ticker)}/range/1/${timespan}/${u.from}/${u.to}?${q({ adjusted: 'false', sort: 'asc', limit: 50000 })}` }],
  });
  // Day bars of every stock: one call per trading day (upstream's grouped daily) rather than one per ticker.
  const dayBars: RestDatasetSpec = {
    ...aggs('aggs-day', 'day'),
    perTicker: 'optional',
    requests: (u) =>
      u.ticker === '*'
        ? tradingDaysBetween(u.from, u.to).map((day) => ({ part: 'aggs-grouped' as const, path: `/v2/aggs/grouped/locale/us/market/stocks/${day}?${q({ adjusted: 'false' })}` }))
        : aggs('aggs-day', 'day').requests(u),
  };
  const statement = (part: 'income-statements' | 'balance-sheets' | 'cash-flow-statements', ticker: string): UnitRequest => ({
    part,
    path: `/stocks/financials/v1/${part}?${q({ tickers: all(ticker), limit: 50000 })}`,
  });
  return {
    tickers: {
      name: 'tickers',
      perTicker: 'optional',
      dated: false,
      requests: (u) => [u.ticker === '*' ? { part: 'ticker-list', path: `/v3/reference/tickers?${q({ limit: 1000 })}` } : { part: 'ticker-overview', path: `/v3/reference/tickers/${seg(u.ticker)}` }],
    },
    exchanges: { name: 'exchanges', perTicker: 'never', dated: false, requests: () => [{ part: 'exchanges', path: '/v3/reference/exchanges' }] },
    conditions: { name: 'conditions', perTicker: 'never', dated: false, requests: () => [{ part: 'conditions', path: `/v3/reference/conditions?${q({ limit: 1000 })}` }] },
    'ticker-types': { name: 'ticker-types', perTicker: 'never', dated: false, requests: () => [{ part: 'ticker-types', path: '/v3/reference/tickers/types' }] },
    'aggs-day': dayBars,
    'aggs-minute': aggs('aggs-minute', 'minute'),
    trades: ticks('trades'),
    quotes: ticks('quotes'),
    splits: { name: 'splits', perTicker: 'optional', dated: false, requests: (u) => [{ part: 'splits', path: `/v3/reference/splits?${q({ ticker: all(u.ticker), limit: 1000 })}` }] },
    dividends: { name: 'dividends', perTicker: 'optional', dated: false, requests: (u) => [{ part: 'dividends', path: `/v3/reference/dividends?${q({ ticker: all(u.ticker), limit: 1000 })}` }] },
    news: {
      name: 'news',
      perTicker: 'optional',
      dated: true,
      requests: (u) => [{ part: 'news', path: `/v2/reference/news?${q({ ticker: all(u.ticker), 'published_utc.gte': `${u.from}T00:00:00Z`, 'published_utc.lte': `${u.to}T23:59:59Z`, order: 'asc', sort: 'published_utc', limit: 1000 })}` }],
    },
    financials: {
      name: 'financials',
      perTicker: 'optional',
      dated: false,
      requests: (u) => [statement('income-statements', u.ticker), statement('balance-sheets', u.ticker), statement('cash-flow-statements', u.ticker)],
    },
    holidays: { name: 'holidays', perTicker: 'never', dated: false, requests: () => [{ part: 'holidays', path: '/v1/marketstatus/upcoming' }] },
    ...(Object.fromEntries(LIST_DATASET_NAMES.map((n) => [n, listDatasetSpec(n)])) as Record<ListDatasetName, RestDatasetSpec>),
  };
}

export const REST_DATASET_SPECS = restDatasetSpecs();

/** Parses `--datasets`: names from REST_DATASETS, comma-separated, or `all`. */
export function parseRestDatasets(text: string): RestDatasetName[] {
  const names = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (names.includes('all')) return [...REST_DATASETS];
  const unknown = names.filter((n) => !(REST_DATASETS as readonly string[]).includes(n));
  if (unknown.length > 0 || names.length === 0) {
    throw new Error(`--datasets: ${unknown.length > 0 ? `unknown data set ${unknown.join(', ')}` : 'none given'}; use one or more of ${REST_DATASETS.join(', ')}, or all`);
  }
  return [...new Set(names)] as RestDatasetName[];
}
