// POST /admin/publish on both engines: subscribers receive the events, REST shows the stored
// trades and quotes at once (last trade, v3 ticks), bad lines are refused whole, and the second
// and minute bars the feed emits equal the REST aggregates of the same trades.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { STOCK_TRADES } from '../ingest/flatfile-headers.js';
import { RawClient, startFeedServer, type FeedServer } from './feed-helpers.js';

const TOKEN = 'admin-token-for-the-publish-tests-0123456789';
const T0 = 1749825065000; // 2025-06-13 14:31:05 UTC

for (const engine of engines()) {
  describe(`publishing (${engine.name})`, () => {
    let server: FeedServer;
    let key: string;

    beforeAll(async () => {
      server = await startFeedServer({ store: await engine.open(), adminToken: TOKEN, connectionLimit: 50, aggregation: { graceMs: 50 } });
      key = await server.keyFor('demo');
    });
    afterAll(async () => server.close());

    const post = (body: string, headers: Record<string, string> = {}, query = '') =>
      server.app.inject({ method: 'POST', url: `/admin/publish${query}`, payload: body, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson', ...headers } });
    const get = async (url: string) => {
      const res = await server.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
      return { status: res.statusCode, body: res.json() as Record<string, any> };
    };
    const ndjson = (events: object[]) => events.map((e) => JSON.stringify(e)).join('\n');

    it('refuses a request without the admin token, or with an API key', async () => {
      const none = await server.app.inject({ method: 'POST', url: '/admin/publish', payload: '{}' });
      expect(none.statusCode).toBe(401);
      const apiKey = await post('{}', { authorization: `Bearer ${key}` });
      expect(apiKey.statusCode).toBe(401);
    });

    it('delivers published events, stores trades and quotes, and REST reflects them at once', async () => {
      const c = await RawClient.ready(`${server.base}/stocks`, key);
      c.send({ action: 'subscribe', params: 'T.PUBA,Q.PUBA' });
      await c.next();
      await c.next();
      // read before the publish, so a cached answer would show
      expect((await get('/v2/last/trade/PUBA')).status).toBe(404);
      const trade = { ev: 'T', sym: 'PUBA', x: 4, i: '9001', z: 3, p: 196.43, s: 300, c: [14, 41], t: T0 + 412, q: 3681328, trfi: 202, trft: T0 + 409 };
      const quote = { ev: 'Q', sym: 'PUBA', bx: 12, bp: 196.42, bs: 3, ax: 11, ap: 196.44, as: 2, c: 1, i: [604], t: T0 + 417, q: 50385480, z: 3 };
      const res = await post(ndjson([trade, quote]));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'OK', events: 2, trades_stored: 1, quotes_stored: 1 });
      expect(await c.events(2)).toEqual([trade, quote]);

      const last = await get('/v2/last/trade/PUBA');
      expect(last.status).toBe(200);
      expect(last.body.results).toMatchObject({ T: 'PUBA', p: 196.43, s: 300, i: '9001', x: 4, c: [14, 41], t: (T0 + 412) * 1e6 });
      const trades = await get(`/v3/trades/PUBA?timestamp.gte=${T0}000000`);
      expect(trades.body.results).toHaveLength(1);
      expect(trades.body.results[0]).toMatchObject({ price: 196.43, size: 300, id: '9001', exchange: 4, sequence_number: 3681328, trf_id: 202 });
      const quotes = await get('/v3/quotes/PUBA');
      expect(quotes.body.results[0]).toMatchObject({ bid_price: 196.42, ask_price: 196.44, bid_exchange: 12, ask_exchange: 11, sequence_number: 50385480 });
      const lastQuote = await get('/v2/last/nbbo/PUBA');
      expect(lastQuote.body.results).toMatchObject({ p: 196.42, P: 196.44 });
      const snap = await get('/v2/snapshot/locale/us/markets/stocks/tickers/PUBA');
      expect(snap.status, JSON.stringify(snap.body)).toBe(200);
      expect(snap.body.ticker.lastTrade).toMatchObject({ p: 196.43, s: 300, i: '9001' });
      expect(snap.body.ticker.lastQuote).toMatchObject({ p: 196.42, P: 196.44 });
      c.close();
    });

    it('refuses the whole request at the first bad line, naming it, and writes nothing', async () => {
      const good = { ev: 'T', sym: 'BADL', p: 1, s: 1, t: T0, x: 1 };
      const cases: Array<[string, string]> = [
        [`${JSON.stringify(good)}\n{"ev":"T","sym":"BADL","p":"1","s":1,"t":1}`, 'line 2: "p" must be a number'],
        [`${JSON.stringify(good)}\n\n{oops`, 'line 3: not valid JSON'],
        [`{"ev":"T","sym":"BADL","p":1,"s":1,"t":1749825065000000000}`, 'line 1: "t" must be a Unix time in milliseconds'],
        [`{"ev":"XT","sym":"BADL"}`, 'line 1: "pair" (the symbol of a XT event) must be a non-empty string'],
        [`{"ev":"LULD","T":"BADL","h":null}`, 'line 1: null values are not allowed'],
        [`{"ev":"ZZ","sym":"BADL"}`, 'line 1: "ev" "ZZ" is not a channel of the stocks market'],
        // values no column holds: each was a 500 from PostgreSQL
        [`${JSON.stringify(good)}\n{"ev":"T","sym":"BADL","p":1,"s":1,"t":${T0},"x":4294967296}`, 'line 2: "x" must be a 32-bit integer'],
        [`{"ev":"T","sym":"BADL","p":1,"s":1,"t":${T0},"q":1e300}`, 'line 1: "q" must be a 64-bit integer'],
        [`{"ev":"T","sym":"BAD\\u0000L","p":1,"s":1,"t":${T0}}`, 'line 1: "sym" must not contain a NUL character'],
        [`{"ev":"T","sym":"BADL","p":1,"s":1,"t":${T0},"i":"a\\u0000b"}`, 'line 1: "i" (trade id) must be a string without a NUL character'],
      ];
      for (const [body, message] of cases) {
        const res = await post(body);
        expect(res.statusCode, body).toBe(400);
        expect(res.json().message).toContain(message);
      }
      expect((await get('/v3/trades/BADL')).body.results).toEqual([]);
    });

    it('takes a trades flat-file CSV, as the importer reads it', async () => {
      const c = await RawClient.ready(`${server.base}/stocks`, key);
      c.send({ action: 'subscribe', params: 'T.CSVT' });
      await c.next();
      const ns = BigInt(T0) * 1_000_000n + 123_456n;
      const csv = `${STOCK_TRADES}\nCSVT,"12,37",0,11,52983525034212,${ns - 10n},196.43,3681331,${ns},100,3,,\n`;
      const res = await post(csv, { 'content-type': 'text/csv' });
      expect(res.statusCode).toBe(200);
      expect(await c.events(1)).toEqual([{ ev: 'T', sym: 'CSVT', x: 11, i: '52983525034212', z: 3, p: 196.43, s: 100, c: [12, 37], t: T0, q: 3681331 }]);
      const rest = await get('/v3/trades/CSVT');
      expect(rest.body.results[0].sip_timestamp).toBe(Number(ns)); // the exact ns from the file
      const bad = await post(`${STOCK_TRADES}\nCSVT,,0,11,1,1,notaprice,1,1,1,3,,\n`, { 'content-type': 'text/csv' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/line 2/);
      c.close();
    });

    it('emits second and minute bars equal to the REST aggregates of the same trades, and stores the minutes', async () => {
      const c = await RawClient.ready(`${server.base}/stocks`, key);
      c.send({ action: 'subscribe', params: 'A.AGGS,AM.AGGS' });
      await c.next();
      await c.next();
      const M = 1749825000000; // 14:30:00 UTC
      const prints = [
        [M + 1_000, 10.0, 100], [M + 1_400, 10.5, 50], [M + 1_999, 9.9, 25],
        [M + 2_100, 10.2, 300],
        [M + 59_500, 10.4, 10],
        [M + 60_000, 10.6, 200], [M + 61_250, 10.1, 70],
      ] as const;
      const events = prints.map(([t, p, s], i) => ({ ev: 'T', sym: 'AGGS', x: 1, i: String(i), p, s, t, q: i }));
      expect((await post(ndjson(events))).statusCode).toBe(200);
      const bars = await c.events(7, 5000); // 5 second bars, 2 minute bars
      const seconds = bars.filter((b) => b.ev === 'A');
      const minutes = bars.filter((b) => b.ev === 'AM');
      expect(seconds).toHaveLength(5);
      expect(minutes).toHaveLength(2);

      const restSeconds = (await get(`/v2/aggs/ticker/AGGS/range/1/second/${M}/${M + 120_000}?limit=50000`)).body.results as any[];
      expect(seconds.map((b) => ({ t: b.s, o: b.o, h: b.h, l: b.l, c: b.c, v: b.v }))).toEqual(restSeconds.map((b) => ({ t: b.t, o: b.o, h: b.h, l: b.l, c: b.c, v: b.v })));
      seconds.forEach((b, i) => expect(b.vw).toBeCloseTo(restSeconds[i].vw, 4));
      expect(seconds.every((b) => (b.e as number) - (b.s as number) === 1000)).toBe(true);

      const fromTrades = (await get(`/v2/aggs/ticker/AGGS/range/60/second/${M}/${M + 120_000}`)).body.results as any[];
      expect(minutes.map((b) => ({ t: b.s, o: b.o, h: b.h, l: b.l, c: b.c, v: b.v }))).toEqual(fromTrades.map((b) => ({ t: b.t, o: b.o, h: b.h, l: b.l, c: b.c, v: b.v })));
      expect(minutes[0]).toMatchObject({ e: M + 60_000, av: 485, op: 10.0, z: Math.round(485 / 5) });

      // minute bars are stored: REST minute and day aggregates include them
      await new Promise((r) => setTimeout(r, 200));
      const stored = (await get(`/v2/aggs/ticker/AGGS/range/1/minute/${M}/${M + 120_000}`)).body.results as any[];
      expect(stored.map((b) => [b.t, b.o, b.h, b.l, b.c, b.v, b.n])).toEqual([
        [M, 10.0, 10.5, 9.9, 10.4, 485, 5],
        [M + 60_000, 10.6, 10.6, 10.1, 10.1, 270, 2],
      ]);
      const day = (await get('/v2/aggs/ticker/AGGS/range/1/day/2025-06-13/2025-06-13')).body.results as any[];
      expect(day[0]).toMatchObject({ o: 10.0, c: 10.1, h: 10.6, l: 9.9, v: 755 });

      // a late trade corrects the stored minute
      expect((await post(ndjson([{ ev: 'T', sym: 'AGGS', x: 1, i: 'late', p: 12, s: 15, t: M + 30_000 }]))).statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 400));
      const corrected = (await get(`/v2/aggs/ticker/AGGS/range/1/minute/${M}/${M + 59_999}`)).body.results as any[];
      expect(corrected[0]).toMatchObject({ h: 12, v: 500, n: 6 });
      c.close();
    });
  });
}
