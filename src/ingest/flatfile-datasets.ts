// The data sets of upstream's flat-file bucket that the flat-file importer reads, named as the
// bucket's prefixes are (`us_stocks_sip/minute_aggs_v1`), with the market their tickers belong
// to, the kind of rows they hold and the zone of their days. Keys are
// `<data set>/<yyyy>/<mm>/<yyyy-mm-dd>.csv.gz`; the date is read from the file name.
import type { FlatFileKind } from '../domain/market-records.js';
import { tickDayZone, type TickerMarket } from '../domain/ticker-market.js';
import type { Zone } from '../domain/calendar.js';

export interface FlatFileDataset {
  name: string;
  market: TickerMarket;
  kind: FlatFileKind;
  /** The zone whose calendar day a file covers: UTC for forex and crypto, New York otherwise. */
  zone: Zone;
}

const MARKETS: Record<string, TickerMarket> = {
  us_stocks_sip: 'stocks',
  us_options_opra: 'options',
  us_indices: 'indices',
  global_crypto: 'crypto',
  global_forex: 'fx',
};

const KINDS: Record<string, FlatFileKind> = {
  trades_v1: 'trades',
  quotes_v1: 'quotes',
  minute_aggs_v1: 'minute_aggs',
  day_aggs_v1: 'day_aggs',
};

/** What the sync reads, in a sentence (error messages and help). */
export const SUPPORTED_FLAT_FILE_DATASETS =
  'trades_v1, quotes_v1, minute_aggs_v1 and day_aggs_v1 under us_stocks_sip, us_options_opra, global_crypto and global_forex, ' +
  'and minute_aggs_v1 and day_aggs_v1 under us_indices';

/** A data set name as the bucket spells its prefix: two lower-case path segments. */
export const DATASET_NAME = /^[a-z0-9_]+\/[a-z0-9_]+$/;

/** The data set, or why the importer cannot read it. */
export function flatFileDataset(name: string): FlatFileDataset | { unsupported: string } {
  const [prefix = '', set = ''] = name.split('/');
  const market = MARKETS[prefix];
  const kind = KINDS[set];
  // Indices have values and aggregates, no trades or quotes.
  if (market === undefined || kind === undefined || (market === 'indices' && (kind === 'trades' || kind === 'quotes'))) {
    return { unsupported: `the flat-file importer does not read the data set ${name} (it reads ${SUPPORTED_FLAT_FILE_DATASETS})` };
  }
  return { name, market, kind, zone: tickDayZone(market) };
}

const FILE_DATE = /(?:^|\/)(\d{4}-\d{2}-\d{2})\.csv(?:\.gz)?$/;

/** The date a key's file name carries (`.../2026-11-20.csv.gz` → `2026-11-20`), if any. */
export function dateOfKey(key: string): string | undefined {
  return FILE_DATE.exec(key)?.[1];
}
