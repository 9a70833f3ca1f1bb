// A local client that stops reading is cut off alone (slow_consumer): the upstream connection
// keeps going and another local client still gets every event, in order.
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeUpstreamFeed, waitFor, type Event } from '../helpers/fake-upstream-feed.js';
import { RawClient } from '../stream/feed-helpers.js';
import { SdkClient, startRelayServer, type RelayServer } from './relay-helpers.js';

let upstream: FakeUpstreamFeed;
let relay: RelayServer;

beforeAll(async () => {
  upstream = await FakeUpstreamFeed.start();
  relay = await startRelayServer({ feedUrl: upstream.base, record: false, limits: { maxBufferedBytes: 256 * 1024, maxFrameBytes: 16 * 1024, closeGraceMs: 10_000 } });
  await waitFor(() => upstream.connections('stocks') === 1, 'the relay connected');
});
afterAll(async () => {
  await relay.close();
  await upstream.close();
});

describe('relay: a slow local client', () => {
  it('is cut off alone; upstream and the other clients go on', async () => {
    const slow = await RawClient.ready(`${relay.server.base}/stocks`, relay.key);
    slow.send({ action: 'subscribe', params: 'T.SLOW' });
    await slow.next();
    const fast = await SdkClient.open(relay.key, relay.server.base);
    await fast.subscribe('T.SLOW');
    await waitFor(() => upstream.subscriptions('stocks').has('T.SLOW'), 'T.SLOW upstream');
    (slow.ws as unknown as { _socket: Socket })._socket.pause();
    const authenticated = upstream.authenticated;
    const pad = 'x'.repeat(200);
    let sent = 0;
    // until the slow client is cut off: far more than the 256 KiB it may have held for it
    while (relay.server.streaming.connections() === 2 && sent < 200_000) {
      const events: Event[] = Array.from({ length: 500 }, (_, k) => ({ ev: 'T', sym: 'SLOW', i: pad, p: 1, s: 1, x: 1, t: sent + k }));
      upstream.send('stocks', events, 100);
      sent += events.length;
      await new Promise((r) => setTimeout(r, 10));
    }
    await fast.until(() => fast.events().length === sent, 'every event at the fast client', 30_000);
    expect(fast.events().map((e) => e.t)).toEqual(Array.from({ length: sent }, (_, k) => k));
    await waitFor(() => relay.server.streaming.connections() === 1, 'the slow client cut off');
    (slow.ws as unknown as { _socket: Socket })._socket.resume();
    expect(await slow.closed).toBe(1008);
    expect(slow.frames.at(-1)![0]!.status).toBe('slow_consumer');
    // the upstream connection was never dropped or replaced
    expect(upstream.connections('stocks')).toBe(1);
    expect(upstream.authenticated).toBe(authenticated);
    fast.close();
  });
});
