import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { datasetItemSchema } from '../../src/server/dataset-list-route.js';
import { DIVIDENDS, SPLITS } from '../../src/store/repos/corporate-actions.js';
import {
  BALANCE_SHEETS, CASH_FLOW_STATEMENTS, FLOAT, INCOME_STATEMENTS, INFLATION, INFLATION_EXPECTATIONS, RATIOS, RISK_CATEGORIES, RISK_FACTORS,
  SHORT_INTEREST, SHORT_VOLUME, TREASURY_YIELDS,
} from '../../src/store/repos/dataset-catalog.js';
import type { DatasetDef } from '../../src/store/repos/datasets.js';
import { SHARED_DIR } from '../helpers/conformance.js';

// No recorded bodies exist for the new-style endpoints, so their item fields are held against the
// upstream OpenAPI document instead: every upstream field is served, with the same JSON type, and
// nothing else is. Upstream parameters are checked the same way against our query schema.
const OPENAPI = `${SHARED_DIR}/spec/upstream-openapi.json`;

const UPSTREAM: [string, DatasetDef][] = [
  ['/stocks/v1/dividends', DIVIDENDS], ['/stocks/v1/splits', SPLITS], ['/stocks/financials/v1/balance-sheets', BALANCE_SHEETS],
  ['/stocks/financials/v1/cash-flow-statements', CASH_FLOW_STATEMENTS], ['/stocks/financials/v1/income-statements', INCOME_STATEMENTS],
  ['/stocks/financials/v1/ratios', RATIOS], ['/stocks/vX/float', FLOAT], ['/stocks/v1/short-interest', SHORT_INTEREST],
  ['/stocks/v1/short-volume', SHORT_VOLUME], ['/stocks/filings/vX/risk-factors', RISK_FACTORS], ['/stocks/taxonomies/vX/risk-factors', RISK_CATEGORIES],
  ['/fed/v1/inflation', INFLATION], ['/fed/v1/inflation-expectations', INFLATION_EXPECTATIONS], ['/fed/v1/treasury-yields', TREASURY_YIELDS],
];

type Json = Record<string, any>;

describe('new-style items and parameters against the upstream OpenAPI document', () => {
  if (!existsSync(OPENAPI)) {
    it.skip(`skipped: ${OPENAPI} is not available`, () => {});
    console.log(`OpenAPI conformance skipped: ${OPENAPI} is not available`);
    return;
  }
  const doc = JSON.parse(readFileSync(OPENAPI, 'utf8')) as Json;
  const resolve = (s: Json): Json => (s.$ref ? s.$ref.split('/').slice(1).reduce((o: Json, k: string) => o[k], doc) : s);
  const jsonType = (s: Json): string => (s.type === 'integer' ? 'integer' : s.type === 'number' ? 'number' : s.type);

  for (const [path, def] of UPSTREAM) {
    it(`${path} (${def.name})`, () => {
      const op = doc.paths[path].get as Json;
      const body = resolve(op.responses['200'].content['application/json'].schema);
      const item = resolve(body.properties.results.items);
      const ours = datasetItemSchema(def).properties as Json;
      const upstream = Object.fromEntries(Object.entries(item.properties as Json).map(([k, v]) => [k, jsonType(resolve(v))]));
      expect(Object.keys(ours).sort()).toEqual(Object.keys(upstream).sort());
      for (const [k, t] of Object.entries(upstream)) expect(`${k}: ${ours[k].type}`).toBe(`${k}: ${t}`);

      // Every upstream filter parameter is accepted (the removed min_ticker/max_ticker aside).
      const params = (op.parameters as Json[]).map((p) => resolve(p).name as string).filter((n) => !/^(min|max)_ticker/.test(n));
      const accepted = new Set(['limit', 'sort', 'cursor']);
      for (const [f, forms] of Object.entries(def.filters)) {
        if (forms.includes('eq')) accepted.add(f);
        if (forms.includes('any_of')) accepted.add(`${f}.any_of`);
        if (forms.includes('all_of')) accepted.add(`${f}.all_of`);
        if (forms.includes('range')) for (const m of ['gt', 'gte', 'lt', 'lte']) accepted.add(`${f}.${m}`);
      }
      const missing = params.filter((p) => !accepted.has(p));
      expect(missing).toEqual([]);
    });
  }
});
