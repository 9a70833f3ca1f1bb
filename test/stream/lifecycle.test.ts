// Every edge of a feed connection's lifecycle and every error status, over a raw `ws` client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { RawClient, startFeedServer, type FeedServer } from './feed-helpers.js';

let server: FeedServer;
let key: string;

beforeAll(async () => {
  server = await startFeedServer({ limits: { authTimeoutMs: 300 }, connectionLimit: 100 });
  key = await server.keyFor('demo');
});
afterAll(async () => server.close());

const trade = (sym: string, i: number) => ({ ev: 'T', sym, x: 4, i: String(i), z: 3, p: 100 + i / 100, s: 100, t: 1749825067412 + i, q: i });

describe('connecting', () => {
  it('sends connected unprompted as the first frame', async () => {
    const c = await RawClient.connect(`${server.base}/stocks`);
    expect(await c.next()).toEqual([{ ev: 'status', status: 'connected', message: 'Connected Successfully' }]);
    c.close();
  });

  it('refuses an unknown path with HTTP 404', async () => {
    const ws = new WebSocket(`${server.base}/bonds`);
    const status = await new Promise<number>((res) => ws.on('unexpected-response', (_req, r) => res(r.statusCode ?? 0)));
    expect(status).toBe(404);
  });

  it('collapses repeated slashes (a base with a trailing slash) and serves /delayed/<market>', async () => {
    for (const path of ['//stocks', '/delayed/crypto', '//delayed//options/']) {
      const c = await RawClient.connect(`${server.base}${path}`);
      expect((await c.next())[0]!.status).toBe('connected');
      c.close();
    }
  });
});

describe('auth', () => {
  it('accepts the REST key; a bad key gets auth_failed and close 1008', async () => {
    const good = await RawClient.ready(`${server.base}/stocks`, key);
    good.close();
    const bad = await RawClient.connect(`${server.base}/stocks`);
    await bad.next();
    bad.send({ action: 'auth', params: 'not-a-key' });
    expect(await bad.next()).toEqual([{ ev: 'status', status: 'auth_failed', message: 'authentication failed' }]);
    expect(await bad.closed).toBe(1008);
  });

  it('times out a connection that never authenticates', async () => {
    const c = await RawClient.connect(`${server.base}/stocks`);
    await c.next();
    expect(await c.nextStatus(2000)).toBe('auth_timeout: No authentication request received.');
    expect(await c.closed).toBe(1008);
  });

  it('handles auth sent before connected arrived, and subscribes pipelined behind it in order', async () => {
    const ws = new WebSocket(`${server.base}/stocks`);
    const c = new RawClient(ws);
    ws.on('open', () => {
      ws.send(JSON.stringify({ action: 'auth', params: key }));
      ws.send(JSON.stringify({ action: 'subscribe', params: 'T.AAPL' }));
    });
    expect(await c.nextStatus()).toBe('connected: Connected Successfully');
    expect(await c.nextStatus()).toBe('auth_success: authenticated');
    expect(await c.nextStatus()).toBe('success: subscribed to: T.AAPL');
    c.close();
  });

  it('answers auth_success again to a second auth', async () => {
    const c = await RawClient.ready(`${server.base}/stocks`, key);
    c.send({ action: 'auth', params: key });
    expect(await c.nextStatus()).toBe('auth_success: authenticated');
    c.close();
  });

  it('answers auth_required to a subscribe before auth, and registers nothing', async () => {
    const c = await RawClient.connect(`${server.base}/stocks`);
    await c.next();
    c.send({ action: 'subscribe', params: 'T.AAPL' });
    expect(await c.next()).toEqual([{ ev: 'status', status: 'auth_required', message: 'authentication required' }]);
    c.send({ action: 'auth', params: key });
    await c.next();
    await server.streaming.publish([trade('AAPL', 1)]);
    c.send({ action: 'subscribe', params: 'T.MSFT' });
    // the next frame is the MSFT ack, not the AAPL trade
    expect(await c.nextStatus()).toBe('success: subscribed to: T.MSFT');
    c.close();
  });
});

describe('bad input keeps the connection open', () => {
  it('answers each with its error status', async () => {
    const c = await RawClient.ready(`${server.base}/stocks`, key);
    c.send('{not json');
    expect(await c.next()).toEqual([{ ev: 'status', status: 'error', message: 'invalid JSON' }]);
    c.send('[1,2]');
    expect(await c.nextStatus()).toBe('error: invalid JSON');
    c.send({ action: 'ping' });
    expect(await c.next()).toEqual([{ ev: 'status', status: 'error', message: 'unknown action: ping' }]);
    c.send({ params: 'T.AAPL' });
    expect(await c.nextStatus()).toBe('error: unknown action: (missing)');
    c.send({ action: 'subscribe', params: ['T.AAPL'] });
    expect(await c.nextStatus()).toBe('error: params must be a string');
    c.send({ action: 'subscribe', params: 'FOO, T., XT.BTC-USD,T.AA*, T.AAPL' });
    expect(await c.nextStatus()).toBe('error: invalid subscription: FOO');
    expect(await c.nextStatus()).toBe('error: invalid subscription: T.');
    expect(await c.nextStatus()).toBe('error: invalid subscription: XT.BTC-USD'); // a crypto channel on /stocks
    expect(await c.nextStatus()).toBe('error: invalid subscription: T.AA*');
    expect(await c.nextStatus()).toBe('success: subscribed to: T.AAPL');
    c.ws.send(Buffer.from(JSON.stringify({ action: 'unsubscribe', params: 'T.AAPL' })), { binary: true });
    expect(await c.nextStatus()).toBe('success: unsubscribed to: T.AAPL');
    expect(c.closeCode).toBeUndefined();
    c.close();
  });
});

describe('subscriptions', () => {
  it('acknowledges each topic of a comma list with spaces, and delivers only subscribed symbols', async () => {
    const c = await RawClient.ready(`${server.base}/stocks`, key);
    c.send({ action: 'subscribe', params: 'T.AAPL, T.BRK.A,,Q.AAPL ' });
    expect(await c.nextStatus()).toBe('success: subscribed to: T.AAPL');
    expect(await c.nextStatus()).toBe('success: subscribed to: T.BRK.A');
    expect(await c.nextStatus()).toBe('success: subscribed to: Q.AAPL');
    await server.streaming.publish([trade('MSFT', 1), trade('AAPL', 2), trade('BRK.A', 3)]);
    const got = await c.events(2);
    expect(got.map((e) => e.sym)).toEqual(['AAPL', 'BRK.A']);
    c.close();
  });

  it('delivers an event once when a wildcard and a symbol topic both match; unsubscribing one keeps the other', async () => {
    const c = await RawClient.ready(`${server.base}/stocks`, key);
    c.send({ action: 'subscribe', params: 'T.*,T.AAPL' });
    await c.next();
    await c.next();
    await server.streaming.publish([trade('AAPL', 1), trade('MSFT', 2)]);
    expect((await c.events(2)).map((e) => e.sym)).toEqual(['AAPL', 'MSFT']);
    c.send({ action: 'unsubscribe', params: 'T.AAPL' });
    expect(await c.nextStatus()).toBe('success: unsubscribed to: T.AAPL');
    await server.streaming.publish([trade('AAPL', 3)]);
    expect((await c.events(1))[0]!.i).toBe('3');
    c.send({ action: 'unsubscribe', params: 'T.*' });
    await c.next();
    await server.streaming.publish([trade('AAPL', 4)]);
    c.send({ action: 'subscribe', params: 'T.ZZZ' });
    expect(await c.nextStatus()).toBe('success: subscribed to: T.ZZZ'); // no trade came before it
    c.close();
  });

  it('matches forex and crypto pairs in any documented spelling', async () => {
    const c = await RawClient.ready(`${server.base}/crypto`, key);
    c.send({ action: 'subscribe', params: 'XT.BTC-USD' });
    await c.next();
    await server.streaming.publish([{ ev: 'XT', pair: 'BTC-USD', p: 1, s: 0.5, t: 1, c: [], i: '1', x: 1, r: 2 }]);
    expect((await c.events(1))[0]!.pair).toBe('BTC-USD');
    c.close();
    const f = await RawClient.ready(`${server.base}/forex`, key);
    f.send({ action: 'subscribe', params: 'C.C:EUR-USD' });
    await f.next();
    await server.streaming.publish([{ ev: 'C', p: 'EUR/USD', x: 48, a: 1.1, b: 1.0, t: 1 }]);
    expect((await f.events(1))[0]!.p).toBe('EUR/USD');
    f.close();
  });
});

describe('options quotes', () => {
  it('refuse a wildcard and more than 1,000 contracts per connection', async () => {
    const c = await RawClient.ready(`${server.base}/options`, key);
    c.send({ action: 'subscribe', params: 'Q.*,T.*' });
    expect(await c.nextStatus()).toBe('error: options quotes cannot be subscribed with a wildcard: Q.*');
    expect(await c.nextStatus()).toBe('success: subscribed to: T.*');
    const contracts = Array.from({ length: 1001 }, (_, i) => `Q.O:SPY251219C${String(i).padStart(8, '0')}`);
    c.send({ action: 'subscribe', params: contracts.join(',') });
    for (let i = 0; i < 1000; i++) expect((await c.next())[0]!.status).toBe('success');
    expect(await c.nextStatus()).toBe(`error: at most 1000 options quote subscriptions per connection: ${contracts[1000]}`);
    c.send({ action: 'unsubscribe', params: contracts[0] });
    await c.next();
    c.send({ action: 'subscribe', params: contracts[1000] });
    expect(await c.nextStatus()).toBe(`success: subscribed to: ${contracts[1000]}`);
    c.close();
  });
});

describe('framing', () => {
  it('batches events into JSON arrays under the frame cap, in publish order, with exact ns integers', async () => {
    const small = await startFeedServer({ limits: { maxFrameBytes: 2000 } });
    try {
      const k = await small.keyFor('demo');
      const c = await RawClient.ready(`${small.base}/stocks`, k);
      c.send({ action: 'subscribe', params: 'T.*,FMV.AAPL' });
      await c.next();
      await c.next();
      const raw: string[] = [];
      c.ws.on('message', (d) => raw.push(d.toString()));
      await small.streaming.publish(Array.from({ length: 200 }, (_, i) => trade('AAPL', i)));
      const got = await c.events(200);
      expect(got.map((e) => e.q)).toEqual(Array.from({ length: 200 }, (_, i) => i));
      expect(raw.length).toBeGreaterThan(1);
      expect(raw.length).toBeLessThan(200); // batched
      for (const r of raw) expect(Buffer.byteLength(r)).toBeLessThanOrEqual(2000);
      raw.length = 0;
      await small.streaming.publish([{ ev: 'FMV', fmv: 196.4318, sym: 'AAPL', t: 1749825067412345678n }]);
      await c.events(1);
      expect(raw[0]).toBe('[{"ev":"FMV","fmv":196.4318,"sym":"AAPL","t":1749825067412345678}]');
      c.close();
    } finally {
      await small.close();
    }
  });

  it('answers WebSocket pings', async () => {
    const c = await RawClient.ready(`${server.base}/stocks`, key);
    const pong = new Promise<string>((res) => c.ws.once('pong', (d) => res(d.toString())));
    c.ws.ping('hello');
    expect(await pong).toBe('hello');
    c.close();
  });
});
