// Small hand-made rows of the partner data sets, whose expected answers can be worked out by hand.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import '../../src/ingest/datasets.js';
import { importFile } from '../../src/ingest/load.js';
import type { Store } from '../../src/store/index.js';
import { BENZINGA_NEWS, BENZINGA_RATINGS, ETF_CONSTITUENTS, TMX_CORPORATE_EVENTS } from '../../src/store/repos/partner-catalog.js';
import type { DatasetRecord } from '../../src/store/repos/datasets.js';

const article = (id: number, published: string, rest: DatasetRecord): DatasetRecord => ({
  author: 'A. Writer', benzinga_id: id, last_updated: published, published, title: `article ${id}`, url: `https://example.com/${id}`, ...rest,
});

export const NEWS_ROWS: DatasetRecord[] = [
  article(1, '2025-05-01T10:00:00Z', { channels: ['Analyst Ratings', 'News'], tags: ['Upgrades'], tickers: ['AAPL'] }),
  // stored as 2025-05-02T13:30:00Z
  article(2, '2025-05-02T09:30:00-04:00', { author: 'B. Writer', channels: ['News'], tickers: ['AAPL', 'MSFT'] }),
  article(3, '2025-05-03T00:00:00Z', { channels: ['Earnings'], tags: ['Upgrades', 'Movers'], tickers: ['MSFT'] }),
];

const rating = (id: string, ticker: string, date: string, importance: number, rating_action: string, last_updated: string): DatasetRecord => ({
  benzinga_id: id, ticker, date, importance, rating_action, last_updated, firm: 'Northbridge Securities', rating: 'buy', price_target: 100,
});

export const RATING_ROWS: DatasetRecord[] = [
  rating('r1', 'AAPL', '2025-01-10', 3, 'upgrades', '2025-01-10T12:00:00Z'),
  rating('r2', 'AAPL', '2025-03-05', 1, 'maintains', '2025-03-05T12:00:00Z'),
  rating('r3', 'MSFT', '2025-02-01', 5, 'downgrades', '2025-02-02T12:00:00Z'),
];

const holding = (etf: string, rank: number, ticker: string, effective_date: string, weight: number): DatasetRecord => ({
  composite_ticker: etf, constituent_rank: rank, constituent_ticker: ticker, effective_date, weight,
});

export const CONSTITUENT_ROWS: DatasetRecord[] = [
  holding('SPY', 1, 'AAPL', '2025-06-30', 0.07), holding('SPY', 2, 'MSFT', '2025-06-30', 0.065), holding('SPY', 3, 'NVDA', '2025-06-30', 0.06),
  holding('SPY', 1, 'MSFT', '2025-03-31', 0.068), holding('QQQ', 1, 'NVDA', '2025-06-30', 0.09), holding('QQQ', 2, 'AAPL', '2025-06-30', 0.085),
];

export const EVENT_ROWS: DatasetRecord[] = [
  { tmx_record_id: 'E1', date: '2025-07-23', type: 'earnings_announcement_date', ticker: 'ROL', tmx_company_id: 2208, status: 'unconfirmed' },
  { tmx_record_id: 'E2', date: '2025-08-01', type: 'dividend', ticker: 'RY', tmx_company_id: 15, status: 'confirmed' },
];

/** News goes through the importer (as NDJSON), which stores its times in UTC; the rest is written directly. */
export async function seedPartner(store: Store): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tb-partner-'));
  try {
    const file = join(dir, 'news.ndjson');
    writeFileSync(file, NEWS_ROWS.map((r) => JSON.stringify(r)).join('\n'));
    await importFile(store, file, { dataset: BENZINGA_NEWS.name });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await store.datasets.upsert(BENZINGA_RATINGS, RATING_ROWS);
  await store.datasets.upsert(ETF_CONSTITUENTS, CONSTITUENT_ROWS);
  await store.datasets.upsert(TMX_CORPORATE_EVENTS, EVENT_ROWS);
}
