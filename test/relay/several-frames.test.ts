// Several upstream frames read at once (one socket read, or one turn of the event loop) reach each
// local client in one write: joined into one message when they fit under the frame cap, as a run
// of messages written together when they do not. Every event arrives, unchanged and in order, and
// a client that stops reading is still cut off alone with slow_consumer.
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeUpstreamFeed, waitFor, type Event } from '../helpers/fake-upstream-feed.js';
import { RawClient } from '../stream/feed-helpers.js';
import { startRelayServer, trades, type RelayServer } from './relay-helpers.js';

let upstream: FakeUpstreamFeed | undefined;
let relay: RelayServer | undefined;

afterEach(async () => {
  await relay?.close();
  await upstream?.close();
  relay = upstream = undefined;
});

async function setUp(limits?: { maxBufferedBytes: number; maxFrameBytes: number; closeGraceMs: number }) {
  upstream = await FakeUpstreamFeed.start();
  relay = await startRelayServer({ feedUrl: upstream.base, record: false, limits });
  await waitFor(() => upstream!.connections('stocks') === 1, 'the relay connected');
  return { upstream, relay };
}

async function subscribers(r: RelayServer, count: number, topic: string): Promise<RawClient[]> {
  const out: RawClient[] = [];
  for (let k = 0; k < count; k++) {
    const c = await RawClient.ready(`${r.server.base}/stocks`, r.key);
    c.send({ action: 'subscribe', params: topic });
    await c.next();
    out.push(c);
  }
  return out;
}

const dataFrames = (c: RawClient) => c.frames.filter((f) => f[0]?.ev !== 'status');

describe('relay: several upstream frames at once', () => {
  it('reach each client complete, unchanged and in order, joined into one message', async () => {
    const { upstream, relay } = await setUp();
    const clients = await subscribers(relay, 3, 'T.GRP');
    await waitFor(() => upstream.subscriptions('stocks').has('T.GRP'), 'T.GRP upstream');
    const sent = trades('GRP', 100, 1_749_825_067_412);
    // five frames of twenty in one socket write: the relay reads them in one go
    upstream.send('stocks', sent, 20, true);
    for (const c of clients) {
      expect(await c.events(100)).toEqual(sent);
      expect(dataFrames(c)).toHaveLength(1);
      c.close();
    }
  });

  it('past the frame cap: messages under the cap, every event in order, a slow client still cut off alone', async () => {
    const FRAME = 4 * 1024;
    const { upstream, relay } = await setUp({ maxBufferedBytes: 256 * 1024, maxFrameBytes: FRAME, closeGraceMs: 10_000 });
    const [slow, ...fast] = await subscribers(relay, 3, 'T.SLOW');
    await waitFor(() => upstream.subscriptions('stocks').has('T.SLOW'), 'T.SLOW upstream');
    (slow!.ws as unknown as { _socket: Socket })._socket.pause();
    const pad = 'x'.repeat(200);
    let sent = 0;
    // frames of twenty events (about 6 KB each) sent ten at a time: each turn of the relay has
    // more than one capped message for each client
    while (relay.server.streaming.connections() === 3 && sent < 200_000) {
      const events: Event[] = Array.from({ length: 200 }, (_, k) => ({ ev: 'T', sym: 'SLOW', i: pad, p: 1, s: 1, x: 1, t: sent + k }));
      upstream.send('stocks', events, 20, true);
      sent += events.length;
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(sent).toBeGreaterThan(1000); // the slow client held far more than one turn's messages before it was cut
    for (const c of fast) {
      const got = await c.events(sent, 30_000);
      expect(got.map((e) => e.t)).toEqual(Array.from({ length: sent }, (_, k) => k));
      for (const f of dataFrames(c)) expect(Buffer.byteLength(JSON.stringify(f))).toBeLessThanOrEqual(FRAME);
      expect(dataFrames(c).length).toBeLessThan(sent / 10); // several upstream frames per message, cut anew at the cap
      c.close();
    }
    await waitFor(() => relay.server.streaming.connections() <= 2, 'the slow client cut off');
    (slow!.ws as unknown as { _socket: Socket })._socket.resume();
    expect(await slow!.closed).toBe(1008);
    expect(slow!.frames.at(-1)![0]!.status).toBe('slow_consumer');
    const slowTimes = slow!.frames.flat().filter((e) => e.ev === 'T').map((e) => e.t);
    expect(slowTimes).toEqual(slowTimes.map((_, k) => k)); // what it got before the cut came whole and in order
    expect(upstream.connections('stocks')).toBe(1);
  });
});
