// The delayed feed at /delayed/<market> holds each event of a channel a delayed client subscribes to back by the delay, keeping
// its original timestamps; the real-time feed gets it at once. Futures have a hold-back of their
// own (upstream delays them 10 minutes, the other markets 15).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawClient, startFeedServer, type FeedServer } from './feed-helpers.js';

const DELAY = 400;
const FUTURES_DELAY = 150; // shorter, as upstream's futures delay is
let server: FeedServer;
beforeAll(async () => {
  server = await startFeedServer({ delayMs: DELAY, futuresDelayMs: FUTURES_DELAY, connectionLimit: 10 });
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

  it('holds futures back by their own delay, released on time around the other markets\' events', async () => {
    const key = await server.keyFor('developer'); // delayed, every market
    const fut = await RawClient.ready(`${server.base}/delayed/futures`, key);
    fut.send({ action: 'subscribe', params: 'T.*' });
    await fut.next();
    const stocks = await RawClient.ready(`${server.base}/delayed/stocks`, key);
    stocks.send({ action: 'subscribe', params: 'T.*' });
    await stocks.next();

    const futuresTrade = { ev: 'T', sym: 'ESZ5', p: 6001.25, s: 2, t: 1749825067000, q: 7 };
    const stockTrade = { ev: 'T', sym: 'DLYF', x: 1, i: '3', p: 2.5, s: 5, t: 1749825067000 };
    const sentAt = Date.now();
    await server.streaming.publish([stockTrade]);
    await server.streaming.publish([futuresTrade], 'futures'); // published later, due earlier
    const [got] = await fut.events(1, 3000);
    const futuresAt = Date.now() - sentAt;
    expect(await stocks.events(1, 3000)).toEqual([stockTrade]);
    const stockAt = Date.now() - sentAt;
    expect(got).toMatchObject({ ev: 'T', sym: 'ESZ5', p: 6001.25, s: 2, t: 1749825067000 });
    expect(futuresAt).toBeGreaterThanOrEqual(FUTURES_DELAY - 5);
    expect(futuresAt).toBeLessThan(DELAY - 100); // not kept waiting for the stock trade's time
    expect(stockAt).toBeGreaterThanOrEqual(DELAY - 5);
    expect(stockAt).toBeLessThan(DELAY + 1500);
    fut.close();
    stocks.close();
  });

  it('holds nothing while no delayed client subscribes to the channel, and what is published after a subscription', async () => {
    const early = { ev: 'T', sym: 'EARLY', x: 1, i: '2', p: 1, s: 1, t: 1749825066000 };
    // the other tests' clients (subscribed to T.*) gone
    for (let i = 0; i < 200 && server.streaming.connections() > 0; i++) await new Promise((r) => setTimeout(r, 10));
    await server.streaming.publish([early]);
    const c = await RawClient.ready(`${server.base}/delayed/stocks`, await server.keyFor('developer'));
    c.send({ action: 'subscribe', params: 'T.EARLY' });
    await c.next();
    const later = { ...early, i: '3', t: early.t + 1 };
    await server.streaming.publish([later, { ev: 'Q', sym: 'EARLY', bx: 1, bp: 1, bs: 1, ax: 1, ap: 2, as: 1, t: early.t + 2, z: 1 }]);
    // the trade published after the subscription only: the early one and the quote were not held
    expect(await c.events(1, 3000)).toEqual([later]);
    expect(await c.events(1, DELAY + 300).catch(() => [])).toEqual([]);
    c.close();
  });
});
