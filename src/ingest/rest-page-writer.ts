// Stores a page of an upstream REST answer. Bodies of data sets that `tickerbase import` already
// reads as captured upstream JSON (tickers, splits, dividends, news, financial statements) go
// through that same importer, so a synced record and an imported one are checked and stored
// alike; the others (bars, trades, quotes, exchanges, conditions, ticker types) through the
// readers of upstream/rest-market-records.ts and rest-records.ts. A page is stored whole or not at
// all (the caller's transaction).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { upcomingHolidays } from '../domain/calendar.js';
import type { Store } from '../store/index.js';
import { LIST_DATASET_NAMES, type RestPart, type UnitRequest } from '../upstream/rest-datasets.js';
import { UpstreamError } from '../upstream/rest-errors.js';
import type { UpstreamBody } from '../upstream/rest-client.js';
import { barsOf, groupedBarsOf, quotesOf, RecordShapeError, tradesOf } from '../upstream/rest-market-records.js';
import './datasets.js';
import { importFile } from './load.js';
import './news-social.js';
import { conditionsOf, exchangesOf, holidaysOf, tickerTypesOf } from './rest-records.js';
import './tickers.js';

/** Parts whose records replace every stored one: all their pages are stored together at the end. */
export const WHOLE_PARTS: ReadonlySet<RestPart> = new Set(['exchanges', 'conditions', 'ticker-types', 'holidays']);

/** The `import --dataset` name of the parts that load through a file importer. */
const IMPORTED: Partial<Record<RestPart, string>> = {
  ...Object.fromEntries(LIST_DATASET_NAMES.map((n) => [n, n])),
  'ticker-overview': 'tickers',
  'ticker-list': 'tickers',
  splits: 'splits',
  dividends: 'dividends',
  news: 'news',
  'income-statements': 'income-statements',
  'balance-sheets': 'balance-sheets',
  'cash-flow-statements': 'cash-flow-statements',
};

export interface PageResult {
  rows: number;
  notes: string[];
}

const resultsCount = (body: UpstreamBody) => (Array.isArray(body.results) ? body.results.length : body.results ? 1 : 0);

/** Loads the body through the importer of `dataset`, as `tickerbase import --dataset` would. */
async function viaImporter(tx: Store, dataset: string, body: UpstreamBody, url: string): Promise<number> {
  if (resultsCount(body) === 0) return 0;
  const dir = mkdtempSync(join(tmpdir(), 'tickerbase-sync-'));
  const file = join(dir, 'page.json');
  try {
    writeFileSync(file, JSON.stringify(body));
    const r = await importFile(tx, file, { dataset });
    return r.rows;
  } catch (err) {
    // The importer names its file and line; the user knows the page by its URL.
    const reason = (err as Error).message.split(`${file}:`).join('line ').split(file).join('the page');
    throw new UpstreamError('bad_answer', url, `a record is not what the API promises: ${reason}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Stores one page of `request` for `ticker` inside `tx` (or, for WHOLE_PARTS, every page's
 * results joined into one body). Throws UpstreamError('bad_answer') naming the URL and the field
 * when a record is not of the promised shape; nothing of the page is then stored.
 */
export async function storeUpstreamPage(tx: Store, request: UnitRequest, ticker: string, body: UpstreamBody, url: string, nowMs: number): Promise<PageResult> {
  const dataset = IMPORTED[request.part];
  if (dataset !== undefined) return { rows: await viaImporter(tx, dataset, body, url), notes: [] };
  try {
    switch (request.part) {
      case 'aggs-day':
      case 'aggs-minute': {
        const bars = barsOf(body, ticker);
        if (bars.length === 0) return { rows: 0, notes: [] };
        await tx.market.insertBars(request.part === 'aggs-day' ? 'day' : 'minute', bars);
        if (request.part === 'aggs-minute') {
          // Day bars for the days these minutes fall on, as an import of minute bars derives them.
          const ts = bars.map((b) => b.t);
          await tx.market.deriveDayBars([ticker], { fromMs: Math.min(...ts), toMs: Math.max(...ts) });
        }
        return { rows: bars.length, notes: [] };
      }
      case 'aggs-grouped': {
        const bars = groupedBarsOf(body);
        if (bars.length > 0) await tx.market.insertBars('day', bars);
        return { rows: bars.length, notes: [] };
      }
      case 'trades': {
        const rows = tradesOf(body, ticker);
        if (rows.length > 0) await tx.market.insertTrades(rows);
        return { rows: rows.length, notes: [] };
      }
      case 'quotes': {
        const rows = quotesOf(body, ticker);
        if (rows.length > 0) await tx.market.insertQuotes(rows);
        return { rows: rows.length, notes: [] };
      }
      case 'exchanges': {
        const rows = exchangesOf(body);
        await tx.reference.replaceExchanges(rows);
        return { rows: rows.length, notes: [] };
      }
      case 'conditions': {
        const rows = conditionsOf(body);
        await tx.reference.replaceConditions(rows);
        return { rows: rows.length, notes: [] };
      }
      case 'ticker-types': {
        const rows = tickerTypesOf(body);
        await tx.reference.replaceTickerTypes(rows);
        return { rows: rows.length, notes: [] };
      }
      case 'holidays':
        return holidaysChecked(body, nowMs);
      default:
        throw new Error(`no writer for ${request.part}`);
    }
  } catch (err) {
    if (err instanceof RecordShapeError) throw new UpstreamError('bad_answer', url, `a record is not what the API promises: ${err.message}`);
    throw err;
  }
}

/**
 * Upcoming holidays are served from the built-in exchange calendar (it knows every year, not only
 * the next); upstream's list is checked against it and each day the calendar does not have is
 * named, so a calendar change upstream made is seen.
 */
function holidaysChecked(body: UpstreamBody, nowMs: number): PageResult {
  const upstream = holidaysOf(body);
  const known = new Set(upcomingHolidays(nowMs).map((h) => `${h.exchange} ${h.date} ${h.status}`));
  const missing = upstream.filter((h) => !known.has(`${h.exchange} ${h.date} ${h.status}`));
  const notes = missing.length === 0
    ? [`the built-in calendar agrees with upstream's ${upstream.length} upcoming holidays`]
    : [`the built-in calendar lacks ${missing.length} of upstream's upcoming holidays: ${missing.map((h) => `${h.exchange} ${h.date} ${h.name} (${h.status})`).join('; ')}`];
  return { rows: upstream.length, notes };
}
