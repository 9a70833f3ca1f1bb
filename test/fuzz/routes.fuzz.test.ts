import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemo } from '../../src/demo/load.js';
import { buildApp } from '../../src/app.js';
import type { EnvelopeMode } from '../../src/server/context.js';
import { openStore, type Store } from '../../src/store/index.js';
import { buildUrl, hostileValue, operationsOf, plausibleValues, type Encoding, type Operation, type RequestCase } from './openapi-cases.js';

// Property-based fuzzing of every GET route in the server's OpenAPI document (so routes added
// later are covered automatically), over the demo data set on SQLite. Each case is one request
// with plausible, random or hostile values for the route's path and query parameters and one of
// several keys (good, rate-limited, revoked, expired, garbage, none), in either envelope.
//
// Properties: never a 5xx; always a well-formed envelope; a 400 about a parameter names it (and
// names exactly the parameter that was made hostile, when everything else was accepted).
//
// FUZZ_RUNS sets the number of cases (default 10,000; `npm run fuzz` runs 100,000); FUZZ_SEED
// replays a failing run; FUZZ_COLLECT=1 surveys instead of stopping at the first failure: it runs
// every case and then lists each distinct failure once (by route, status and message).

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const COLLECT = process.env.FUZZ_COLLECT === '1';

interface Keys {
  demo: string;
  free: string;
  revoked: string;
  expired: string;
}

type KeyChoice = { kind: keyof Keys | 'garbage' | 'none' | 'huge'; via: 'header' | 'bearer' | 'query' | 'query_snake'; garbage: string };

describe('route fuzzing (every GET route of /openapi.json, SQLite demo data)', () => {
  let store: Store;
  const apps = {} as Record<EnvelopeMode, FastifyInstance>;
  let ops: Operation[];
  const keys = {} as Keys;
  /** Path values per route that the server accepted (not 400) with a good key. */
  const baselines = new Map<string, Record<string, string>>();
  const allParamNames = new Set<string>(['cursor', 'apiKey', 'api_key']);
  const failures = new Map<string, string>();
  const stats = { cases: 0, byStatus: new Map<number, number>(), namedMutation: 0, routesWithBaseline: 0, setupMs: { demo: 0, total: 0 } };

  beforeAll(async () => {
    const t0 = Date.now();
    store = await openStore({ sqliteFile: ':memory:' });
    await loadDemo(store, { scale: 0.25 }); // the demo data set, smaller market-data tables
    stats.setupMs.demo = Date.now() - t0;
    for (const envelope of ['wrapped', 'native'] as const) {
      apps[envelope] = await buildApp({ store, config: { envelope, publicUrl: 'http://fuzz.test' }, production: { usage: { flushIntervalMs: 1000 } } });
    }
    keys.demo = (await store.keys.create({ plan: 'demo', label: 'fuzz' })).key;
    keys.free = (await store.keys.create({ plan: 'free', label: 'fuzz' })).key;
    const revoked = await store.keys.create({ plan: 'demo' });
    await store.keys.revoke(revoked.record.id);
    keys.revoked = revoked.key;
    keys.expired = (await store.keys.create({ plan: 'demo', expires_utc: '2001-01-01T00:00:00.000Z' })).key;

    const doc = (await apps.wrapped.inject({ url: '/openapi.json' })).json();
    ops = operationsOf(doc);
    for (const op of ops) for (const p of op.params) allParamNames.add(p.name);
    for (const op of ops) {
      const pathParams = op.params.filter((p) => p.in === 'path');
      const candidates = pathParams.map((p) => plausibleValues(p));
      const tries = Math.max(1, ...candidates.map((c) => c.length));
      for (let i = 0; i < Math.min(tries, 12); i++) {
        const values = Object.fromEntries(pathParams.map((p, j) => [p.name, candidates[j]![i % candidates[j]!.length] ?? 'AAPL']));
        const res = await apps.wrapped.inject({ url: buildUrl({ op, path: values, query: [], encoding: 'encoded' }), headers: { 'x-api-key': keys.demo } });
        if (res.statusCode !== 400 && res.statusCode < 500) {
          baselines.set(op.path, values);
          break;
        }
      }
    }
    stats.routesWithBaseline = baselines.size;
    stats.setupMs.total = Date.now() - t0;
  }, 300_000);

  afterAll(async () => {
    for (const app of Object.values(apps)) await app.close();
    await store.close();
    const statuses = [...stats.byStatus.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`).join(', ');
    console.log(
      `fuzz: ${stats.cases} cases over ${ops.length} GET routes (${stats.routesWithBaseline} with an accepted baseline); ` +
        `${stats.namedMutation} 400s named the one hostile parameter; statuses ${statuses}; setup ${stats.setupMs.total} ms (demo data ${stats.setupMs.demo} ms)`,
    );
  });

  function caseFor(op: Operation): fc.Arbitrary<RequestCase> {
    const encoding = fc.constantFrom<Encoding>('encoded', 'encoded', 'encoded', 'raw');
    const valueFor = (p: (typeof op.params)[number]) =>
      fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...(plausibleValues(p).length ? plausibleValues(p) : ['x'])) }, { weight: 2, arbitrary: hostileValue });
    const base = baselines.get(op.path);
    // A: an accepted baseline with exactly one parameter made hostile.
    const single: fc.Arbitrary<RequestCase> | undefined =
      base && op.params.length
        ? fc.record({ i: fc.nat({ max: op.params.length - 1 }), v: hostileValue, encoding: fc.constant<Encoding>('encoded') }).map(({ i, v, encoding: enc }) => {
            const p = op.params[i]!;
            const path = { ...base };
            const query: [string, string][] = [];
            if (p.in === 'path') path[p.name] = v;
            else query.push([p.name, v]);
            return { op, path, query, mutated: p.name, encoding: enc };
          })
        : undefined;
    // B: anything goes: each parameter plausible, hostile or absent; repeated and unknown parameters.
    const pathParams = op.params.filter((p) => p.in === 'path');
    const queryParams = op.params.filter((p) => p.in === 'query');
    const mixed = fc
      .record({
        path: fc.tuple(...pathParams.map((p) => valueFor(p).map((v) => [p.name, v] as const))),
        query: fc.subarray(queryParams).chain((chosen) => fc.tuple(...chosen.map((p) => valueFor(p).map((v) => [p.name, v] as [string, string])))),
        extra: fc.option(fc.constantFrom<[string, string][]>([['foo', 'bar']], [['limit', '1'], ['limit', '2']], [['__proto__', 'x']], [['cursor', 'garbage']], [['apiKey', '']]), { nil: undefined }),
        encoding,
      })
      .map(({ path, query, extra, encoding: enc }) => ({
        op,
        path: Object.fromEntries(path),
        query: [...(query as [string, string][]), ...(extra ?? [])],
        encoding: enc,
      }));
    return single ? fc.oneof(single, mixed) : mixed;
  }

  const keyChoice: fc.Arbitrary<KeyChoice> = fc.record({
    kind: fc.oneof(
      { weight: 14, arbitrary: fc.constant('demo' as const) },
      { weight: 1, arbitrary: fc.constantFrom('free' as const, 'revoked' as const, 'expired' as const, 'garbage' as const, 'none' as const, 'huge' as const) },
    ),
    via: fc.constantFrom('header' as const, 'header' as const, 'bearer' as const, 'query' as const, 'query_snake' as const),
    garbage: fc.oneof(fc.constant('tb_not_a_key'), fc.string({ maxLength: 60 })),
  });

  function keyOf(k: KeyChoice): string | undefined {
    if (k.kind === 'none') return undefined;
    if (k.kind === 'garbage') return k.garbage;
    if (k.kind === 'huge') return `tb_${'x'.repeat(5000)}`;
    return keys[k.kind];
  }

  function withKey(url: string, k: KeyChoice): { url: string; headers: Record<string, string> } {
    const key = keyOf(k);
    if (key === undefined) return { url, headers: {} };
    const headerSafe = /^[\x21-\x7e]*$/.test(key) && key.length > 0;
    if ((k.via === 'header' || k.via === 'bearer') && headerSafe) {
      return { url, headers: k.via === 'header' ? { 'x-api-key': key } : { authorization: `Bearer ${key}` } };
    }
    const name = k.via === 'query_snake' ? 'api_key' : 'apiKey';
    return { url: `${url}${url.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(key.replace(/[\ud800-\udfff]/g, ''))}`, headers: {} };
  }

  function checkResponse(c: RequestCase, envelope: EnvelopeMode, url: string, res: { statusCode: number; headers: Record<string, unknown>; body: string }): void {
    const where = `${envelope} GET ${url} → ${res.statusCode} ${res.body.slice(0, 300)}`;
    expect(res.statusCode, where).toBeLessThan(500);
    const type = String(res.headers['content-type'] ?? '');
    if (res.statusCode < 300 && !type.startsWith('application/json')) return; // images and other non-JSON answers
    if (res.statusCode === 304) return;
    let body: any;
    try {
      body = JSON.parse(res.body);
    } catch {
      throw new Error(`not JSON: ${where}`);
    }
    const inner = envelope === 'wrapped' ? body?.data : body;
    if (envelope === 'wrapped') {
      expect(typeof body.ok, where).toBe('boolean');
      expect(body.ok, where).toBe(res.statusCode < 400);
    }
    // plain upstream bodies (market holidays) may be arrays; everything else is an object
    if (res.statusCode >= 400 || c.op.okHasRequestId) expect(inner !== null && typeof inner === 'object' && !Array.isArray(inner), where).toBe(true);
    expect(JSON.stringify(body), where).not.toContain(keys.demo);
    const needsId = res.statusCode >= 400 || c.op.okHasRequestId;
    if (needsId) {
      expect(typeof inner.status, where).toBe('string');
      expect(inner.request_id, where).toBe(res.headers['x-request-id']);
    }
    if (res.statusCode >= 400) {
      expect(typeof inner.code, where).toBe('string');
      expect(typeof inner.error, where).toBe('string');
      expect(typeof inner.message, where).toBe('string');
      if (inner.code === 'BAD_PARAMETER' || inner.code === 'BAD_CURSOR') {
        const text = String(inner.error);
        if (c.mutated && c.encoding === 'encoded') {
          expect(text, `the 400 should name ${c.mutated}: ${where}`).toContain(c.mutated);
          stats.namedMutation++;
        } else {
          const named = [...allParamNames].some((n) => text.includes(n));
          expect(named, `the 400 should name a parameter: ${where}`).toBe(true);
        }
      }
    }
  }

  it(
    `${RUNS} generated requests: never a 5xx, always a valid envelope, 400s name the parameter`,
    async () => {
      const arb = fc
        .nat({ max: ops.length - 1 })
        .chain((i) => fc.tuple(caseFor(ops[i]!), keyChoice, fc.constantFrom<EnvelopeMode>('wrapped', 'wrapped', 'wrapped', 'native')));
      await fc.assert(
        fc.asyncProperty(arb, async ([c, k, envelope]) => {
          const { url, headers } = withKey(buildUrl(c), k);
          let res;
          try {
            res = await apps[envelope].inject({ method: 'GET', url, headers });
          } catch (err) {
            throw new Error(`inject failed for ${url}: ${(err as Error).message}`);
          }
          stats.cases++;
          // inject() can settle on microtasks alone; give the event loop a turn now and then so
          // vitest's worker can answer its runner (else long runs end in an RPC timeout)
          if (stats.cases % 500 === 0) await new Promise((r) => setImmediate(r));
          stats.byStatus.set(res.statusCode, (stats.byStatus.get(res.statusCode) ?? 0) + 1);
          if (!COLLECT) {
            checkResponse(c, envelope, url, res);
            return;
          }
          try {
            checkResponse(c, envelope, url, res);
          } catch (err) {
            const signature = `${c.op.path} ${res.statusCode} ${res.body.replace(/[0-9a-f]{32}/g, '').slice(0, 160)}`;
            if (!failures.has(signature)) failures.set(signature, (err as Error).message.split('\n')[0]!.slice(0, 400));
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: false },
      );
      if (failures.size) throw new Error(`${failures.size} distinct failures:\n${[...failures.values()].join('\n')}`);
    },
    Math.max(120_000, RUNS * 20),
  );
});
