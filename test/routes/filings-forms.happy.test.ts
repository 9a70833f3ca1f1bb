import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { FILINGS_INDEX, FORM_13F, FORM_4, TEN_K_SECTIONS } from '../../src/store/repos/filings-catalog.js';
import { walkPages } from '../helpers/app.js';
import { useSeededApps } from '../helpers/app-fixture.js';
import { wrappedRejection } from '../helpers/bad-request.js';
import { engines } from '../helpers/engines.js';

const filing = (accession_number: string, cik: string, ticker: string, form_type: string, filing_date: string) => ({ accession_number, cik, ticker, form_type, filing_date, issuer_name: ticker });
const form4 = (accession_number: string, tickers: string[], transaction_code: string, filing_date: string) => ({
  accession_number, tickers, transaction_code, filing_date, form_type: '4', issuer_cik: '0001067983', owner_cik: '0000315090', transaction_shares: 100,
});

async function seed(store: Store): Promise<void> {
  await store.datasets.upsert(FILINGS_INDEX, [
    filing('0000320193-25-000079', '0000320193', 'AAPL', '10-K', '2025-10-31'),
    filing('0000950170-25-010491', '0000789019', 'MSFT', '10-Q', '2025-01-29'),
    filing('0000320193-25-000010', '0000320193', 'AAPL', '8-K', '2025-01-14'),
  ]);
  await store.datasets.upsert(FORM_4, [
    form4('a1', ['BRK.B', 'BRK.A'], 'S', '2025-03-03'),
    form4('a2', ['PAM'], 'A', '2025-03-04'),
    // the same row imported twice is one row
    form4('a2', ['PAM'], 'A', '2025-03-04'),
  ]);
  await store.datasets.upsert(FORM_13F, [
    { accession_number: 'f1', filer_cik: '0001067983', filing_date: '2024-11-14', cusip: '023135106', issuer_name: 'AMAZON COM INC', market_value: 1439212920, other_managers: ['Buffett Warren E'] },
    { accession_number: 'f2', filer_cik: '0000102909', filing_date: '2024-11-13', cusip: '037833100', issuer_name: 'APPLE INC', market_value: 1 },
  ]);
  await store.datasets.upsert(TEN_K_SECTIONS, [
    { cik: '0000320193', ticker: 'AAPL', filing_date: '2023-11-03', period_end: '2023-09-30', section: 'risk_factors', text: 'Item 1A. Risk Factors' },
    { cik: '0000320193', ticker: 'AAPL', filing_date: '2023-11-03', period_end: '2023-09-30', section: 'business', text: 'Item 1. Business' },
    { cik: '0000789019', ticker: 'MSFT', filing_date: '2023-07-27', period_end: '2023-06-30', section: 'risk_factors', text: 'Item 1A. RISK FACTORS' },
  ]);
}

for (const engine of engines()) {
  describe(`filings index, 10-K sections, 13-F and Form 4 (${engine.name})`, () => {
    const { apps: [t, starter] } = useSeededApps(engine, seed, {}, { plan: 'starter' });
    const rejects = wrappedRejection(t);
    const field = async (url: string, name: string) => {
      const res = await t.get(url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.results.map((r: any) => r[name]);
    };

    it('lists the filings index newest first, by form type, CIK (padded or not) and date', async () => {
      expect(await field('/stocks/filings/vX/index', 'form_type')).toEqual(['10-K', '10-Q', '8-K']);
      expect(await field('/stocks/filings/vX/index?form_type.any_of=10-K,10-Q&sort=filing_date.asc', 'ticker')).toEqual(['MSFT', 'AAPL']);
      expect(await field('/stocks/filings/vX/index?cik=320193', 'accession_number')).toEqual(['0000320193-25-000079', '0000320193-25-000010']);
      expect(await field('/stocks/filings/vX/index?filing_date.gte=2025-01-20&filing_date.lt=2025-12-01', 'ticker')).toEqual(['AAPL', 'MSFT']);
      const pages = await walkPages(t, '/stocks/filings/vX/index?limit=1');
      expect(pages.flatMap((p) => p.results.map((r: any) => r.form_type))).toEqual(['10-K', '10-Q', '8-K']);
    });

    it('filters Form 4 rows by ticker bounds, tickers and transaction code, without showing the bounds', async () => {
      expect(await field('/stocks/filings/vX/form-4?min_ticker=BRK.A&max_ticker=BRK.B', 'accession_number')).toEqual(['a1']);
      expect(await field('/stocks/filings/vX/form-4?max_ticker.any_of=PAM,XYZ', 'accession_number')).toEqual(['a2']);
      expect(await field('/stocks/filings/vX/form-4?tickers.all_of=BRK.A,BRK.B', 'accession_number')).toEqual(['a1']);
      expect(await field('/stocks/filings/vX/form-4?transaction_code=A', 'accession_number')).toEqual(['a2']);
      const res = await t.get('/stocks/filings/vX/form-4?issuer_cik=0001067983');
      expect(res.body.data.results).toHaveLength(2);
      expect(res.body.data.results[1]).toEqual({ accession_number: 'a1', filing_date: '2025-03-03', form_type: '4', issuer_cik: '0001067983', owner_cik: '0000315090', tickers: ['BRK.B', 'BRK.A'], transaction_code: 'S', transaction_shares: 100 });
    });

    it('lists 13-F holdings by filer and 10-K sections by section', async () => {
      expect(await field('/stocks/filings/vX/13-F?filer_cik=1067983', 'other_managers')).toEqual([['Buffett Warren E']]);
      expect(await field('/stocks/filings/vX/13-F?filer_cik.any_of=1067983,102909', 'issuer_name')).toEqual(['AMAZON COM INC', 'APPLE INC']);
      expect(await field('/stocks/filings/10-K/vX/sections?section=risk_factors', 'ticker')).toEqual(['AAPL', 'MSFT']);
      expect(await field('/stocks/filings/10-K/vX/sections?ticker=AAPL&sort=section.asc', 'section')).toEqual(['business', 'risk_factors']);
      // the path the official JS client asks for the same list
      expect(await field('/stocks/filings/10-K/vX_0/sections?ticker=AAPL&sort=section.asc', 'section')).toEqual(['business', 'risk_factors']);
    });

    it('refuses bad values naming the parameter, and keys without the filings data set', async () => {
      await rejects('/stocks/filings/10-K/vX/sections?limit=101', 'limit must be an integer from 1 to 100');
      await rejects('/stocks/filings/10-K/vX/sections?section=cover', /section/);
      await rejects('/stocks/filings/vX/13-F?limit=1002', 'limit must be an integer from 1 to 1001');
      await rejects('/stocks/filings/vX/form-4?filing_date.gte=2025-02-30', 'filing_date.gte must be a real date in the form YYYY-MM-DD');
      const refused = await starter.get('/stocks/filings/vX/form-3');
      expect(refused.status).toBe(403);
      expect(refused.body.data.message).toMatch(/starter plan does not include filings data/);
    });
  });
}
