// Summaries (/v1/summaries): one line per named ticker across stocks, options, forex, crypto and
// indices, built from the universal snapshot's items at the same clock: the price (last trade,
// else the index value or the day's close), the day's session, the market status, and an option's
// contract terms. Unknown tickers, and those of markets the plan lacks, come back as error items.
import type { UniversalItem } from '../domain/universal-snapshot-schema.js';
import type { UniversalRequest, UniversalSnapshotService } from './universal-snapshot.js';

export interface SummaryItem {
  ticker: string;
  error?: string;
  message?: string;
  name?: string;
  type?: string;
  market_status?: string;
  price?: number;
  last_updated?: bigint;
  session?: UniversalItem['session'];
  options?: UniversalItem['details'];
}

export function summaryOf(item: UniversalItem): SummaryItem {
  if (item.error !== undefined) return { ticker: item.ticker, error: item.error, message: item.message };
  return {
    ticker: item.ticker,
    name: item.name,
    type: item.type,
    market_status: item.market_status,
    price: item.last_trade?.price ?? item.value ?? item.session?.close,
    last_updated: item.last_updated,
    session: item.session,
    options: item.details,
  };
}

export class SummaryService {
  constructor(private readonly snapshots: UniversalSnapshotService) {}

  /** Summaries of the comma-separated tickers, in the order asked for. */
  async summaries(names: string, r: UniversalRequest): Promise<SummaryItem[]> {
    return (await this.snapshots.named(names, { order: 'asc' }, r)).map(summaryOf);
  }
}
