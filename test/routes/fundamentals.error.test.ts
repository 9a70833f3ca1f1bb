import { describe, expect, it } from 'vitest';
import { seedFundamentals } from '../helpers/datasets-fixture.js';
import { engines } from '../helpers/engines.js';
import { useSeededApp } from '../helpers/app-fixture.js';
import { wrappedRejection } from '../helpers/bad-request.js';

for (const engine of engines()) {
  describe(`fundamentals, bad requests (${engine.name})`, () => {
    const { t } = useSeededApp(engine, seedFundamentals);

    const rejects = wrappedRejection(t);

    it('enforces each data set\'s own limit bounds', async () => {
      await rejects('/stocks/financials/v1/balance-sheets?limit=50002', 'limit must be an integer from 1 to 50001');
      await rejects('/stocks/financials/v1/float?limit=5002', 'limit must be an integer from 1 to 5001');
      await rejects('/stocks/v1/short-interest?limit=-1', 'limit must be an integer from 1 to 50001');
      const ok = await t.get('/stocks/financials/v1/income-statements?limit=50000');
      expect(ok.status).toBe(200);
    });

    it('names the parameter of a bad value', async () => {
      await rejects('/stocks/financials/v1/balance-sheets?timeframe=trailing_twelve_months', 'timeframe must be one of: quarterly, annual');
      await rejects('/stocks/financials/v1/income-statements?timeframe.any_of=annual,weekly', /^timeframe\.any_of must be a comma-separated list of at most 1000 values from quarterly, annual, trailing_twelve_months$/);
      await rejects('/stocks/financials/v1/income-statements?fiscal_year=twenty', 'fiscal_year must be a number');
      await rejects('/stocks/financials/v1/income-statements?fiscal_quarter.gte=', 'fiscal_quarter.gte must be a number');
      await rejects('/stocks/financials/v1/cash-flow-statements?period_end.lt=2025-06-31', 'period_end.lt must be a real date in the form YYYY-MM-DD');
      await rejects('/stocks/financials/v1/cash-flow-statements?filing_date=20250601', 'filing_date must be a date in the form YYYY-MM-DD');
      await rejects('/stocks/financials/v1/balance-sheets?tickers.all_of=AAPL,', /^tickers\.all_of must be a comma-separated list/);
      await rejects('/stocks/financials/v1/balance-sheets?cik.any_of=', /^cik\.any_of must be a comma-separated list/);
      await rejects('/stocks/financials/v1/ratios?market_cap.gte=big', 'market_cap.gte must be a number');
      await rejects('/stocks/financials/v1/ratios?price=NaN', 'price must be a number');
      await rejects('/stocks/v1/short-interest?avg_daily_volume.any_of=1,2.5', /^avg_daily_volume\.any_of must be a comma-separated list of at most 1000 integers$/);
      await rejects('/stocks/v1/short-interest?days_to_cover.any_of=1,x', /^days_to_cover\.any_of must be a comma-separated list of at most 1000 numbers$/);
      await rejects('/stocks/v1/short-volume?date.any_of=2025-11-20,2025-11-31', 'date.any_of must be a comma-separated list of at most 1000 dates in the form YYYY-MM-DD');
      await rejects('/stocks/vX/float?free_float_percent.lt=half', 'free_float_percent.lt must be a number');
    });

    it('refuses sorting by arrays or unknown fields, naming sort', async () => {
      await rejects('/stocks/financials/v1/balance-sheets?sort=tickers', /^sort must be .*'tickers' is not one of: cik, period_end, filing_date/);
      await rejects('/stocks/financials/v1/ratios?sort=pe.desc', /^sort must be .*'pe\.desc'/);
      await rejects('/stocks/financials/v1/ratios?sort=', /^sort must be/);
      for (const inherited of ['constructor', '__proto__', 'toString.desc', 'hasOwnProperty', '%0A', 'cik%0A.desc']) {
        await rejects(`/stocks/financials/v1/balance-sheets?sort=${inherited}`, /^sort must be .* is not one of: /s);
        await rejects(`/fed/v1/treasury-yields?sort=${inherited}`, /^sort must be /);
        await rejects(`/stocks/v1/splits?sort=${inherited}`, /^sort must be /);
      }
    });

    it('answers a filter that matches nothing with an empty list, not an error', async () => {
      const res = await t.get('/stocks/financials/v1/income-statements?cik=9999999999');
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ count: 0, results: [] });
      expect((await t.get('/stocks/financials/v1/nothing')).status).toBe(404);
    });
  });
}
