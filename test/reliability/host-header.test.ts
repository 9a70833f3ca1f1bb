import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { ServerConfig } from '../../src/server/context.js';
import { openStore, type Store } from '../../src/store/index.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';

// Links in bodies (next_url, branding URLs) must not be built from the client's Host header:
// anyone can send any Host, and a shared cache would serve the forged links to everyone. They
// come from --public-url, else (with --trust-proxy only) the proxy's X-Forwarded-*, else the
// address the connection reached. A malformed Host is a 400.

let store: Store;
beforeAll(async () => {
  store = await openStore({ sqliteFile: ':memory:' });
  await store.reference.upsertTickers(FIXTURE_TICKERS);
});
afterAll(async () => {
  await store?.close();
});

async function serverWith(config: Partial<ServerConfig>) {
  const app = await buildApp({ store, config: { envelope: 'wrapped', responseCacheEntries: 0, ...config }, production: { usage: false } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const key = (await store.keys.create({ plan: 'demo' })).key;
  /** A real HTTP request with the Host and other headers given verbatim. */
  const get = (path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; body: { data: { next_url?: string; error?: string; results?: { branding?: { logo_url?: string } } } } }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, headers: { 'x-api-key': key, ...headers } }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end();
    });
  return { app, port, get };
}

describe('links are built without trusting the Host header', () => {
  it('use the address the connection reached when no public URL is configured', async () => {
    const s = await serverWith({});
    try {
      const own = `http://127.0.0.1:${s.port}`;
      const page = await s.get('/v3/reference/tickers?limit=2', { host: 'evil.example' });
      expect(page.status).toBe(200);
      expect(page.body.data.next_url!.startsWith(`${own}/v3/reference/tickers?cursor=`)).toBe(true);
      const aapl = await s.get('/v3/reference/tickers/AAPL', { host: 'evil.example:8443' });
      expect(aapl.body.data.results!.branding!.logo_url).toBe(`${own}/v1/reference/company-branding/logo/aapl.svg`);
      // forwarded headers are ignored unless the operator trusts a proxy
      const fwd = await s.get('/v3/reference/tickers?limit=2', { host: 'localhost', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' });
      expect(fwd.body.data.next_url!.startsWith(`${own}/`)).toBe(true);
    } finally {
      await s.app.close();
    }
  });

  it('use the configured public URL whatever the headers say', async () => {
    const s = await serverWith({ publicUrl: 'https://md.example.com', trustProxy: true });
    try {
      const page = await s.get('/v3/reference/tickers?limit=2', { host: 'evil.example', 'x-forwarded-proto': 'http', 'x-forwarded-host': 'evil.example' });
      expect(page.body.data.next_url!.startsWith('https://md.example.com/v3/reference/tickers?cursor=')).toBe(true);
    } finally {
      await s.app.close();
    }
  });

  it('with --trust-proxy, follow X-Forwarded-Proto and -Host when they are well formed', async () => {
    const s = await serverWith({ trustProxy: true });
    try {
      const page = await s.get('/v3/reference/tickers?limit=2', { host: 'internal:8080', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.example.com, other.example' });
      expect(page.body.data.next_url!.startsWith('https://api.example.com/v3/reference/tickers?cursor=')).toBe(true);
      const bad = await s.get('/v3/reference/tickers?limit=2', { host: 'internal:8080', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example/phish?' });
      expect(bad.body.data.next_url!.startsWith(`http://127.0.0.1:${s.port}/`)).toBe(true);
    } finally {
      await s.app.close();
    }
  });

  it('refuse a malformed Host with 400', async () => {
    const s = await serverWith({});
    try {
      for (const host of ['evil.example/path', 'a b', '<script>', 'host:port', 'x:99999999', '@evil.example']) {
        const res = await s.get('/v3/reference/tickers?limit=2', { host });
        expect(res.status, host).toBe(400);
        expect(res.body.data.error).toBe('The Host header is not a valid host[:port]');
      }
      for (const host of ['localhost', 'api.example.com:8443', '127.0.0.1:80', '[::1]:8080']) {
        expect((await s.get('/v3/reference/tickers?limit=2', { host })).status, host).toBe(200);
      }
    } finally {
      await s.app.close();
    }
  });
});
