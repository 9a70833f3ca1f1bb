// The market status of futures products now: every product of the futures reference data (its
// latest stored description) with where the CME Globex calendar stands at the server's clock.
import { utcOffsetTimestamp } from '../domain/futures-calendar.js';
import { globexStateAt, marketStatusOf } from '../domain/futures-market-status.js';
import type { DatasetRow } from '../store/repos/datasets.js';
import { FUTURES_PRODUCTS, parseFilters, type DatasetDef, type DatasetListService } from './dataset-lists.js';
import type { KeysetRows, PageRequest } from './paging.js';

/** Products one row per code (the latest date), filtered by code as upstream's market-status is. */
export const MARKET_STATUS_PRODUCTS: DatasetDef = {
  ...FUTURES_PRODUCTS,
  filters: { product_code: ['eq', 'any_of', 'range'] },
  latestPer: { group: 'product_code', by: 'date' },
};

export interface FuturesMarketStatus {
  market_event: string;
  market_status: string;
  name?: string;
  product_code: string;
  session_end_date: string;
  timestamp: string;
  trading_venue?: string;
}

export class FuturesMarketStatusService {
  constructor(
    private readonly lists: DatasetListService,
    private readonly now: () => number,
  ) {}

  /** A page of products by code, each with the Globex state at the clock's now. */
  async statuses(query: Record<string, unknown>, page: PageRequest): Promise<KeysetRows<DatasetRow & { status: FuturesMarketStatus }>> {
    const where = parseFilters(MARKET_STATUS_PRODUCTS, query);
    const read = await this.lists.list(MARKET_STATUS_PRODUCTS, { where, sort: [{ field: 'product_code', dir: 'asc' }], fields: ['product_code', 'name', 'trading_venue'] }, page);
    const state = globexStateAt(this.now());
    const rows = read.rows.map((row) => {
      const r = row.record;
      const status: FuturesMarketStatus = {
        market_event: state.event,
        market_status: marketStatusOf(state.event),
        ...(r.name !== undefined ? { name: String(r.name) } : {}),
        product_code: String(r.product_code),
        session_end_date: state.sessionEndDate,
        timestamp: utcOffsetTimestamp(state.at),
        ...(r.trading_venue !== undefined ? { trading_venue: String(r.trading_venue) } : {}),
      };
      return { ...row, status };
    });
    return { rows, position: read.position };
  }
}
