// The declared data-set repository contract: records stored and read back with only the fields
// they have, upserts by natural key, array-field filters, the latest row per group, and keyset
// pages that meet every row once with NULLs sorted last.
import { describe, expect, it } from 'vitest';
import { BALANCE_SHEETS, FLOAT, SHORT_INTEREST } from '../../../src/store/repos/dataset-catalog.js';
import type { DatasetQuery, DatasetRecord } from '../../../src/store/repos/datasets.js';
import { useStore, type MakeStore } from './store-fixture.js';

const SHORTS: DatasetRecord[] = [
  { ticker: 'AAPL', settlement_date: '2026-10-15', short_interest: 100, avg_daily_volume: 50, days_to_cover: 2 },
  { ticker: 'AAPL', settlement_date: '2026-10-31', avg_daily_volume: 40, days_to_cover: 1.5 },
  { ticker: 'MSFT', settlement_date: '2026-10-15', short_interest: 300, avg_daily_volume: 100, days_to_cover: 3 },
  { ticker: 'GE', settlement_date: '2026-10-15', avg_daily_volume: 10, days_to_cover: 0.5 },
];

export function runDatasetsRepoContract(makeStore: MakeStore): void {
  describe('data-set repository', () => {
    const store = useStore(makeStore);
    const list = (q: Partial<DatasetQuery>, def = SHORT_INTEREST) => store().datasets.list(def, { where: [], sort: [], limit: 100, ...q });

    it('reads records back with exactly the fields they were given', async () => {
      await store().datasets.clear(SHORT_INTEREST);
      expect(await store().datasets.upsert(SHORT_INTEREST, SHORTS)).toBe(4);
      const back = (await list({})).map((r) => r.record);
      expect(back).toEqual(expect.arrayContaining(SHORTS));
      expect(back).toHaveLength(4);
    });

    it('upserts by natural key: the same records again change nothing, a changed one replaces it', async () => {
      await store().datasets.clear(SHORT_INTEREST);
      await store().datasets.upsert(SHORT_INTEREST, SHORTS);
      await store().datasets.upsert(SHORT_INTEREST, SHORTS);
      expect(await store().datasets.count(SHORT_INTEREST)).toBe(4);
      // Within one call the last record of a key wins.
      await store().datasets.upsert(SHORT_INTEREST, [{ ...SHORTS[0]!, days_to_cover: 9 }, { ...SHORTS[0]!, days_to_cover: 7 }]);
      expect(await store().datasets.count(SHORT_INTEREST)).toBe(4);
      const aapl = await list({ where: [{ field: 'settlement_date', op: 'eq', value: '2026-10-15' }, { field: 'ticker', op: 'eq', value: 'AAPL' }] });
      expect(aapl.map((r) => r.record.days_to_cover)).toEqual([7]);
    });

    it('sorts with NULLs last in either direction and pages by keyset, meeting every row once', async () => {
      await store().datasets.clear(SHORT_INTEREST);
      await store().datasets.upsert(SHORT_INTEREST, SHORTS);
      for (const dir of ['asc', 'desc'] as const) {
        const sort = [{ field: 'short_interest', dir }];
        const seen: string[] = [];
        let after: DatasetQuery['after'];
        for (let page = 0; page < 10; page++) {
          const rows = await list({ sort, limit: 1, after });
          if (rows.length === 0) break;
          seen.push(`${rows[0]!.record.ticker}/${rows[0]!.record.settlement_date}`);
          after = rows[0]!.position;
        }
        const head = dir === 'asc' ? ['AAPL/2026-10-15', 'MSFT/2026-10-15'] : ['MSFT/2026-10-15', 'AAPL/2026-10-15'];
        expect(seen.slice(0, 2)).toEqual(head);
        expect(seen.slice(2).sort()).toEqual(['AAPL/2026-10-31', 'GE/2026-10-15']);
      }
    });

    it('filters ranges and lists of values', async () => {
      await store().datasets.clear(SHORT_INTEREST);
      await store().datasets.upsert(SHORT_INTEREST, SHORTS);
      const tickers = async (q: Partial<DatasetQuery>) => (await list({ sort: [{ field: 'ticker', dir: 'asc' }], ...q })).map((r) => `${r.record.ticker}`);
      expect(await tickers({ where: [{ field: 'days_to_cover', op: 'gte', value: 2 }] })).toEqual(['AAPL', 'MSFT']);
      expect(await tickers({ where: [{ field: 'ticker', op: 'any_of', value: ['GE', 'MSFT', 'NOPE'] }] })).toEqual(['GE', 'MSFT']);
      expect(await tickers({ where: [{ field: 'ticker', op: 'any_of', value: [] }] })).toEqual([]);
    });

    it('filters array fields by whole items (contains, any of, all of)', async () => {
      await store().datasets.clear(BALANCE_SHEETS);
      const sheet = (cik: string, tickers: string[]): DatasetRecord => ({ cik, tickers, period_end: '2025-06-30', timeframe: 'quarterly', total_assets: 1 });
      await store().datasets.upsert(BALANCE_SHEETS, [sheet('1', ['GOOG', 'GOOGL']), sheet('2', ['BRK.A', 'BRK.B']), sheet('3', ['GOO'])]);
      const ciks = async (where: DatasetQuery['where']) => (await list({ where, sort: [{ field: 'cik', dir: 'asc' }] }, BALANCE_SHEETS)).map((r) => r.record.cik);
      expect(await ciks([{ field: 'tickers', op: 'eq', value: 'GOO' }])).toEqual(['3']);
      expect(await ciks([{ field: 'tickers', op: 'any_of', value: ['GOOGL', 'BRK.B'] }])).toEqual(['1', '2']);
      expect(await ciks([{ field: 'tickers', op: 'all_of', value: ['GOOG', 'GOOGL'] }])).toEqual(['1']);
      expect((await list({}, BALANCE_SHEETS)).find((r) => r.record.cik === '1')!.record.tickers).toEqual(['GOOG', 'GOOGL']);
    });

    it('serves only the latest row per group where the data set says so', async () => {
      await store().datasets.clear(FLOAT);
      await store().datasets.upsert(FLOAT, [
        { ticker: 'AAPL', effective_date: '2026-10-01', free_float: 100, free_float_percent: 90 },
        { ticker: 'AAPL', effective_date: '2026-11-01', free_float: 101, free_float_percent: 91 },
        { ticker: 'MSFT', effective_date: '2026-09-01', free_float: 200, free_float_percent: 80 },
      ]);
      const rows = await list({ sort: [{ field: 'ticker', dir: 'asc' }] }, FLOAT);
      expect(rows.map((r) => `${r.record.ticker} ${r.record.effective_date}`)).toEqual(['AAPL 2026-11-01', 'MSFT 2026-09-01']);
    });
  });
}
