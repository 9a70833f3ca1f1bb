// Upstream's own example bodies (its OpenAPI document) imported as an operator would import a
// captured response, each detected from its fields, then asked for again: the endpoint answers
// with the same records, every field and value kept, in upstream's native body.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import '../../src/ingest/datasets.js';
import { importFile } from '../../src/ingest/load.js';
import { useSeededApp } from '../helpers/app-fixture.js';
import { engines } from '../helpers/engines.js';
import { OPENAPI_FILE, openapiExample } from '../helpers/openapi-examples.js';

/** [path template, data set the body is detected as]. */
const PATHS: [string, string][] = [
  ['/benzinga/v2/news', 'benzinga-news'],
  ['/benzinga/v1/ratings', 'benzinga-ratings'],
  ['/benzinga/v1/earnings', 'benzinga-earnings'],
  ['/benzinga/v1/guidance', 'benzinga-guidance'],
  ['/benzinga/v1/analysts', 'benzinga-analysts'],
  ['/benzinga/v1/firms', 'benzinga-firms'],
  ['/benzinga/v1/analyst-insights', 'benzinga-analyst-insights'],
  ['/benzinga/v1/bulls-bears-say', 'benzinga-bulls-bears'],
  ['/etf-global/v1/analytics', 'etf-global-analytics'],
  ['/etf-global/v1/constituents', 'etf-global-constituents'],
  ['/etf-global/v1/fund-flows', 'etf-global-fund-flows'],
  ['/etf-global/v1/profiles', 'etf-global-profiles'],
  ['/etf-global/v1/taxonomies', 'etf-global-taxonomies'],
  ['/tmx/v1/corporate-events', 'tmx-corporate-events'],
  ['/fed/v1/labor-market', 'labor-market'],
  ['/consumer-spending/eu/v1/merchant-aggregates', 'eu-merchant-aggregates'],
  ['/consumer-spending/eu/v1/merchant-hierarchy', 'eu-merchant-hierarchy'],
  ['/stocks/filings/vX/index', 'filings-index'],
  ['/stocks/filings/10-K/vX/sections', '10k-sections'],
  ['/stocks/filings/8-K/vX/text', '8k-text'],
  ['/stocks/filings/vX/13-F', '13f-holdings'],
  ['/stocks/filings/vX/form-3', 'form-3'],
  ['/stocks/filings/vX/form-4', 'form-4'],
  ['/futures/vX/products', 'futures-products'],
  ['/futures/v1/products', 'futures-products'],
  ['/futures/vX/contracts', 'futures-contracts'],
  ['/futures/v1/contracts', 'futures-contracts'],
  ['/futures/vX/exchanges', 'futures-exchanges'],
  ['/futures/v1/exchanges', 'futures-exchanges'],
  ['/futures/vX/schedules', 'futures-schedules'],
  ['/futures/v1/schedules', 'futures-schedules'],
  ['/vX/reference/ipos', 'ipos'],
  ['/v1/reference/ipos', 'ipos'],
];

/**
 * Where an example's value disagrees with the type its own schema declares, the schema's type is
 * served: TMX's example writes tmx_company_id as a string, the schema says integer. A field an
 * example gives as null is left out of our records, as every absent field is.
 */
function asSchemaTypes(record: Record<string, unknown>): Record<string, unknown> {
  const out = Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null));
  if (typeof out.tmx_company_id === 'string') out.tmx_company_id = Number(out.tmx_company_id);
  return out;
}

for (const engine of engines()) {
  describe(`upstream example bodies round-trip through import (${engine.name})`, () => {
    const { t } = useSeededApp(engine, async () => {}, { envelope: 'native' });
    const dir = mkdtempSync(join(tmpdir(), 'tb-examples-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('publishes every one of these paths (and the consensus ratings) in its OpenAPI document', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
      const shape = (p: string) => p.replace(/\{[^}/]+\}/g, '{}');
      const served = new Set(Object.keys((res.json() as { paths: Record<string, unknown> }).paths).map(shape));
      const wanted = [...PATHS.map(([p]) => p), '/benzinga/v1/consensus-ratings/{ticker}'];
      expect(wanted.filter((p) => !served.has(shape(p)))).toEqual([]);
    });

    for (const [path, dataset] of PATHS) {
      it(`${path}`, async () => {
        const example = openapiExample(path);
        if (!example) {
          console.log(`example round trip of ${path} skipped: no example in ${OPENAPI_FILE}`);
          return;
        }
        const file = join(dir, `${dataset}.json`);
        writeFileSync(file, JSON.stringify(example));
        const imported = await importFile(t.store, file);
        expect(imported).toMatchObject({ kind: dataset, rows: example.results.length, rejected: 0 });
        const res = await t.get(`${path}?limit=99`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.status).toBe('OK');
        const sortKeys = (r: Record<string, unknown>) => JSON.stringify(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)));
        expect(res.body.results.map(sortKeys).sort()).toEqual(example.results.map(asSchemaTypes).map(sortKeys).sort());
        expect(res.body.count).toBe(example.results.length);
      });
    }
  });
}
