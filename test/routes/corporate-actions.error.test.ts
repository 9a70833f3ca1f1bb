import { describe, expect, it } from 'vitest';
import { seedCorporateActions } from '../helpers/datasets-fixture.js';
import { engines } from '../helpers/engines.js';
import { useSeededApps } from '../helpers/app-fixture.js';
import { wrappedRejection } from '../helpers/bad-request.js';

for (const engine of engines()) {
  describe(`corporate actions, bad requests (${engine.name})`, () => {
    const { apps: [t, native] } = useSeededApps(engine, seedCorporateActions, {}, { envelope: 'native' });

    const rejects = wrappedRejection(t, { okFalse: true });

    it('refuses a limit out of range or not an integer, naming limit and its bounds', async () => {
      await rejects('/stocks/v1/splits?limit=0', 'limit must be an integer from 1 to 5001');
      await rejects('/stocks/v1/dividends?limit=5002', 'limit must be an integer from 1 to 5001');
      await rejects('/stocks/v1/dividends?limit=ten', 'limit must be an integer from 1 to 5001');
      await rejects('/v3/reference/dividends?limit=1001', 'limit must be an integer from 1 to 1000');
      await rejects('/v3/reference/splits?limit=2.5', 'limit must be an integer from 1 to 1000');
    });

    it('refuses an unknown sort field or direction, naming sort', async () => {
      await rejects('/stocks/v1/splits?sort=colour', /^sort must be a comma-separated list of fields, each optionally followed by \.asc or \.desc; 'colour' is not one of: id, ticker, execution_date/);
      await rejects('/stocks/v1/splits?sort=ticker.up', /^sort must .*'ticker\.up' is not one of/);
      await rejects('/stocks/v1/dividends?sort=ticker,,cash_amount', /^sort must /);
      // stored-only columns are not sortable
      await rejects('/stocks/v1/dividends?sort=dividend_type', /^sort must .*'dividend_type'/);
      await rejects('/v3/reference/dividends?sort=frequency', /^sort must be one of: ex_dividend_date, pay_date, declaration_date, record_date, cash_amount, ticker$/);
      await rejects('/v3/reference/splits?order=sideways', 'order must be one of: asc, desc');
    });

    it('refuses bad dates, numbers and enumerations, naming the parameter', async () => {
      await rejects('/stocks/v1/splits?execution_date=2024-02-30', 'execution_date must be a real date in the form YYYY-MM-DD');
      await rejects('/stocks/v1/splits?execution_date.gte=yesterday', 'execution_date.gte must be a date in the form YYYY-MM-DD');
      await rejects('/stocks/v1/dividends?ex_dividend_date.lt=2025-13-01', 'ex_dividend_date.lt must be a real date in the form YYYY-MM-DD');
      await rejects('/stocks/v1/dividends?frequency=often', 'frequency must be an integer');
      await rejects('/stocks/v1/dividends?frequency.gte=1.5', 'frequency.gte must be an integer');
      await rejects('/stocks/v1/dividends?distribution_type=bonus', 'distribution_type must be one of: recurring, special, supplemental, irregular, unknown');
      await rejects('/stocks/v1/dividends?distribution_type.any_of=special,bonus', /^distribution_type\.any_of must be a comma-separated list of at most 1000 values from recurring/);
      await rejects('/stocks/v1/splits?adjustment_type=merger', /^adjustment_type must be one of: forward_split/);
      await rejects('/stocks/v1/splits?ticker.any_of=AAPL,,TSLA', /^ticker\.any_of must be a comma-separated list/);
      await rejects(`/stocks/v1/splits?ticker=${'A'.repeat(300)}`, 'ticker must be text of at most 256 characters');
      await rejects('/v3/reference/dividends?cash_amount.gt=lots', 'cash_amount.gt must be a number');
      await rejects('/v3/reference/dividends?record_date=2025-02-29', 'record_date must be a real date in the form YYYY-MM-DD');
      await rejects('/v3/reference/dividends?dividend_type=XX', 'dividend_type must be one of: CD, SC, LT, ST');
      await rejects('/v3/reference/splits?reverse_split=maybe', 'reverse_split must be true or false');
    });

    it('refuses a list with more than 1000 values', async () => {
      const many = Array.from({ length: 1001 }, (_, i) => `T${i}`).join(',');
      await rejects(`/stocks/v1/splits?ticker.any_of=${many}`, /^ticker\.any_of must be a comma-separated list of at most 1000 values/);
    });

    it('refuses edited cursors and cursors of another endpoint', async () => {
      await rejects('/stocks/v1/splits?cursor=garbage', /^cursor is invalid/, 'BAD_CURSOR');
      const next = (await native.get('/stocks/v1/dividends?limit=1')).body.next_url as string;
      const cursor = new URL(next).searchParams.get('cursor')!;
      await rejects(`/stocks/v1/splits?cursor=${cursor}`, /^cursor is invalid/, 'BAD_CURSOR');
      await rejects(`/v3/reference/dividends?cursor=${cursor}`, /^cursor is invalid/, 'BAD_CURSOR');
      await rejects(`/stocks/v1/dividends?cursor=${cursor.slice(0, -2)}xx`, /^cursor is invalid/, 'BAD_CURSOR');
      // the cursor alone reproduces the query: other (valid) parameters are ignored
      const page2 = await t.get(`/stocks/v1/dividends?cursor=${cursor}&limit=50&ticker=ZZZZ&sort=nonsense`);
      expect(page2.status).toBe(200);
      expect(page2.body.data.results).toHaveLength(1);
    });

    it('answers unknown paths with 404 and unknown tickers with an empty list', async () => {
      const res = await t.get('/stocks/v1/dividends/AAPL');
      expect(res.status).toBe(404);
      expect(res.body.data.code).toBe('ROUTE_NOT_FOUND');
      const empty = await t.get('/stocks/v1/dividends?ticker=ZZZZ');
      expect(empty.status).toBe(200);
      expect(empty.body.data).toMatchObject({ status: 'OK', count: 0, results: [] });
      expect(empty.body.data.next_url).toBeUndefined();
    });

    it('requires a key', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/stocks/v1/splits' });
      expect(res.statusCode).toBe(401);
    });
  });
}
