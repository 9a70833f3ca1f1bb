// Routing a published batch to subscribers with different topic sets: each connection gets
// exactly the events it subscribed to, each once, in publish order, and what was published in
// one event-loop turn arrives as one frame (subscribers with the same topics share it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawClient, startFeedServer, type FeedServer } from './feed-helpers.js';

let server: FeedServer;
let key: string;

beforeAll(async () => {
  server = await startFeedServer({ connectionLimit: 100 });
  key = await server.keyFor('demo');
});
afterAll(async () => server.close());

const trade = (sym: string, q: number) => ({ ev: 'T', sym, x: 4, i: String(q), z: 3, p: 100, s: 100, t: 1749825067412 + q, q });
const quote = (sym: string, q: number) => ({ ev: 'Q', sym, bx: 4, bp: 99, bs: 1, ax: 4, ap: 101, as: 1, c: 0, z: 3, t: 1749825067412 + q, q });

async function subscribed(topics: string): Promise<RawClient> {
  const c = await RawClient.ready(`${server.base}/stocks`, key);
  c.send({ action: 'subscribe', params: topics });
  for (let n = topics.split(',').length; n > 0; n--) expect(await c.nextStatus()).toMatch(/^success: subscribed to: /);
  return c;
}

describe('fan-out of a batch to different topic sets', () => {
  it('gives each connection its events once, in publish order, one frame per turn', async () => {
    const topics = ['T.*', 'T.*', 'T.AAPL', 'T.AAPL,T.MSFT', 'T.*,T.AAPL', 'Q.*', 'T.MSFT,Q.AAPL', 'T.ZZZ'];
    const clients = await Promise.all(topics.map(subscribed));
    const first = [trade('AAPL', 1), trade('MSFT', 2), quote('AAPL', 3), trade('IBM', 4), trade('AAPL', 5)];
    const second = [trade('MSFT', 6), quote('MSFT', 7), trade('AAPL', 8)];
    // two publishes in one turn
    void server.streaming.publish(first);
    await server.streaming.publish(second);
    const all = [...first, ...second];
    const want = (pred: (e: { ev: string; sym: string }) => boolean) => all.filter(pred).map((e) => e.q);
    const expected = [
      want((e) => e.ev === 'T'),
      want((e) => e.ev === 'T'),
      want((e) => e.ev === 'T' && e.sym === 'AAPL'),
      want((e) => e.ev === 'T' && (e.sym === 'AAPL' || e.sym === 'MSFT')),
      want((e) => e.ev === 'T'),
      want((e) => e.ev === 'Q'),
      want((e) => (e.ev === 'T' && e.sym === 'MSFT') || (e.ev === 'Q' && e.sym === 'AAPL')),
    ];
    for (let k = 0; k < expected.length; k++) {
      const frame = await clients[k]!.next();
      expect(frame.map((e) => e.q), `connection subscribed to ${topics[k]}`).toEqual(expected[k]);
    }
    // nothing more: the next frame of every connection is the acknowledgement of a new topic
    for (const c of clients) {
      c.send({ action: 'subscribe', params: 'T.NEXT' });
      expect(await c.nextStatus()).toBe('success: subscribed to: T.NEXT');
      c.close();
    }
  });

  it('keeps order across turns for a connection whose topics change between publishes', async () => {
    const c = await subscribed('T.AAPL');
    const other = await subscribed('T.*');
    await server.streaming.publish([trade('AAPL', 1), trade('MSFT', 2)]);
    c.send({ action: 'subscribe', params: 'T.MSFT' });
    expect(await c.events(1)).toEqual([expect.objectContaining({ q: 1 })]);
    expect(await c.nextStatus()).toBe('success: subscribed to: T.MSFT');
    await server.streaming.publish([trade('MSFT', 3), trade('AAPL', 4), trade('IBM', 5)]);
    expect((await c.events(2)).map((e) => e.q)).toEqual([3, 4]);
    expect((await other.events(5)).map((e) => e.q)).toEqual([1, 2, 3, 4, 5]);
    c.close();
    other.close();
  });
});
