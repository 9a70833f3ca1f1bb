// Catch-up, Tickerbase's own extension: a client that reconnects subscribes with `since` (the
// time of the last event it received) and first gets exactly the events of its topics it missed,
// then the live ones; across processes, from another process than the one it left.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../src/server/rate-limit.js';
import { RawClient, startFeedServer, type FeedServer } from './feed-helpers.js';

const REDIS_URL = process.env.REDIS_URL;
const T0 = 1_749_825_065_000;
const trade = (sym: string, n: number) => ({ ev: 'T', sym, x: 4, i: `${sym}${n}`, p: 10 + n, s: 100, t: T0 + n, q: n });

async function subscribed(server: FeedServer, key: string, msg: Record<string, unknown>): Promise<{ c: RawClient; reply: string[] }> {
  const c = await RawClient.ready(`${server.base}/stocks`, key);
  c.send({ action: 'subscribe', ...msg });
  return { c, reply: [] };
}

describe('catch-up on one process', () => {
  let server: FeedServer;
  let key: string;

  beforeAll(async () => {
    server = await startFeedServer();
    key = await server.keyFor('demo');
  });
  afterAll(async () => server?.close());

  it('sends exactly the missed events of the topics subscribed with since, then the live ones', async () => {
    const first = (await subscribed(server, key, { params: 'T.CAT' })).c;
    await first.next();
    await server.streaming.publish([trade('CAT', 1), trade('CAT', 2)]);
    const seen = await first.events(2);
    first.close();
    await first.closed;
    // published while the client was away: two of its topic, others it does not hold
    await server.streaming.publish([trade('CAT', 3), trade('DOG', 4), { ev: 'Q', sym: 'CAT', bx: 1, bp: 9, bs: 1, ax: 1, ap: 11, as: 1, t: T0 + 5, q: 5, z: 3 }, trade('CAT', 6)]);

    const again = (await subscribed(server, key, { params: 'T.CAT', since: seen[1]!.t })).c;
    expect(await again.nextStatus()).toBe('success: subscribed to: T.CAT');
    expect(await again.events(2)).toEqual([trade('CAT', 3), trade('CAT', 6)]);
    expect(await again.nextStatus()).toBe(`success: caught up: 2 events since ${T0 + 2}`);
    await server.streaming.publish([trade('CAT', 7)]);
    expect(await again.events(1)).toEqual([trade('CAT', 7)]);
    again.close();
  });

  it('leaves a client that does not ask as it was: no history, only live events', async () => {
    await server.streaming.publish([trade('OWL', 1)]);
    const c = (await subscribed(server, key, { params: 'T.OWL' })).c;
    expect(await c.nextStatus()).toBe('success: subscribed to: T.OWL');
    await server.streaming.publish([trade('OWL', 2)]);
    expect(await c.events(1)).toEqual([trade('OWL', 2)]);
    c.close();
  });

  it('refuses a since that is not a time in ms, and says when the history does not reach back that far', async () => {
    const c = (await subscribed(server, key, { params: 'T.EEL', since: 'yesterday' })).c;
    expect(await c.nextStatus()).toBe('error: since must be a timestamp in Unix milliseconds, on subscribe');
    c.send({ action: 'subscribe', params: 'T.EEL', since: 0 });
    expect(await c.nextStatus()).toBe('success: subscribed to: T.EEL');
    expect(await c.nextStatus()).toBe('success: partly caught up: 0 events since 0; older events are no longer kept');
    c.close();
  });
});

describe.skipIf(!REDIS_URL)('catch-up from another process (Redis)', () => {
  let a: FeedServer;
  let b: FeedServer;
  let c: FeedServer | undefined;
  let prefix: string;
  const conns: Redis[] = [];

  beforeAll(async () => {
    prefix = `tbtest:${randomBytes(6).toString('hex')}:`;
    for (let i = 0; i < 3; i++) conns.push(await connectRedis(REDIS_URL!));
    await Promise.all(conns.map((r) => new Promise((res) => (r.status === 'ready' ? res(null) : r.once('ready', res)))));
    a = await startFeedServer({ redis: conns[0], redisPrefix: prefix });
    b = await startFeedServer({ redis: conns[1], redisPrefix: prefix });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await c?.close();
    await conns[0]?.del(`${prefix}stream:history`);
    for (const r of conns) await r.quit();
  });

  it('a client that leaves one process catches up on another with what was published meanwhile', async () => {
    const first = (await subscribed(a, await a.keyFor('demo'), { params: 'T.ELK' })).c;
    await first.next();
    await a.streaming.publish([trade('ELK', 1)]);
    const last = (await first.events(1))[0]!;
    first.close();
    await a.streaming.publish([trade('ELK', 2), trade('ELK', 3)]);
    await new Promise((r) => setTimeout(r, 200)); // the bus brings them to b's history
    const again = (await subscribed(b, await b.keyFor('demo'), { params: 'T.ELK', since: last.t })).c;
    await again.next();
    expect(await again.events(2)).toEqual([trade('ELK', 2), trade('ELK', 3)]);
    expect(await again.nextStatus()).toMatch(/caught up: 2 events/);
    again.close();
  });

  it('a process started after the client left has the missed events too, from the history Redis keeps', async () => {
    const first = (await subscribed(a, await a.keyFor('demo'), { params: 'T.YAK' })).c;
    await first.next();
    await a.streaming.publish([trade('YAK', 1)]);
    const last = (await first.events(1))[0]!;
    first.close();
    await a.streaming.publish([trade('YAK', 2), trade('YAK', 3)]);
    c = await startFeedServer({ redis: conns[2], redisPrefix: prefix });
    await new Promise((r) => setTimeout(r, 2500)); // the new process reads Redis's history once it has joined
    const again = (await subscribed(c, await c.keyFor('demo'), { params: 'T.YAK', since: last.t })).c;
    await again.next();
    expect(await again.events(2)).toEqual([trade('YAK', 2), trade('YAK', 3)]);
    expect(await again.nextStatus()).toBe(`success: caught up: 2 events since ${last.t}`);
    again.close();
  });
});
