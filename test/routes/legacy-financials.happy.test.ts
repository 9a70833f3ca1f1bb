import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { walkPages } from '../helpers/app.js';
import { useSeededApp } from '../helpers/app-fixture.js';
import { wrappedRejection } from '../helpers/bad-request.js';
import { resultsOf, seedFundamentals } from '../helpers/datasets-fixture.js';
import { engines } from '../helpers/engines.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';

const URL = '/vX/reference/financials';

async function seed(store: Store): Promise<void> {
  await seedFundamentals(store);
  await store.reference.upsertTickers(FIXTURE_TICKERS);
}

for (const engine of engines()) {
  describe(`older financials list (${engine.name})`, () => {
    const { t } = useSeededApp(engine, seed);
    const get = async (url: string) => {
      const res = await t.get(url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    };
    const periods = async (qs: string) =>
      (await get(`${URL}?${qs}`)).results.map((r: any) => `${r.cik.slice(-4)} ${r.end_date} ${r.fiscal_period}`);

    it('one report per period, newest first, joining the three statements with the company name', async () => {
      const data = await get(`${URL}?ticker=AAPL&timeframe=quarterly&limit=1`);
      expect(data.status).toBe('OK');
      expect(data.count).toBe(1);
      const r = data.results[0];
      expect(r).toMatchObject({
        cik: '0000320193', company_name: 'Apple Inc.', tickers: ['AAPL'], sic: '3571', start_date: '2025-04-01', end_date: '2025-06-30',
        filing_date: '2025-07-31', fiscal_period: 'Q2', fiscal_year: '2025', timeframe: 'quarterly',
      });
      expect(r.financials.income_statement.revenue).toEqual({ value: 105e9, unit: 'USD', label: 'Revenue', order: 100 });
      expect(r.financials.income_statement.diluted_earnings_per_share).toMatchObject({ value: 10.5, unit: 'USD / shares', label: 'Diluted Earnings Per Share' });
      expect(typeof r.financials.income_statement.diluted_earnings_per_share.order).toBe('number');
      expect(r.financials.balance_sheet.total_assets.value).toBe(315e9);
      expect(r.financials.cash_flow_statement.net_cash_from_operating_activities.value).toBe(105e9 / 4);
      expect(r.financials.comprehensive_income).toEqual({});
      expect(Object.keys(r.financials.balance_sheet).sort()).toEqual(['total_assets', 'total_equity', 'total_liabilities', 'total_liabilities_and_equity']);
    });

    it('annual and trailing reports: FY and TTM periods of twelve months; statements not stored are empty', async () => {
      const [annual] = (await get(`${URL}?cik=320193&timeframe=annual`)).results;
      expect(annual).toMatchObject({ fiscal_period: 'FY', timeframe: 'annual', start_date: '2024-01-01', end_date: '2024-12-31' });
      expect(annual.financials.income_statement.revenue.value).toBe(406e9);
      const ttm = (await get(`${URL}?cik=320193&timeframe=ttm`)).results;
      expect(ttm.map((r: any) => `${r.fiscal_period} ${r.timeframe} ${r.start_date} ${r.end_date}`)).toEqual(['TTM ttm 2024-07-01 2025-06-30', 'TTM ttm 2024-01-01 2024-12-31']);
      expect(ttm[0].financials.balance_sheet).toEqual({});
      expect(ttm[0].financials.cash_flow_statement.net_cash_from_operating_activities.value).toBe(2);
      expect(ttm[1].financials.cash_flow_statement).toEqual({});
    });

    it('a filer whose tickers are not in the reference data is named by its first ticker', async () => {
      const [r] = (await get(`${URL}?ticker=GOOGL&limit=1`)).results;
      expect(r.company_name).toBe('GOOG');
      expect(r.sic).toBeUndefined();
    });

    it('filters by ticker, cik, filing date and period of report; sorts by either date in either order', async () => {
      expect((await get(`${URL}?cik=0000320193&limit=100`)).count).toBe(9);
      expect((await get(`${URL}?ticker=BRK.B&limit=100`)).count).toBe(9);
      expect((await get(`${URL}?ticker=BRK&limit=100`)).count).toBe(0);
      expect(await periods('cik=320193&period_of_report_date=2024-12-31')).toEqual(['0193 2024-12-31 FY', '0193 2024-12-31 Q4', '0193 2024-12-31 TTM']);
      expect(await periods('cik=320193&timeframe=quarterly&period_of_report_date.gt=2024-12-31&period_of_report_date.lte=2025-06-30')).toEqual(['0193 2025-06-30 Q2', '0193 2025-03-31 Q1']);
      expect(await periods('cik=320193&timeframe=quarterly&period_of_report_date.gte=2024-09-30&period_of_report_date.lt=2025-03-31')).toEqual(['0193 2024-12-31 Q4', '0193 2024-09-30 Q3']);
      expect(await periods('cik=320193&filing_date=2024-08-01')).toEqual(['0193 2024-06-30 Q2']);
      expect(await periods('cik=320193&timeframe=quarterly&filing_date.gte=2025-02-20&filing_date.lt=2025-07-31')).toEqual(['0193 2025-03-31 Q1', '0193 2024-12-31 Q4']);
      expect(await periods('cik=320193&filing_date.gt=2025-05-01&filing_date.lte=2025-07-31')).toEqual(['0193 2025-06-30 Q2', '0193 2025-06-30 TTM']);
      expect(await periods('cik=320193&timeframe=quarterly&sort=filing_date&order=asc&limit=2')).toEqual(['0193 2024-03-31 Q1', '0193 2024-06-30 Q2']);
      expect(await periods('cik=320193&timeframe=quarterly&order=asc&limit=1')).toEqual(['0193 2024-03-31 Q1']);
    });

    it('pages to the end through next_url: the same reports as one large page, none twice', async () => {
      const all = (await get(`${URL}?limit=100`)).results;
      expect(all).toHaveLength(27);
      const pages = await walkPages(t, `${URL}?limit=4`);
      expect(pages).toHaveLength(7);
      expect(pages[0].next_url).toMatch(/cursor=/);
      expect(pages.at(-1).next_url).toBeUndefined();
      expect(resultsOf(pages)).toEqual(all);
      const asc = await walkPages(t, `${URL}?limit=5&order=asc&sort=filing_date`);
      expect(resultsOf(asc)).toEqual((await get(`${URL}?limit=100&order=asc&sort=filing_date`)).results);
    });

    it('answers 400 naming a bad parameter', async () => {
      const rejects = wrappedRejection(t);
      await rejects(`${URL}?limit=101`, 'limit must be an integer from 1 to 100');
      await rejects(`${URL}?timeframe=trailing_twelve_months`, /^timeframe must be one of/);
      await rejects(`${URL}?period_of_report_date.gte=2025`, /^period_of_report_date\.gte must be a date/);
      await rejects(`${URL}?filing_date=2025-02-30`, /^filing_date must be a real date/);
      // The stored field is period_end; the message names the parameter the caller sent.
      await rejects(`${URL}?period_of_report_date=0000-00-00`, /^period_of_report_date must be a real date/);
      await rejects(`${URL}?period_of_report_date.lt=2025-13-01`, /^period_of_report_date\.lt must be a real date/);
      await rejects(`${URL}?sort=revenue`, /^sort must be one of/);
      await rejects(`${URL}?order=up`, /^order must be one of/);
    });
  });
}
