// The relay's small parts: upstream spellings of topics, the bars recorded beside ticks, the
// fixed list per market, the relay flags' checks, and the REST gap source (pages followed on
// upstream's host only, a deadline, exact ns timestamps, the key in the header and nowhere else).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { validateRelayFlags } from '../../src/cli/relay.js';
import { fixedTopicsByMarket } from '../../src/stream/relay/index.js';
import { barOfEvent } from '../../src/stream/relay/record-batch.js';
import { barTopicOf, upstreamTopic } from '../../src/stream/relay/topics.js';
import { UpstreamError } from '../../src/upstream/rest-errors.js';
import { GapSourceError, RestGapSource } from '../../src/upstream/rest-gap-source.js';
import { FakeUpstreamRest } from '../helpers/fake-upstream-feed.js';

const servers: { close(): unknown }[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; base: string }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push({ close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) });
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('relay topics', () => {
  it('spells topics as upstream reads them', () => {
    expect(upstreamTopic('crypto', 'XT', 'XT.X:BTC-USD')).toBe('XT.BTC-USD');
    expect(upstreamTopic('forex', 'C', 'C.C:EUR-USD')).toBe('C.EUR-USD');
    expect(upstreamTopic('stocks', 'T', 'T.BRK.A')).toBe('T.BRK.A');
    expect(upstreamTopic('stocks', 'AM', 'AM.*')).toBe('AM.*');
  });

  it('records the minute bars of what it records', () => {
    expect(barTopicOf('stocks', 'T.AAPL')).toBe('AM.AAPL');
    expect(barTopicOf('stocks', 'Q.*')).toBe('AM.*');
    expect(barTopicOf('crypto', 'XT.BTC-USD')).toBe('XA.BTC-USD');
    expect(barTopicOf('forex', 'C.EUR/USD')).toBe('CA.EUR/USD');
    expect(barTopicOf('stocks', 'AM.AAPL')).toBeUndefined();
    expect(barTopicOf('indices', 'V.I:SPX')).toBeUndefined();
  });

  it('stores upstream minute aggregates as minute bars under the stored ticker', () => {
    expect(barOfEvent({ ev: 'XA', pair: 'BTC-USD', o: 1, h: 2, l: 0.5, c: 1.5, v: 10, vw: 1.2, z: 2, s: 60_000, e: 120_000 }, 'crypto')).toEqual({ ticker: 'X:BTCUSD', t: 60_000, o: 1, h: 2, l: 0.5, c: 1.5, v: 10, vw: 1.2, n: 5 });
    expect(barOfEvent({ ev: 'A', sym: 'AAPL', o: 1, h: 1, l: 1, c: 1, s: 0 }, 'stocks')).toBeUndefined();
    expect(barOfEvent({ ev: 'AM', sym: 'AAPL', o: 1, h: 1, l: 1, s: 0 }, 'stocks')).toBeUndefined();
  });

  it('splits --relay-subscribe among the relayed markets, and names an item none carries', () => {
    expect(Object.fromEntries(fixedTopicsByMarket(['T.*', 'AM.*', 'crypto:XT.*'], ['stocks', 'crypto']))).toEqual({ stocks: ['T.*', 'AM.*'], crypto: ['AM.*', 'XT.*'] });
    expect(() => fixedTopicsByMarket(['XT.*'], ['stocks'])).toThrow('--relay-subscribe: XT.*: no relayed market (stocks) has a XT channel');
    expect(() => fixedTopicsByMarket(['AAPL'], ['stocks'])).toThrow('--relay-subscribe: AAPL is not a topic');
  });

  it('checks the relay flags before anything starts', () => {
    const base = { upstreamFeed: 'wss://socket.massive.com', upstreamUrl: 'https://api.massive.com', relayRecord: 'yes' as const, redisPrefix: 'tickerbase:', workers: 1 };
    expect(() => validateRelayFlags({ ...base, relay: ['stocks'] })).toThrow('--relay needs the upstream key');
    expect(() => validateRelayFlags({ ...base, relay: ['stocks'], upstreamKey: 'k', workers: 2 })).toThrow('needs --redis-url');
    expect(() => validateRelayFlags({ ...base, relay: ['stocks'], upstreamKey: 'k', relaySubscribe: 'XT.*' })).toThrow('no relayed market');
    expect(() => validateRelayFlags({ ...base, relay: ['stocks'], upstreamKey: 'k', relaySubscribe: 'T.*, AM.*' })).not.toThrow();
  });
});

describe('REST gap source', () => {
  it('follows next_url and keeps ns timestamps exact', async () => {
    const rest = await new FakeUpstreamRest('k1', 2).start();
    servers.push(rest);
    const ns = (k: number) => 1_765_000_000_123_456_789n + BigInt(k);
    rest.trades.set('AAPL', [1, 2, 3, 4, 5].map((k) => ({ sip_timestamp: ns(k), price: k, size: k, exchange: 4, id: `t${k}`, sequence_number: ns(k) })));
    const source = new RestGapSource({ baseUrl: rest.base, key: 'k1' });
    const trades = await source.trades('AAPL', ns(2), ns(5));
    expect(trades.map((t) => [t.id, t.sip_timestamp])).toEqual([['t2', ns(2)], ['t3', ns(3)], ['t4', ns(4)]]);
    expect(rest.requests).toHaveLength(2);
    for (const r of rest.requests) {
      expect(r.authorization).toBe('Bearer k1');
      expect(r.url).not.toContain('k1');
    }
  });

  it('asks a next_url of the configured base whatever host it names (the key goes nowhere else)', async () => {
    const elsewhere: (string | undefined)[] = [];
    const other = await listen((req, res) => {
      elsewhere.push(req.headers.authorization);
      res.end('{"results":[]}');
    });
    const asked: string[] = [];
    const first = await listen((req, res) => {
      asked.push(req.url ?? '');
      if (req.url === '/v2/next') res.end(JSON.stringify({ results: [{ t: 60_000, o: 2, h: 2, l: 2, c: 2, v: 1, n: 1 }] }));
      else res.end(JSON.stringify({ results: [{ t: 0, o: 1, h: 1, l: 1, c: 1, v: 1, n: 1 }], next_url: `${other.base}/v2/next` }));
    });
    const bars = await new RestGapSource({ baseUrl: first.base, key: 'secret-key' }).minuteBars('AAPL', 0, 120_000);
    expect(bars.map((b) => [b.t, b.o])).toEqual([[0, 1], [60_000, 2]]);
    expect(asked[1]).toBe('/v2/next');
    expect(elsewhere).toEqual([]);
  });

  it('gives up on a silent upstream at the deadline, without the key in the error', async () => {
    const silent = await listen(() => {});
    const source = new RestGapSource({ baseUrl: silent.base, key: 'secret-key', timeoutMs: 200, retries: 0 });
    const err = await source.trades('AAPL', 0n, 1n).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as UpstreamError).kind).toBe('unavailable');
    expect((err as Error).message).toMatch(new RegExp(`^${silent.base}/v3/trades/AAPL\\?.*: no answer within 200 ms$`));
    expect((err as Error).message).not.toContain('secret-key');
  });

  it('retries an upstream failure (5xx) before giving up on a ticker', async () => {
    let calls = 0;
    const flaky = await listen((_req, res) => {
      if (++calls === 1) res.writeHead(503).end('busy');
      else res.end(JSON.stringify({ results: [{ t: 0, o: 1, h: 1, l: 1, c: 1 }] }));
    });
    const waits: number[] = [];
    const bars = await new RestGapSource({ baseUrl: flaky.base, key: 'k', sleep: async (ms) => void waits.push(ms) }).minuteBars('AAPL', 0, 60_000);
    expect(bars).toHaveLength(1);
    expect(calls).toBe(2);
    expect(waits).toEqual([1000]);
  });

  it('names a refused key by its status and path, without the key', async () => {
    const rest = await new FakeUpstreamRest('right-key').start();
    servers.push(rest);
    const err = await new RestGapSource({ baseUrl: rest.base, key: 'wrong-key' }).minuteBars('AAPL', 0, 60_000).catch((e: unknown) => e);
    expect((err as UpstreamError).kind).toBe('unauthorized');
    expect((err as Error).message).toContain('/v2/aggs/ticker/AAPL/range/1/minute/0/59999');
    expect((err as Error).message).toContain('HTTP 401');
    expect((err as Error).message).not.toContain('wrong-key');
  });

  it('refuses a gap of more pages than allowed, and a record of the wrong shape naming its field', async () => {
    const rest = await new FakeUpstreamRest('k1', 2).start();
    servers.push(rest);
    rest.trades.set('AAPL', [1, 2, 3, 4, 5].map((k) => ({ sip_timestamp: BigInt(k), price: k, size: k, exchange: 4, id: `t${k}`, sequence_number: BigInt(k) })));
    const err = await new RestGapSource({ baseUrl: rest.base, key: 'k1', maxPages: 2 }).trades('AAPL', 0n, 10n).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GapSourceError);
    expect((err as Error).message).toBe('upstream REST /v3/trades/AAPL: more than 2 pages');
    const odd = await listen((_req, res) => res.end(JSON.stringify({ results: [{ t: 0, o: 1, h: 'high', l: 1, c: 1 }] })));
    const bad = await new RestGapSource({ baseUrl: odd.base, key: 'k' }).minuteBars('AAPL', 0, 60_000).catch((e: unknown) => e);
    expect((bad as UpstreamError).kind).toBe('bad_answer');
    expect((bad as Error).message).toContain('results[0].h: must be a number');
  });
});
