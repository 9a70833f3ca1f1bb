// Tickers: the keyset-paged list with its filters, the ticker types, and the overview of one
// ticker with its market cap computed from stored shares and the latest day bar.
import { dayOfDate, localDayOf, localDayStart } from '../domain/calendar.js';
import { barZone, marketOfTicker } from '../domain/ticker-market.js';
import { tickerItemJson, type TickerDetails } from '../domain/ticker-schemas.js';
import type { Store } from '../store/index.js';
import type { TickerRecord, TickerTypeRecord } from '../store/records.js';
import type { MarketDataPort } from '../store/repos/market-port.js';
import { TICKER_SORT_FIELDS, type TickerItemRow, type TickerItemsPage, type TickerQuery, type TickerRow, type TickerSortField } from '../store/repos/reference.js';
import { parseCalendarDate } from './dates.js';
import type { KeysetRows, PageRequest } from './paging.js';
import { TickerListIndex } from './ticker-list-index.js';

export { TICKER_SORT_FIELDS };

/** The list's filters as the request names them (the cursor of a later page carries them too). */
export interface TickerListParams {
  ticker?: string;
  'ticker.gt'?: string;
  'ticker.gte'?: string;
  'ticker.lt'?: string;
  'ticker.lte'?: string;
  type?: string;
  market?: TickerQuery['market'];
  exchange?: string;
  cusip?: string;
  cik?: string;
  date?: string;
  search?: string;
  active: boolean;
  sort: TickerSortField;
  order: 'asc' | 'desc';
}

/** A ticker as the API writes it: the stored version without its validity range and CUSIP. */
export type TickerWire = TickerDetails;

/** The wire form of a ticker version, with `active` as of `date` when one was asked for. */
export function tickerToWire(t: TickerRecord, date?: string): TickerWire {
  const { valid_from: _vf, valid_to: _vt, cusip: _c, ...wire } = t;
  if (date) {
    wire.active = (!t.list_date || t.list_date <= date) && (!t.delisted_utc || t.delisted_utc.slice(0, 10) >= date);
  }
  return wire;
}

/**
 * Market cap as of `date` (else the clock's day): shares × the raw close of the latest day bar
 * starting on or before that day, rounded to an integer. One indexed read (latest bar before a
 * bound). Without shares or a bar the stored market_cap stands (absent stays absent).
 */
export async function overviewMarketCap(
  market: Pick<MarketDataPort, 'lastDayBarBefore'>,
  t: TickerRecord,
  date: string | undefined,
  nowMs: number,
): Promise<number | undefined> {
  // weighted_shares_outstanding covers the whole company, as upstream computes market cap.
  const shares = t.weighted_shares_outstanding ?? t.share_class_shares_outstanding;
  if (shares === undefined || !Number.isFinite(shares)) return t.market_cap;
  const zone = barZone(marketOfTicker(t.ticker));
  const day = date ? dayOfDate(date) : localDayOf(nowMs, zone);
  const bar = await market.lastDayBarBefore(t.ticker, localDayStart(day + 1, zone));
  if (!bar || !Number.isFinite(bar.c)) return t.market_cap;
  return Math.round(shares * bar.c);
}

export class TickerService {
  /** Lists of current tickers kept in memory: a page sorted by ticker is a slice of one. */
  readonly listIndex: TickerListIndex;

  constructor(
    private readonly store: Pick<Store, 'reference' | 'market' | 'dataVersion'>,
    private readonly now: () => number,
  ) {
    this.listIndex = new TickerListIndex(store.reference);
  }

  private versionAt?: { at: string; value: string };

  async list(q: TickerListParams, page: PageRequest): Promise<KeysetRows<TickerRow>> {
    const rows = await this.store.reference.listTickers(this.query(q, page));
    const sort = q.sort;
    return {
      rows,
      position: (r) => ({ value: (r.record as unknown as Record<string, string | undefined>)[sort] ?? '', id: r.id }),
    };
  }

  /**
   * A page of the list as list-item JSON texts: the texts stored with the rows, or, as of a
   * date (whose `active` is computed), rendered from the versions found.
   */
  async listItems(q: TickerListParams, page: PageRequest): Promise<KeysetRows<TickerItemRow>> {
    if (q.date) {
      const { rows, position } = await this.list(q, page);
      return {
        rows: rows.map((r) => ({ id: r.id, sortValue: String(position(r).value), json: tickerItemJson(tickerToWire(r.record, q.date)) })),
        position: (r) => ({ value: r.sortValue, id: r.id }),
      };
    }
    const rows = await this.store.reference.listTickerItems(this.query(q, page));
    return { rows, position: (r) => ({ value: r.sortValue, id: r.id }) };
  }

  /**
   * A current-version page (no `date`) read whole: a slice of a list kept in memory when it is
   * of the current tickers version, else its stored items joined by the store; undefined for a
   * point-in-time page or while some row of the page has no stored item.
   */
  async itemsPage(q: TickerListParams, page: PageRequest): Promise<TickerItemsPage | undefined> {
    if (q.date) return undefined;
    const query = this.query(q, page);
    return this.listIndex.page(query, await this.version()) ?? this.store.reference.tickerItemsPage(query);
  }

  /**
   * Changes whenever ticker rows are written, by any process (the list's ETags derive from it).
   * Read again only when the store's data version moved (its token also moves with time on
   * PostgreSQL, so another process's write is seen as soon as the response cache sees it).
   */
  async version(): Promise<string> {
    const at = this.store.dataVersion(); // before the read: a write meanwhile moves it
    if (this.versionAt?.at === at) return this.versionAt.value;
    const value = await this.store.reference.tickersVersion();
    this.versionAt = { at, value };
    return value;
  }

  private query(q: TickerListParams, page: PageRequest): TickerQuery {
    if (q.date) parseCalendarDate(q.date, 'date');
    const types = q.type === 'IX' || q.type === 'INDEX' ? ['IX', 'INDEX'] : q.type ? [q.type] : undefined;
    return {
      ticker: q.ticker,
      tickerGt: q['ticker.gt'],
      tickerGte: q['ticker.gte'],
      tickerLt: q['ticker.lt'],
      tickerLte: q['ticker.lte'],
      types,
      market: q.market,
      exchange: q.exchange,
      cusip: q.cusip,
      cik: q.cik,
      date: q.date,
      search: q.search?.trim() || undefined,
      active: q.active,
      sort: q.sort,
      order: q.order,
      limit: page.limit,
      after: page.after,
    };
  }

  types(f: { asset_class?: string; locale?: string }): Promise<TickerTypeRecord[]> {
    return this.store.reference.listTickerTypes(f);
  }

  /** One ticker as of `date` (else now) with its market cap; undefined when it is not stored. */
  async overview(ticker: string, date: string | undefined): Promise<TickerWire | undefined> {
    if (date) parseCalendarDate(date, 'date');
    const t = await this.store.reference.getTicker(ticker, date);
    if (!t) return undefined;
    const wire = tickerToWire(t, date);
    const marketCap = await overviewMarketCap(this.store.market, t, date, this.now());
    if (marketCap === undefined) delete wire.market_cap;
    else wire.market_cap = marketCap;
    return wire;
  }
}
