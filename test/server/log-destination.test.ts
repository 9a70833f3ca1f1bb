// The server's log lines are written in batches: none is lost or reordered, nothing held is
// written before its batch is full or flushed, and a descriptor that cannot be written is counted,
// not thrown to the request that logged.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { BatchedLogDestination } from '../../src/server/log-destination.js';
import { AccessLog } from '../../src/server/logger.js';

const dir = mkdtempSync(join(tmpdir(), 'tb-logdest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('batched log destination', () => {
  it('writes every line once, in order, a batch at a time, and what is held on flush', () => {
    const file = join(dir, 'a.log');
    const fd = openSync(file, 'w');
    const dest = new BatchedLogDestination(fd, 1000);
    const logger = pino({ base: undefined, timestamp: false }, dest);
    for (let i = 0; i < 30; i++) logger.info({ i, text: 'é'.repeat(10) }, 'line');
    // 30 lines of about 50 characters: whole batches of 1,000 written, the rest held
    const written = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBeLessThan(30);
    dest.flushSync();
    const all = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { i: number; text: string });
    expect(all.map((l) => l.i)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(all.every((l) => l.text === 'é'.repeat(10))).toBe(true);
    closeSync(fd);
  });

  it('counts a batch it cannot write instead of throwing', () => {
    const file = join(dir, 'b.log');
    closeSync(openSync(file, 'w'));
    const fd = openSync(file, 'r'); // read-only: every write fails (EBADF)
    const dest = new BatchedLogDestination(fd, 10);
    expect(() => dest.write('{"msg":"a line longer than the batch"}\n')).not.toThrow();
    expect(dest.dropped).toBe(1);
    closeSync(fd);
  });

  it('access lines encoded into the batch are the very text lines written to any other stream', () => {
    const file = join(dir, 'c.log');
    const fd = openSync(file, 'w');
    const dest = new BatchedLogDestination(fd, 2000);
    const batched = new AccessLog(pino({ level: 'info' }, dest) as never, { kind: 'all' }, 'reqId');
    const texts: string[] = [];
    const plain = new AccessLog(pino({ level: 'info' }, { write: (l: string) => void texts.push(l) }) as never, { kind: 'all' }, 'reqId');
    const noop = { info: () => {}, error: () => {} };
    const field = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\n', 'é', '€', '\ud83d', '[', '?', '&', '='), fc.string({ minLength: 1, maxLength: 1, unit: 'binary' })), maxLength: 40 });
    const call = fc.record({
      id: fc.oneof(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 }), field),
      method: fc.constantFrom('GET', 'POST', 'DELETE', 'HEAD'),
      url: fc.oneof(fc.constant('/v3/reference/tickers/AAPL'), field.map((f) => `/v2/aggs/ticker/${f}?apiKey=secret&limit=5`)),
      route: fc.option(fc.constantFrom('/v3/reference/tickers/:ticker', '/v2/aggs/ticker/:stocksTicker/range/:multiplier/:timespan/:from/:to', '/"quoted"'), { nil: undefined }),
      keyId: fc.option(fc.oneof(fc.constant('key_491b98ef6de9'), field), { nil: undefined }),
      status: fc.constantFrom(200, 304, 400, 401, 404, 429, 500, 503),
      elapsed: fc.oneof(fc.double({ min: 0, max: 100_000, noNaN: true }), fc.constantFrom(0, 0.004, 0.005, 1.5, 10, 99.999)),
    });
    fc.assert(
      fc.property(fc.array(call, { maxLength: 30 }), (calls) => {
        for (const c of calls) {
          batched.line(c.id, c.method, c.url, c.route, c.keyId, c.status, c.elapsed, noop);
          plain.line(c.id, c.method, c.url, c.route, c.keyId, c.status, c.elapsed, noop);
        }
        return true;
      }),
    );
    dest.flushSync();
    closeSync(fd);
    const times = /"time":\d+/;
    const written = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const expected = texts.join('').split('\n').filter(Boolean);
    expect(written.length).toBeGreaterThan(100);
    expect(written.map((l) => l.replace(times, '"time":0'))).toEqual(expected.map((l) => l.replace(times, '"time":0')));
    expect(written.every((l) => Math.abs((JSON.parse(l) as { time: number }).time - Date.now()) < 60_000)).toBe(true);
  });
});
