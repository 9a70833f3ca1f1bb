// The relay in one process, against a fake upstream feed: one upstream connection however many
// local clients, upstream subscriptions that follow what local clients hold (wildcards included),
// every event to every subscriber in upstream's order through the official JS client, local keys
// on the local side and the upstream key only upstream.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeUpstreamFeed, waitFor } from '../helpers/fake-upstream-feed.js';
import { SdkClient, startRelayServer, trades, type RelayServer } from './relay-helpers.js';

const T0 = 1765000000000;

let upstream: FakeUpstreamFeed;
let relay: RelayServer;
const clients: SdkClient[] = [];

beforeAll(async () => {
  upstream = await FakeUpstreamFeed.start();
  relay = await startRelayServer({ feedUrl: upstream.base, record: false });
  await waitFor(() => upstream.connections('stocks') === 1, 'the relay to connect upstream');
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(async () => {
  await relay.close();
  await upstream.close();
});

async function client(): Promise<SdkClient> {
  const c = await SdkClient.open(relay.key, relay.server.base);
  clients.push(c);
  return c;
}

describe('relay: demand and fan-out', () => {
  it('subscribes upstream on first interest and unsubscribes when the last local subscriber leaves', async () => {
    const a = await client();
    const b = await client();
    const logStart = upstream.log.length;
    await a.subscribe('T.DMDA');
    await waitFor(() => upstream.subscriptions('stocks').has('T.DMDA'), 'T.DMDA upstream');
    await b.subscribe('T.DMDA,T.*');
    await waitFor(() => upstream.subscriptions('stocks').has('T.*'), 'T.* upstream');
    // the second holder of T.DMDA asked nothing more of upstream
    expect(upstream.log.slice(logStart)).toEqual(['stocks subscribe T.DMDA', 'stocks subscribe T.*']);
    await a.unsubscribe('T.DMDA');
    await new Promise((r) => setTimeout(r, 100));
    // b still holds T.DMDA
    expect(upstream.subscriptions('stocks')).toEqual(new Set(['T.DMDA', 'T.*']));
    b.close();
    await waitFor(() => upstream.subscriptions('stocks').size === 0, 'every topic unsubscribed upstream');
    const unsubscribed = upstream.log.slice(logStart + 2).flatMap((line) => line.replace('stocks unsubscribe ', '').split(','));
    expect(unsubscribed.sort()).toEqual(['T.*', 'T.DMDA']);
    expect(upstream.connections()).toBe(1);
  });

  it('passes every scripted event to every subscriber, unchanged and in order, over one upstream connection', async () => {
    const many = await Promise.all(Array.from({ length: 20 }, () => client()));
    for (const [k, c] of many.entries()) await c.subscribe(k % 2 === 0 ? 'T.*' : 'T.FANA,Q.FANA');
    await waitFor(() => ['T.*', 'T.FANA', 'Q.FANA'].every((t) => upstream.subscriptions('stocks').has(t)), 'upstream subscriptions');
    const script = [...trades('FANA', 150, T0), ...trades('FANB', 50, T0)];
    script.splice(75, 0, { ev: 'Q', sym: 'FANA', bx: 12, bp: 100.1, bs: 3, ax: 11, ap: 100.2, as: 2, c: 1, i: [604], t: T0 + 75, q: 77, z: 3 });
    expect(upstream.send('stocks', script, 7)).toBe(1);
    for (const [k, c] of many.entries()) {
      const expected = k % 2 === 0 ? script.filter((e) => e.ev === 'T') : script.filter((e) => e.sym === 'FANA');
      await c.until(() => c.events().length >= expected.length, `client ${k}'s events`);
      expect(c.events()).toEqual(expected);
    }
    expect(upstream.connections()).toBe(1);
  });

  it('keeps the keys apart: upstream sees only the upstream key, local clients never see it', async () => {
    const c = await client();
    await c.subscribe('T.KEYA');
    await waitFor(() => upstream.subscriptions('stocks').has('T.KEYA'), 'T.KEYA upstream');
    upstream.send('stocks', trades('KEYA', 3, T0));
    await c.until(() => c.events().length === 3, 'events');
    expect(new Set(upstream.authKeys)).toEqual(new Set(['upstream-key']));
    expect(JSON.stringify(c.frames)).not.toContain('upstream-key');
    // this relay runs with --relay-record no: nothing is stored
    const res = await relay.server.app.inject({ method: 'GET', url: '/v2/last/trade/KEYA', headers: { 'x-api-key': relay.key } });
    expect(res.statusCode).toBe(404);
  });

  it('local delays apply: a delayed-feed subscriber creates upstream demand but gets the event only after the hold-back', async () => {
    const delayed = await SdkClient.open(relay.key, `${relay.server.base}/delayed`);
    clients.push(delayed);
    const live = await client();
    await delayed.subscribe('T.DLYA');
    await waitFor(() => upstream.subscriptions('stocks').has('T.DLYA'), 'T.DLYA upstream for the delayed subscriber');
    await live.subscribe('T.DLYA');
    upstream.send('stocks', trades('DLYA', 2, T0));
    await live.until(() => live.events().length === 2, 'real-time events');
    await new Promise((r) => setTimeout(r, 200));
    expect(delayed.events()).toEqual([]);
  });
});
