import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loggerOptions } from '../../src/server/logger.js';
import { openStore } from '../../src/store/index.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';

describe('request logs', () => {
  it('one JSON line per request with request id, key id, route, status and duration; never the key', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const store = await openStore({ sqliteFile: ':memory:' });
    await store.reference.upsertTickers(FIXTURE_TICKERS);
    const logger = pino({ ...(loggerOptions('info') as pino.LoggerOptions), transport: undefined }, sink);
    const app = await buildApp({ store, config: { envelope: 'wrapped' }, loggerInstance: logger, production: { usage: false } });
    const { key, record } = await store.keys.create({ plan: 'free' });
    try {
      const ok = await app.inject({ url: `/v3/reference/tickers/AAPL?apiKey=${key}` });
      await app.inject({ url: '/v3/reference/tickers/AAPL', headers: { authorization: `Bearer ${key}` } });
      await app.inject({ url: '/v3/reference/tickers/AAPL?apiKey=tb_wrongwrongwrong' });
      const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.msg === 'request completed');
      expect(entries).toHaveLength(3);
      expect(entries[0]).toMatchObject({
        level: 30,
        reqId: ok.headers['x-request-id'],
        key_id: record.id,
        method: 'GET',
        route: '/v3/reference/tickers/:ticker',
        url: '/v3/reference/tickers/AAPL?apiKey=[REDACTED]',
        status: 200,
      });
      expect(typeof entries[0]!.duration_ms).toBe('number');
      expect(entries[1]).toMatchObject({ key_id: record.id, status: 200 });
      expect(entries[2]).toMatchObject({ status: 401, url: '/v3/reference/tickers/AAPL?apiKey=[REDACTED]' });
      expect(entries[2]!.key_id).toBeUndefined();
      const all = lines.join('');
      expect(all).not.toContain(key);
      expect(all).not.toContain('tb_wrongwrongwrong');
    } finally {
      await app.close();
      await store.close();
    }
  });
});
