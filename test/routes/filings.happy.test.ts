import { describe, expect, it } from 'vitest';
import { walkPages } from '../helpers/app.js';
import { RISK_FACTOR_ROWS, resultsOf, seedFilings } from '../helpers/datasets-fixture.js';
import { engines } from '../helpers/engines.js';
import { useSeededApps } from '../helpers/app-fixture.js';

const RF = '/stocks/filings/v1/risk-factors';
const RC = '/stocks/filings/v1/risk-categories';

for (const engine of engines()) {
  describe(`filings (${engine.name})`, () => {
    const { apps: [t, native] } = useSeededApps(engine, seedFilings, {}, { envelope: 'native' });

    const get = async (url: string) => {
      const res = await t.get(url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    };
    const label = (r: any) => `${r.ticker} ${r.filing_date} ${r.tertiary_category}`;

    it('lists risk factors newest filing first, on the seed path and the upstream alias', async () => {
      const data = await get(RF);
      expect(data.results.map((r: any) => r.filing_date)).toEqual(['2025-10-31', '2025-10-31', '2025-07-30', '2025-02-26', '2024-11-01']);
      expect((await get('/stocks/filings/vX/risk-factors')).results).toEqual(data.results);
      expect(data.results.find((r: any) => r.ticker === 'NVDA')).toEqual({
        cik: '0001045810', ticker: 'NVDA', filing_date: '2025-02-26', primary_category: 'geopolitical', secondary_category: 'trade',
        tertiary_category: 'export_controls', supporting_text: 'Export licences.',
      });
    });

    it('filters risk factors by filing date, ticker and cik forms', async () => {
      const labels = async (qs: string) => (await get(`${RF}?${qs}`)).results.map(label);
      expect(await labels('filing_date=2025-02-26')).toEqual(['NVDA 2025-02-26 export_controls']);
      expect(await labels('filing_date.any_of=2025-02-26,2025-07-30')).toEqual(['MSFT 2025-07-30 access_to_capital_and_financing', 'NVDA 2025-02-26 export_controls']);
      expect(await labels('filing_date.gt=2025-02-26&filing_date.lte=2025-07-30')).toEqual(['MSFT 2025-07-30 access_to_capital_and_financing']);
      expect(await labels('filing_date.gte=2025-10-31&sort=tertiary_category')).toEqual(['AAPL 2025-10-31 cybersecurity_breaches', 'AAPL 2025-10-31 supplier_concentration']);
      expect(await labels('filing_date.lt=2025-01-01')).toEqual(['AAPL 2024-11-01 supplier_concentration']);
      expect((await labels('ticker=AAPL')).length).toBe(3);
      expect(await labels('ticker.any_of=MSFT,NVDA&sort=ticker')).toEqual(['MSFT 2025-07-30 access_to_capital_and_financing', 'NVDA 2025-02-26 export_controls']);
      expect((await labels('ticker.gt=AAPL&ticker.lt=NVDA'))).toEqual(['MSFT 2025-07-30 access_to_capital_and_financing']);
      expect((await labels('ticker.gte=NVDA'))).toEqual(['NVDA 2025-02-26 export_controls']);
      expect((await labels('ticker.lte=AAPL')).length).toBe(3);
      expect(await labels('cik=1045810')).toEqual(['NVDA 2025-02-26 export_controls']);
      expect((await labels('cik.any_of=320193,789019')).length).toBe(4);
      expect((await labels('cik.gt=0000320193&cik.lte=0001045810')).length).toBe(2);
      expect((await labels('cik.gte=0001045810'))).toEqual(['NVDA 2025-02-26 export_controls']);
      expect((await labels('cik.lt=0000789019')).length).toBe(3);
    });

    it('walks risk factor pages exactly once', async () => {
      const pages = await walkPages(t, `${RF}?limit=2`);
      expect(pages.map((p) => p.count)).toEqual([2, 2, 1]);
      expect(new Set(resultsOf(pages).map((r) => `${label(r)} ${r.supporting_text}`)).size).toBe(RISK_FACTOR_ROWS.length);
    });

    it('lists the taxonomy newest version first, with the version as a number, on both paths', async () => {
      const data = await get(RC);
      expect(data.results.map((r: any) => r.taxonomy)).toEqual([1.1, 1.1, 1, 1]);
      expect(data.results[0]).toEqual({
        taxonomy: 1.1, primary_category: 'geopolitical', secondary_category: 'trade', tertiary_category: 'export_controls', description: 'Export controls.',
      });
      expect((await get('/stocks/taxonomies/vX/risk-factors')).results).toEqual(data.results);
      const res = await native.get(`${RC}?limit=1`);
      expect(res.body.status).toBe('OK');
      expect(res.body.next_url).toMatch(/\/stocks\/filings\/v1\/risk-categories\?cursor=/);
    });

    it('filters the taxonomy by version and every category level', async () => {
      const tertiary = async (qs: string) => (await get(`${RC}?${qs}`)).results.map((r: any) => r.tertiary_category);
      expect(await tertiary('taxonomy=1')).toEqual(['access_to_capital_and_financing', 'supplier_concentration']);
      expect(await tertiary('taxonomy.gt=1&taxonomy.lte=1.1')).toEqual(['export_controls', 'cybersecurity_breaches']);
      expect((await tertiary('taxonomy.gte=1')).length).toBe(4);
      expect((await tertiary('taxonomy.lt=1')).length).toBe(0);
      expect(await tertiary('primary_category=operational')).toEqual(['cybersecurity_breaches', 'supplier_concentration']);
      expect(await tertiary('primary_category.any_of=geopolitical,financial_and_market')).toEqual(['export_controls', 'access_to_capital_and_financing']);
      expect(await tertiary('primary_category.gt=g&primary_category.lt=p')).toEqual(['export_controls', 'cybersecurity_breaches', 'supplier_concentration']);
      expect(await tertiary('secondary_category=trade')).toEqual(['export_controls']);
      expect(await tertiary('secondary_category.any_of=trade,supply_chain')).toEqual(['export_controls', 'supplier_concentration']);
      expect(await tertiary('secondary_category.gte=t&sort=tertiary_category')).toEqual(['cybersecurity_breaches', 'export_controls']);
      expect(await tertiary('tertiary_category=export_controls')).toEqual(['export_controls']);
      expect(await tertiary('tertiary_category.any_of=export_controls,supplier_concentration')).toEqual(['export_controls', 'supplier_concentration']);
      expect(await tertiary('tertiary_category.lte=c&sort=taxonomy.asc')).toEqual(['access_to_capital_and_financing']);
      expect(await tertiary('sort=tertiary_category.desc&limit=1')).toEqual(['supplier_concentration']);
    });

    it('labels every risk factor with a category the taxonomy knows (one vocabulary)', async () => {
      const categories = new Set((await get(`${RC}?limit=999`)).results.map((r: any) => `${r.primary_category}/${r.secondary_category}/${r.tertiary_category}`));
      for (const f of (await get(`${RF}?limit=1000`)).results) expect(categories).toContain(`${f.primary_category}/${f.secondary_category}/${f.tertiary_category}`);
    });
  });
}
