import { describe, expect, it } from 'vitest';
import { walkPages } from '../helpers/app.js';
import { RATIO_ROWS, SHORT_INTEREST_ROWS, resultsOf, seedFundamentals, statementRows } from '../helpers/datasets-fixture.js';
import { engines } from '../helpers/engines.js';
import { useSeededApps } from '../helpers/app-fixture.js';

const BS = '/stocks/financials/v1/balance-sheets';
const IS = '/stocks/financials/v1/income-statements';
const CF = '/stocks/financials/v1/cash-flow-statements';
const key = (r: any) => `${r.cik}|${r.period_end}|${r.timeframe}`;

for (const engine of engines()) {
  describe(`fundamentals (${engine.name})`, () => {
    const { apps: [t, native] } = useSeededApps(engine, seedFundamentals, {}, { envelope: 'native' });

    const get = async (url: string) => {
      const res = await t.get(url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    };
    const periods = async (url: string) => (await get(url)).results.map((r: any) => `${r.cik.slice(-4)} ${r.period_end} ${r.timeframe[0]}`);

    describe('statements', () => {
      it('list by period end (oldest first), with the row fields and nothing null', async () => {
        const data = await get(`${BS}?cik=0000320193`);
        expect(data.status).toBe('OK');
        expect(data.count).toBe(7);
        expect(data.results.map((r: any) => r.period_end)).toEqual(['2024-03-31', '2024-06-30', '2024-09-30', '2024-12-31', '2024-12-31', '2025-03-31', '2025-06-30']);
        expect(data.results[0]).toEqual({
          cik: '0000320193', tickers: ['AAPL'], period_end: '2024-03-31', filing_date: '2024-05-02', fiscal_year: 2024, fiscal_quarter: 1,
          timeframe: 'quarterly', total_assets: 300e9, total_liabilities: 200e9, total_equity: 100e9, total_liabilities_and_equity: 300e9,
        });
        expect(data.results.find((r: any) => r.timeframe === 'annual').fiscal_quarter).toBeUndefined();
      });

      it('filter the tickers array: contains, contains any, contains all', async () => {
        const ciks = async (qs: string) => [...new Set((await get(`${IS}?${qs}&limit=1000`)).results.map((r: any) => r.cik))].sort();
        expect(await ciks('tickers=GOOGL')).toEqual(['0001652044']);
        expect(await ciks('tickers=GOO')).toEqual([]);
        expect(await ciks('tickers.any_of=AAPL,BRK.B')).toEqual(['0000320193', '0001067983']);
        expect(await ciks('tickers.all_of=GOOG,GOOGL')).toEqual(['0001652044']);
        expect(await ciks('tickers.all_of=AAPL,GOOG')).toEqual([]);
      });

      it('filter cik (padded or not), periods, filing dates, fiscal fields and timeframes', async () => {
        expect((await get(`${BS}?cik=320193`)).count).toBe(7);
        expect((await get(`${BS}?cik.any_of=320193,1067983`)).count).toBe(14);
        expect((await get(`${BS}?cik.gt=0000320193&cik.lte=0001067983`)).count).toBe(7);
        expect((await get(`${BS}?cik.gte=0001067983&cik.lt=0001652044`)).results[0].cik).toBe('0001067983');
        expect(await periods(`${BS}?cik=320193&period_end=2024-12-31`)).toEqual(['0193 2024-12-31 a', '0193 2024-12-31 q']);
        expect(await periods(`${BS}?cik=320193&period_end.gt=2024-12-31&period_end.lte=2025-06-30`)).toEqual(['0193 2025-03-31 q', '0193 2025-06-30 q']);
        expect(await periods(`${BS}?cik=320193&period_end.gte=2025-06-30`)).toEqual(['0193 2025-06-30 q']);
        expect(await periods(`${BS}?cik=320193&period_end.lt=2024-06-30`)).toEqual(['0193 2024-03-31 q']);
        expect(await periods(`${BS}?cik=320193&filing_date=2024-08-01`)).toEqual(['0193 2024-06-30 q']);
        expect(await periods(`${BS}?cik=320193&filing_date.gte=2025-05-01&filing_date.lt=2025-07-31`)).toEqual(['0193 2025-03-31 q']);
        expect((await get(`${BS}?cik=320193&filing_date.gt=2025-02-20`)).count).toBe(2);
        expect((await get(`${BS}?cik=320193&filing_date.lte=2024-05-02`)).count).toBe(1);
        expect((await get(`${BS}?cik=320193&fiscal_year=2025`)).count).toBe(2);
        expect((await get(`${BS}?cik=320193&fiscal_year.lt=2025&fiscal_year.gte=2024`)).count).toBe(5);
        expect((await get(`${BS}?cik=320193&fiscal_year.gt=2024`)).count).toBe(2);
        expect((await get(`${BS}?cik=320193&fiscal_year.lte=2023`)).count).toBe(0);
        expect(await periods(`${BS}?cik=320193&fiscal_quarter=2`)).toEqual(['0193 2024-06-30 q', '0193 2025-06-30 q']);
        expect((await get(`${BS}?cik=320193&fiscal_quarter.gte=3&fiscal_quarter.lte=4`)).count).toBe(2);
        expect((await get(`${BS}?cik=320193&fiscal_quarter.gt=3`)).count).toBe(1);
        expect((await get(`${BS}?cik=320193&fiscal_quarter.lt=2`)).count).toBe(2);
        expect(await periods(`${BS}?timeframe=annual`)).toEqual(['0193 2024-12-31 a', '7983 2024-12-31 a', '2044 2024-12-31 a']);
        expect(await periods(`${IS}?cik=320193&timeframe.any_of=annual,trailing_twelve_months`)).toEqual(['0193 2024-12-31 a', '0193 2024-12-31 t', '0193 2025-06-30 t']);
        expect((await get(`${IS}?cik=320193&timeframe.gt=quarterly`)).results.map((r: any) => r.timeframe)).toEqual(['trailing_twelve_months', 'trailing_twelve_months']);
        expect((await get(`${IS}?cik=320193&timeframe.lt=b`)).results.map((r: any) => r.timeframe)).toEqual(['annual']);
        expect((await get(`${IS}?cik=320193&timeframe.gte=trailing_twelve_months&timeframe.lte=z`)).count).toBe(2);
      });

      it('sort by several keys; a key with missing values puts them last in either direction', async () => {
        const bySort = await get(`${IS}?sort=fiscal_year.desc,cik.asc,period_end.desc&limit=3`);
        expect(bySort.results.map((r: any) => `${r.fiscal_year} ${r.cik} ${r.period_end}`)).toEqual([
          '2025 0000320193 2025-06-30', '2025 0000320193 2025-06-30', '2025 0000320193 2025-03-31',
        ]);
        const asc = (await get(`${BS}?cik=320193&sort=fiscal_quarter.asc`)).results.map((r: any) => r.fiscal_quarter ?? null);
        expect(asc).toEqual([1, 1, 2, 2, 3, 4, null]);
        const desc = (await get(`${BS}?cik=320193&sort=fiscal_quarter.desc`)).results.map((r: any) => r.fiscal_quarter ?? null);
        expect(desc).toEqual([4, 3, 2, 2, 1, 1, null]);
        expect((await get(`${CF}?sort=net_cash_from_operating_activities.desc&limit=1`)).results[0].net_cash_from_operating_activities).toBe(105e9 / 4);
      });

      it('walk pages exactly once, also across missing values of the sort key', async () => {
        const rows = statementRows('cash');
        for (const url of [`${CF}?limit=4`, `${CF}?limit=3&sort=fiscal_quarter.desc,filing_date`, `${CF}?limit=5&sort=net_cash_from_investing_activities`]) {
          const pages = await walkPages(t, url);
          const seen = resultsOf(pages).map(key);
          expect(seen.length, url).toBe(rows.length);
          expect(new Set(seen).size, url).toBe(rows.length);
        }
        const pages = await walkPages(t, `${CF}?limit=4&sort=fiscal_quarter.desc,filing_date`);
        const quarters = resultsOf(pages).map((r) => r.fiscal_quarter ?? null);
        expect(quarters.indexOf(null)).toBe(quarters.filter((q) => q !== null).length);
      });

      it('serve the native body, 100 rows by default, next_url without the key', async () => {
        const res = await native.get(`${IS}?limit=2`);
        expect(res.body.status).toBe('OK');
        expect(res.body.results).toHaveLength(2);
        expect(res.body.next_url).toMatch(/^http:\/\/localhost(:\d+)?\/stocks\/financials\/v1\/income-statements\?cursor=[^&]+$/);
        expect(res.body.next_url).not.toContain(t.key);
        expect((await get(IS)).count).toBe(statementRows('income').length);
      });
    });

    describe('ratios', () => {
      it('serve the latest row per ticker only, even when a filter would match an older row', async () => {
        const data = await get('/stocks/financials/v1/ratios');
        expect(data.results.map((r: any) => `${r.ticker} ${r.date}`)).toEqual(['AAPL 2025-11-20', 'KO 2025-11-20', 'LOSS 2025-11-20', 'NVDA 2025-11-20']);
        expect((await get('/stocks/financials/v1/ratios?price.lt=229')).results.map((r: any) => r.ticker)).toEqual(['KO', 'LOSS', 'NVDA']);
        expect(data.results.find((r: any) => r.ticker === 'LOSS').price_to_earnings).toBeUndefined();
      });

      it('filter tickers, ciks and every number with eq and ranges', async () => {
        const tickers = async (qs: string) => (await get(`/stocks/financials/v1/ratios?${qs}`)).results.map((r: any) => r.ticker);
        expect(await tickers('ticker=KO')).toEqual(['KO']);
        expect(await tickers('ticker.any_of=KO,NVDA,NOPE')).toEqual(['KO', 'NVDA']);
        expect(await tickers('ticker.gt=KO&ticker.lte=NVDA')).toEqual(['LOSS', 'NVDA']);
        expect(await tickers('cik=21344')).toEqual(['KO']);
        expect(await tickers('cik.any_of=0000320193,0001045810')).toEqual(['AAPL', 'NVDA']);
        expect(await tickers('market_cap.gte=1000000000000')).toEqual(['AAPL', 'NVDA']);
        expect(await tickers('market_cap.gt=3400000000000')).toEqual(['NVDA']);
        expect(await tickers('price=70.1')).toEqual(['KO']);
        expect(await tickers('price_to_earnings.gte=30&price_to_earnings.lt=52')).toEqual(['AAPL']);
        expect(await tickers('dividend_yield.gt=0.01')).toEqual(['KO']);
        expect(await tickers('dividend_yield.lte=0.01')).toEqual(['AAPL']);
        expect(await tickers('sort=market_cap.desc&limit=2')).toEqual(['NVDA', 'AAPL']);
        expect(RATIO_ROWS.length).toBe(5);
      });
    });

    describe('float', () => {
      it('is served on the seed path and its upstream alias, latest per ticker', async () => {
        const a = await get('/stocks/financials/v1/float');
        const b = await get('/stocks/vX/float');
        expect(a.results).toEqual(b.results);
        expect(a.results.map((r: any) => `${r.ticker} ${r.effective_date} ${r.free_float_percent}`)).toEqual(['AAPL 2025-11-01 99.4', 'META 2025-11-01 85.12', 'WMT 2025-11-01 50.1']);
        expect(a.results[0].free_float).toBe(14_700_000_000);
      });

      it('filters by ticker forms and free_float_percent', async () => {
        const tickers = async (qs: string) => (await get(`/stocks/vX/float?${qs}`)).results.map((r: any) => r.ticker);
        expect(await tickers('free_float_percent.lt=90')).toEqual(['META', 'WMT']);
        expect(await tickers('free_float_percent=50.1')).toEqual(['WMT']);
        expect(await tickers('free_float_percent.gt=50.1&free_float_percent.lte=99.4')).toEqual(['AAPL', 'META']);
        expect(await tickers('ticker.any_of=WMT,AAPL')).toEqual(['AAPL', 'WMT']);
        expect(await tickers('ticker.lt=META')).toEqual(['AAPL']);
      });
    });

    describe('short interest and short volume', () => {
      it('short interest: 10 rows by default, on both paths, with every filter form', async () => {
        const first = await get('/stocks/financials/v1/short-interest');
        expect(first.count).toBe(10);
        expect(first.next_url).toBeDefined();
        expect((await get('/stocks/v1/short-interest')).results).toEqual(first.results);
        const all = resultsOf(await walkPages(t, '/stocks/v1/short-interest?limit=5'));
        expect(all).toHaveLength(SHORT_INTEREST_ROWS.length);
        const n = async (qs: string) => (await get(`/stocks/v1/short-interest?limit=100&${qs}`)).count;
        expect(await n('settlement_date=2025-09-30')).toBe(3);
        expect(await n('settlement_date.any_of=2025-09-30,2025-10-31')).toBe(6);
        expect(await n('settlement_date.gt=2025-10-15')).toBe(3);
        expect(await n('avg_daily_volume=1000000')).toBe(4);
        expect(await n('avg_daily_volume.any_of=500000,1500000')).toBe(8);
        expect(await n('avg_daily_volume.gte=1000000&avg_daily_volume.lt=1500000')).toBe(4);
        expect(await n('days_to_cover.any_of=2,3')).toBe(6);
        expect(await n('days_to_cover.gt=2.5')).toBe(9);
        expect(await n('ticker.any_of=MSFT,TSLA&days_to_cover.lte=1')).toBe(0);
        expect(await n('ticker.gte=MSFT')).toBe(8);
      });

      it('short volume: both paths, date and ratio filters, all venue fields', async () => {
        const data = await get('/stocks/financials/v1/short-volume?ticker=TSLA&sort=date.desc&limit=1');
        expect(data.results[0]).toEqual({
          ticker: 'TSLA', date: '2025-11-20', total_volume: 1000, short_volume: 601, exempt_volume: 10, non_exempt_volume: 591,
          short_volume_ratio: 60.1, nyse_short_volume: 20, nasdaq_carteret_short_volume: 200, adf_short_volume: 5,
        });
        const n = async (qs: string) => (await get(`/stocks/v1/short-volume?limit=100&${qs}`)).count;
        expect(await n('')).toBe(8);
        expect(await n('date=2025-11-18')).toBe(2);
        expect(await n('date.any_of=2025-11-17,2025-11-20')).toBe(4);
        expect(await n('date.gte=2025-11-19&date.lt=2025-11-20')).toBe(2);
        expect(await n('short_volume_ratio.gt=40')).toBe(5);
        expect(await n('short_volume_ratio.any_of=30,60.1')).toBe(2);
        expect(await n('short_volume_ratio=40.1&ticker=TSLA')).toBe(1);
        expect((await get('/stocks/v1/short-volume')).count).toBe(8);
        expect((await get('/stocks/v1/short-volume?limit=3')).next_url).toBeDefined();
      });
    });

    it('documents every filter form of a data set in the OpenAPI document', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      const op = doc.paths['/stocks/financials/v1/balance-sheets'].get;
      const names = op.parameters.map((p: any) => p.name);
      for (const n of ['cik', 'cik.any_of', 'cik.gte', 'tickers', 'tickers.any_of', 'tickers.all_of', 'period_end.lt', 'fiscal_quarter.gt', 'timeframe.any_of', 'limit', 'sort', 'cursor']) {
        expect(names).toContain(n);
      }
      const limit = op.parameters.find((p: any) => p.name === 'limit').schema;
      expect(limit).toMatchObject({ default: 100, maximum: 50001, minimum: 1 });
      expect(op.parameters.find((p: any) => p.name === 'sort').schema.default).toBe('period_end.asc');
      expect(doc.paths['/stocks/vX/float']).toBeDefined();
      expect(doc.paths['/stocks/v1/short-volume']).toBeDefined();
    });
  });
}
