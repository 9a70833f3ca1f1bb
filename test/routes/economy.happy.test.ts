import { describe, expect, it } from 'vitest';
import { walkPages } from '../helpers/app.js';
import { INFLATION_ROWS, YIELD_ROWS, resultsOf, seedEconomy } from '../helpers/datasets-fixture.js';
import { engines } from '../helpers/engines.js';
import { useSeededApps } from '../helpers/app-fixture.js';

for (const engine of engines()) {
  describe(`economy (${engine.name})`, () => {
    const { apps: [t, native] } = useSeededApps(engine, seedEconomy, {}, { envelope: 'native' });

    const dates = async (url: string) => {
      const res = await t.get(url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.results.map((r: any) => r.date);
    };

    it('lists inflation oldest first with every field, in both envelopes', async () => {
      const res = await t.get('/fed/v1/inflation');
      expect(res.body.ok).toBe(true);
      expect(res.body.data.results).toEqual(INFLATION_ROWS);
      const nat = await native.get('/fed/v1/inflation?limit=2');
      expect(nat.body.status).toBe('OK');
      expect(nat.body.request_id).toMatch(/^[0-9a-f]{32}$/);
      expect(nat.body.results.map((r: any) => r.date)).toEqual(['2025-01-01', '2025-02-01']);
      expect(nat.body.next_url).toMatch(/^http:\/\/localhost(:\d+)?\/fed\/v1\/inflation\?cursor=/);
    });

    it('filters by date in every form and sorts either way', async () => {
      expect(await dates('/fed/v1/inflation?date=2025-03-01')).toEqual(['2025-03-01']);
      expect(await dates('/fed/v1/inflation?date.any_of=2025-06-01,2025-01-01,2024-01-01')).toEqual(['2025-01-01', '2025-06-01']);
      expect(await dates('/fed/v1/inflation?date.gt=2025-04-01')).toEqual(['2025-05-01', '2025-06-01']);
      expect(await dates('/fed/v1/inflation?date.gte=2025-04-01&date.lt=2025-06-01')).toEqual(['2025-04-01', '2025-05-01']);
      expect(await dates('/fed/v1/inflation?date.lte=2025-01-31')).toEqual(['2025-01-01']);
      expect(await dates('/fed/v1/inflation?sort=date.desc&limit=2')).toEqual(['2025-06-01', '2025-05-01']);
      expect(await dates('/fed/v1/inflation?sort=cpi_year_over_year.asc&limit=1')).toEqual(['2025-06-01']);
      expect(await dates('/fed/v1/inflation-expectations?sort=market_5_year.desc')).toEqual(['2025-06-01', '2025-05-01', '2025-04-01']);
      expect(await dates('/fed/v1/inflation-expectations?date.gte=2025-05-01')).toEqual(['2025-05-01', '2025-06-01']);
    });

    it('serves treasury yields, leaving out tenors an early date lacks', async () => {
      const res = await t.get('/fed/v1/treasury-yields?date=1962-01-02');
      expect(res.body.data.results).toEqual([{ date: '1962-01-02', yield_1_year: 3.22, yield_5_year: 3.88, yield_10_year: 4.06 }]);
      expect(await dates('/fed/v1/treasury-yields?date.gt=2025-01-01&sort=yield_10_year.desc&limit=2')).toEqual(['2025-11-20', '2025-11-19']);
      // a missing tenor sorts last
      expect((await dates('/fed/v1/treasury-yields?sort=yield_1_month.asc')).at(-1)).toBe('1962-01-02');
      expect((await dates('/fed/v1/treasury-yields?sort=yield_1_month.desc')).at(-1)).toBe('1962-01-02');
    });

    it('walks every page exactly once, in either direction', async () => {
      for (const sort of ['date.asc', 'date.desc', 'yield_1_month.desc']) {
        const pages = await walkPages(t, `/fed/v1/treasury-yields?limit=2&sort=${sort}`);
        const all = resultsOf(pages).map((r) => r.date);
        expect(all).toHaveLength(YIELD_ROWS.length);
        expect(new Set(all).size).toBe(YIELD_ROWS.length);
      }
    });
  });
}
