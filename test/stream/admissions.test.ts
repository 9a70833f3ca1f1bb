// Connection limits when a notice or the limiter itself goes missing: a connection evicted by
// another process is closed even when the eviction's announcement never arrived, and one admitted
// while the limiter could not be asked is asked for again, so the limit holds once it answers.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { Admissions } from '../../src/stream/admissions.js';
import { MemoryConnectionLimiter } from '../../src/stream/limits.js';
import { redisChannels } from '../../src/stream/redis-broker.js';
import { RedisConnectionLimiter } from '../../src/stream/redis-limits.js';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.log('Redis admission tests skipped: REDIS_URL is not set (CI sets it).');

async function until(what: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!what()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const quiet = () => undefined;

/** An in-memory limiter whose admissions wait until answer() is called; asked() counts them. */
function slowLimiter() {
  const memory = new MemoryConnectionLimiter();
  let release: (() => void) | undefined;
  let asked = 0;
  const limiter = {
    admit: async (scope: string, id: string, limit: number) => {
      asked++;
      await new Promise<void>((r) => (release = r));
      return memory.admit(scope, id, limit);
    },
    release: (scope: string, id: string) => memory.release(scope, id),
    onEvict: () => undefined,
    evicted: async (): Promise<string[]> => [],
    close: () => memory.close(),
  };
  return { memory, limiter, answer: () => release!(), asked: () => asked };
}

describe.skipIf(!REDIS_URL)('evictions across processes (Redis)', () => {
  const conns: Redis[] = [];
  afterAll(async () => {
    for (const c of conns) c.disconnect();
  });

  it('closes a connection another process evicted though the announcement was missed', async () => {
    const prefix = `tbtest:${randomBytes(6).toString('hex')}:`;
    const channels = redisChannels(prefix);
    const [redisA, redisB, subA, subB] = [0, 1, 2, 3].map(() => new Redis(REDIS_URL!));
    conns.push(redisA!, redisB!, subA!, subB!);
    // A's subscriber never subscribes: it stands for one that was reconnecting when B announced
    await subB!.subscribe(channels.evict);
    const closedOnA: string[] = [];
    const a = new Admissions(new RedisConnectionLimiter(redisA!, subA!, channels, prefix), (id) => closedOnA.push(id), quiet, 100);
    const b = new Admissions(new RedisConnectionLimiter(redisB!, subB!, channels, prefix), quiet, quiet, 100);
    try {
      await a.admit('a-1', 'key|realtime|stocks', 1);
      await b.admit('b-1', 'key|realtime|stocks', 1);
      await until(() => closedOnA.length > 0);
      expect(closedOnA).toEqual(['a-1']);
      // B's connection, the newer one, is still recorded and stays
      expect(await redisB!.zrange(`${prefix}stream:conns:key|realtime|stocks`, 0, -1)).toEqual(['b-1']);
    } finally {
      a.close();
      b.close();
    }
  });
});

describe('admissions while the limiter cannot be asked', () => {
  it('serves the connection meanwhile and holds the limit once the limiter answers', async () => {
    let down = false;
    const memory = new MemoryConnectionLimiter();
    const limiter = {
      admit: (scope: string, id: string, limit: number) => (down ? Promise.reject(new Error('Command timed out')) : memory.admit(scope, id, limit)),
      release: (scope: string, id: string) => memory.release(scope, id),
      onEvict: () => undefined,
      evicted: () => (down ? Promise.reject(new Error('Command timed out')) : Promise.resolve([])),
      close: () => memory.close(),
    };
    const closed: string[] = [];
    const logged: string[] = [];
    const admissions = new Admissions(limiter, (id) => closed.push(id), (msg) => logged.push(msg), 60_000);
    try {
      await admissions.admit('old', 'k|realtime|stocks', 1);
      down = true;
      await admissions.admit('new', 'k|realtime|stocks', 1); // does not throw: the connection is served
      expect(closed).toEqual([]);
      expect(admissions.unrecorded).toBe(1);
      expect(logged.join('\n')).toMatch(/limiter is unavailable/);
      await admissions.sweep(); // still down: nothing changes, nothing throws
      expect(closed).toEqual([]);
      down = false;
      await admissions.sweep();
      expect(closed).toEqual(['old']);
      expect(admissions.unrecorded).toBe(0);
    } finally {
      admissions.close();
    }
  });

  it('asks the limiter once for a connection whose admission is under way when a sweep comes', async () => {
    const slow = slowLimiter();
    const closed: string[] = [];
    const admissions = new Admissions(slow.limiter, (id) => closed.push(id), quiet, 60_000);
    try {
      const admitting = admissions.admit('slow', 'k|realtime|stocks', 1);
      const sweeping = admissions.sweep();
      slow.answer();
      await Promise.all([admitting, sweeping]);
      expect(slow.asked()).toBe(1);
      // counted once: it is not evicted as its own older copy
      expect(closed).toEqual([]);
    } finally {
      admissions.close();
    }
  });

  it('does not record a connection that closed while the limiter was answering', async () => {
    const slow = slowLimiter();
    const admissions = new Admissions(slow.limiter, quiet, quiet, 60_000);
    try {
      const admitting = admissions.admit('gone', 'k|realtime|stocks', 1);
      admissions.release('gone');
      slow.answer();
      await admitting;
      // a later connection of the key is alone under the limit: nothing of 'gone' is left to count
      expect(await slow.memory.admit('k|realtime|stocks', 'next', 1)).toEqual([]);
    } finally {
      admissions.close();
    }
  });
});
