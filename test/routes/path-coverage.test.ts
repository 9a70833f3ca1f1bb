import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { SHARED_DIR } from '../helpers/conformance.js';

// Which of upstream's REST paths the server answers. The server's own OpenAPI document (what
// /openapi.json publishes) is held against upstream's: a path shape is the path with every
// `{param}` name blanked, so `/v2/aggs/ticker/{stocksTicker}/prev` and `{ticker}` are one shape.
// Every upstream shape must be served unless it is listed in NOT_YET_SERVED, and every listed
// shape must still be missing, so the list only shrinks as endpoints land.

/** Upstream paths not served yet, each spelt as upstream spells it. */
const NOT_YET_SERVED: readonly string[] = [];

const OPENAPI = `${SHARED_DIR}/spec/upstream-openapi.json`;

/** A path with its parameter names blanked: the part of a path a router matches on. */
const pathShape = (path: string): string => path.replace(/\{[^}/]+\}/g, '{}');

const haveOpenapi = existsSync(OPENAPI);
if (!haveOpenapi) console.log(`path coverage skipped: ${OPENAPI} is not available`);

describe.skipIf(!haveOpenapi)('upstream path coverage', () => {
  /** Upstream's shapes, each with the first spelling upstream gives it. */
  const upstream = new Map<string, string>();
  let store: Store;
  let t: TestApp;
  let served: Set<string>;
  beforeAll(async () => {
    const upstreamPaths = Object.keys((JSON.parse(readFileSync(OPENAPI, 'utf8')) as { paths: Record<string, unknown> }).paths);
    for (const p of upstreamPaths) if (!upstream.has(pathShape(p))) upstream.set(pathShape(p), p);
    store = await openStore({ sqliteFile: ':memory:' });
    t = await startTestApp(store);
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    served = new Set(Object.keys((res.json() as { paths: Record<string, unknown> }).paths).map(pathShape));
  });
  afterAll(async () => {
    await t?.close();
    await store?.close();
  });

  it('serves every upstream path shape except those listed as not yet served', () => {
    const listed = new Set(NOT_YET_SERVED.map(pathShape));
    const missing = [...upstream].filter(([shape]) => !served.has(shape) && !listed.has(shape)).map(([, p]) => p);
    expect(missing, 'upstream paths the server does not answer (serve them, or list them in NOT_YET_SERVED)').toEqual([]);
  });

  it('lists only paths that upstream has and the server does not serve', () => {
    const notUpstream = NOT_YET_SERVED.filter((p) => !upstream.has(pathShape(p)));
    expect(notUpstream, 'listed paths upstream does not have').toEqual([]);
    const nowServed = NOT_YET_SERVED.filter((p) => served.has(pathShape(p)));
    expect(nowServed, 'listed paths the server now serves: remove them from NOT_YET_SERVED').toEqual([]);
  });

  it('lists each path once', () => {
    expect(new Set(NOT_YET_SERVED.map(pathShape)).size).toBe(NOT_YET_SERVED.length);
  });

  it('normalises parameter names only', () => {
    expect(pathShape('/v2/aggs/ticker/{stocksTicker}/prev')).toBe(pathShape('/v2/aggs/ticker/{ticker}/prev'));
    expect(pathShape('/v1/historic/forex/{from}/{to}/{date}')).toBe('/v1/historic/forex/{}/{}/{}');
    expect(pathShape('/v3/reference/tickers/{ticker}')).not.toBe(pathShape('/v3/reference/tickers/types'));
  });
});
