// Upstream refusing the relay: a refused key or an eviction by another connection with the same
// key stops the retries with a clear log line, shows in /ready and the metrics, and is told to
// local clients; refused upgrades are retried with a backoff (no tight loop) until upstream
// takes the connection again.
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { backoffDelay } from '../../src/upstream/feed-client.js';
import { FakeUpstreamFeed, waitFor } from '../helpers/fake-upstream-feed.js';
import { SdkClient, startRelayServer, type RelayServer } from './relay-helpers.js';

const opened: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

async function setup(upstreamKey = 'upstream-key'): Promise<{ upstream: FakeUpstreamFeed; relay: RelayServer }> {
  const upstream = await FakeUpstreamFeed.start();
  opened.push(upstream);
  const relay = await startRelayServer({ feedUrl: upstream.base, upstreamKey, record: false });
  opened.push(relay);
  return { upstream, relay };
}

async function ready(relay: RelayServer): Promise<{ status: number; body: Record<string, any> }> {
  const res = await relay.server.app.inject({ method: 'GET', url: '/ready' });
  return { status: res.statusCode, body: res.json() as Record<string, any> };
}

const metrics = async (relay: RelayServer) => (await relay.server.app.inject({ method: 'GET', url: '/metrics' })).body;

describe('relay: upstream refusals', () => {
  it('auth_failed stops the retries, with a log line, /ready, the metrics and a status to local clients', async () => {
    const { upstream, relay } = await setup('a-wrong-key');
    await waitFor(() => relay.relay.status()[0]!.state === 'stopped', 'the relay to stop');
    const c = await SdkClient.open(relay.key, relay.server.base);
    opened.push(c);
    const r = await ready(relay);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('DEGRADED');
    expect(r.body.degraded.join(' ')).toContain('upstream stocks feed stopped, not retrying (auth_failed');
    expect(await metrics(relay)).toMatch(/tickerbase_relay_upstream_stopped\{market="stocks",reason="auth_failed"\} 1/);
    expect(relay.logs.some((l) => /answered auth_failed .*not retrying\. Check --upstream-key/.test(l))).toBe(true);
    expect(relay.logs.join('\n')).not.toContain('a-wrong-key');
    await new Promise((res) => setTimeout(res, 800));
    expect(upstream.authKeys).toEqual(['a-wrong-key']);
  });

  it('max_connections (another connection took the key) stops the retries and shows in /ready', async () => {
    const { upstream, relay } = await setup();
    await waitFor(() => upstream.connections('stocks') === 1, 'the relay connected');
    expect((await ready(relay)).body.status).toBe('OK');
    expect((await relay.server.app.inject({ method: 'GET', url: '/ready?require=relay' })).statusCode).toBe(200);
    const c = await SdkClient.open(relay.key, relay.server.base);
    opened.push(c);
    const other = new WebSocket(`${upstream.base}/stocks`);
    opened.push({ close: () => other.close() });
    other.on('message', (d) => {
      if (String(d).includes('"connected"')) other.send(JSON.stringify({ action: 'auth', params: 'upstream-key' }));
    });
    await waitFor(() => relay.relay.status()[0]!.state === 'stopped', 'the relay to stop');
    expect((await ready(relay)).body.degraded.join(' ')).toContain('max_connections');
    // a balancer that requires the relay takes this process out
    const required = await relay.server.app.inject({ method: 'GET', url: '/ready?require=relay' });
    expect(required.statusCode).toBe(503);
    expect(required.json().message).toContain('max_connections');
    expect(await metrics(relay)).toMatch(/tickerbase_relay_upstream_stopped\{market="stocks",reason="max_connections"\} 1/);
    await c.until(() => c.notices().some((n) => n.status === 'error' && n.message.includes('refused the relay (max_connections)')), 'the status frame');
    expect(c.closedWith).toBeUndefined();
    await new Promise((res) => setTimeout(res, 800));
    // the relay did not come back to evict the other connection
    expect(upstream.authenticated).toBe(2);
  });

  it('refused upgrades are retried with a growing delay until upstream accepts again', async () => {
    const { upstream, relay } = await setup();
    await waitFor(() => upstream.connections('stocks') === 1, 'the relay connected');
    upstream.refuseWith = 503;
    const before = upstream.upgrades;
    upstream.drop();
    await new Promise((res) => setTimeout(res, 1500));
    const attempts = upstream.upgrades - before;
    // delays of 50-100, 100-200, then 200-400 ms (the test's cap): a handful of attempts, not a loop
    expect(attempts).toBeGreaterThanOrEqual(3);
    expect(attempts).toBeLessThanOrEqual(12);
    expect((await ready(relay)).body.degraded.join(' ')).toMatch(/upstream stocks feed (lost|connecting)/);
    upstream.refuseWith = undefined;
    await waitFor(() => upstream.connections('stocks') === 1, 'the relay back');
    await waitFor(async () => (await ready(relay)).body.status === 'OK', '/ready OK again');
  });

  it('backoff: exponential, capped, with half of each delay random', () => {
    for (let attempt = 1; attempt <= 40; attempt++) {
      const ceiling = Math.min(30_000, 500 * 2 ** (attempt - 1));
      expect(backoffDelay(attempt, 500, 30_000, () => 0)).toBe(ceiling / 2);
      expect(backoffDelay(attempt, 500, 30_000, () => 0.999999)).toBeLessThanOrEqual(ceiling);
    }
  });
});
