import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc32 } from '../../src/demo/png.js';
import { BRANDED, demoArticles, demoPosts, newsStep } from '../../src/demo/news.js';
import { REAL_STOCK_SYMBOLS, realTickers } from '../../src/demo/universe.js';
import { openStore, type Store } from '../../src/store/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const AS_OF = '2026-11-20';

/** Decodes an 8-bit RGBA PNG enough to prove it is well formed: chunk CRCs, header, pixel data size. */
function checkPng(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  let at = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  const types: string[] = [];
  while (at < bytes.length) {
    const len = bytes.readUInt32BE(at);
    const type = bytes.toString('ascii', at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + len);
    expect(bytes.readUInt32BE(at + 8 + len), `${type} CRC`).toBe(crc32(bytes.subarray(at + 4, at + 8 + len)));
    types.push(type);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect([data[8], data[9], data[10], data[11], data[12]]).toEqual([8, 6, 0, 0, 0]);
    }
    if (type === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  expect(types[0]).toBe('IHDR');
  expect(types[types.length - 1]).toBe('IEND');
  expect(inflateSync(Buffer.concat(idat)).length).toBe(height * (width * 4 + 1));
  return { width, height };
}

// The demo step over the real-name tickers only (the long tail plays no part in it).
describe('demo news, social posts and branding', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tb-demo-news-'));
  let store: Store;
  let t: TestApp;
  beforeAll(async () => {
    store = await openStore({ sqliteFile: ':memory:' });
    await store.reference.upsertTickers(realTickers(AS_OF));
    await newsStep.run(store, { asOf: AS_OF, scale: 1, log: () => {}, brandingDir: dir });
    t = await startTestApp(store, { envelope: 'native', config: { envelope: 'native', brandingDir: dir } });
  });
  afterAll(async () => {
    await t.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is deterministic, and running it again leaves the store as it was', async () => {
    expect(demoArticles(AS_OF, 0.1)).toEqual(demoArticles(AS_OF, 0.1));
    expect(demoPosts(AS_OF, 0.1)).toEqual(demoPosts(AS_OF, 0.1));
    const before = [await store.news.countArticles(), await store.social.countPosts()];
    const firstPage = (await t.get('/v2/reference/news?limit=50')).body.results;
    await newsStep.run(store, { asOf: AS_OF, scale: 1, log: () => {}, brandingDir: dir });
    expect([await store.news.countArticles(), await store.social.countPosts()]).toEqual(before);
    expect((await t.get('/v2/reference/news?limit=50')).body.results).toEqual(firstPage);
    expect(before[0]).toBeGreaterThanOrEqual(1400);
  });

  it('news covers the real names over ~6 months up to the as-of day, with publisher, keywords and an insight per ticker', async () => {
    const all = (await t.get('/v2/reference/news?limit=1000')).body;
    const newest = all.results[0];
    expect(newest.published_utc <= '2026-11-20T23:59:59Z').toBe(true);
    const oldest = (await t.get('/v2/reference/news?order=asc&limit=1')).body.results[0];
    expect(oldest.published_utc >= '2026-05-21').toBe(true);
    const real = new Set(REAL_STOCK_SYMBOLS);
    for (const a of all.results) {
      expect(a.tickers.length).toBeGreaterThan(0);
      for (const x of a.tickers) expect(real.has(x)).toBe(true);
      expect(a.insights.map((i: any) => i.ticker)).toEqual(a.tickers);
      expect(a.keywords.length).toBeGreaterThan(0);
      expect(a.publisher.homepage_url).toMatch(/^https:\/\/www\.[a-z]+\.example\/$/);
      expect(a.article_url.startsWith(a.publisher.homepage_url.replace(/\/$/, ''))).toBe(true);
    }
    const sentiments = new Set(all.results.flatMap((a: any) => a.insights.map((i: any) => i.sentiment)));
    expect(sentiments).toEqual(new Set(['positive', 'neutral', 'negative']));
    expect((await t.get('/v2/reference/news?ticker=AAPL')).body.count).toBe(10);
  });

  it('social rankings show the final days’ burst of chatter', async () => {
    const r = (await t.get('/v3/social?window=24h&as_of=2026-11-20&limit=5')).body;
    const top = r.results.map((x: any) => x.ticker);
    expect(top.slice(0, 3).sort()).toEqual(['COIN', 'NVDA', 'PLTR']);
    expect(r.results[0].mentions_change).toBeGreaterThan(0);
    expect(r.results[0].post_mentions).toBeGreaterThan(r.results[0].previous_mentions);
    const month = (await t.get('/v3/social?window=30d&as_of=2026-11-20&limit=1000')).body;
    expect(month.count).toBeGreaterThan(50);
    expect(month.results.every((x: any) => x.previous_mentions >= 0)).toBe(true);
  });

  it('writes an SVG logo and a valid PNG icon per branded name, linked from the ticker overview', async () => {
    expect(readdirSync(dir).length).toBe(BRANDED.length * 2);
    for (const ticker of ['AAPL', 'NVDA', 'SPY']) {
      const b = (await t.get(`/v3/reference/tickers/${ticker}`)).body.results.branding;
      const icon = await t.app.inject({ method: 'GET', url: `${new URL(b.icon_url).pathname}?apiKey=${t.key}` });
      expect(icon.statusCode).toBe(200);
      expect(icon.headers['content-type']).toBe('image/png');
      expect(checkPng(icon.rawPayload)).toEqual({ width: 64, height: 64 });
      const logo = await t.app.inject({ method: 'GET', url: `${new URL(b.logo_url).pathname}?apiKey=${t.key}` });
      expect(logo.headers['content-type']).toBe('image/svg+xml');
      expect(logo.body).toMatch(/^<\?xml[^>]*\?>\s*<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[\s\S]*<\/svg>\s*$/);
      expect(logo.body).toContain(`>${ticker}</text>`);
    }
    expect((await t.get('/v3/reference/tickers/IBM')).body.results.branding).toBeUndefined();
  });
});
