import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openStore, type Store } from '../../src/store/index.js';
import { bulkTickers, FIXTURE_TICKERS } from '../helpers/reference-fixture.js';

// One answer goes out as identity, gzip or br bytes. Its ETag must not claim those bytes are
// the same (a strong ETag does): caches and If-None-Match stay correct with a weak one, and a
// client revalidating under any encoding gets its 304.

const URL_ = '/v3/reference/tickers?limit=200';
const ENCODINGS = ['identity', 'gzip', 'br'] as const;

let store: Store;
let app: Awaited<ReturnType<typeof buildApp>>;
let key: string;

beforeAll(async () => {
  store = await openStore({ sqliteFile: ':memory:' });
  await store.reference.upsertTickers([...FIXTURE_TICKERS, ...bulkTickers(150)]);
  app = await buildApp({ store, config: { envelope: 'wrapped', responseCacheEntries: 0 }, production: { usage: false } });
  key = (await store.keys.create({ plan: 'demo' })).key;
});
afterAll(async () => {
  await app?.close();
  await store?.close();
});

const fetchAs = (encoding: string, ifNoneMatch?: string) =>
  app.inject({ url: URL_, headers: { 'x-api-key': key, 'accept-encoding': encoding, ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}) } });

describe('ETag across content encodings', () => {
  it('is weak, so different bytes of the same answer never share a strong validator', async () => {
    const answers = await Promise.all(ENCODINGS.map((e) => fetchAs(e)));
    expect(answers.map((a) => a.headers['content-encoding'])).toEqual([undefined, 'gzip', 'br']);
    const raw = answers.map((a) => a.rawPayload);
    expect(raw[0]!.equals(raw[1]!)).toBe(false);
    // the same answer underneath
    const json = [raw[0]!.toString(), gunzipSync(raw[1]!).toString(), brotliDecompressSync(raw[2]!).toString()].map((t) => JSON.parse(t).data.results);
    expect(json[1]).toEqual(json[0]);
    expect(json[2]).toEqual(json[0]);
    for (const a of answers) expect(a.headers.etag).toMatch(/^W\/"[\w-]+"$/);
    expect(new Set(answers.map((a) => a.headers.etag)).size).toBe(1);
    for (const a of answers) expect(String(a.headers.vary)).toMatch(/accept-encoding/i);
  });

  for (const first of ENCODINGS) {
    for (const again of ENCODINGS) {
      it(`a validator got under ${first} revalidates under ${again} with 304`, async () => {
        const etag = String((await fetchAs(first)).headers.etag);
        const res = await fetchAs(again, etag);
        expect(res.statusCode).toBe(304);
        expect(res.body).toBe('');
        expect(res.headers.etag).toBe(etag);
        // a client that stripped the W/ prefix still matches (If-None-Match compares weakly)
        expect((await fetchAs(again, etag.replace(/^W\//, ''))).statusCode).toBe(304);
      });
    }
  }

  it('a changed answer does not match the old validator under any encoding', async () => {
    const etag = String((await fetchAs('gzip')).headers.etag);
    await store.reference.upsertTickers([{ ...FIXTURE_TICKERS[0]!, name: 'Apple Renamed Inc.' }]);
    for (const e of ENCODINGS) expect((await fetchAs(e, etag)).statusCode).toBe(200);
  });
});
