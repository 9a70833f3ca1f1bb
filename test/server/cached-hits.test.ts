// A repeated request for an answer the response cache holds is answered before Fastify's pipeline
// (src/server/cached-hits.ts). A client must not be able to tell: over a real socket the answer
// has the status, headers and body (its own request id aside) that the full path gives the same
// request, the access line, usage and metrics count it, and every request whose answer could
// differ (another key, plan, encoding, method, data, clock day) gets the full path's answer.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { CachedHits } from '../../src/server/cached-hits.js';
import { loggerOptions } from '../../src/server/logger.js';
import { metricsText } from '../../src/server/metrics.js';
import { loadPlanFile } from '../../src/server/plans.js';
import type { Store } from '../../src/store/index.js';
import type { TickerRecord } from '../../src/store/records.js';
import { settledDataVersion } from '../helpers/data-version.js';
import { engines } from '../helpers/engines.js';
import { rawGet } from '../helpers/raw-get.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';

const PUBLIC = 'https://md.example.com';
// 700 more tickers: a page of all of them is sent as pieces (over 64 KiB)
const MANY: TickerRecord[] = Array.from({ length: 700 }, (_, i) => ({ ...FIXTURE_TICKERS[4]!, ticker: `Q${String(i).padStart(4, '0')}`, name: `Quartz number ${i} — Société Anonyme` }));

const get = rawGet;

/** Headers a client compares (Node's own connection headers and the per-response id left out). */
function comparable(headers: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(headers)) if (!['date', 'connection', 'keep-alive', 'x-request-id', 'transfer-encoding'].includes(k)) out[k] = v;
  return out;
}

/** The body as text (gunzipped when gzip), with its request id replaced. */
function bodyWithoutId(body: Buffer, headers: Record<string, unknown>, id: unknown): string {
  const text = (headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString();
  expect(text).toContain(`"request_id":"${String(id)}"`);
  return text.replace(`"request_id":"${String(id)}"`, '"request_id":"x"');
}

for (const engine of engines()) {
  describe(`cached answers sent before the pipeline (${engine.name})`, () => {
    let store: Store;
    let app: Awaited<ReturnType<typeof buildApp>>;
    let hits: CachedHits;
    let url: string;
    let key: string;
    let keyId: string;
    let clock = Date.parse('2026-11-24T15:00:00Z');
    const lines: Record<string, unknown>[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'tb-hits-'));

    beforeAll(async () => {
      store = await engine.open();
      await store.reference.upsertTickers([...FIXTURE_TICKERS, ...MANY]);
      const plansFile = join(dir, 'plans.json');
      writeFileSync(plansFile, JSON.stringify({ plans: { 'aggs-only': { extends: 'business', datasets: ['aggregates'] } } }));
      const sink = new Writable({
        write(chunk, _enc, done) {
          for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
          done();
        },
      });
      const logger = pino({ ...(loggerOptions('info') as pino.LoggerOptions), transport: undefined }, sink);
      app = await buildApp({ store, config: { envelope: 'wrapped', publicUrl: PUBLIC }, now: () => clock, loggerInstance: logger, production: { plans: loadPlanFile(plansFile), usage: { flushIntervalMs: 3_600_000 } } });
      await app.listen({ port: 0, host: '127.0.0.1' });
      url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      hits = app.ctx.hits as CachedHits;
      const made = await store.keys.create({ plan: 'business', label: 'hits' });
      key = made.key;
      keyId = made.record.id;
    });
    afterAll(async () => {
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** Asks over the socket (the first fills the cache; the last is the one measured), then the full path once (inject). */
    async function twice(path: string, headers: Record<string, string>) {
      await settledDataVersion(store, engine.name);
      const first = await get(url + path, headers);
      // A key is looked up again once its cache entry is half a second old, and then by the full
      // path: a first answer made slowly (a busy machine) must not leave the measured one to it.
      await get(url + path, headers);
      const served = hits.served;
      const fast = await get(url + path, headers);
      const answeredHere = hits.served - served;
      const full = await app.inject({ method: 'GET', url: path, headers });
      return { first, fast, full, answeredHere };
    }

    const shapes: [string, string, (k: string) => Record<string, string>][] = [
      ['the ticker overview', '/v3/reference/tickers/AAPL', (k) => ({ 'x-api-key': k })],
      ['the overview, key in the query', `/v3/reference/tickers/MSFT?date=2026-01-05&apiKey=KEY`, () => ({})],
      ['the overview, bearer key', '/v3/reference/tickers/BRK.A', (k) => ({ authorization: `Bearer ${k}` })],
      ['a page of the ticker list', '/v3/reference/tickers?limit=3&market=stocks', (k) => ({ 'x-api-key': k })],
      ['a page sent as pieces', '/v3/reference/tickers?limit=1000&type=CS', (k) => ({ 'x-api-key': k })],
      ['gzip asked', '/v3/reference/tickers?limit=1000&type=CS&order=desc', (k) => ({ 'x-api-key': k, 'accept-encoding': 'gzip, deflate, br' })],
      ['the native envelope under /upstream', '/upstream/v3/reference/tickers?limit=5', (k) => ({ 'x-api-key': k })],
      ['exchanges', '/v3/reference/exchanges?asset_class=stocks', (k) => ({ 'x-api-key': k })],
    ];
    for (const [what, path0, headersOf] of shapes) {
      it(`${what}: answered here, with the full path's status, headers and body`, async () => {
        const path = path0.replace('KEY', key);
        const { first, fast, full, answeredHere } = await twice(path, headersOf(key));
        expect(first.status).toBe(200);
        expect(answeredHere).toBe(1);
        expect(fast.status).toBe(full.statusCode);
        expect(comparable(fast.headers)).toEqual(comparable(full.headers));
        expect(Number(fast.headers['content-length'])).toBe(fast.body.length);
        expect(bodyWithoutId(fast.body, fast.headers, fast.headers['x-request-id'])).toBe(bodyWithoutId(full.rawPayload, full.headers, full.headers['x-request-id']));
        expect(fast.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
      });
    }

    it('counts each answer in the access log, usage and metrics as the full path does', async () => {
      const path = '/v3/reference/tickers/SPY?apiKey=KEY'.replace('KEY', key);
      await twice(path, {});
      const served = hits.served;
      const before = lines.length;
      const pattern = /tickerbase_http_requests_total\{[^}]*route="\/v3\/reference\/tickers\/:ticker"[^}]*status="200"[^}]*\} (\d+)/;
      const metric = async () => Number(pattern.exec(await metricsText())?.[1] ?? 0);
      const m0 = await metric();
      await app.production!.usage!.flush({ wait: true });
      const usage0 = (await store.usage.forKey(keyId)).reduce((n, u) => n + u.requests, 0);
      for (let i = 0; i < 5; i++) expect((await get(url + path, {})).status).toBe(200);
      expect(hits.served - served).toBe(5);
      const logged = lines.slice(before).filter((l) => l.msg === 'request completed');
      expect(logged).toHaveLength(5);
      for (const l of logged) {
        expect(l).toMatchObject({ level: 30, key_id: keyId, method: 'GET', route: '/v3/reference/tickers/:ticker', url: '/v3/reference/tickers/SPY?apiKey=[REDACTED]', status: 200 });
        expect(typeof l.duration_ms).toBe('number');
        expect(JSON.stringify(l)).not.toContain(key);
      }
      expect((await metric()) - m0).toBe(5);
      await app.production!.usage!.flush({ wait: true });
      expect((await store.usage.forKey(keyId)).reduce((n, u) => n + u.requests, 0) - usage0).toBe(5);
    });

    it('leaves to the full path what could be answered otherwise', async () => {
      const path = '/v3/reference/tickers/AAPL';
      const own = { 'x-api-key': key };
      await twice(path, own);
      const cases: [string, Record<string, string>, number, string?][] = [
        ['an unknown key', { 'x-api-key': 'tb_not_a_key_of_this_server' }, 401],
        ['a rate-limited plan', { 'x-api-key': (await store.keys.create({ plan: 'free' })).key }, 200],
        ['a plan without reference data', { 'x-api-key': (await store.keys.create({ plan: 'aggs-only' })).key }, 403],
        ['If-None-Match', { ...own, 'if-none-match': String((await get(url + path, own)).headers.etag) }, 304],
        ['a malformed Host', { ...own, host: 'bad host!' }, 400],
        ['a Basic Authorization header', { authorization: 'Basic dXNlcjpwYXNz' }, 401],
        ['HEAD', own, 200, 'HEAD'],
      ];
      for (const [what, headers, status, method] of cases) {
        const served = hits.served;
        await get(url + path, headers, method); // a key's first use reads the store (left to the full path)
        const res = await get(url + path, headers, method);
        expect({ what, status: res.status, here: hits.served - served }).toEqual({ what, status, here: 0 });
        if (what === 'a rate-limited plan') expect(res.headers['x-ratelimit-limit']).toBe('5');
      }
      // compressed anew in another encoding than the gzip kept with the cached answer
      const page = '/v3/reference/tickers?limit=1000&type=CS';
      await twice(page, own);
      const before = hits.served;
      const br = await get(url + page, { ...own, 'accept-encoding': 'br' });
      expect(hits.served).toBe(before);
      expect(br.headers['content-encoding']).toBe('br');
      // the key given twice in the query: whatever the full path answers, not a cached answer
      const served = hits.served;
      const twiceKey = await get(`${url}${path}?apiKey=${key}&apiKey=${key}`, {});
      expect(hits.served).toBe(served);
      expect(twiceKey.status).toBe((await app.inject({ url: `${path}?apiKey=${key}&apiKey=${key}` })).statusCode);
    });

    it('answers each request on one keep-alive connection as its own, whichever key and path came before on it', async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const onOneSocket = (path: string, headers: Record<string, string>) =>
        new Promise<{ status: number; reused: boolean; ticker: unknown }>((resolve, reject) => {
          const req = request(url + path, { agent, headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode!, reused: req.reusedSocket, ticker: JSON.parse(Buffer.concat(chunks).toString()).data?.results?.ticker }));
          });
          req.on('error', reject);
          req.end();
        });
      const aggsOnly = (await store.keys.create({ plan: 'aggs-only' })).key;
      const aapl = '/v3/reference/tickers/AAPL';
      const msft = '/v3/reference/tickers/MSFT';
      const turns: [string, Record<string, string>, number, string?][] = [
        [aapl, { 'x-api-key': key }, 200, 'AAPL'],
        [aapl, { 'x-api-key': key }, 200, 'AAPL'],
        [msft, { 'x-api-key': key }, 200, 'MSFT'],
        [aapl, { 'x-api-key': 'tb_not_a_key_of_this_server' }, 401],
        [aapl, { 'x-api-key': aggsOnly }, 403],
        [aapl, { authorization: `Bearer ${aggsOnly}` }, 403],
        [aapl, { 'x-api-key': key }, 200, 'AAPL'],
        [aapl, { 'x-api-key': aggsOnly }, 403],
        [`${aapl}?apiKey=${aggsOnly}`, {}, 403],
        [`${msft}?apiKey=${key}`, {}, 200, 'MSFT'],
        [msft, { 'x-api-key': 'tb_not_a_key_of_this_server' }, 401],
        [msft, {}, 401],
        [msft, { authorization: `Bearer ${key}` }, 200, 'MSFT'],
        [msft, { authorization: `Bearer ${aggsOnly}` }, 403],
        [aapl, { authorization: `Bearer ${key}` }, 200, 'AAPL'],
        [aapl, { authorization: `Bearer ${aggsOnly}` }, 403],
      ];
      try {
        const got = [];
        for (const [path, headers] of turns) got.push(await onOneSocket(path, headers));
        expect(got.map((g) => g.status)).toEqual(turns.map(([, , status]) => status));
        expect(got.map((g) => g.ticker)).toEqual(turns.map(([, , , ticker]) => ticker));
        expect(got.slice(1).every((g) => g.reused)).toBe(true);
      } finally {
        agent.destroy();
      }
    });

    it('never answers with data older than a write, or a key revoked since', async () => {
      const path = '/v3/reference/tickers/AAPW';
      const own = { 'x-api-key': key };
      const before = await twice(path, own);
      await store.reference.upsertTickers([{ ...FIXTURE_TICKERS[2]!, name: 'Renamed Pawn Corp', last_updated_utc: '2026-11-21T00:00:00Z' }]);
      await settledDataVersion(store, engine.name); // PostgreSQL announces the write to the listener
      const after = await get(url + path, own);
      expect(JSON.parse(after.body.toString()).data.results.name).toBe('Renamed Pawn Corp');
      const served = hits.served;
      const repeat = await get(url + path, own);
      expect(JSON.parse(repeat.body.toString()).data.results.name).toBe('Renamed Pawn Corp');
      expect(hits.served - served).toBe(1);
      // a client revalidating with the old ETag must see the answer changed
      expect(after.headers.etag).not.toBe(before.fast.headers.etag);
      expect(repeat.headers.etag).toBe(after.headers.etag);

      const other = await store.keys.create({ plan: 'business' });
      await twice(path, { 'x-api-key': other.key });
      await store.keys.revoke(other.record.id);
      app.ctx.auth.forget(); // what revoking through this server's admin API does
      expect((await get(url + path, { 'x-api-key': other.key })).status).toBe(401);
    });

    it('answers anew once the clock passes midnight (the overview values market cap as of the day)', async () => {
      const path = '/v3/reference/tickers/AAPL';
      const own = { 'x-api-key': key };
      clock = Date.parse('2026-11-24T23:59:30-05:00');
      await twice(path, own);
      clock = Date.parse('2026-11-25T00:00:10-05:00');
      let served = hits.served;
      await get(url + path, own);
      expect(hits.served - served).toBe(0); // a new day: a new cache key, made by the full path
      served = hits.served;
      await get(url + path, own);
      expect(hits.served - served).toBe(1);
    });
  });
}
