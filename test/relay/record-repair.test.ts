// Recording and gap repair on both engines: relayed trades and upstream's minute bars show over
// REST (v3 trades, last trade, minute aggregates); when upstream goes away for a while, local
// clients are told and stay connected, are told again when it is back, and the trades and bars
// of the recorded tickers over the gap are fetched from upstream's REST API and stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../src/domain/exact-json.js';
import { engines } from '../helpers/engines.js';
import { FakeUpstreamFeed, FakeUpstreamRest, waitFor } from '../helpers/fake-upstream-feed.js';
import { SdkClient, startRelayServer, trades, type RelayServer } from './relay-helpers.js';

const T0 = Date.UTC(2026, 11, 4, 15, 30); // a Friday, 10:30 in New York

for (const engine of engines()) {
  describe(`relay recording and gap repair (${engine.name})`, () => {
    let upstream: FakeUpstreamFeed;
    let rest: FakeUpstreamRest;
    let relay: RelayServer;

    beforeAll(async () => {
      upstream = await FakeUpstreamFeed.start();
      rest = await new FakeUpstreamRest().start();
      relay = await startRelayServer({ feedUrl: upstream.base, restBase: rest.base, store: await engine.open(), record: true });
      await waitFor(() => upstream.connections('stocks') === 1, 'the relay to connect upstream');
    });
    afterAll(async () => {
      await relay.close();
      await upstream.close();
      await rest.close();
    });

    const get = async (url: string) => {
      const res = await relay.server.app.inject({ method: 'GET', url, headers: { 'x-api-key': relay.key } });
      return { status: res.statusCode, body: parseJsonExact(res.body) as Record<string, any> };
    };

    it('stores relayed trades and upstream minute bars, so REST shows them', async () => {
      const c = await SdkClient.open(relay.key, relay.server.base);
      await c.subscribe('T.RECA');
      // recording asks upstream for the minute bars of what it records as well
      await waitFor(() => upstream.subscriptions('stocks').has('T.RECA') && upstream.subscriptions('stocks').has('AM.RECA'), 'T.RECA and AM.RECA upstream');
      const ticks = trades('RECA', 3, T0);
      const bar = { ev: 'AM', sym: 'RECA', v: 303, av: 303, op: 100, vw: 100.01, o: 100, c: 100.02, h: 100.02, l: 100, a: 100.01, z: 101, s: T0, e: T0 + 60_000 };
      upstream.send('stocks', [...ticks, bar]);
      await c.until(() => c.events().length === 3, 'the trades');
      // the bar was not asked for by the client: relayed for recording only
      expect(c.events()).toEqual(ticks);
      await waitFor(async () => (await get('/v3/trades/RECA')).body.results?.length === 3, 'three trades over REST');
      const last = await get('/v2/last/trade/RECA');
      expect(last.body.results).toMatchObject({ T: 'RECA', p: 100.02, s: 102, t: BigInt(T0 + 2) * 1_000_000n });
      await waitFor(async () => (await get(`/v2/aggs/ticker/RECA/range/1/minute/${T0}/${T0 + 60_000}`)).body.resultsCount === 1, 'the minute bar');
      const aggs = await get(`/v2/aggs/ticker/RECA/range/1/minute/${T0}/${T0 + 60_000}`);
      expect(aggs.body.results[0]).toMatchObject({ t: T0, o: 100, h: 100.02, l: 100, c: 100.02, v: 303, vw: 100.01 });
      c.close();
    });

    it("keeps upstream's latest minute bar when a correction follows in a later frame, behind a batch of trades", async () => {
      const c = await SdkClient.open(relay.key, relay.server.base);
      await c.subscribe('T.CORA');
      await waitFor(() => upstream.subscriptions('stocks').has('AM.CORA'), 'AM.CORA upstream');
      const bar = (close: number) => ({ ev: 'AM', sym: 'CORA', v: 300, av: 300, op: 100, vw: 100, o: 100, c: close, h: 101, l: 99, a: 100, z: 100, s: T0, e: T0 + 60_000 });
      // the first bar follows a batch of trades, the correction comes in a later frame
      upstream.send('stocks', [...trades('CORA', 99, T0), bar(100.5)]);
      upstream.send('stocks', [bar(100.75)]);
      await c.until(() => c.events().length === 99, 'the trades');
      const url = `/v2/aggs/ticker/CORA/range/1/minute/${T0}/${T0 + 60_000}`;
      await waitFor(async () => (await get('/v3/trades/CORA?limit=1000')).body.results?.length === 99, 'the trades recorded');
      await new Promise((r) => setTimeout(r, 200));
      expect((await get(url)).body.results).toMatchObject([{ t: T0, c: 100.75 }]);
      c.close();
    });

    it('stores every trade of frames larger than a read slice and a write once, in order, and the last one is the last trade', async () => {
      const c = await SdkClient.open(relay.key, relay.server.base);
      await c.subscribe('T.SPLT');
      await waitFor(() => upstream.subscriptions('stocks').has('T.SPLT'), 'T.SPLT upstream');
      // frames of 150, 70 and 1,180 trades: read in slices of a hundred and written in transactions
      // of up to a thousand, each frame split across them
      upstream.send('stocks', trades('SPLT', 150, T0));
      upstream.send('stocks', trades('SPLT', 70, T0, 150));
      upstream.send('stocks', trades('SPLT', 1180, T0, 220));
      const n = 1400;
      await c.until(() => c.events().length === n, 'the trades');
      const url = '/v3/trades/SPLT?limit=5000&order=asc';
      await waitFor(async () => (await get(url)).body.results?.length === n, 'the trades recorded');
      const stored = (await get(url)).body.results as { id: string; sip_timestamp: bigint }[];
      expect(stored.map((r) => r.id)).toEqual(Array.from({ length: n }, (_, k) => `${k}`));
      expect(stored.map((r) => r.sip_timestamp)).toEqual(Array.from({ length: n }, (_, k) => BigInt(T0 + k) * 1_000_000n));
      const last = await get('/v2/last/trade/SPLT');
      expect(last.body.results).toMatchObject({ T: 'SPLT', i: `${n - 1}`, q: 1000 + n - 1, t: BigInt(T0 + n - 1) * 1_000_000n });
      c.close();
    });

    it('tells local clients when upstream is lost and back, keeps them connected, and repairs the gap from REST', async () => {
      const c = await SdkClient.open(relay.key, relay.server.base);
      await c.subscribe('T.GAPA');
      await waitFor(() => upstream.subscriptions('stocks').has('T.GAPA'), 'T.GAPA upstream');
      upstream.send('stocks', trades('GAPA', 1, T0));
      await c.until(() => c.events().length === 1, 'the first trade');
      await waitFor(async () => (await get('/v3/trades/GAPA')).body.results?.length === 1, 'the first trade recorded');

      const down = Date.now();
      await upstream.stop();
      await c.until(() => c.notices().some((n) => n.status === 'error' && n.message.includes('upstream stocks feed lost')), 'the lost status');
      // what upstream has over the gap (paged by two through next_url), and one trade well after it
      const inGap = [1, 2, 3].map((k) => ({ sip_timestamp: BigInt(down + 100 * k) * 1_000_000n + 123n, price: 101 + k, size: 10 * k, exchange: 4, id: `gap${k}`, sequence_number: BigInt(5000 + k) }));
      rest.trades.set('GAPA', [...inGap, { sip_timestamp: BigInt(down + 3_600_000) * 1_000_000n, price: 1, size: 1, exchange: 4, id: 'later', sequence_number: 9999n }]);
      const minute = Math.floor(down / 60_000) * 60_000;
      rest.bars.set('GAPA', [{ t: minute, o: 102, h: 104, l: 102, c: 104, v: 60, vw: 103.2, n: 3 }]);
      // upstream stays away for a few seconds; the client stays connected all along
      await new Promise((r) => setTimeout(r, 2500));
      expect(c.closedWith).toBeUndefined();
      await upstream.resume();
      await c.until(() => c.notices().some((n) => n.status === 'success' && n.message.includes('upstream stocks feed restored')), 'the restored status');
      expect(c.closedWith).toBeUndefined();

      // subscriptions came back with the connection, and events flow again
      await waitFor(() => upstream.subscriptions('stocks').has('T.GAPA'), 'T.GAPA re-subscribed');
      const after = trades('GAPA', 1, Date.now(), 7);
      upstream.send('stocks', after);
      await c.until(() => c.events().length === 2, 'a trade after the outage');

      await waitFor(() => relay.logs.some((l) => l.startsWith('relay: repaired the stocks gap')), 'the repair log line');
      const line = relay.logs.find((l) => l.startsWith('relay: repaired the stocks gap'))!;
      expect(line).toMatch(/3 trades and 1 minute bars stored for \d+ tickers/);
      expect(line).not.toContain('upstream-key');
      const stored = await get(`/v3/trades/GAPA?timestamp.gte=${BigInt(down) * 1_000_000n}&timestamp.lt=${BigInt(down + 1000) * 1_000_000n}&order=asc`);
      expect(stored.body.results.map((t: { id: string }) => t.id)).toEqual(['gap1', 'gap2', 'gap3']);
      expect(stored.body.results.map((t: { sip_timestamp: bigint }) => t.sip_timestamp)).toEqual(inGap.map((t) => t.sip_timestamp));
      const bars = await get(`/v2/aggs/ticker/GAPA/range/1/minute/${minute}/${minute}`);
      expect(bars.body.results[0]).toMatchObject({ o: 102, h: 104, c: 104, v: 60, n: 3 });
      // the key went upstream in the header only
      expect(rest.requests.length).toBeGreaterThanOrEqual(3);
      for (const r of rest.requests) {
        expect(r.authorization).toBe('Bearer upstream-key');
        expect(r.url).not.toContain('upstream-key');
      }
      c.close();
    });
  });
}
