import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { SHARED_DIR } from '../helpers/conformance.js';

// The largest `limit` each list accepts is the `maximum` of upstream's OpenAPI schema for it.
// Upstream's prose often names one less ("The maximum allowed limit is '99'" beside
// `maximum: 100`), but its servers take the schema's figure and the Python client sends 100 to
// the 10-K sections by default; refusing a limit upstream takes breaks a client, so the schema wins.

type Json = Record<string, any>;
const OPENAPI = `${SHARED_DIR}/spec/upstream-openapi.json`;
const haveOpenapi = existsSync(OPENAPI);
if (!haveOpenapi) console.log(`limit maxima skipped: ${OPENAPI} is not available`);

const pathShape = (path: string): string => path.replace(/\{[^}/]+\}/g, '{}');

/** path shape → the limit parameter's maximum, over every GET path of a document. */
function limitMaxima(doc: Json): Map<string, { path: string; max: number }> {
  const out = new Map<string, { path: string; max: number }>();
  for (const [path, ops] of Object.entries(doc.paths as Json)) {
    for (const p of ((ops as Json).get?.parameters ?? []) as Json[]) {
      const param = p.$ref ? doc.components.parameters[(p.$ref as string).split('/').pop()!] : p;
      if (param.name === 'limit' && typeof param.schema?.maximum === 'number') out.set(pathShape(path), { path, max: param.schema.maximum });
    }
  }
  return out;
}

describe.skipIf(!haveOpenapi)('limit maxima', () => {
  let store: Store;
  let t: TestApp;
  let ours: Map<string, { path: string; max: number }>;
  beforeAll(async () => {
    store = await openStore({ sqliteFile: ':memory:' });
    t = await startTestApp(store);
    ours = limitMaxima((await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as Json);
  });
  afterAll(async () => {
    await t?.close();
    await store?.close();
  });

  it("every list takes up to the maximum of upstream's schema for it", () => {
    const upstream = limitMaxima(JSON.parse(readFileSync(OPENAPI, 'utf8')) as Json);
    const differ: string[] = [];
    for (const [shape, u] of upstream) {
      const o = ours.get(shape);
      if (o && o.max !== u.max) differ.push(`${u.path}: upstream ${u.max}, ours ${o.max}`);
    }
    expect(differ).toEqual([]);
  });

  it('the 10-K sections and 8-K text take limit=100, as the Python client sends', async () => {
    for (const url of ['/stocks/filings/10-K/vX/sections?limit=100', '/stocks/filings/8-K/vX/text?limit=100']) {
      const res = await t.get(url);
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
    }
  });
});
