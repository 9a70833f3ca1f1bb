// Replay of stored history through the feed, on both engines: pacing at a multiple of real time,
// order across tickers and kinds, pause/resume/seek, owner-only access and the plan's history.
import { websocketClient } from '@massive.com/client-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { RawClient, startFeedServer, type FeedServer } from './feed-helpers.js';

const T0 = 1749821400000; // 2025-06-13 13:30:00 UTC
const NS = 1_000_000n;

type OfficialSocket = ReturnType<ReturnType<typeof websocketClient>['stocks']>;

/** The events an official client subscribed to T.*, Q.* and AM.* receives until the replay finishes (at most 5 s). */
async function playedEvents(ws: OfficialSocket): Promise<any[]> {
  const frames: any[][] = [];
  ws.onmessage = ({ data }: { data: unknown }) => {
    const f = JSON.parse(String(data)) as any[];
    frames.push(f);
    if (f[0].status === 'auth_success') ws.send(JSON.stringify({ action: 'subscribe', params: 'T.*,Q.*,AM.*' }));
  };
  const deadline = Date.now() + 5000;
  while (!frames.some((f) => f[0].message === 'replay finished') && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
  ws.close();
  return frames.flat().filter((e) => e.ev !== 'status');
}

for (const engine of engines()) {
  describe(`replay (${engine.name})`, () => {
    let server: FeedServer;
    let key: string;

    beforeAll(async () => {
      server = await startFeedServer({ store: await engine.open(), connectionLimit: 10 });
      key = await server.keyFor('demo');
      const m = server.store.market;
      // one trade a second for a minute and one more at its end
      await m.insertTrades(Array.from({ length: 61 }, (_, i) => ({
        ticker: 'RPL', sip_timestamp: BigInt(T0 + i * 1000) * NS, participant_timestamp: undefined, trf_timestamp: undefined,
        price: 100 + i / 10, size: 10 + i, exchange: 4, id: String(i), conditions: undefined, correction: undefined,
        sequence_number: BigInt(i), tape: 3, trf_id: undefined,
      })));
      await m.insertQuotes([{
        ticker: 'RPL', sip_timestamp: BigInt(T0 + 500) * NS, participant_timestamp: undefined, trf_timestamp: undefined,
        ask_price: 100.1, ask_size: 2, ask_exchange: 11, bid_price: 99.9, bid_size: 3, bid_exchange: 12,
        conditions: undefined, indicators: undefined, sequence_number: 7n, tape: 3,
      }]);
      await m.insertTrades([{
        ticker: 'OTHER', sip_timestamp: BigInt(T0 + 250) * NS, participant_timestamp: undefined, trf_timestamp: undefined,
        price: 5, size: 1, exchange: 1, id: 'o', conditions: undefined, correction: undefined, sequence_number: undefined, tape: undefined, trf_id: undefined,
      }]);
      await m.insertBars('minute', [{ ticker: 'RPL', t: T0, o: 100, h: 106, l: 100, c: 105.9, v: 2400, vw: 103, n: 60 }]);
    });
    afterAll(async () => server.close());

    const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, body?: object, k = key) => {
      const res = await server.app.inject({ method, url, payload: body, headers: { 'x-api-key': k } });
      return { status: res.statusCode, body: res.json() as Record<string, any> };
    };
    const create = (body: object, k?: string) => call('POST', '/v1/replay', body, k);

    it('paces a minute of history at 10× into 6 s (± 10 %)', async () => {
      const r = await create({ from: T0, to: T0 + 60_001, speed: 10, tickers: ['RPL'] });
      expect(r.status).toBe(201);
      const { id, paths } = r.body.results;
      expect(paths).toEqual([`/replay/${id}/stocks`]);
      const c = await RawClient.ready(`${server.base}/replay/${id}/stocks`, key);
      c.send({ action: 'subscribe', params: 'T.RPL' });
      await c.next();
      const first = await c.events(1);
      const started = Date.now();
      const rest = await c.events(60, 9000);
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(5400);
      expect(took).toBeLessThanOrEqual(6600);
      expect([...first, ...rest].map((e) => e.t)).toEqual(Array.from({ length: 61 }, (_, i) => T0 + i * 1000));
      expect(first[0]).toEqual({ ev: 'T', sym: 'RPL', x: 4, i: '0', z: 3, p: 100, s: 10, t: T0, q: 0 });
      expect(await c.nextStatus()).toBe('success: replay finished');
      c.close();
    }, 20_000);

    it('sends trades, quotes and minute bars of several tickers in timestamp order at "max"', async () => {
      const r = await create({ from: '2025-06-13T13:30:00Z', to: T0 + 60_001, speed: 'max', tickers: ['RPL', 'OTHER'] });
      const { id } = r.body.results;
      // the official client, pointed at the replay's base, connects unchanged
      const events = await playedEvents(websocketClient(key, `${server.base}/replay/${id}`).stocks());
      expect(events).toHaveLength(61 + 1 + 1 + 1);
      expect(events.slice(0, 3).map((e) => `${e.ev}.${e.sym}`)).toEqual(['T.RPL', 'T.OTHER', 'Q.RPL']);
      expect(events.at(-1)).toMatchObject({ ev: 'AM', sym: 'RPL', o: 100, c: 105.9, v: 2400, vw: 103, s: T0, e: T0 + 60_000 });
      const times = events.map((e) => (e.ev === 'AM' ? e.e : e.t));
      expect(times).toEqual([...times].sort((a, b) => a - b));
    });

    it('replays futures contracts from the futures tables on /replay/<id>/futures, reached with a venue too', async () => {
      const f = server.store.futures;
      await f.insertTrades([1000, 3000].map((dt, i) => ({
        ticker: 'ESU5', timestamp: BigInt(T0 + dt) * NS + 250n, sequence_number: BigInt(11 + i), session_end_date: '2025-06-13', price: 6058.25 + i, size: 2 + i,
      })));
      await f.insertQuotes([{
        ticker: 'ESU5', timestamp: BigInt(T0 + 2000) * NS, sequence_number: 0n, session_end_date: '2025-06-13', bid_price: 6058, bid_size: 14, ask_price: 6058.25, ask_size: 9,
      }]);
      await f.insertMinuteBars([{
        ticker: 'ESU5', window_start: BigInt(T0) * NS, session_end_date: '2025-06-13', open: 6058, high: 6059, low: 6057.5, close: 6058.25, volume: 40, transactions: 12, dollar_volume: 242330,
      }]);
      // a stock of the same name stays out of a futures replay
      await server.store.market.insertTrades([{
        ticker: 'ESU5', sip_timestamp: BigInt(T0 + 1500) * NS, participant_timestamp: undefined, trf_timestamp: undefined,
        price: 1, size: 1, exchange: 1, id: 's', conditions: undefined, correction: undefined, sequence_number: undefined, tape: undefined, trf_id: undefined,
      }]);
      const r = await create({ from: T0, to: T0 + 60_001, speed: 'max', tickers: ['ESU5'], markets: ['futures'] });
      expect(r.status).toBe(201);
      const { id, paths } = r.body.results;
      expect(paths).toEqual([`/replay/${id}/futures`]);
      expect(await playedEvents(websocketClient(key, `${server.base}/replay/${id}`, 'cme').futures())).toEqual([
        { ev: 'T', sym: 'ESU5', p: 6058.25, s: 2, t: T0 + 1000, q: 11 },
        { ev: 'Q', sym: 'ESU5', bp: 6058, bs: 14, ap: 6058.25, as: 9, t: T0 + 2000 },
        { ev: 'T', sym: 'ESU5', p: 6059.25, s: 3, t: T0 + 3000, q: 12 },
        { ev: 'AM', sym: 'ESU5', v: 40, dv: 242330, o: 6058, c: 6058.25, h: 6059, l: 6057.5, n: 12, s: T0, e: T0 + 60_000 },
      ]);
    });

    it('pauses, resumes without repeating or losing events, and seeks', async () => {
      const { id } = (await create({ from: T0, to: T0 + 60_001, speed: 20, tickers: ['RPL'] })).body.results;
      const c = await RawClient.ready(`${server.base}/replay/${id}/stocks`, key);
      c.send({ action: 'subscribe', params: 'T.RPL' });
      await c.next();
      await c.events(5);
      expect((await call('POST', `/v1/replay/${id}/pause`)).body.results.state).toBe('paused');
      const countAtPause = c.frames.flat().filter((e) => e.ev === 'T').length;
      await new Promise((res) => setTimeout(res, 400));
      expect(c.frames.flat().filter((e) => e.ev === 'T').length).toBe(countAtPause);
      expect((await call('POST', `/v1/replay/${id}/resume`)).body.results.state).toBe('playing');
      await c.events(61 - countAtPause, 6000);
      const ids = c.frames.flat().filter((e) => e.ev === 'T').map((e) => e.i);
      expect(ids).toEqual(Array.from({ length: 61 }, (_, i) => String(i)));
      expect(await c.nextStatus(3000)).toBe('success: replay finished');
      const seek = await call('POST', `/v1/replay/${id}/seek`, { position: T0 + 58_000 });
      expect(seek.body.results).toMatchObject({ state: 'paused', position: T0 + 58_000 });
      await call('POST', `/v1/replay/${id}/resume`);
      expect((await c.events(3, 3000)).map((e) => e.i)).toEqual(['58', '59', '60']);
      expect((await call('POST', `/v1/replay/${id}/seek`, { position: T0 - 1 })).status).toBe(400);
      c.close();
    });

    it('belongs to the creating key only', async () => {
      const { id } = (await create({ from: T0, to: T0 + 1000, tickers: ['RPL'] })).body.results;
      const other = await server.keyFor('demo');
      expect((await call('GET', `/v1/replay/${id}`, undefined, other)).status).toBe(404);
      const c = await RawClient.connect(`${server.base}/replay/${id}/stocks`);
      await c.next();
      c.send({ action: 'auth', params: other });
      expect(await c.nextStatus()).toMatch(/^auth_failed: No replay /);
      expect(await c.closed).toBe(1008);
      expect((await call('DELETE', `/v1/replay/${id}`)).status).toBe(200);
      expect((await call('GET', `/v1/replay/${id}`)).status).toBe(404);
    });

    it("applies the plan's history and checks its input", async () => {
      const free = await server.keyFor('free'); // 2 years of history
      const old = await create({ from: '2015-01-02', to: '2015-01-03', tickers: ['RPL'] }, free);
      expect(old.status).toBe(403);
      expect(old.body.message).toMatch(/includes history from \d{4}-\d{2}-\d{2}; from is earlier/);
      expect((await create({ from: T0, to: T0 - 1, tickers: ['RPL'] })).status).toBe(400);
      expect((await create({ from: T0, to: T0 + 1, tickers: [] })).status).toBe(400);
      expect((await create({ from: T0, to: T0 + 1, speed: 0, tickers: ['RPL'] })).status).toBe(400);
      expect((await create({ from: 'yesterday-ish', to: T0 + 1, tickers: ['RPL'] })).status).toBe(400);
      const stocksOnly = await server.keyFor('stocks_only');
      const fx = await create({ from: T0, to: T0 + 1, tickers: ['C:EURUSD'] }, stocksOnly);
      expect(fx.status).toBe(403);
      expect(fx.body.message).toContain("doesn't include the forex market");
      expect((await server.app.inject({ method: 'POST', url: '/v1/replay', payload: { from: T0, to: T0 + 1, tickers: ['X'] } })).statusCode).toBe(401);
    });
  });
}
