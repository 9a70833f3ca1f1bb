// A second Tickerbase as the upstream (it speaks the same feed protocol): events published into
// it with its publish API reach a client of the relaying Tickerbase, which records them; the
// upstream sees one connection, authenticated with the key it issued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/fake-upstream-feed.js';
import { startFeedServer, type FeedServer } from '../stream/feed-helpers.js';
import { SdkClient, startRelayServer, trades, type RelayServer } from './relay-helpers.js';

const TOKEN = 'admin-token-for-the-relay-upstream-0123456789';
const T0 = Date.UTC(2026, 11, 4, 15, 30);

describe('relay with another Tickerbase as the upstream', () => {
  let upstream: FeedServer;
  let relay: RelayServer;

  beforeAll(async () => {
    upstream = await startFeedServer({ adminToken: TOKEN, connectionLimit: 1 });
    const upstreamKey = await upstream.keyFor('demo');
    relay = await startRelayServer({ feedUrl: upstream.base, upstreamKey, record: true });
    await waitFor(() => upstream.streaming.connections() === 1, 'the relay connected to the upstream Tickerbase');
  });
  afterAll(async () => {
    await relay.close();
    await upstream.close();
  });

  it('passes on and records what is published upstream', async () => {
    const c = await SdkClient.open(relay.key, relay.server.base);
    await c.subscribe('T.TBUP');
    // the relay's subscription is acknowledged by the upstream Tickerbase before anything is published
    await waitFor(() => [...upstream.streaming.hub.sessions.values()].some((s) => upstream.streaming.hub.registry('realtime', 'stocks').topicsOf(s).includes('T.TBUP')), 'T.TBUP subscribed upstream');
    const events = trades('TBUP', 4, T0);
    const res = await upstream.app.inject({
      method: 'POST',
      url: '/admin/publish',
      payload: events.map((e) => JSON.stringify(e)).join('\n'),
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson' },
    });
    expect(res.statusCode).toBe(200);
    await c.until(() => c.events().length === 4, 'the published trades');
    expect(c.events()).toEqual(events);
    await waitFor(async () => {
      const r = await relay.server.app.inject({ method: 'GET', url: '/v3/trades/TBUP?limit=10', headers: { 'x-api-key': relay.key } });
      return (r.json() as { results?: unknown[] }).results?.length === 4;
    }, 'the trades recorded by the relay');
    expect(upstream.streaming.connections()).toBe(1);
    c.close();
  });
});
