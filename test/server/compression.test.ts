import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { compressAnswer, negotiateEncoding } from '../../src/server/compression.js';
import { engines } from '../helpers/engines.js';
import { bulkTickers, FIXTURE_TICKERS } from '../helpers/reference-fixture.js';
import { productionApp } from './production-app.js';
import { useStoreAndApps } from '../helpers/app-fixture.js';

describe('Accept-Encoding negotiation', () => {
  it.each([
    ['gzip', 'gzip'],
    ['gzip, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0.4, deflate;q=0.8', 'deflate'],
    ['x-gzip', 'gzip'],
    ['BR', 'br'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['gzip;q=0', undefined],
    ['identity', undefined],
    ['compress, zstd-unknown', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%s -> %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

/** A reply with just what compressAnswer uses. */
function fakeReply(headers: Record<string, string | number>, statusCode = 200) {
  const h: Record<string, string | number> = { ...headers };
  const reply = {
    statusCode,
    headers: h,
    getHeader: (name: string) => h[name],
    header: (name: string, value: string | number) => {
      h[name] = value;
      return reply;
    },
  };
  return reply;
}

const fakeRequest = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;
const BIG = JSON.stringify({ results: Array.from({ length: 200 }, (_, i) => ({ ticker: `T${i}`, name: 'Some Company Inc.' })) });

describe('compressAnswer', () => {
  it('compresses a large JSON answer and says so in Content-Encoding, Content-Length and Vary', () => {
    const reply = fakeReply({ 'content-type': 'application/json; charset=utf-8' });
    const out = compressAnswer(fakeRequest({ 'accept-encoding': 'gzip' }), reply as unknown as FastifyReply, BIG, 1024) as Buffer;
    expect(gunzipSync(out).toString()).toBe(BIG);
    expect(reply.headers['content-encoding']).toBe('gzip');
    expect(reply.headers['content-length']).toBe(out.length);
    expect(reply.headers.vary).toBe('accept-encoding');
  });

  it('leaves small answers, images, partial content, encoded bodies and x-no-compression alone', () => {
    const accept = { 'accept-encoding': 'gzip, br' };
    const cases: [Record<string, string>, Record<string, string>, number, string | Buffer][] = [
      [accept, { 'content-type': 'application/json' }, 200, '{"small":true}'],
      [accept, { 'content-type': 'image/png' }, 200, Buffer.alloc(4096, 7)],
      [accept, { 'content-type': 'application/json' }, 206, BIG],
      [accept, { 'content-type': 'application/json', 'content-encoding': 'gzip' }, 200, BIG],
      [{ ...accept, 'x-no-compression': '1' }, { 'content-type': 'application/json' }, 200, BIG],
      [{}, { 'content-type': 'application/json' }, 200, BIG],
    ];
    for (const [reqHeaders, replyHeaders, status, payload] of cases) {
      const reply = fakeReply(replyHeaders, status);
      expect(compressAnswer(fakeRequest(reqHeaders), reply as unknown as FastifyReply, payload, 1024)).toBe(payload);
      expect(reply.headers['content-encoding']).toBe(replyHeaders['content-encoding']);
    }
  });

  it('compresses SVG and other text types, and bodies given as bytes', () => {
    const reply = fakeReply({ 'content-type': 'image/svg+xml' });
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="4" height="4"/>'.repeat(100)}</svg>`);
    const out = compressAnswer(fakeRequest({ 'accept-encoding': 'br' }), reply as unknown as FastifyReply, svg, 1024) as Buffer;
    expect(brotliDecompressSync(out).equals(svg)).toBe(true);
  });
});

for (const engine of engines()) {
  describe(`compressed API answers (${engine.name})`, () => {
    const { apps: [t] } = useStoreAndApps(
      engine,
      (store) => store.reference.upsertTickers([...FIXTURE_TICKERS, ...bulkTickers(300)]),
      (store) => productionApp(store, { production: { usage: false } }),
    );
    let key: string;
    beforeAll(async () => {
      key = await t.key('demo');
    });

    it('deflate when the client prefers it; Vary names accept-encoding once beside the key headers', async () => {
      const url = '/v3/reference/tickers?limit=300';
      const res = await t.app.inject({ url, headers: { 'x-api-key': key, 'accept-encoding': 'gzip;q=0.5, deflate' } });
      expect(res.headers['content-encoding']).toBe('deflate');
      expect(JSON.parse(inflateSync(res.rawPayload).toString()).data.count).toBe(300);
      const vary = String(res.headers.vary).split(',').map((v) => v.trim().toLowerCase());
      expect(vary.filter((v) => v === 'accept-encoding')).toHaveLength(1);
      expect(vary).toEqual(expect.arrayContaining(['authorization', 'x-api-key']));
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    });

    it('a 304 for a compressed answer carries no body', async () => {
      const url = '/v3/reference/tickers?limit=300';
      const first = await t.app.inject({ url, headers: { 'x-api-key': key, 'accept-encoding': 'gzip' } });
      const again = await t.app.inject({ url, headers: { 'x-api-key': key, 'accept-encoding': 'gzip', 'if-none-match': String(first.headers.etag) } });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers['content-encoding']).toBeUndefined();
    });

    it('the docs page, outside the API routes, is still compressed by the plugin', async () => {
      const res = await t.app.inject({ url: '/openapi.json', headers: { 'accept-encoding': 'gzip' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(res.rawPayload).toString()).openapi).toMatch(/^3\./);
    });
  });
}
