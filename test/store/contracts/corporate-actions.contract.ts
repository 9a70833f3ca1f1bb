// The corporate-actions repository contract: splits and dividends as the aggregates' adjustment
// reads them (oldest first), and the factors derived from later splits, kept current on upsert.
import { describe, expect, it } from 'vitest';
import { DIVIDENDS, SPLITS } from '../../../src/store/repos/corporate-actions.js';
import { FLOAT } from '../../../src/store/repos/dataset-catalog.js';
import { useStore, type MakeStore } from './store-fixture.js';

export function runCorporateActionsRepoContract(makeStore: MakeStore): void {
  describe('corporate-actions repository', () => {
    const store = useStore(makeStore);
    const list = async (def: typeof SPLITS, ticker: string) =>
      (await store().datasets.list(def, { where: [{ field: 'ticker', op: 'eq', value: ticker }], sort: [], limit: 100 })).map((r) => r.record);

    it('reads a ticker’s splits and dividends oldest first', async () => {
      await store().corporateActions.upsertSplits([
        { ticker: 'AAPL', execution_date: '2020-08-31', split_from: 1, split_to: 4 },
        { ticker: 'AAPL', execution_date: '2014-06-09', split_from: 1, split_to: 7 },
        { ticker: 'MSFT', execution_date: '2003-02-18', split_from: 1, split_to: 2 },
      ]);
      await store().corporateActions.upsertDividends([
        { ticker: 'AAPL', cash_amount: 0.82, ex_dividend_date: '2020-08-07', frequency: 4, distribution_type: 'recurring' },
        { ticker: 'AAPL', cash_amount: 3.29, ex_dividend_date: '2014-05-08', frequency: 4, distribution_type: 'recurring' },
        { ticker: 'AAPL', cash_amount: 0.26, ex_dividend_date: '2025-08-11', frequency: 4, distribution_type: 'recurring' },
      ]);
      expect(await store().corporateActions.splitsFor('AAPL')).toEqual([
        { execution_date: '2014-06-09', split_from: 1, split_to: 7 },
        { execution_date: '2020-08-31', split_from: 1, split_to: 4 },
      ]);
      expect((await store().corporateActions.dividendsFor('AAPL')).map((d) => d.ex_dividend_date)).toEqual(['2014-05-08', '2020-08-07', '2025-08-11']);
      expect(await store().corporateActions.splitsFor('NOPE')).toEqual([]);
    });

    it('derives each split’s cumulative factor and each dividend’s split-adjusted amount', async () => {
      const splits = await list(SPLITS, 'AAPL');
      const factor = Object.fromEntries(splits.map((s) => [s.execution_date, s.historical_adjustment_factor]));
      expect(factor).toEqual({ '2020-08-31': 0.25, '2014-06-09': 0.25 / 7 });
      const adjusted = Object.fromEntries((await list(DIVIDENDS, 'AAPL')).map((d) => [d.ex_dividend_date, d.split_adjusted_cash_amount]));
      expect(adjusted).toEqual({ '2014-05-08': 0.1175, '2020-08-07': 0.205, '2025-08-11': 0.26 });
    });

    it('keeps the derived amounts current when a later split arrives', async () => {
      await store().corporateActions.upsert(SPLITS, [{ ticker: 'AAPL', execution_date: '2025-12-01', split_from: 1, split_to: 2 }]);
      const adjusted = Object.fromEntries((await list(DIVIDENDS, 'AAPL')).map((d) => [d.ex_dividend_date, d.split_adjusted_cash_amount]));
      expect(adjusted['2025-08-11']).toBe(0.13);
      expect(adjusted['2020-08-07']).toBe(0.1025);
    });

    it('stores one split per ticker and day: the same split again changes nothing', async () => {
      const before = (await list(SPLITS, 'MSFT')).length;
      await store().corporateActions.upsertSplits([{ ticker: 'MSFT', execution_date: '2003-02-18', split_from: 1, split_to: 2 }]);
      expect((await list(SPLITS, 'MSFT')).length).toBe(before);
    });

    it('refuses a data set that is not a corporate action', () => {
      expect(() => store().corporateActions.upsert(FLOAT, [])).toThrow(RangeError);
    });
  });
}
