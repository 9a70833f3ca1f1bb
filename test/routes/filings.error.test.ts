import { describe, expect, it } from 'vitest';
import { seedFilings } from '../helpers/datasets-fixture.js';
import { engines } from '../helpers/engines.js';
import { useSeededApp } from '../helpers/app-fixture.js';
import { wrappedRejection } from '../helpers/bad-request.js';

for (const engine of engines()) {
  describe(`filings, bad requests (${engine.name})`, () => {
    const { t } = useSeededApp(engine, seedFilings);

    const rejects = wrappedRejection(t);

    it('names the parameter of a bad value or limit', async () => {
      await rejects('/stocks/filings/v1/risk-factors?limit=50001', 'limit must be an integer from 1 to 50000');
      await rejects('/stocks/filings/v1/risk-categories?limit=1001', 'limit must be an integer from 1 to 1000');
      await rejects('/stocks/filings/v1/risk-factors?filing_date.any_of=2025-01-01,soon', /^filing_date\.any_of must be a comma-separated list of at most 1000 dates/);
      await rejects('/stocks/filings/v1/risk-factors?filing_date.gte=2025-02-29', 'filing_date.gte must be a real date in the form YYYY-MM-DD');
      await rejects('/stocks/taxonomies/vX/risk-factors?taxonomy=v1', 'taxonomy must be a number');
      await rejects('/stocks/filings/v1/risk-factors?sort=risk_factor_id', /^sort must be .*'risk_factor_id' is not one of: cik, ticker, filing_date/);
    });

    it('finds nothing for an unknown ticker rather than failing', async () => {
      const res = await t.get('/stocks/filings/v1/risk-factors?ticker=NOPE');
      expect(res.status).toBe(200);
      expect(res.body.data.results).toEqual([]);
    });
  });
}
