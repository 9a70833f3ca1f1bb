// A client that stops reading: the server holds at most the configured bytes for it, then sends
// slow_consumer and closes with 1008; a client that never reads again is cut after the grace.
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Session } from '../../src/stream/session.js';
import { RawClient, startFeedServer, type FeedServer } from './feed-helpers.js';

const MAX_BUFFERED = 256 * 1024;
const FRAME = 16 * 1024;
let server: FeedServer | undefined;
afterEach(async () => server?.close());

function socketOf(c: RawClient): Socket {
  return (c.ws as unknown as { _socket: Socket })._socket;
}

async function flood(s: FeedServer, until: () => boolean): Promise<number> {
  let sent = 0;
  const pad = 'x'.repeat(100);
  while (!until() && sent < 2_000_000) {
    await s.streaming.publish(Array.from({ length: 500 }, (_, i) => ({ ev: 'T', sym: 'AAPL', i: pad, p: 1, s: 1, t: sent + i, x: 1 })));
    sent += 500;
    await new Promise((r) => setImmediate(r));
  }
  return sent;
}

describe('slow consumers', () => {
  it('bounds what the server holds, then sends slow_consumer and closes with 1008', async () => {
    server = await startFeedServer({ limits: { maxBufferedBytes: MAX_BUFFERED, maxFrameBytes: FRAME, closeGraceMs: 10_000 } });
    const c = await RawClient.ready(`${server.base}/stocks`, await server.keyFor('demo'));
    c.send({ action: 'subscribe', params: 'T.*' });
    await c.next();
    const session = [...server.streaming.hub.sessions.values()][0] as Session;
    socketOf(c).pause();
    const sent = await flood(server, () => server!.streaming.connections() === 0);
    expect(server.streaming.connections()).toBe(0);
    expect(sent * 150).toBeGreaterThan(MAX_BUFFERED * 4); // far more was published than it could hold
    expect(session.peakBufferedBytes).toBeLessThanOrEqual(MAX_BUFFERED);
    socketOf(c).resume();
    expect(await c.closed).toBe(1008);
    const last = c.frames.at(-1)!;
    expect(last).toEqual([{ ev: 'status', status: 'slow_consumer', message: 'Slow consumer: the server-side buffer for this connection is full.' }]);
    // every event it did get came in order, none skipped in the middle
    const qs = c.frames.flat().filter((e) => e.ev === 'T').map((e) => e.t as number);
    expect(qs).toEqual(qs.map((_, i) => i));
  });

  it('cuts a client that never reads again once the grace has passed', async () => {
    server = await startFeedServer({ limits: { maxBufferedBytes: MAX_BUFFERED, maxFrameBytes: FRAME, closeGraceMs: 300 } });
    const c = await RawClient.ready(`${server.base}/stocks`, await server.keyFor('demo'));
    c.send({ action: 'subscribe', params: 'T.*' });
    await c.next();
    const session = [...server.streaming.hub.sessions.values()][0] as Session;
    socketOf(c).pause();
    await flood(server, () => server!.streaming.connections() === 0);
    await new Promise((r) => setTimeout(r, 600));
    expect(session.ws.readyState).toBe(session.ws.CLOSED);
    c.ws.terminate();
  });

  it('tells and closes a paused client whose backlog stays above the soft limit, far below the hard one', async () => {
    const SOFT = 64 * 1024;
    server = await startFeedServer({ limits: { maxBufferedBytes: 64 * 1024 * 1024, softBufferedBytes: SOFT, slowConsumerMs: 1000, maxFrameBytes: FRAME, closeGraceMs: 10_000 } });
    const reader = await RawClient.ready(`${server.base}/stocks`, await server.keyFor('demo'));
    const paused = await RawClient.ready(`${server.base}/stocks`, await server.keyFor('demo'));
    for (const c of [reader, paused]) {
      c.send({ action: 'subscribe', params: 'T.*' });
      await c.next();
    }
    const pausedSession = [...server.streaming.hub.sessions.values()][1] as Session; // sessions in the order they connected
    socketOf(paused).pause();
    // publish until the paused client's backlog passes the soft limit, then nothing more
    await flood(server, () => pausedSession.ws.bufferedAmount > SOFT);
    const published = Date.now();
    await new Promise((r) => setTimeout(r, 2500));
    expect(server.streaming.connections()).toBe(1); // the reader stays
    socketOf(paused).resume();
    expect(await paused.closed).toBe(1008);
    expect(paused.frames.at(-1)).toEqual([{ ev: 'status', status: 'slow_consumer', message: 'Slow consumer: the server-side buffer for this connection is full.' }]);
    expect(Date.now() - published).toBeGreaterThanOrEqual(1000);
    reader.ws.terminate();
  });
});
