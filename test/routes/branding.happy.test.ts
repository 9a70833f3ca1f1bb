import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../../src/demo/png.js';
import type { Store } from '../../src/store/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4" fill="#123456"/></svg>';
const PNG = encodePng(3, 3, (x, y) => [x * 80, y * 80, 0, 255]);
const JPG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([4, 0, 0, 0]), Buffer.from('WEBP')]);

for (const engine of engines()) {
  describe(`branding images (${engine.name})`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'tb-branding-'));
    let store: Store;
    let t: TestApp;
    let native: TestApp;
    beforeAll(async () => {
      writeFileSync(join(dir, 'aapl_logo.svg'), SVG);
      writeFileSync(join(dir, 'aapl_icon.png'), PNG);
      writeFileSync(join(dir, 'photo.JPG'), JPG);
      writeFileSync(join(dir, 'pic.jpeg'), JPG);
      writeFileSync(join(dir, 'mark.webp'), WEBP);
      mkdirSync(join(dir, 'd3d3LmFwcGxlLmNvbQ'));
      writeFileSync(join(dir, 'd3d3LmFwcGxlLmNvbQ', '2022-01-10_icon.png'), PNG);
      store = await engine.open();
      const aapl = FIXTURE_TICKERS.find((x) => x.ticker === 'AAPL')!;
      await store.reference.upsertTickers([{ ...aapl, branding: { logo_url: '/v1/reference/company-branding/logo/aapl_logo.svg', icon_url: '/v1/reference/company-branding/icon/aapl_icon.png' } }]);
      t = await startTestApp(store, { config: { envelope: 'wrapped', brandingDir: dir } });
      native = await startTestApp(store, { envelope: 'native', publicUrl: 'https://md.example.com', config: { envelope: 'native', brandingDir: dir } });
    });
    afterAll(async () => {
      await t.close();
      await native.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const fetchRaw = (app: TestApp, url: string, headers: Record<string, string> = {}) =>
      app.app.inject({ method: 'GET', url, headers: { 'x-api-key': app.key, ...headers } });

    it('serves the bytes with the content type of the extension, unwrapped in either envelope', async () => {
      const cases: [string, string, Buffer][] = [
        ['/v1/reference/company-branding/logo/aapl_logo.svg', 'image/svg+xml', Buffer.from(SVG)],
        ['/v1/reference/company-branding/icon/aapl_icon.png', 'image/png', PNG],
        ['/v1/reference/company-branding/icon/photo.JPG', 'image/jpeg', JPG],
        ['/v1/reference/company-branding/logo/pic.jpeg', 'image/jpeg', JPG],
        ['/v1/reference/company-branding/icon/mark.webp', 'image/webp', WEBP],
      ];
      for (const app of [t, native]) {
        for (const [url, type, bytes] of cases) {
          const res = await fetchRaw(app, url);
          expect(res.statusCode, url).toBe(200);
          expect(res.headers['content-type']).toBe(type);
          expect(res.rawPayload.equals(bytes)).toBe(true);
          expect(res.headers['cache-control']).toBe('private, max-age=86400');
          expect(res.headers['x-content-type-options']).toBe('nosniff');
          expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
        }
      }
    });

    it('keeps an SVG opened directly from running scripts', async () => {
      const res = await fetchRaw(t, '/v1/reference/company-branding/logo/aapl_logo.svg');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect(res.headers['content-security-policy']).toContain('sandbox');
    });

    it('sends an ETag and answers 304 to a matching If-None-Match', async () => {
      const url = '/v1/reference/company-branding/icon/aapl_icon.png';
      const first = await fetchRaw(t, url);
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      const again = await fetchRaw(t, url, { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect((await fetchRaw(t, url, { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
      expect((await fetchRaw(t, url, { 'if-none-match': '"other"' })).statusCode).toBe(200);
      // another image has another tag, and a changed file gets a new one
      expect((await fetchRaw(t, '/v1/reference/company-branding/logo/aapl_logo.svg')).headers.etag).not.toBe(etag);
      writeFileSync(join(dir, 'changing.png'), encodePng(1, 1, () => [1, 2, 3, 255]));
      const a = (await fetchRaw(t, '/v1/reference/company-branding/icon/changing.png')).headers.etag;
      writeFileSync(join(dir, 'changing.png'), encodePng(1, 1, () => [9, 9, 9, 255]));
      const b = await fetchRaw(t, '/v1/reference/company-branding/icon/changing.png', { 'if-none-match': String(a) });
      expect(b.statusCode).toBe(200);
      expect(b.headers.etag).not.toBe(a);
    });

    it('serves the upstream path form from <dir>/<domainB64>/<file>', async () => {
      const res = await fetchRaw(t, '/v1/reference/company-branding/d3d3LmFwcGxlLmNvbQ/images/2022-01-10_icon.png');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.rawPayload.equals(PNG)).toBe(true);
    });

    it('ticker overview links are absolute, keyless, and fetch the image once a key is appended', async () => {
      const overview = (await native.get('/v3/reference/tickers/AAPL')).body.results;
      expect(overview.branding.logo_url).toBe('https://md.example.com/v1/reference/company-branding/logo/aapl_logo.svg');
      expect(overview.branding.icon_url).toBe('https://md.example.com/v1/reference/company-branding/icon/aapl_icon.png');
      const u = new URL(overview.branding.icon_url);
      const res = await native.app.inject({ method: 'GET', url: `${u.pathname}?apiKey=${native.key}` });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(PNG)).toBe(true);
    });

    it('unknown files are 404 with the error body of the envelope', async () => {
      const res = await t.get('/v1/reference/company-branding/logo/nope.svg');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ ok: false, data: { status: 'NOT_FOUND' } });
      const n = await native.get('/v1/reference/company-branding/icon/nope.png');
      expect(n.body.status).toBe('NOT_FOUND');
    });
  });
}
