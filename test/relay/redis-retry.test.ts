// A Redis command of the relay that fails once (a command past --redis-timeout) is tried again
// with backoff, well before the next period: the demand of a process not holding the connection
// still reaches upstream, a status frame still reaches the other process, and a process taking
// over still learns where the tape was last whole; the log says when the command works again. The
// period is set far beyond the test (where it is not the subject) so only the retry can do it.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryBroker } from '../../src/stream/broker.js';
import { MarketRelay } from '../../src/stream/relay/market.js';
import { RedisPeers, type RelayNotice } from '../../src/stream/relay/peers.js';
import { FakeUpstreamFeed, waitFor } from '../helpers/fake-upstream-feed.js';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.log('Relay Redis retry tests skipped: REDIS_URL is not set (CI sets it).');

const PERIOD_MS = 120_000;
const closers: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** A process's relay of stocks on Redis; `failOnce` makes the first call of that peer command fail as a timed-out one does. */
async function startProcess(upstream: FakeUpstreamFeed, prefix: string, failOnce?: 'setDemand' | 'announce' | 'lastLive', periodMs = PERIOD_MS) {
  const redis = new Redis(REDIS_URL!, { commandTimeout: 1000 });
  const peers = await RedisPeers.open({ redis, subscriber: redis.duplicate(), prefix, instance: randomBytes(4).toString('hex'), leaseMs: 3 * periodMs, demandMs: 3 * periodMs });
  if (failOnce) {
    const real = peers[failOnce].bind(peers) as (...a: unknown[]) => Promise<void>;
    let failed = false;
    (peers as unknown as Record<string, unknown>)[failOnce] = async (...args: unknown[]) => {
      // the demand write that matters is the one carrying a topic
      const counts = failOnce !== 'setDemand' || (args[1] as string[]).length > 0;
      if (counts && !failed) {
        failed = true;
        throw new Error('Command timed out');
      }
      return real(...args);
    };
  }
  const logs: string[] = [];
  const relay = new MarketRelay({
    market: 'stocks', feedUrl: upstream.base, key: 'upstream-key', broker: new MemoryBroker(), peers, fixed: [],
    log: { info: (m) => logs.push(m), warn: (m) => logs.push(m), error: (m) => logs.push(m) },
    checkMs: periodMs, leaseMs: 3 * periodMs, feed: { initialDelayMs: 100, maxDelayMs: 400, connectTimeoutMs: 2000 }, now: Date.now,
  });
  const notices: RelayNotice[] = [];
  peers.onDemandChanged(() => relay.onPeerDemand());
  peers.onNotice((n) => notices.push(n));
  relay.start();
  closers.push(async () => {
    await relay.close();
    await peers.close();
    await redis.quit();
  });
  return { relay, logs, notices };
}

describe.skipIf(!REDIS_URL)('relay: a Redis command that fails is retried', () => {
  it('the demand of a process whose demand write timed out still reaches the holder, and the log says it recovered', async () => {
    const upstream = await FakeUpstreamFeed.start();
    closers.push(() => upstream.close());
    const prefix = `tbretry:${randomBytes(6).toString('hex')}:`;
    const holder = await startProcess(upstream, prefix);
    await waitFor(() => upstream.connections('stocks') === 1, 'the holder connected upstream');
    const other = await startProcess(upstream, prefix, 'setDemand');
    expect(other.relay.status().holder).toBe(false);
    other.relay.onLocalDemand({ ev: 'T', symbol: 'RTRY', text: 'T.RTRY', held: true });
    await waitFor(() => upstream.subscriptions('stocks').has('T.RTRY'), 'T.RTRY subscribed upstream by the holder');
    expect(other.logs.some((l) => l.includes('sharing the stocks demand failed'))).toBe(true);
    expect(other.logs.some((l) => l.includes('sharing the stocks demand succeeded again after 1 failed attempt'))).toBe(true);
    expect(holder.relay.status().holder).toBe(true);
  });

  it('a status frame whose announcement timed out still reaches the other process', async () => {
    const upstream = await FakeUpstreamFeed.start();
    closers.push(() => upstream.close());
    const prefix = `tbretry:${randomBytes(6).toString('hex')}:`;
    const holder = await startProcess(upstream, prefix, 'announce');
    await waitFor(() => upstream.connections('stocks') === 1 && holder.relay.status().state === 'live', 'the holder live upstream');
    const other = await startProcess(upstream, prefix);
    upstream.drop();
    await waitFor(() => other.notices.some((n) => n.status === 'error' && n.message.includes('upstream stocks feed lost')), 'the loss announced to the other process');
    await waitFor(() => other.notices.some((n) => n.status === 'success' && n.message === 'upstream stocks feed restored'), 'the return announced after it');
    expect(holder.logs.some((l) => l.includes('announcing the stocks upstream status succeeded again'))).toBe(true);
  });

  it('a process taking over whose read of the last live time timed out still tells its clients the holder stopped', async () => {
    const upstream = await FakeUpstreamFeed.start();
    closers.push(() => upstream.close());
    const prefix = `tbretry:${randomBytes(6).toString('hex')}:`;
    const first = await startProcess(upstream, prefix, undefined, 300);
    await waitFor(() => first.relay.status().state === 'live', 'the first process live upstream');
    const second = await startProcess(upstream, prefix, 'lastLive', 300);
    await new Promise((r) => setTimeout(r, 400)); // a round of the first marks the tape live
    first.relay.abandon();
    await waitFor(() => second.relay.status().state === 'live', 'the second process live upstream');
    await waitFor(() => second.notices.some((n) => n.status === 'error' && n.message.includes('the process holding the connection stopped')), 'the takeover announced');
    expect(second.logs.some((l) => l.includes('where the stocks tape was last whole succeeded again after 1 failed attempt'))).toBe(true);
  });
});
