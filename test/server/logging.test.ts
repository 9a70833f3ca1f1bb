import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loggerOptions, parseAccessLogMode, type AccessLogMode } from '../../src/server/logger.js';
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

  /** Access lines of the answers to `urls` asked in turn, with the app's access-log mode. */
  async function accessLines(mode: AccessLogMode, urls: (key: string) => string[]): Promise<Array<Record<string, unknown>>> {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter((l) => l !== ''));
        done();
      },
    });
    const store = await openStore({ sqliteFile: ':memory:' });
    await store.reference.upsertTickers(FIXTURE_TICKERS);
    const logger = pino({ ...(loggerOptions('info') as pino.LoggerOptions), transport: undefined }, sink);
    const app = await buildApp({ store, config: { envelope: 'wrapped' }, loggerInstance: logger, production: { usage: false, accessLog: mode } });
    const { key } = await store.keys.create({ plan: 'demo' });
    try {
      for (const url of urls(key)) await app.inject({ url });
      return lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.msg === 'request completed');
    } finally {
      await app.close();
      await store.close();
    }
  }

  const sixOkOneUnknownKey = (key: string) => [
    ...Array.from({ length: 6 }, () => `/v3/reference/tickers/AAPL?apiKey=${key}`),
    '/v3/reference/tickers/AAPL?apiKey=tb_wrongwrongwrong',
  ];

  it('--access-log errors writes lines for error answers only', async () => {
    const entries = await accessLines(parseAccessLogMode('errors'), sixOkOneUnknownKey);
    expect(entries.map((e) => e.status)).toEqual([401]);
  });

  it('--access-log sample:3 writes every error and one in three other answers', async () => {
    const entries = await accessLines(parseAccessLogMode('sample:3'), sixOkOneUnknownKey);
    expect(entries.map((e) => e.status)).toEqual([200, 200, 401]);
  });

  it('--access-log off writes no access line; all writes one per request', async () => {
    expect(await accessLines(parseAccessLogMode('off'), sixOkOneUnknownKey)).toEqual([]);
    expect(await accessLines(parseAccessLogMode('all'), sixOkOneUnknownKey)).toHaveLength(7);
  });

  it('refuses an access-log mode it does not know, naming the flag', () => {
    for (const bad of ['some', 'sample:0', 'sample:', 'sample:x', '']) expect(() => parseAccessLogMode(bad)).toThrow(/--access-log/);
    expect(parseAccessLogMode(' Sample:10 ')).toEqual({ kind: 'sample', every: 10 });
  });
});
