// The server's log lines are written in batches: none is lost or reordered, nothing held is
// written before its batch is full or flushed, and a descriptor that cannot be written is counted,
// not thrown to the request that logged.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { BatchedLogDestination } from '../../src/server/log-destination.js';

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
});
