// Publishing futures events (POST /admin/publish?market=futures) on both engines: subscribers of
// /futures receive them and stock subscribers do not, /futures/vX trades and quotes show them at
// once, their trades make A / AM bars in the futures shape that are stored as futures minute bars,
// and a futures trade without its sequence number is refused whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { STOCK_TRADES } from '../ingest/flatfile-headers.js';
import { RawClient, startFeedServer, type FeedServer } from './feed-helpers.js';

const TOKEN = 'admin-token-for-the-futures-publish-tests-0123';
const M = 1749825000000; // 2025-06-13 14:30:00 UTC, trading date 2025-06-13
const NS = 1_000_000;

for (const engine of engines()) {
  describe(`publishing futures (${engine.name})`, () => {
    let server: FeedServer;
    let key: string;

    beforeAll(async () => {
      server = await startFeedServer({ store: await engine.open(), adminToken: TOKEN, connectionLimit: 50, aggregation: { graceMs: 50 } });
      key = await server.keyFor('demo');
    });
    afterAll(async () => server.close());

    const post = (events: object[], query = '?market=futures') =>
      server.app.inject({
        method: 'POST', url: `/admin/publish${query}`, payload: events.map((e) => JSON.stringify(e)).join('\n'),
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson' },
      });
    const get = async (url: string) => {
      const res = await server.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      return res.json() as Record<string, any>;
    };

    it('delivers trades and quotes on /futures only, and /futures/vX shows them at once', async () => {
      const fut = await RawClient.ready(`${server.base}/futures`, key);
      fut.send({ action: 'subscribe', params: 'T.ESU5,Q.ESU5' });
      await fut.next();
      await fut.next();
      const stocks = await RawClient.ready(`${server.base}/stocks`, key);
      stocks.send({ action: 'subscribe', params: 'T.*,Q.*' });
      await stocks.next();
      // read before the publish, so a cached answer would show
      expect((await get('/futures/vX/trades/ESU5')).results).toEqual([]);

      const trade = { ev: 'T', sym: 'ESU5', p: 6058.25, s: 2, t: M + 7_412, q: 19872245 };
      const quote = { ev: 'Q', sym: 'ESU5', bp: 6058, bs: 14, bt: M + 7_411, ap: 6058.25, as: 9, at: M + 7_412, t: M + 7_412 };
      const res = await post([trade, quote]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ events: 2, trades_stored: 1, quotes_stored: 1 });
      expect(await fut.events(2)).toEqual([trade, quote]);

      expect((await get('/futures/vX/trades/ESU5')).results).toEqual([
        { ticker: 'ESU5', price: 6058.25, size: 2, timestamp: (M + 7_412) * NS, sequence_number: 19872245, session_end_date: '2025-06-13' },
      ]);
      expect((await get('/futures/vX/quotes/ESU5')).results).toEqual([{
        ticker: 'ESU5', timestamp: (M + 7_412) * NS, sequence_number: 0, session_end_date: '2025-06-13',
        bid_price: 6058, bid_size: 14, bid_timestamp: (M + 7_411) * NS, ask_price: 6058.25, ask_size: 9, ask_timestamp: (M + 7_412) * NS,
      }]);
      // not a stock: no stock rows, no stock events
      expect((await get('/v3/trades/ESU5')).results).toEqual([]);
      await new Promise((r) => setTimeout(r, 200));
      expect(stocks.frames.flat().filter((e) => e.ev !== 'status')).toEqual([]);
      fut.close();
      stocks.close();
    });

    it('aggregates futures trades into A and AM bars with dollar value and trade count, and stores the minutes', async () => {
      const c = await RawClient.ready(`${server.base}/futures`, key);
      c.send({ action: 'subscribe', params: 'A.NQU5,AM.NQU5' });
      await c.next();
      await c.next();
      const prints = [
        [M + 1_000, 21500.25, 3], [M + 1_500, 21501.0, 1],
        [M + 30_000, 21499.5, 4],
        [M + 60_500, 21502.75, 2],
      ] as const;
      const events = prints.map(([t, p, s], i) => ({ ev: 'T', sym: 'NQU5', p, s, t, q: 500 + i }));
      expect((await post(events)).statusCode).toBe(200);
      const bars = await c.events(5, 5000); // 3 second bars, 2 minute bars
      const minutes = bars.filter((b) => b.ev === 'AM');
      expect(bars.filter((b) => b.ev === 'A').map((b) => [b.s, b.o, b.c, b.v, b.n])).toEqual([
        [M + 1_000, 21500.25, 21501.0, 4, 2], [M + 30_000, 21499.5, 21499.5, 4, 1], [M + 60_000, 21502.75, 21502.75, 2, 1],
      ]);
      expect(minutes[0]).toEqual({
        ev: 'AM', sym: 'NQU5', v: 8, dv: 21500.25 * 3 + 21501.0 + 21499.5 * 4, o: 21500.25, c: 21499.5, h: 21501.0, l: 21499.5, n: 3, s: M, e: M + 60_000,
      });
      // futures bars carry no stock fields
      expect(Object.keys(minutes[0]!)).not.toContain('vw');

      await new Promise((r) => setTimeout(r, 300));
      const stored = (await get(`/futures/vX/aggs/NQU5?resolution=1min&window_start.gte=${M}&sort=window_start.asc`)).results as any[];
      expect(stored.map((b) => [b.window_start, b.open, b.high, b.low, b.close, b.volume, b.transactions, b.session_end_date])).toEqual([
        [M * NS, 21500.25, 21501.0, 21499.5, 21499.5, 8, 3, '2025-06-13'],
        [(M + 60_000) * NS, 21502.75, 21502.75, 21502.75, 21502.75, 2, 1, '2025-06-13'],
      ]);
      expect(stored[0].dollar_volume).toBeCloseTo(21500.25 * 3 + 21501.0 + 21499.5 * 4, 6);
      c.close();
    });

    it('refuses a futures trade without its sequence number, or with a fractional size, naming the line, and writes nothing', async () => {
      const good = { ev: 'T', sym: 'CLQ5', p: 71.5, s: 1, t: M, q: 1 };
      const noSeq = await post([good, { ev: 'T', sym: 'CLQ5', p: 71.6, s: 1, t: M + 1 }]);
      expect(noSeq.statusCode).toBe(400);
      expect(noSeq.json().message).toMatch(/line 2: "q" is required on futures T events/);
      const fractional = await post([{ ...good, s: 1.5 }]);
      expect(fractional.statusCode).toBe(400);
      expect(fractional.json().message).toMatch(/line 1: "s" must be an integer/);
      expect((await get('/futures/vX/trades/CLQ5')).results).toEqual([]);
      // a flat-file CSV is never read as futures ticks
      const csv = await server.app.inject({
        method: 'POST', url: '/admin/publish?market=futures', payload: `${STOCK_TRADES}\nCLQ5,,,1,1,0,71.5,1,1749825000000000000,1,,,\n`,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'text/csv' },
      });
      expect(csv.statusCode).toBe(400);
      expect(csv.json().message).toMatch(/line 1: futures events are published as NDJSON/);
      expect((await get('/v3/trades/CLQ5')).results).toEqual([]);
      // the same event without ?market=futures is a stock trade, as before
      expect((await post([{ ev: 'T', sym: 'CLQ5', p: 71.6, s: 1.5, t: M + 1 }], '')).statusCode).toBe(200);
      expect((await get('/futures/vX/trades/CLQ5')).results).toEqual([]);
    });
  });
}
