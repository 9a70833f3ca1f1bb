// The delayed feed at /delayed/<market> holds every event back by the configured delay and keeps
// its original timestamps; the real-time feed gets it at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawClient, startFeedServer, type FeedServer } from './feed-helpers.js';

const DELAY = 400;
let server: FeedServer;
beforeAll(async () => {
  server = await startFeedServer({ delayMs: DELAY, connectionLimit: 10 });
});
afterAll(async () => server.close());

describe('delayed feed', () => {
  it('delivers each event the delay after the real-time feed, unchanged', async () => {
    const key = await server.keyFor('developer'); // a 15-minute delayed plan
    const delayed = await RawClient.ready(`${server.base}/delayed/stocks`, key);
    delayed.send({ action: 'subscribe', params: 'T.*' });
    await delayed.next();
    const live = await RawClient.ready(`${server.base}/stocks`, await server.keyFor('demo'));
    live.send({ action: 'subscribe', params: 'T.*' });
    await live.next();

    const trade = { ev: 'T', sym: 'DLY', x: 1, i: '1', p: 3.25, s: 10, t: 1749825065000 };
    const sentAt = Date.now();
    await server.streaming.publish([trade]);
    expect(await live.events(1)).toEqual([trade]);
    const liveAt = Date.now();
    expect(liveAt - sentAt).toBeLessThan(DELAY / 2);
    expect(await delayed.events(1, 3000)).toEqual([trade]);
    const delayedAt = Date.now();
    expect(delayedAt - sentAt).toBeGreaterThanOrEqual(DELAY - 5);
    expect(delayedAt - sentAt).toBeLessThan(DELAY + 1500); // generous: the suite runs files in parallel
    delayed.close();
    live.close();
  });

  it('an event published before a delayed client connected still reaches it once due', async () => {
    const trade = { ev: 'T', sym: 'EARLY', x: 1, i: '2', p: 1, s: 1, t: 1749825066000 };
    await server.streaming.publish([trade]);
    const c = await RawClient.ready(`${server.base}/delayed/stocks`, await server.keyFor('developer'));
    c.send({ action: 'subscribe', params: 'T.EARLY' });
    await c.next();
    expect(await c.events(1, 3000)).toEqual([trade]);
    c.close();
  });
});
