// Large answers are compressed off the event loop: the body a client decodes is the page, and
// while a page of several hundred KiB is compressed other work goes on, also the first time a
// large cached answer is gzipped (later requests splice their request id into the same pieces).
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressAnswer, OFF_LOOP_BYTES } from '../../src/server/compression.js';
import { BodyPieces } from '../../src/server/body-pieces.js';
import { CachedBodyStream, ResponseCache } from '../../src/server/response-cache.js';
import { openStore, type Store } from '../../src/store/index.js';
import { bulkTickers } from '../helpers/reference-fixture.js';
import { productionApp, type ProductionTestApp } from './production-app.js';

describe('compression of large answers', () => {
  let store: Store;
  let t: ProductionTestApp;
  let key: string;
  beforeAll(async () => {
    store = await openStore({ sqliteFile: ':memory:' });
    await store.reference.upsertTickers(bulkTickers(1200, 'LG').map((r) => ({ ...r, name: `${r.name} Consolidated Industrial Holdings and Manufacturing Company International` })));
    t = await productionApp(store, { envelope: 'native', production: { usage: false } });
    key = await t.key('demo');
  });
  afterAll(async () => {
    await t.close();
    await store.close();
  });

  it('answers a page over the threshold in every encoding, decoding to the same body', async () => {
    // a new limit each time: every answer is written and compressed anew, none from the cache
    const plain = await t.app.inject({ url: '/v3/reference/tickers?limit=1000', headers: { 'x-api-key': key } });
    expect(plain.rawPayload.length).toBeGreaterThanOrEqual(OFF_LOOP_BYTES);
    const expected = { ...JSON.parse(plain.body), request_id: 'x' };
    const decode = { br: brotliDecompressSync, gzip: gunzipSync, deflate: inflateSync };
    let limit = 999;
    for (const encoding of ['br', 'gzip', 'deflate'] as const) {
      const res = await t.app.inject({ url: `/v3/reference/tickers?limit=${limit}`, headers: { 'x-api-key': key, 'accept-encoding': encoding } });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      const body = JSON.parse(decode[encoding](res.rawPayload).toString('utf8'));
      expect(body.request_id).toBe(res.headers['x-request-id']);
      expect(body.results).toEqual(expected.results.slice(0, limit));
      limit--;
    }
  });

  it('lets the event loop turn while a large body is compressed', async () => {
    const reply = { statusCode: 200, h: {} as Record<string, unknown>, getHeader(n: string) { return this.h[n]; }, header(n: string, v: unknown) { this.h[n] = v; return this; }, removeHeader(n: string) { delete this.h[n]; } };
    const body = Buffer.from(JSON.stringify({ results: bulkTickers(8000) }));
    let turned = false;
    setImmediate(() => (turned = true));
    const out = compressAnswer({ headers: { 'accept-encoding': 'br' } } as unknown as FastifyRequest, reply as unknown as FastifyReply, body, 1024);
    expect(turned).toBe(false);
    const bytes = await out;
    expect(turned).toBe(true);
    expect(brotliDecompressSync(bytes as Buffer).equals(body)).toBe(true);
    expect(reply.h['content-length']).toBe((bytes as Buffer).length);
  });

  it('lets the event loop turn while a large cached answer is gzipped the first time, and splices each request id into the same pieces', async () => {
    const fakeReply = () => ({ statusCode: 200, h: {} as Record<string, unknown>, getHeader(n: string) { return this.h[n]; }, header(n: string, v: unknown) { this.h[n] = v; return this; }, removeHeader(n: string) { delete this.h[n]; } });
    const items = Buffer.from(JSON.stringify(bulkTickers(8000)));
    const body = (id: string) => [Buffer.from(`{"request_id":"${id}","results":`), items, Buffer.from('}')];
    const cache = new ResponseCache(10, 64 * 2 ** 20);
    const cached = cache.set('k', 'v1', body('first-id'), 'first-id')!;
    expect(cached.bytes).toBeGreaterThan(OFF_LOOP_BYTES);
    const ask = (id: string) => {
      const req = { id, headers: { 'accept-encoding': 'gzip' }, cachedBody: cached } as unknown as FastifyRequest;
      const reply = fakeReply();
      return { out: compressAnswer(req, reply as unknown as FastifyReply, new CachedBodyStream(cached, id), 1024), reply };
    };
    let turned = false;
    setImmediate(() => (turned = true));
    const first = ask('id-1');
    const second = ask('id-22');
    expect(first.out).toBeInstanceOf(Promise);
    expect(turned).toBe(false);
    const [a, b] = (await Promise.all([first.out, second.out])) as Buffer[];
    expect(turned).toBe(true);
    expect(gunzipSync(a!).equals(Buffer.concat(body('id-1')))).toBe(true);
    expect(gunzipSync(b!).equals(Buffer.concat(body('id-22')))).toBe(true);
    expect(first.reply.h['content-length']).toBe(a!.length);
    // made once: the next request is answered at once from the same pieces
    const third = ask('id-333');
    expect(Buffer.isBuffer(third.out)).toBe(true);
    expect(gunzipSync(third.out as Buffer).equals(Buffer.concat(body('id-333')))).toBe(true);
  });

  it('hands a large body to the socket a bounded piece at a time, as the reader takes them', async () => {
    const pieces = [Buffer.alloc(3 * 2 ** 20, 'a'), Buffer.from(',"id":"x",'), Buffer.alloc(5 * 2 ** 20 + 7, 'b')];
    const stream = new BodyPieces(pieces);
    const chunks: Buffer[] = [];
    let held = 0; // what was pushed but not yet read, at most
    stream.on('data', (c: Buffer) => {
      chunks.push(c);
      held = Math.max(held, stream.readableLength);
    });
    await new Promise((resolve) => stream.on('end', resolve));
    expect(held).toBeLessThanOrEqual(2 ** 20); // never the whole body
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThanOrEqual(2 ** 20);
    expect(chunks.length).toBeGreaterThan(8);
    expect(Buffer.concat(chunks).equals(Buffer.concat(pieces))).toBe(true);
  });
});
