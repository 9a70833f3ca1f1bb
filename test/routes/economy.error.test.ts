import { describe, expect, it } from 'vitest';
import { seedEconomy } from '../helpers/datasets-fixture.js';
import { engines } from '../helpers/engines.js';
import { useSeededApp } from '../helpers/app-fixture.js';
import { wrappedRejection } from '../helpers/bad-request.js';

for (const engine of engines()) {
  describe(`economy, bad requests (${engine.name})`, () => {
    const { t } = useSeededApp(engine, seedEconomy);

    const rejects = wrappedRejection(t);

    it('names the parameter of a bad date, limit or sort', async () => {
      await rejects('/fed/v1/inflation?date=2025-6-1', 'date must be a date in the form YYYY-MM-DD');
      await rejects('/fed/v1/inflation?date.lt=2025-02-30', 'date.lt must be a real date in the form YYYY-MM-DD');
      await rejects('/fed/v1/treasury-yields?date.any_of=2025-01-02;2025-01-03', /^date\.any_of must be a comma-separated list of at most 1000 dates/);
      await rejects('/fed/v1/treasury-yields?limit=50002', 'limit must be an integer from 1 to 50001');
      await rejects('/fed/v1/inflation-expectations?limit=0', 'limit must be an integer from 1 to 50001');
      await rejects('/fed/v1/inflation?sort=date.descending', /^sort must be .*'date\.descending' is not one of: date, cpi/);
      await rejects('/fed/v1/treasury-yields?sort=yield_15_year', /^sort must be /);
    });

    it('answers dates without data with an empty list', async () => {
      const res = await t.get('/fed/v1/inflation?date.gte=2030-01-01');
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'OK', count: 0, results: [] });
    });
  });
}
