import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRelatedCompaniesDemo } from '../../src/demo/listings.js';
import '../../src/ingest/datasets.js';
import { importFile } from '../../src/ingest/load.js';
import type { Store } from '../../src/store/index.js';
import { RELATED_COMPANIES } from '../../src/store/repos/listings-catalog.js';
import { useSeededApps } from '../helpers/app-fixture.js';
import { conformanceCheck } from '../helpers/conformance.js';
import { engines } from '../helpers/engines.js';

const dir = mkdtempSync(join(tmpdir(), 'tb-related-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** AAPL's relations out of rank order in the file, one without a rank; MSFT's from the JSON form. */
async function seed(store: Store): Promise<void> {
  const csv = join(dir, `related-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(csv, 'ticker,related_ticker,rank\nAAPL,GOOGL,2\nAAPL,MSFT,1\nAAPL,DELL,\nAAPL,AMZN,3\n');
  expect((await importFile(store, csv, { dataset: 'related-companies' })).rows).toBe(4);
  const json = join(dir, `related-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(json, JSON.stringify([{ ticker: 'MSFT', related_ticker: 'AAPL', rank: 1 }, { ticker: 'MSFT', related_ticker: 'ORCL', rank: 2 }]));
  expect((await importFile(store, json)).kind).toBe('related-companies');
}

for (const engine of engines()) {
  describe(`related companies (${engine.name})`, () => {
    const { store, apps: [t, native] } = useSeededApps(engine, seed, {}, { envelope: 'native' });

    it('lists the related tickers most related first, unranked ones last', async () => {
      const res = await native.get('/v1/related-companies/AAPL');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'OK', ticker: 'AAPL', results: [{ ticker: 'MSFT' }, { ticker: 'GOOGL' }, { ticker: 'AMZN' }, { ticker: 'DELL' }] });
      expect(typeof res.body.request_id).toBe('string');
      expect((await t.get('/v1/related-companies/MSFT')).body.data.results).toEqual([{ ticker: 'AAPL' }, { ticker: 'ORCL' }]);
    });

    conformanceCheck(native)('has the keys and JSON types of the recorded upstream body', 'v1/related-companies/AAPL.json', '/v1/related-companies/AAPL');

    it('answers a ticker without stored relations (unknown or not) with no results, as upstream declares only a 200', async () => {
      const res = await native.get('/v1/related-companies/ZZZZ');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'OK', ticker: 'ZZZZ', results: [] });
    });

    it('refuses a ticker longer than any symbol, naming it', async () => {
      const res = await t.get(`/v1/related-companies/${'A'.repeat(65)}`);
      expect(res.status).toBe(400);
      expect(res.body.data.message).toMatch(/^ticker /);
    });

    it('import: a bad record names its file and line, and nothing of the file is written', async () => {
      const path = join(dir, `bad-${engine.name}.csv`);
      writeFileSync(path, 'ticker,related_ticker,rank\nNVDA,AMD,1\nNVDA,INTC,first\n');
      await expect(importFile(store, path, { dataset: 'related-companies' })).rejects.toMatchObject({ message: `${path}:3: rank: must be an integer` });
      expect(await store.datasets.count(RELATED_COMPANIES)).toBe(6);
      expect((await native.get('/v1/related-companies/NVDA')).body.results).toEqual([]);
    });

    it('demo: each real stock is related to others of its industry first', () => {
      const rows = buildRelatedCompaniesDemo();
      const of = (ticker: string) => rows.filter((r) => r.ticker === ticker).map((r) => r.related_ticker);
      // SIC 3571 (AAPL) shares 357x with CSCO and IBM, then the 35xx major group with CAT
      expect(of('AAPL').slice(0, 3)).toEqual(['CSCO', 'IBM', 'CAT']);
      expect(of('JPM').slice(0, 3)).toEqual(['BAC', 'C', 'WFC']);
      expect(of('AAPL')).toHaveLength(10);
      expect(rows.every((r) => r.ticker !== r.related_ticker)).toBe(true);
    });
  });
}
