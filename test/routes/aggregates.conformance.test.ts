import { readFileSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectSameShape, shapeDifferences, shapeOf, skipConformance, SHARED_DIR, conformanceCheck } from '../helpers/conformance.js';
import { engines } from '../helpers/engines.js';
import { FIXTURE_NOW, seedMarket } from '../helpers/market-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';

// Field names and JSON types of our native bodies against upstream's recorded ones. Documented
// differences: `n` on prev bars (optional upstream: the options and forex prev samples carry it);
// `count` on prev, as the other aggregates bodies carry it (older clients read it there too);
// open/close carries no request_id, as upstream's does not.

const OPENAPI = `${SHARED_DIR}/spec/upstream-openapi.json`;

/** The example body the OpenAPI document gives for an operation (for endpoints with no recording). */
function openapiExample(path: string): unknown {
  if (!existsSync(OPENAPI)) return undefined;
  const doc = JSON.parse(readFileSync(OPENAPI, 'utf8')) as { paths: Record<string, { get: { responses: Record<string, { content: Record<string, { example?: unknown }> }> } }> };
  return doc.paths[path]?.get.responses['200']?.content['application/json']?.example;
}

describe('the shape comparison itself', () => {
  const upstream = { status: 'OK', results: [{ o: 1, t: 2 }, { o: 1, t: 2, n: 3 }], next_url: 'x' };
  const diff = (ours: unknown, opts = {}) => shapeDifferences(shapeOf(ours), shapeOf(upstream), opts);

  it('accepts the same keys and types, merging the keys of every array element', () => {
    expect(diff({ status: 'OK', results: [{ o: 5, t: 6, n: 7 }], next_url: 'y' })).toEqual([]);
  });

  it('reports missing keys, extra keys and type changes by path, unless allowed', () => {
    expect(diff({ status: 'OK', results: [{ o: '5', t: 6, vw: 1 }] })).toEqual([
      'results[].o: ours is string, upstream is number',
      'results[].vw: only in ours',
      'results[].n: missing in ours',
      'next_url: missing in ours',
    ]);
    expect(diff({ status: 'OK', results: [{ o: 5, t: 6, vw: 1 }] }, { allowMissing: ['results[].n', 'next_url'], allowExtra: ['results[].vw'] })).toEqual([]);
    expect(diff({ status: 'OK', results: { o: 1 } })).toContain('results: ours is object, upstream is array');
  });
});

for (const engine of engines()) {
  describe(`aggregates conformance with recorded upstream bodies (${engine.name})`, () => {
    const { t } = useSeededApp(engine, seedMarket, { envelope: 'native', now: () => FIXTURE_NOW });

    const check = conformanceCheck(t);

    check('range', 'v2/aggs/ticker/AAPL/range/1/day/2005-04-01/2005-04-04.json', '/v2/aggs/ticker/AAPL/range/1/day/2024-03-04/2024-03-08');
    check('range with next_url (upstream adds it when the limit cut the range)', 'v2/aggs/ticker/AAPL/range/1/day/2005-04-01/2005-04-04.json', '/v2/aggs/ticker/AAPL/range/1/day/2024-03-04/2024-03-08?limit=2', { allowExtra: ['next_url'] });
    check('previous close', 'v2/aggs/ticker/AAPL/prev.json', '/v2/aggs/ticker/AAPL/prev', { allowExtra: ['results[].n', 'count'] });
    check('grouped daily', 'v2/aggs/grouped/locale/us/market/stocks/2005-04-04.json', '/v2/aggs/grouped/locale/us/market/stocks/2024-03-08');
    check('daily open/close', 'v1/open-close/AAPL/2020-10-14.json', '/v1/open-close/AAPL/2024-03-08');

    it('crypto open/close (no recording: the OpenAPI example)', async () => {
      const example = openapiExample('/v1/open-close/crypto/{from}/{to}/{date}');
      if (example === undefined) return skipConformance('crypto open/close');
      expectSameShape((await t.get('/v1/open-close/crypto/BTC/USD/2024-03-10')).body, example);
    });

    it('previous close, crypto (no recording: the OpenAPI example)', async () => {
      const example = openapiExample('/v2/aggs/ticker/{cryptoTicker}/prev');
      if (example === undefined) return skipConformance('crypto previous close');
      expectSameShape((await t.get('/v2/aggs/ticker/X:BTCUSD/prev')).body, example, { allowExtra: ['results[].n', 'count'] });
    });
  });
}
