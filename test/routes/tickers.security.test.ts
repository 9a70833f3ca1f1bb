import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loggerOptions } from '../../src/server/logger.js';
import { engines } from '../helpers/engines.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';
import { sqlOf } from '../../src/store/inspect.js';

for (const engine of engines()) {
  describe(`API keys (${engine.name})`, () => {
    const { store, t } = useSeededApp(engine, (store) => store.reference.upsertTickers(FIXTURE_TICKERS));

    const inject = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

    it('accepts the key from api_key, apiKey, X-API-Key and Authorization: Bearer', async () => {
      expect((await inject(`/v3/reference/tickers/AAPL?api_key=${t.key}`)).statusCode).toBe(200);
      expect((await inject(`/v3/reference/tickers/AAPL?apiKey=${t.key}`)).statusCode).toBe(200);
      expect((await inject('/v3/reference/tickers/AAPL', { 'x-api-key': t.key })).statusCode).toBe(200);
      expect((await inject('/v3/reference/tickers/AAPL', { authorization: `Bearer ${t.key}` })).statusCode).toBe(200);
    });

    it('401 without a key, with an unknown key, and a header wins over the query', async () => {
      const none = await inject('/v3/reference/tickers/AAPL');
      expect(none.statusCode).toBe(401);
      expect(none.json().data).toMatchObject({ status: 'ERROR', error: 'API Key was not provided' });
      const unknown = await inject('/v3/reference/tickers/AAPL?apiKey=tb_not_a_real_key');
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json().data.error).toBe('Unknown API Key');
      // A bad header is not rescued by a good query key: the header is the one used.
      expect((await inject(`/v3/reference/tickers/AAPL?apiKey=${t.key}`, { 'x-api-key': 'tb_wrong' })).statusCode).toBe(401);
      expect((await inject('/v3/reference/tickers/AAPL?apiKey=tb_wrong', { authorization: `Bearer ${t.key}` })).statusCode).toBe(200);
    });

    it('checks the key before the parameters', async () => {
      expect((await inject('/v3/reference/tickers?limit=0')).statusCode).toBe(401);
    });

    it('refuses a revoked key and an expired one', async () => {
      const { key, record } = await store.keys.create({ plan: 'demo' });
      expect((await inject(`/v3/reference/tickers/AAPL?apiKey=${key}`)).statusCode).toBe(200);
      expect(await store.keys.revoke(record.id)).toBe(true);
      t.app.ctx.auth.forget();
      const res = await inject(`/v3/reference/tickers/AAPL?apiKey=${key}`);
      expect(res.statusCode).toBe(401);
      expect(res.json().data.error).toContain('revoked');
      const expired = await store.keys.create({ plan: 'demo', expires_utc: '2001-01-01T00:00:00.000Z' });
      expect((await inject(`/v3/reference/tickers/AAPL?apiKey=${expired.key}`)).statusCode).toBe(401);
    });

    it('stores only a SHA-256 hash of each key', async () => {
      const { key } = await store.keys.create({ plan: 'free', label: 'hash check' });
      const rows = await sqlOf(store).all('SELECT * FROM api_keys');
      const dump = JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
      expect(dump).not.toContain(key);
      expect(dump).not.toContain(key.slice(7));
      expect(key.length).toBeGreaterThanOrEqual(3 + 32); // >= 128 random bits in base64url
    });

    it('never puts the key in next_url', async () => {
      const res = await inject(`/v3/reference/tickers?limit=1&apiKey=${t.key}`);
      const next = res.json().data.next_url as string;
      expect(next).toBeDefined();
      expect(next).not.toContain(t.key);
      expect(next).not.toMatch(/api_?key/i);
    });

    it('never writes the key to the request log', async () => {
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      });
      const opts = loggerOptions('info') as pino.LoggerOptions;
      const logger = pino({ ...opts, transport: undefined }, sink);
      const app = await buildApp({ store, config: { envelope: 'wrapped' }, loggerInstance: logger });
      try {
        await app.inject({ method: 'GET', url: `/v3/reference/tickers/AAPL?apiKey=${t.key}&x=1` });
        await app.inject({ method: 'GET', url: `/v3/reference/tickers/AAPL?api_key=${t.key}` });
        await app.inject({ method: 'GET', url: '/v3/reference/tickers/AAPL', headers: { 'x-api-key': t.key, authorization: `Bearer ${t.key}` } });
        await app.inject({ method: 'GET', url: `/v3/reference/tickers/NOPE?apiKey=${t.key}` });
        // percent-encoded names reach the same key parameter through the query parser
        const encoded = await app.inject({ method: 'GET', url: `/v3/reference/tickers/AAPL?x=1&api%5Fkey=${t.key}#frag` });
        expect(encoded.statusCode).toBe(200);
        await app.inject({ method: 'GET', url: `/v3/reference/tickers/AAPL?apiKe%79=${t.key}` });
        await app.inject({ method: 'GET', url: `/v3/reference/tickers/ZZZZ?%61pi_key=${t.key}&ticker=%` });
      } finally {
        await app.close();
      }
      const log = lines.join('');
      expect(lines.length).toBeGreaterThan(3);
      expect(log).toContain('[REDACTED]');
      expect(log).not.toContain(t.key);
    });
  });
}
