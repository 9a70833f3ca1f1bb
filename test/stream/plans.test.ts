// What a key's plan allows on the feed: markets, real-time versus delayed, channels, and the
// connection limit with eviction of the older connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawClient, startFeedServer, type FeedServer } from './feed-helpers.js';

let server: FeedServer;

beforeAll(async () => {
  server = await startFeedServer({ limits: { closeGraceMs: 500 } });
});
afterAll(async () => server.close());

async function authStatus(path: string, key: string): Promise<{ status: string; client: RawClient }> {
  const c = await RawClient.connect(`${server.base}${path}`);
  await c.next();
  c.send({ action: 'auth', params: key });
  return { status: await c.nextStatus(), client: c };
}

describe('plans on the feed', () => {
  it('refuses a market the plan lacks, naming it', async () => {
    const key = await server.keyFor('stocks_only');
    const { status, client } = await authStatus('/options', key);
    expect(status).toBe("auth_failed: Your plan (stocks_only) doesn't include the options market.");
    expect(await client.closed).toBe(1008);
    const ok = await authStatus('/stocks', key);
    expect(ok.status).toBe('auth_success: authenticated');
    ok.client.close();
  });

  it('sends a delayed plan to /delayed/<market>, naming the path', async () => {
    const key = await server.keyFor('developer');
    const { status, client } = await authStatus('/stocks', key);
    expect(status).toBe("auth_failed: Your plan (developer) doesn't include real-time data: connect to /delayed/stocks for the delayed feed.");
    expect(await client.closed).toBe(1008);
    const ok = await authStatus('/delayed/stocks', key);
    expect(ok.status).toBe('auth_success: authenticated');
    // real-time-only channels are refused on the delayed feed; channels outside the plan too
    ok.client.send({ action: 'subscribe', params: 'Q.AAPL,T.AAPL,FMV.AAPL' });
    expect(await ok.client.nextStatus()).toBe('error: not available on the delayed feed: Q.AAPL');
    expect(await ok.client.nextStatus()).toBe('success: subscribed to: T.AAPL');
    expect(await ok.client.nextStatus()).toBe('error: not authorized: FMV.AAPL (plan developer does not include fmv)');
    ok.client.close();
  });

  it('refuses a plan without feed access with upstream wording', async () => {
    const key = await server.keyFor('no_feed');
    const { status } = await authStatus('/stocks', key);
    expect(status).toBe("auth_failed: Your plan doesn't include websocket access. Visit https://polygon.io/pricing to upgrade.");
  });

  it('a key revoked while connected is disconnected with force_disconnect', async () => {
    const s2 = await startFeedServer({ keyCheckMs: 100 });
    try {
      const { key, record } = await s2.store.keys.create({ plan: 'demo' });
      const c = await RawClient.ready(`${s2.base}/stocks`, key);
      await s2.store.keys.revoke(record.id);
      expect(await c.nextStatus(3000)).toBe('force_disconnect: The API key has been revoked or has expired.');
      expect(await c.closed).toBe(1008);
    } finally {
      await s2.close();
    }
  });

  it('a revoked key is refused', async () => {
    const { key, record } = await server.store.keys.create({ plan: 'demo' });
    await server.store.keys.revoke(record.id);
    const { status } = await authStatus('/stocks', key);
    expect(status).toBe('auth_failed: authentication failed');
  });
});

describe('connection limit per key and market', () => {
  it('evicts the older connection when a newer one authenticates (default 1)', async () => {
    const key = await server.keyFor('business');
    const first = await RawClient.ready(`${server.base}/stocks`, key);
    const other = await RawClient.ready(`${server.base}/crypto`, key); // another market: its own limit
    const second = await RawClient.ready(`${server.base}/stocks`, key);
    expect(await first.next()).toEqual([
      {
        ev: 'status',
        status: 'max_connections',
        message:
          'Maximum number of websocket connections exceeded. You have reached the connection limit for your account. Please contact support to increase your limit.',
      },
    ]);
    expect(await first.closed).toBe(1008);
    second.send({ action: 'subscribe', params: 'T.AAPL' });
    expect(await second.nextStatus()).toBe('success: subscribed to: T.AAPL');
    const metrics = (await server.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/tickerbase_stream_disconnects_total\{reason="max_connections"\} [1-9]/);
    expect(metrics).toMatch(/tickerbase_stream_connections\{feed="realtime"\} [1-9]/);
    other.send({ action: 'subscribe', params: 'XT.*' });
    expect(await other.nextStatus()).toBe('success: subscribed to: XT.*');
    second.close();
    other.close();
  });

  it('follows the plan: two connections stay, a third evicts the oldest', async () => {
    const key = await server.keyFor('two_conns');
    const a = await RawClient.ready(`${server.base}/stocks`, key);
    const b = await RawClient.ready(`${server.base}/stocks`, key);
    const c = await RawClient.ready(`${server.base}/stocks`, key);
    expect((await a.next())[0]!.status).toBe('max_connections');
    b.send({ action: 'subscribe', params: 'T.X' });
    expect(await b.nextStatus()).toBe('success: subscribed to: T.X');
    b.close();
    c.close();
  });

  it('frees the slot when a connection closes', async () => {
    const key = await server.keyFor('business');
    const a = await RawClient.ready(`${server.base}/indices`, key);
    a.close();
    await a.closed;
    await new Promise((r) => setTimeout(r, 50));
    const b = await RawClient.ready(`${server.base}/indices`, key);
    const c2 = await RawClient.ready(`${server.base}/delayed/indices`, key); // the delayed feed counts apart
    b.send({ action: 'subscribe', params: 'V.I:SPX' });
    expect(await b.nextStatus()).toBe('success: subscribed to: V.I:SPX');
    b.close();
    c2.close();
  });
});
