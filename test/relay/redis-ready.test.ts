// With Redis, the process that does not hold the upstream connection knows of an outage too: its
// clients get the status frames and its /ready says DEGRADED until the holder reports upstream back.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../src/server/rate-limit.js';
import { FakeUpstreamFeed, waitFor } from '../helpers/fake-upstream-feed.js';
import { SdkClient, startRelayServer, type RelayServer } from './relay-helpers.js';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.log('Relay Redis tests skipped: REDIS_URL is not set (CI sets it).');

describe.skipIf(!REDIS_URL)('relay: an outage seen from the process not holding the connection', () => {
  let upstream: FakeUpstreamFeed;
  const redis: Redis[] = [];
  const relays: RelayServer[] = [];

  beforeAll(async () => {
    upstream = await FakeUpstreamFeed.start();
    const prefix = `tbrelay:${randomBytes(6).toString('hex')}:`;
    for (let i = 0; i < 2; i++) {
      const r = await connectRedis(REDIS_URL!);
      redis.push(r);
      relays.push(await startRelayServer({ feedUrl: upstream.base, record: false, redis: r, redisPrefix: prefix }));
    }
    await waitFor(() => upstream.connections('stocks') === 1 && relays.some((r) => r.relay.status()[0]!.state === 'live'), 'one holder live');
  });
  afterAll(async () => {
    for (const r of relays) await r.close();
    for (const r of redis) await r.quit();
    await upstream.close();
  });

  const ready = async (r: RelayServer) => (await r.server.app.inject({ method: 'GET', url: '/ready' })).json() as { status: string; degraded?: string[] };

  it('tells its clients and shows in /ready', async () => {
    const other = relays.find((r) => !r.relay.status()[0]!.holder)!;
    expect(other).toBeDefined();
    const c = await SdkClient.open(other.key, other.server.base);
    // the other process hears the holder's state through Redis a moment after the holder is live
    await waitFor(async () => (await ready(other)).status === 'OK', 'the other process ready');
    await upstream.stop();
    await c.until(() => c.notices().some((n) => n.status === 'error' && n.message.startsWith('upstream stocks feed lost')), 'the lost status');
    const r = await ready(other);
    expect(r.status).toBe('DEGRADED');
    expect(r.degraded!.join(' ')).toContain('reported by the process holding the connection');
    await upstream.resume();
    await c.until(() => c.notices().some((n) => n.message === 'upstream stocks feed restored'), 'the restored status');
    expect((await ready(other)).status).toBe('OK');
    expect(upstream.connections('stocks')).toBe(1);
    c.close();
  });
});
