// The data sets behind three paths of the official client that upstream's OpenAPI document lacks:
// /stocks/filings/8-K/vX/disclosures, /stocks/taxonomies/vX/disclosures and
// /fed/v1/funding-conditions. Served from imported rows; importable by operators.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import '../../src/ingest/datasets.js';
import { importFile } from '../../src/ingest/load.js';
import type { Store } from '../../src/store/index.js';
import { DISCLOSURE_TAXONOMY, EIGHT_K_DISCLOSURES } from '../../src/store/repos/filings-catalog.js';
import { FUNDING_CONDITIONS } from '../../src/store/repos/economy-catalog.js';
import { walkPages } from '../helpers/app.js';
import { useSeededApps } from '../helpers/app-fixture.js';
import { wrappedRejection } from '../helpers/bad-request.js';
import { engines } from '../helpers/engines.js';

const APPLE = '0000320193';
const ALPHABET = '0001652044';
const disclosure = (accession_number: string, cik: string, filing_date: string, tickers: string[], tertiary_category: string, primary_category = 'financial_results') => ({
  accession_number, cik, filing_date, filing_url: `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession_number}.txt`, primary_category,
  secondary_category: 'earnings_announcement', supporting_text: `excerpt of ${accession_number}`, tertiary_category, tickers,
});
const DISCLOSURES = [
  disclosure('0000320193-26-000001', APPLE, '2026-01-30', ['AAPL'], 'quarterly_results'),
  // one filing, two disclosures
  disclosure('0000320193-26-000002', APPLE, '2026-05-01', ['AAPL'], 'quarterly_results'),
  disclosure('0000320193-26-000002', APPLE, '2026-05-01', ['AAPL'], 'share_repurchase', 'capital_markets'),
  disclosure('0001652044-26-000003', ALPHABET, '2026-04-25', ['GOOG', 'GOOGL'], 'quarterly_results'),
  disclosure('0001652044-26-000004', ALPHABET, '2026-02-03', ['GOOG', 'GOOGL'], 'dividend_declaration', 'capital_markets'),
];

/** 205 categories over two versions: more than the default page of 200. */
const TAXONOMY = ['1.0', '2.0'].flatMap((taxonomy) =>
  Array.from({ length: taxonomy === '1.0' ? 100 : 105 }, (_, i) => ({
    description: `category ${i} of ${taxonomy}`, primary_category: `p${i % 3}`, secondary_category: `s${i % 7}`, taxonomy, tertiary_category: `t${String(i).padStart(3, '0')}`,
  })));

/** 130 days from 2026-01-01: business days carry SOFR, weekends only the policy rates. */
const FUNDING = Array.from({ length: 130 }, (_, i) => {
  const date = new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);
  const weekend = [0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay());
  return { date, effective_fed_funds_rate: 3.58, fed_funds_target_lower: 3.5, fed_funds_target_upper: 3.75, ...(weekend ? {} : { secured_overnight_financing_rate: 3.6 + (i % 5) / 100, sofr_volume: 2800 + i }) };
});

async function seed(store: Store): Promise<void> {
  await store.datasets.upsert(EIGHT_K_DISCLOSURES, DISCLOSURES);
  await store.datasets.upsert(DISCLOSURE_TAXONOMY, TAXONOMY);
  await store.datasets.upsert(FUNDING_CONDITIONS, FUNDING);
}

const D = '/stocks/filings/8-K/vX/disclosures';
const T = '/stocks/taxonomies/vX/disclosures';
const F = '/fed/v1/funding-conditions';

for (const engine of engines()) {
  describe(`8-K disclosures, their taxonomy and funding conditions (${engine.name})`, () => {
    const { store, apps: [t, starter, developer] } = useSeededApps(engine, seed, {}, { plan: 'starter' }, { plan: 'developer' });
    const rejects = wrappedRejection(t);
    const results = async (url: string) => {
      const res = await t.get(url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.results as any[];
    };
    const field = async (url: string, name: string) => (await results(url)).map((r) => r[name]);

    it('8-K disclosures: the client\'s fields, newest filing first, one row per disclosure', async () => {
      const rows = await results(D);
      expect(rows.map((r) => r.filing_date)).toEqual(['2026-05-01', '2026-05-01', '2026-04-25', '2026-02-03', '2026-01-30']);
      expect(rows.find((r) => r.tertiary_category === 'share_repurchase')).toEqual(DISCLOSURES[2]);
      expect(rows[0]).not.toHaveProperty('disclosure_id');
    });

    it('8-K disclosures: filters on cik, tickers (contains, all of, any of), filing date and tertiary category', async () => {
      const acc = (qs: string) => field(`${D}?${qs}&sort=filing_date.asc,tertiary_category.asc`, 'accession_number');
      expect(await acc(`cik=${ALPHABET}`)).toEqual(['0001652044-26-000004', '0001652044-26-000003']);
      expect(await acc(`cik.any_of=${APPLE},0000000001`)).toEqual(['0000320193-26-000001', '0000320193-26-000002', '0000320193-26-000002']);
      expect(await acc('tickers=GOOGL')).toEqual(['0001652044-26-000004', '0001652044-26-000003']);
      expect(await acc('tickers.all_of=GOOG,GOOGL')).toHaveLength(2);
      expect(await acc('tickers.all_of=GOOG,AAPL')).toEqual([]);
      expect(await acc('tickers.any_of=GOOG,AAPL')).toHaveLength(5);
      expect(await acc('filing_date.gte=2026-02-01&filing_date.lt=2026-05-01')).toEqual(['0001652044-26-000004', '0001652044-26-000003']);
      expect(await acc('filing_date.any_of=2026-01-30,2026-04-25')).toEqual(['0000320193-26-000001', '0001652044-26-000003']);
      expect(await acc('filing_date=2026-05-01&tertiary_category=share_repurchase')).toEqual(['0000320193-26-000002']);
    });

    it('disclosure taxonomy: newest version first, 200 rows by default, filters on every level, walked to the end', async () => {
      const first = (await t.get(T)).body.data;
      expect(first.results).toHaveLength(200);
      expect(Object.keys(first.results[0])).toEqual(['description', 'primary_category', 'secondary_category', 'taxonomy', 'tertiary_category']);
      expect(first.results.slice(0, 105).every((r: any) => r.taxonomy === '2.0')).toBe(true);
      expect(first.next_url).toBeDefined();
      const pages = await walkPages(t, `${T}?limit=60&sort=taxonomy.asc,tertiary_category.asc`);
      expect(pages).toHaveLength(4);
      const walked = pages.flatMap((p) => p.results);
      expect(walked).toEqual([...TAXONOMY].sort((a, b) => a.taxonomy.localeCompare(b.taxonomy) || a.tertiary_category.localeCompare(b.tertiary_category)));
      expect(await field(`${T}?taxonomy=1.0&primary_category=p1&secondary_category.any_of=s1,s2&tertiary_category.lt=t020&sort=tertiary_category`, 'tertiary_category')).toEqual(['t001', 't016']);
      expect(await field(`${T}?taxonomy.gt=1.0&tertiary_category.gte=t103&sort=tertiary_category.asc`, 'tertiary_category')).toEqual(['t103', 't104']);
    });

    it('funding conditions: oldest first, 100 rows by default, date filters; weekend rows carry only the daily rates', async () => {
      const first = (await t.get(F)).body.data;
      expect(first.results).toHaveLength(100);
      expect(first.results[0].date).toBe('2026-01-01');
      expect(await field(`${F}?date.gte=2026-03-01&date.lt=2026-03-04`, 'date')).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
      expect(await field(`${F}?date.gt=2026-05-08&sort=date.desc`, 'date')).toEqual(['2026-05-10', '2026-05-09']);
      const [sunday, monday] = await results(`${F}?date.gte=2026-03-01&date.lte=2026-03-02`);
      expect(sunday).toEqual({ date: '2026-03-01', effective_fed_funds_rate: 3.58, fed_funds_target_lower: 3.5, fed_funds_target_upper: 3.75 });
      expect(monday).toMatchObject({ date: '2026-03-02', secured_overnight_financing_rate: expect.any(Number), sofr_volume: expect.any(Number) });
      const pages = await walkPages(t, `${F}?limit=40`);
      expect(pages.map((p) => p.results.length)).toEqual([40, 40, 40, 10]);
      expect(pages.flatMap((p) => p.results).map((r) => r.date)).toEqual(FUNDING.map((r) => r.date));
    });

    it('walks 8-K disclosures to the end, one row per page', async () => {
      const pages = await walkPages(t, `${D}?limit=1`);
      expect(pages).toHaveLength(5);
      expect(pages.flatMap((p) => p.results)).toEqual(await results(`${D}?limit=1000`));
    });

    it('names the parameter of a bad value, limit or sort', async () => {
      await rejects(`${D}?limit=1001`, 'limit must be an integer from 1 to 1000');
      await rejects(`${D}?filing_date=2026-5-1`, 'filing_date must be a date in the form YYYY-MM-DD');
      await rejects(`${D}?filing_date.any_of=2026-01-30;2026-04-25`, /^filing_date\.any_of must be a comma-separated list of at most 1000 dates/);
      await rejects(`${D}?sort=supporting_txt`, /^sort must be /);
      await rejects(`${T}?limit=1001`, 'limit must be an integer from 1 to 1000');
      await rejects(`${T}?limit=0`, 'limit must be an integer from 1 to 1000');
      await rejects(`${F}?limit=50001`, 'limit must be an integer from 1 to 50000');
      await rejects(`${F}?date.lte=2026-02-30`, 'date.lte must be a real date in the form YYYY-MM-DD');
      await rejects(`${F}?sort=sofr.desc`, /^sort must be /);
    });

    it('sells the disclosures with filings and funding conditions with economy data', async () => {
      expect((await developer.get(`${D}?limit=1`)).status).toBe(200);
      expect((await developer.get(`${T}?limit=1`)).status).toBe(200);
      const economy = await developer.get(F);
      expect(economy.status).toBe(403);
      expect(economy.body.data.message).toMatch(/developer plan does not include economy data/);
      const filings = await starter.get(D);
      expect(filings.status).toBe(403);
      expect(filings.body.data.message).toMatch(/starter plan does not include filings data/);
    });

    describe('import', () => {
      const dir = mkdtempSync(join(tmpdir(), 'tb-disclosures-funding-'));
      afterAll(() => rmSync(dir, { recursive: true, force: true }));
      const ndjson = (name: string, rows: object[]) => {
        const path = join(dir, name);
        writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
        return path;
      };
      const cases = [
        { def: EIGHT_K_DISCLOSURES, good: disclosure('0000320193-26-000009', APPLE, '2026-07-31', ['AAPL'], 'annual_results'), bad: { ...disclosure('x', APPLE, '2026-07-31', ['AAPL'], 'y'), filing_date: '2026-07-32' }, reason: 'filing_date: must be a real date in the form YYYY-MM-DD' },
        { def: DISCLOSURE_TAXONOMY, good: { taxonomy: '3.0', primary_category: 'a', secondary_category: 'b', tertiary_category: 'c' }, bad: { primary_category: 'a', description: 'no version' }, reason: 'taxonomy: is required' },
        { def: FUNDING_CONDITIONS, good: { date: '2026-12-01', secured_overnight_financing_rate: 3.61 }, bad: { date: '2026-12-02', sofr_volume: 'lots' }, reason: 'sofr_volume: must be a number' },
      ];
      for (const c of cases) {
        it(`${c.def.name}: a bad line fails the file, naming the line and field, and writes nothing; skipped, the good lines are written`, async () => {
          const path = ndjson(`${c.def.name}.ndjson`, [c.good, c.bad]);
          const before = await store.datasets.count(c.def);
          await expect(importFile(store, path, { dataset: c.def.name })).rejects.toThrow(`${path}:2: ${c.reason}`);
          expect(await store.datasets.count(c.def)).toBe(before);
          const r = await importFile(store, path, { dataset: c.def.name, skipBadRows: true });
          expect(r).toMatchObject({ kind: c.def.name, rows: 1, written: 1, rejected: 1 });
          rmSync(r.rejectsFile!);
          expect(await store.datasets.count(c.def)).toBe(before + 1);
        });
      }
    });
  });
}
