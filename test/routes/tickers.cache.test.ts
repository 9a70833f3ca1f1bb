// The ticker overview's response cache: a repeated request is answered without reading the
// store, yet every answer is what an uncached server would send (own request id, ETag, links of
// the request's host), and any change of the data (through this server, or another process
// writing the same store) shows on the next request.
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { nyMidnight, nyTime } from '../../src/domain/calendar.js';
import type { BarRow } from '../../src/domain/market-records.js';
import { ResponseCache, cachedBody } from '../../src/server/response-cache.js';
import { DATA_VERSION_TTL_MS } from '../../src/store/driver.js';
import type { Store } from '../../src/store/index.js';
import type { TickerRecord } from '../../src/store/records.js';
import { storePairs } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { settledDataVersion } from '../helpers/data-version.js';

const base = { locale: 'us' as const, market: 'stocks' as const, active: true, type: 'CS', last_updated_utc: '2024-01-02T00:00:00Z', valid_from: '2020-01-02', list_date: '2020-01-02' };
const TICKERS: TickerRecord[] = [
  { ...base, ticker: 'CCHE', name: 'Cache Co.', description: 'Makes caches. '.repeat(100), weighted_shares_outstanding: 1_000, branding: { logo_url: '/v1/reference/company-branding/logo/ccche.svg' } },
  { ...base, ticker: 'OTHR', name: 'Other Co.', weighted_shares_outstanding: 10 },
];
const bar = (ticker: string, date: string, c: number): BarRow => ({ ticker, t: nyMidnight(date), o: c, h: c, l: c, c, v: 100, vw: c, n: 1 });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const engine of storePairs('cache')) {
  describe(`ticker overview response cache (${engine.name})`, () => {
    let store: Store;
    let other: Store;
    let close: () => Promise<void>;
    let t: TestApp;
    let now = nyTime('2024-03-08', '12:00');
    beforeAll(async () => {
      ({ store, other, close } = await engine.open());
      await store.reference.upsertTickers(TICKERS);
      await store.market.insertBars('day', [bar('CCHE', '2024-03-04', 10), bar('CCHE', '2024-03-11', 20), bar('OTHR', '2024-03-04', 5)]);
      t = await startTestApp(store, { envelope: 'native', now: () => now });
    });
    afterAll(async () => {
      await t.close();
      await close();
    });
    afterEach(() => {
      vi.restoreAllMocks();
      now = nyTime('2024-03-08', '12:00');
    });

    it('keeps its answers while keys are made and revoked', async () => {
      await settledDataVersion(store, engine.name);
      const reads = vi.spyOn(store.reference, 'getTicker');
      expect((await t.get('/v3/reference/tickers/OTHR')).status).toBe(200);
      const made = await store.keys.create({ plan: 'free', label: 'made meanwhile' });
      await store.keys.revoke(made.record.id);
      expect((await t.get('/v3/reference/tickers/OTHR')).status).toBe(200);
      expect(reads).toHaveBeenCalledTimes(1);
    });

    it('answers a repeated request without reading the store, with its own request id', async () => {
      await settledDataVersion(store, engine.name);
      const reads = vi.spyOn(store.reference, 'getTicker');
      const first = await t.get('/v3/reference/tickers/CCHE');
      const second = await t.get('/v3/reference/tickers/CCHE');
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(reads).toHaveBeenCalledTimes(1);
      expect(second.body.request_id).toBe(second.headers['x-request-id']);
      expect(second.body.request_id).not.toBe(first.body.request_id);
      expect({ ...second.body, request_id: 'x' }).toEqual({ ...first.body, request_id: 'x' });
      expect(second.headers['content-type']).toBe(first.headers['content-type']);
      expect(second.body.results.market_cap).toBe(10_000);
    });

    it("keys answers by ticker, date and the clock's day", async () => {
      expect((await t.get('/v3/reference/tickers/OTHR')).body.results.market_cap).toBe(50);
      expect((await t.get('/v3/reference/tickers/CCHE?date=2024-03-11')).body.results.market_cap).toBe(20_000);
      expect((await t.get('/v3/reference/tickers/CCHE')).body.results.market_cap).toBe(10_000);
      now = nyTime('2024-03-11', '12:00'); // the next bar's day has come
      expect((await t.get('/v3/reference/tickers/CCHE')).body.results.market_cap).toBe(20_000);
    });

    it("never takes branding links from a request's Host header, cached or not", async () => {
      const a = await t.get('/v3/reference/tickers/CCHE', { host: 'a.example' });
      const b = await t.get('/v3/reference/tickers/CCHE', { host: 'b.example:8080' });
      // an injected request reached no address: the server's own default base
      expect(a.body.results.branding.logo_url).toBe('http://localhost/v1/reference/company-branding/logo/ccche.svg');
      expect(b.body.results.branding.logo_url).toBe('http://localhost/v1/reference/company-branding/logo/ccche.svg');
    });

    it('shows a write through the server at once', async () => {
      expect((await t.get('/v3/reference/tickers/OTHR')).body.results.market_cap).toBe(50);
      await store.market.insertBars('day', [bar('OTHR', '2024-03-07', 6)]);
      expect((await t.get('/v3/reference/tickers/OTHR')).body.results.market_cap).toBe(60);
      await store.reference.upsertTickers([{ ...TICKERS[1]!, name: 'Other Co. Renamed' }]);
      expect((await t.get('/v3/reference/tickers/OTHR')).body.results.name).toBe('Other Co. Renamed');
    });

    it(`shows another process's write within ${DATA_VERSION_TTL_MS[engine.name]} ms`, async () => {
      expect((await t.get('/v3/reference/tickers/OTHR')).body.results.market_cap).toBe(60);
      await other.market.insertBars('day', [bar('OTHR', '2024-03-08', 7)]);
      await sleep(DATA_VERSION_TTL_MS[engine.name] + 20);
      expect((await t.get('/v3/reference/tickers/OTHR')).body.results.market_cap).toBe(70);
    });

    it('keeps ETag and If-None-Match working for cached answers', async () => {
      const first = await t.get('/v3/reference/tickers/CCHE');
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^W\/"/);
      const again = await t.get('/v3/reference/tickers/CCHE');
      expect(again.headers.etag).toBe(etag);
      const notModified = await t.get('/v3/reference/tickers/CCHE', { 'if-none-match': etag });
      expect(notModified.status).toBe(304);
      await store.market.insertBars('day', [bar('CCHE', '2024-03-07', 11)]);
      const changed = await t.get('/v3/reference/tickers/CCHE', { 'if-none-match': etag });
      expect(changed.status).toBe(200);
      expect(changed.body.results.market_cap).toBe(11_000);
      expect(changed.headers.etag).not.toBe(etag);
    });

    it('compresses cached answers like any other for clients that accept gzip', async () => {
      const plain = await t.get('/v3/reference/tickers/CCHE');
      for (let i = 0; i < 2; i++) {
        const res = await t.app.inject({ method: 'GET', url: '/v3/reference/tickers/CCHE', headers: { 'x-api-key': t.key, 'accept-encoding': 'gzip' } });
        expect(res.headers['content-encoding']).toBe('gzip');
        const body = JSON.parse(gunzipSync(res.rawPayload).toString('utf8'));
        expect(body.request_id).toBe(res.headers['x-request-id']);
        expect({ ...body, request_id: 'x' }).toEqual({ ...plain.body, request_id: 'x' });
      }
    });

    it('does not cache unknown tickers or bad requests', async () => {
      expect((await t.get('/v3/reference/tickers/NOPE')).status).toBe(404);
      await store.reference.upsertTickers([{ ...base, ticker: 'NOPE', name: 'Now Listed' }]);
      expect((await t.get('/v3/reference/tickers/NOPE')).status).toBe(200);
      expect((await t.get('/v3/reference/tickers/CCHE?date=2024-02-30')).status).toBe(400);
    });

    it('reads the store on every request when the cache is turned off', async () => {
      const off = await startTestApp(store, { envelope: 'wrapped', now: () => now, config: { envelope: 'wrapped', responseCacheEntries: 0 } });
      try {
        const reads = vi.spyOn(store.reference, 'getTicker');
        for (let i = 0; i < 3; i++) expect((await off.get('/v3/reference/tickers/CCHE')).status).toBe(200);
        expect(reads).toHaveBeenCalledTimes(3);
        expect(off.app.ctx.responseCache).toBeUndefined();
      } finally {
        await off.close();
      }
    });

    it('changes the store data version on writes, not on reads, usage counts, keys, accounts or sessions', async () => {
      const counted = await store.keys.create({ plan: 'free' });
      await settledDataVersion(store, engine.name);
      const v0 = store.dataVersion();
      await store.reference.getTicker('CCHE');
      await store.market.lastDayBarBefore('CCHE', nyMidnight('2024-03-09'));
      expect(store.dataVersion()).toBe(v0);
      // the server flushes usage counts every few seconds: they must not drop every cached answer
      await store.usage.add([{ key_id: counted.record.id, day: '2024-03-08', family: '/v3/reference/tickers/:ticker', requests: 3, errors: 0 }]);
      expect(store.dataVersion()).toBe(v0);
      // nor may sign-ups, sign-ins and keys (the dashboard's API explorer makes a key per visit)
      const account = await store.accounts.create({ email: `v${engine.name}@example.com`, password_hash: 'x', plan: 'free' });
      await store.accounts.recordFailedLogin(account.id, 5, '2099-01-01T00:00:00Z');
      await store.sessions.create('a'.repeat(64), account.id, '2099-01-01T00:00:00Z');
      const token = await store.keys.create({ plan: 'free', account_id: account.id, kind: 'explorer', expires_utc: '2099-01-01T00:00:00Z' });
      await store.keys.revoke(token.record.id);
      await store.sessions.deleteForAccount(account.id);
      expect(store.dataVersion()).toBe(v0);
      await store.reference.upsertTickers([{ ...base, ticker: 'YYYY', name: 'This Writer' }]);
      const v1 = store.dataVersion();
      expect(v1).not.toBe(v0);
      await other.reference.upsertTickers([{ ...base, ticker: 'ZZZZ', name: 'Another Writer' }]);
      await sleep(DATA_VERSION_TTL_MS[engine.name] + 20);
      expect(store.dataVersion()).not.toBe(v1);
    });
  });
}

describe('ResponseCache', () => {
  it('splices each request id into the cached body', () => {
    const c = new ResponseCache(10);
    const entry = c.set('k', 'v1', '{"status":"OK","request_id":"aaaa","results":{"x":"aaaa"}}', 'aaaa')!;
    const first = cachedBody(entry, 'bbbb');
    expect(first.toString()).toBe('{"status":"OK","request_id":"bbbb","results":{"x":"aaaa"}}');
    expect(c.get('k', 'v1')).toBe(entry);
    // each answer is its own copy, and an id of another length is spliced too
    expect(cachedBody(entry, 'cccc').toString()).toBe('{"status":"OK","request_id":"cccc","results":{"x":"aaaa"}}');
    expect(first.toString()).toBe('{"status":"OK","request_id":"bbbb","results":{"x":"aaaa"}}');
    expect(cachedBody(entry, 'dddddd').toString()).toBe('{"status":"OK","request_id":"dddddd","results":{"x":"aaaa"}}');
  });

  it('keeps a body written as bytes, splicing at byte offsets past multi-byte characters', () => {
    const c = new ResponseCache(10);
    const body = '{"name":"Société Générale — 株式","request_id":"aaaa","x":"é"}';
    const entry = c.set('k', 'v1', Buffer.from(body), 'aaaa')!;
    expect(JSON.parse(cachedBody(entry, 'bbbb').toString())).toEqual({ name: 'Société Générale — 株式', request_id: 'bbbb', x: 'é' });
  });

  it('drops an entry made at another data version', () => {
    const c = new ResponseCache(10);
    c.set('k', 'v1', '{"request_id":"r1"}', 'r1');
    expect(c.get('k', 'v2')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('refuses bodies without the request id; splices it where the body writes it', () => {
    const c = new ResponseCache(10);
    expect(c.set('a', 'v', '{"status":"OK"}', 'r1')).toBeUndefined();
    expect(c.set('b', 'v', '{"x":{"request_id":"r0"},"request_id":"r2"}', 'r1')).toBeUndefined();
    expect(c.size).toBe(0);
    const entry = c.set('c', 'v', '{"results":[{"request_id":"r0"}],"request_id":"r1","count":1}', 'r1')!;
    expect(cachedBody(entry, 'r9').toString()).toBe('{"results":[{"request_id":"r0"}],"request_id":"r9","count":1}');
  });

  it('holds at most maxBytes of bodies, dropping the least recently used', () => {
    const body = (k: string) => `{"request_id":"${k}","x":"${'.'.repeat(80)}"}`; // 100 bytes less the id
    const c = new ResponseCache(100, 1100);
    for (const k of ['a', 'b', 'c']) c.set(k, 'v', body(k), k);
    const held = c.bytes;
    expect(held).toBe(3 * (body('a').length - 1));
    expect(c.get('a', 'v')).toBeDefined(); // now the most recently used
    for (const k of ['d', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l']) c.set(k, 'v', body(k), k);
    expect(c.bytes).toBeLessThanOrEqual(1100);
    expect(c.get('b', 'v')).toBeUndefined();
    expect(c.get('a', 'v')).toBeDefined();
  });

  it('keeps no body over an eighth of maxBytes', () => {
    const c = new ResponseCache(100, 800);
    expect(c.set('big', 'v', `{"request_id":"r","x":"${'.'.repeat(100)}"}`, 'r')).toBeUndefined();
    expect(c.set('small', 'v', '{"request_id":"r"}', 'r')).toBeDefined();
    expect(c.size).toBe(1);
  });

  it('counts an entry replaced or dropped at another version out of its bytes', () => {
    const c = new ResponseCache(100, 10_000);
    c.set('k', 'v1', '{"request_id":"r","x":1}', 'r');
    c.set('k', 'v1', '{"request_id":"r","x":22}', 'r');
    expect(c.bytes).toBe('{"request_id":"","x":22}'.length);
    expect(c.get('k', 'v2')).toBeUndefined();
    expect(c.bytes).toBe(0);
  });

  it('keeps a new entry when every older one was used since it was kept, dropping the oldest of those', () => {
    const c = new ResponseCache(3);
    for (const k of ['a', 'b', 'c']) c.set(k, 'v', `{"request_id":"${k}"}`, k);
    for (const k of ['a', 'b', 'c']) expect(c.get(k, 'v')).toBeDefined();
    c.set('d', 'v', '{"request_id":"d"}', 'd');
    expect(c.size).toBe(3);
    expect(c.get('d', 'v')).toBeDefined();
    expect(c.get('a', 'v')).toBeUndefined();
    expect(c.get('b', 'v')).toBeDefined();
    expect(c.get('c', 'v')).toBeDefined();
  });

  it('passes over an entry used once for one round, then drops it if it is not used again', () => {
    const c = new ResponseCache(3);
    const put = (k: string) => c.set(k, 'v', `{"request_id":"${k}"}`, k);
    for (const k of ['a', 'b', 'c']) put(k);
    expect(c.get('a', 'v')).toBeDefined();
    // (a `get` marks an entry used: only entries expected gone are asked for until the end)
    put('d'); // a, used, is put after d; b goes
    expect(c.get('b', 'v')).toBeUndefined();
    put('e'); // c goes
    expect(c.get('c', 'v')).toBeUndefined();
    put('f'); // d goes: a, passed over once, is still held
    expect(c.get('d', 'v')).toBeUndefined();
    expect(c.size).toBe(3);
    put('g'); // a was not used again: it goes
    expect(c.get('a', 'v')).toBeUndefined();
    for (const k of ['e', 'f', 'g']) expect(c.get(k, 'v')).toBeDefined();
  });

  it('holds at most maxEntries, dropping the oldest', () => {
    const c = new ResponseCache(2);
    for (const k of ['a', 'b', 'c']) c.set(k, 'v', `{"request_id":"${k}"}`, k);
    expect(c.size).toBe(2);
    expect(c.get('a', 'v')).toBeUndefined();
    expect(c.get('c', 'v')).toBeDefined();
  });
});
