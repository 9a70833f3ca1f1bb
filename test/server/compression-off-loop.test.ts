// Large answers are compressed off the event loop: the body a client decodes is the page, and
// while a page of several hundred KiB is compressed other work goes on.
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressAnswer, OFF_LOOP_BYTES } from '../../src/server/compression.js';
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
});
