// serve --read-through against a fake upstream, on both engines: a miss is fetched once, stored
// and answered, and the next identical or narrower request is answered locally; identical misses
// arriving together make one upstream call; upstream slow, silent, down or limiting gives 503 or
// 429 with Retry-After within the deadline; 404s are remembered for a while; local plans apply
// first; only the operator's key ever goes upstream.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { FakeUpstream, serveGeneratedMarket } from '../helpers/fake-upstream-rest.js';

const OPERATOR_KEY = 'operator-upstream-key-xyz';
/** The store's default deadline; tests of a slow upstream use a short one. */
const STORE_DEADLINE_MS = 5000;
const SHORT_DEADLINE_MS = 400;
const NEGATIVE_TTL_MS = 600_000;

for (const engine of engines()) {
  describe(`read-through (${engine.name})`, () => {
    let store: Store;
    let fake: FakeUpstream;
    let built: ReturnType<typeof buildApp> | undefined;
    let deadlineMs = STORE_DEADLINE_MS;
    let key: string;
    const clock = { now: Date.parse('2026-12-01T12:00:00Z') };
    const localKeys: string[] = [];
    const upstreamRequests: FakeUpstream['requests'] = [];

    beforeAll(async () => {
      store = await engine.open();
    });
    afterAll(async () => {
      // no local key ever went upstream, and every request carried the operator's key in its header only
      expect(upstreamRequests.length).toBeGreaterThan(0);
      for (const r of upstreamRequests) {
        expect(r.headers.authorization).toBe(`Bearer ${OPERATOR_KEY}`);
        expect(r.url).not.toContain(OPERATOR_KEY);
        for (const k of localKeys) {
          expect(r.url).not.toContain(k);
          expect(JSON.stringify(r.headers)).not.toContain(k);
        }
      }
      await store.close();
    });
    beforeEach(async () => {
      fake = await FakeUpstream.start();
      serveGeneratedMarket(fake);
      fake.on(/^\/v3\/reference\/tickers\/AAPL$/, () => ({ body: { status: 'OK', request_id: 'r', results: { ticker: 'AAPL', name: 'Apple Inc.', market: 'stocks', locale: 'us', active: true, currency_name: 'usd', type: 'CS' } } }));
      deadlineMs = STORE_DEADLINE_MS;
      key = (await store.keys.create({ plan: 'demo', label: 'read-through test' })).key;
      localKeys.push(key);
    });
    afterEach(async () => {
      upstreamRequests.push(...fake.requests);
      await (await built)?.close();
      built = undefined;
      await fake.close();
    });

    /** The app, built on first use with the deadline the test set. */
    const app = () =>
      (built ??= buildApp({
        store,
        config: { envelope: 'native' },
        now: () => clock.now,
        readThrough: { upstreamUrl: fake.baseUrl, upstreamKey: OPERATOR_KEY, deadlineMs, negativeTtlMs: NEGATIVE_TTL_MS, callTimeoutMs: 10_000 },
      }));
    const get = async (url: string, k = key) => {
      const res = await (await app()).inject({ method: 'GET', url, headers: { 'x-api-key': k } });
      return { status: res.statusCode, body: res.json() as Record<string, any>, headers: res.headers };
    };

    it('fetches a range the store lacks once, stores and answers it; identical and narrower requests are then local', async () => {
      const first = await get('/v2/aggs/ticker/AAPL/range/1/minute/2026-11-02/2026-11-06?adjusted=false&limit=50000');
      expect(first.status).toBe(200);
      expect(first.body.resultsCount).toBe(4800);
      expect(fake.calls(/^\/v2\/aggs/)).toHaveLength(1);
      expect((await get('/v2/aggs/ticker/AAPL/range/1/minute/2026-11-02/2026-11-06?adjusted=false&limit=50000')).body.results).toEqual(first.body.results);
      const narrower = await get('/v2/aggs/ticker/AAPL/range/5/minute/2026-11-03/2026-11-04?adjusted=false');
      expect(narrower.status).toBe(200);
      expect(narrower.body.resultsCount).toBe(2 * 192);
      expect(fake.calls(/^\/v2\/aggs/)).toHaveLength(1);
      // also served to other keys from the store
      const other = (await store.keys.create({ plan: 'demo', label: 'second' })).key;
      localKeys.push(other);
      expect((await get('/v2/aggs/ticker/AAPL/range/1/hour/2026-11-02/2026-11-02?adjusted=false', other)).body.resultsCount).toBe(16);
      expect(fake.calls(/^\/v2\/aggs/)).toHaveLength(1);
    });

    it('makes one upstream call for identical misses arriving together', async () => {
      fake.fail({ kind: 'delay', ms: 150 }, { match: /^\/v2\/aggs/ });
      const answers = await Promise.all(Array.from({ length: 8 }, () => get('/v2/aggs/ticker/MSFT/range/1/day/2026-10-01/2026-10-31?adjusted=false')));
      for (const a of answers) {
        expect(a.status).toBe(200);
        expect(a.body.resultsCount).toBe(22);
      }
      expect(fake.calls(/^\/v2\/aggs/)).toHaveLength(1);
      // a narrower request arriving while a wider one is fetched waits for it rather than asking again
      fake.fail({ kind: 'delay', ms: 300 }, { match: /^\/v2\/aggs/ });
      const [wide, narrow] = await Promise.all([
        get('/v2/aggs/ticker/MSFT/range/1/day/2026-09-01/2026-09-30?adjusted=false'),
        // sent once upstream has the wider request
        vi.waitFor(() => expect(fake.calls(/^\/v2\/aggs/)).toHaveLength(2), { interval: 5 }).then(() => get('/v2/aggs/ticker/MSFT/range/1/day/2026-09-10/2026-09-11?adjusted=false')),
      ]);
      expect([wide.status, narrow.status]).toEqual([200, 200]);
      expect(narrow.body.resultsCount).toBe(2);
      expect(fake.calls(/^\/v2\/aggs/)).toHaveLength(2);
    });

    it('fetches the trades of a day on a miss and pages through them locally', async () => {
      const res = await get('/v3/trades/NVDA?timestamp.gte=2026-11-02&timestamp.lt=2026-11-03&limit=50000');
      expect(res.status).toBe(200);
      expect(res.body.results).toHaveLength(3500);
      const calls = fake.calls(/^\/v3\/trades/).length;
      expect(calls).toBe(4);
      expect((await get('/v3/trades/NVDA?timestamp.gte=2026-11-02&timestamp.lt=2026-11-03&limit=10')).body.results).toHaveLength(10);
      expect(fake.calls(/^\/v3\/trades/)).toHaveLength(calls);
    });

    it('answers 503 in the error shape within the deadline when upstream is slow, and the late answer is kept', async () => {
      deadlineMs = SHORT_DEADLINE_MS;
      // the route warmed up first, so that only upstream's delay counts
      expect((await get('/v2/aggs/ticker/WARM/range/1/day/2026-11-07/2026-11-08?adjusted=false')).status).toBe(200);
      fake.fail({ kind: 'delay', ms: 2500 }, { match: /^\/v2\/aggs\/ticker\/AMD/ });
      const res = await get('/v2/aggs/ticker/AMD/range/1/day/2026-11-02/2026-11-06?adjusted=false');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 'ERROR', code: 'DEPENDENCY_UNAVAILABLE' });
      expect(res.body.message).toContain(`within ${SHORT_DEADLINE_MS} ms`);
      expect(res.body.request_id).toEqual(expect.any(String));
      expect(res.headers['retry-after']).toBe('5');
      // answered before upstream did: the fetch is still under way
      expect((await store.upstreamLedger.get({ dataset: 'aggs-day', ticker: 'AMD', from: '2026-11-02', to: '2026-11-06' }))?.status).not.toBe('complete');
      await vi.waitFor(async () => expect((await store.upstreamLedger.get({ dataset: 'aggs-day', ticker: 'AMD', from: '2026-11-02', to: '2026-11-06' }))?.status).toBe('complete'), { timeout: 10_000, interval: 100 });
      const later = await get('/v2/aggs/ticker/AMD/range/1/day/2026-11-02/2026-11-06?adjusted=false');
      expect(later.status).toBe(200);
      expect(later.body.resultsCount).toBe(5);
      expect(fake.calls(/^\/v2\/aggs\/ticker\/AMD/)).toHaveLength(1);
    });

    it('answers 503 when upstream is silent or failing, never hanging or 500', async () => {
      deadlineMs = SHORT_DEADLINE_MS;
      fake.fail({ kind: 'silent' }, { match: /^\/v2\/aggs\/ticker\/INTC/ });
      const silent = await get('/v2/aggs/ticker/INTC/range/1/day/2026-11-02/2026-11-06?adjusted=false');
      expect(silent.status).toBe(503);
      fake.fail({ kind: 'status', status: 502 }, { match: /^\/v2\/aggs\/ticker\/QCOM/ });
      const down = await get('/v2/aggs/ticker/QCOM/range/1/day/2026-11-02/2026-11-06?adjusted=false');
      expect(down.status).toBe(503);
      expect(down.body.code).toBe('DEPENDENCY_UNAVAILABLE');
      expect(down.body.message).toContain('HTTP 502');
      expect(down.body.message).not.toContain(OPERATOR_KEY);
      // while upstream is down, misses get 503 without a call
      const before = fake.requests.length;
      const meanwhile = await get('/v2/aggs/ticker/ADI/range/1/day/2026-11-02/2026-11-06?adjusted=false');
      expect(meanwhile.status).toBe(503);
      expect(meanwhile.body.message).toContain('it failed moments ago');
      expect(fake.requests.length).toBe(before);
      clock.now += 10_000;
      fake.fail({ kind: 'html' }, { match: /^\/v2\/aggs\/ticker\/TXN/ });
      const html = await get('/v2/aggs/ticker/TXN/range/1/day/2026-11-02/2026-11-06?adjusted=false');
      expect(html.status).toBe(503);
      expect(html.body.message).toContain('HTML');
    });

    it('passes upstream limiting on as 429 with Retry-After, and refuses further misses without calling until then', async () => {
      fake.fail({ kind: 'status', status: 429, retryAfter: '30' });
      const res = await get('/v2/aggs/ticker/ORCL/range/1/day/2026-11-02/2026-11-06?adjusted=false');
      expect(res.status).toBe(429);
      expect(res.body.code).toBe('RATE_LIMITED');
      expect(res.headers['retry-after']).toBe('30');
      const before = fake.requests.length;
      const next = await get('/v2/aggs/ticker/IBM/range/1/day/2026-11-02/2026-11-06?adjusted=false');
      expect(next.status).toBe(429);
      expect(Number(next.headers['retry-after'])).toBeGreaterThan(0);
      expect(fake.requests.length).toBe(before);
      // a request the store covers is still answered
      expect((await get('/v3/reference/exchanges')).status).toBe(200);
    });

    it('fetches a ticker overview the store lacks; a 404 is remembered for a while', async () => {
      const aapl = await get('/v3/reference/tickers/AAPL');
      expect(aapl.status).toBe(200);
      expect(aapl.body.results.name).toBe('Apple Inc.');
      expect((await get('/v3/reference/tickers/AAPL')).status).toBe(200);
      expect(fake.calls(/^\/v3\/reference\/tickers\/AAPL$/)).toHaveLength(1);

      expect((await get('/v3/reference/tickers/NOPE')).status).toBe(404);
      expect((await get('/v3/reference/tickers/NOPE')).status).toBe(404);
      expect(fake.calls(/NOPE/)).toHaveLength(1);
      clock.now += NEGATIVE_TTL_MS + 1000;
      expect((await get('/v3/reference/tickers/NOPE')).status).toBe(404);
      expect(fake.calls(/NOPE/)).toHaveLength(2);
    });

    it('applies local plans first: a key whose plan lacks the data never reaches upstream', async () => {
      const basic = (await store.keys.create({ plan: 'free', label: 'free plan' })).key;
      localKeys.push(basic);
      const res = await get('/v3/trades/AMZN?timestamp.gte=2026-11-02&timestamp.lt=2026-11-03', basic);
      expect(res.status).toBe(403);
      expect(fake.requests).toHaveLength(0);
      expect((await get('/v2/aggs/ticker/AMZN/range/1/day/2026-11-02/2026-11-06', 'not-a-key')).status).toBe(401);
      expect(fake.requests).toHaveLength(0);
    });

    it('counts upstream calls and shows them to sync status', async () => {
      const before = await store.upstreamLedger.counters();
      await get('/v2/aggs/ticker/CSCO/range/1/day/2026-11-02/2026-11-06?adjusted=false');
      const after = await store.upstreamLedger.counters();
      expect(after.calls - before.calls).toBe(1);
      const entry = await store.upstreamLedger.get({ dataset: 'aggs-day', ticker: 'CSCO', from: '2026-11-02', to: '2026-11-06' });
      expect(entry?.status).toBe('complete');
    });
  });
}
