import { describe, expect, it } from 'vitest';
import type { TradeRow } from '../../src/domain/market-records.js';
import { startTestApp } from '../helpers/app.js';
import { useSeededApps } from '../helpers/app-fixture.js';
import { expectSameShape } from '../helpers/conformance.js';
import { engines } from '../helpers/engines.js';
import { AAPL_QUOTES, AAPL_TRADES, BTC_TRADES, EURUSD_QUOTES, FIXTURE_NOW, ns, seedMarket } from '../helpers/market-fixture.js';
import { haveUpstreamOpenapi, upstreamExample, upstreamParameters, upstreamBodyDifferences, UPSTREAM_OPENAPI } from '../helpers/upstream-openapi.js';

// The older tick endpoints over the stored ticks of the market fixture: AAPL trades and quotes on
// 2024-03-11 (ET), EUR/USD quotes on 2024-03-08 and BTC/USD trades on 2024-03-10 (UTC).

const V2_TRADES = '/v2/ticks/stocks/trades/AAPL/2024-03-11';
const V2_NBBO = '/v2/ticks/stocks/nbbo/AAPL/2024-03-11';
const FOREX = '/v1/historic/forex/EUR/USD/2024-03-08';
const CRYPTO = '/v1/historic/crypto/BTC/USD/2024-03-10';

/** Trades in SIP time order, then sequence number: the fixture's order. */
const ASC = AAPL_TRADES.map((r) => r.id);
const ms = (v: bigint) => Number(v / 1_000_000n);
/** The raw digits of every `"key":123` in a body, for ns values above 2^53. */
const rawInts = (text: string, key: string) => [...text.matchAll(new RegExp(`"${key}":(\\d+)[,}]`, 'g'))].map((m) => m[1]);

for (const engine of engines()) {
  describe(`older tick endpoints (${engine.name})`, () => {
    const { apps: [t, wrapped] } = useSeededApps(engine, seedMarket, { envelope: 'native', now: () => FIXTURE_NOW }, { envelope: 'wrapped', now: () => FIXTURE_NOW });

    async function body(url: string) {
      const res = await t.get(url);
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
      return res.body;
    }
    const ids = async (url: string) => (await body(url)).results.map((r: any) => r.i);

    it('v2 trades: the ET day (20:30 EDT included) in SIP time order, exact ns times, the upstream map', async () => {
      const b = await body(V2_TRADES);
      expect(b).toMatchObject({ ticker: 'AAPL', success: true, results_count: AAPL_TRADES.length });
      expect(typeof b.db_latency).toBe('number');
      expect(b.map.t).toEqual({ name: 'sip_timestamp', type: 'int64' });
      expect(b.results.map((r: any) => r.i)).toEqual(ASC);
      const raw = (await t.app.inject({ url: V2_TRADES, headers: { 'x-api-key': t.key } })).body;
      expect(rawInts(raw, 't')).toEqual(AAPL_TRADES.map((r) => r.sip_timestamp.toString()));
      expect(rawInts(raw, 'y')).toEqual(AAPL_TRADES.map((r) => r.participant_timestamp!.toString()));
      const first = AAPL_TRADES[0]!;
      expect(b.results[0]).toMatchObject({ c: [12, 37], i: 't1', p: 170.01, s: 100, x: 4, r: 202, z: 3, q: 1 });
      expect(rawInts(raw, 'f')[0]).toBe(first.trf_timestamp!.toString());
      expect(b.results.at(-1)).toMatchObject({ i: 't11', e: 1 });
      expect((await body('/v2/ticks/stocks/trades/AAPL/2024-03-12')).results).toEqual([]);
    });

    it('v2 trades: limit, timestamp as an inclusive offset, reverse and timestampLimit', async () => {
      expect(await ids(`${V2_TRADES}?limit=3`)).toEqual(ASC.slice(0, 3));
      const t5 = AAPL_TRADES[2]!.sip_timestamp; // shared by t5, t6, t7
      expect(await ids(`${V2_TRADES}?timestamp=${t5}&limit=4`)).toEqual(['t5', 't6', 't7', 't8a']);
      expect(await ids(`${V2_TRADES}?reverse=true&limit=2`)).toEqual(['t11', 't10']);
      expect(await ids(`${V2_TRADES}?reverse=true&timestamp=${t5}`)).toEqual(['t7', 't6', 't5', 't2', 't1']);
      expect(await ids(`${V2_TRADES}?timestampLimit=${t5}`)).toEqual(['t1', 't2', 't5', 't6', 't7']);
      expect(await ids(`${V2_TRADES}?timestamp=${AAPL_TRADES[1]!.sip_timestamp}&timestampLimit=${t5 - 1n}`)).toEqual(['t2']);
    });

    it('v2 trades: walking pages by the last t returns every row, the last time of a page repeated', async () => {
      const seen = new Set<string>();
      let url = `${V2_TRADES}?limit=4`;
      for (let page = 0; page < 10; page++) {
        const raw = (await t.app.inject({ url, headers: { 'x-api-key': t.key } })).body;
        const rows = JSON.parse(raw).results as { i: string }[];
        rows.forEach((r) => seen.add(r.i));
        if (rows.length < 4) break;
        url = `${V2_TRADES}?limit=4&timestamp=${rawInts(raw, 't').at(-1)}`;
      }
      expect([...seen]).toEqual(ASC);
    });

    it('v2 NBBO: bid in lower case, ask in upper case, in SIP time order', async () => {
      const b = await body(V2_NBBO);
      expect(b.results_count).toBe(AAPL_QUOTES.length);
      expect(b.map.P).toEqual({ name: 'ask_price', type: 'float64' });
      const q0 = AAPL_QUOTES[0]!;
      expect(b.results[0]).toMatchObject({ p: q0.bid_price, s: q0.bid_size, x: q0.bid_exchange, P: q0.ask_price, S: q0.ask_size, X: q0.ask_exchange, c: [1], i: [604], q: 100, z: 3 });
      expect(b.results.map((r: any) => r.P)).toEqual(AAPL_QUOTES.map((q) => q.ask_price));
      const raw = (await t.app.inject({ url: V2_NBBO, headers: { 'x-api-key': t.key } })).body;
      expect(rawInts(raw, 't')).toEqual(AAPL_QUOTES.map((q) => q.sip_timestamp!.toString()));
    });

    it('v1 historic forex: the pair C:{from}{to} of the UTC day, a/b/x with ms times, offset and limit', async () => {
      const b = await body(FOREX);
      expect(b).toMatchObject({ status: 'success', day: '2024-03-08', pair: 'EUR/USD', type: 'forex', map: { a: 'ask', b: 'bid', t: 'timestamp', x: 'exchange' } });
      expect(b.ticks).toEqual(EURUSD_QUOTES.map((q) => ({ a: q.ask_price, b: q.bid_price, x: 48, t: ms(q.participant_timestamp!) })));
      expect((await body(`${FOREX}?limit=1`)).ticks).toHaveLength(1);
      const last = ms(EURUSD_QUOTES[1]!.participant_timestamp!);
      expect((await body(`${FOREX}?offset=${last}`)).ticks.map((x: any) => x.t)).toEqual([last]);
      expect((await body(`${FOREX}?offset=${last + 1}`)).ticks).toEqual([]);
      expect((await body('/v1/historic/forex/eur/usd/2024-03-08')).pair).toBe('EUR/USD');
    });

    it('v1 historic crypto: the pair X:{from}{to} of the UTC day, p/s/x/c/i with ms times, offset and limit', async () => {
      const b = await body(CRYPTO);
      expect(b).toMatchObject({ status: 'success', day: '2024-03-10', symbol: 'BTC-USD', type: 'crypto' });
      const wire = (r: TradeRow) => ({ p: r.price, s: r.size, x: r.exchange, c: r.conditions, i: r.id, t: ms(r.participant_timestamp!) });
      expect(b.ticks).toEqual(BTC_TRADES.map(wire));
      const b3 = ms(BTC_TRADES[2]!.participant_timestamp!);
      expect((await body(`${CRYPTO}?offset=${b3}&limit=1`)).ticks).toEqual([wire(BTC_TRADES[2]!)]);
      expect((await body(`${CRYPTO}?offset=${b3}`)).ticks.map((x: any) => x.i)).toEqual(['b3', 'b4']);
      expect((await body('/v1/historic/crypto/BTC/USD/2024-03-11')).ticks).toEqual([]);
    });

    it('refuses bad parameters with a 400 naming them', async () => {
      const cases: [string, RegExp][] = [
        [`${V2_TRADES}?timestamp=abc`, /timestamp/],
        [`${V2_TRADES}?timestampLimit=1.5`, /timestampLimit/],
        [`${V2_TRADES}?limit=50001`, /limit/],
        [`${V2_NBBO}?reverse=maybe`, /reverse/],
        ['/v2/ticks/stocks/trades/AAPL/2024-3-11', /date/],
        ['/v2/ticks/stocks/trades/AAPL/2024-02-30', /date/],
        [`${FOREX}?limit=10001`, /limit/],
        [`${CRYPTO}?offset=-1`, /offset/],
        ['/v1/historic/crypto/BTC!/USD/2024-03-10', /from/],
      ];
      for (const [url, message] of cases) {
        const res = await wrapped.get(url);
        expect(res.status, url).toBe(400);
        expect(res.body.data.message, url).toMatch(message);
      }
    });

    it('accepts every parameter upstream declares and answers its example shapes', async (c) => {
      if (!haveUpstreamOpenapi) {
        console.log(`upstream OpenAPI checks skipped: ${UPSTREAM_OPENAPI} is not available`);
        return c.skip();
      }
      const doc = (await t.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, any> };
      const cases: [upstreamPath: string, ours: string, url: string, opts: Parameters<typeof expectSameShape>[2]][] = [
        // `T` (the ticker on each row) is declared upstream (and read by older clients) but absent from its example
        ['/v2/ticks/stocks/trades/{ticker}/{date}', '/v2/ticks/stocks/trades/{ticker}/{date}', V2_TRADES, { allowExtra: ['results[].T', 'results[].f', 'results[].r', 'results[].e'] }],
        ['/v2/ticks/stocks/nbbo/{ticker}/{date}', '/v2/ticks/stocks/nbbo/{ticker}/{date}', V2_NBBO, { allowExtra: ['results[].T', 'results[].i', 'results[].f'] }],
        // upstream's example spells the forex keys ap/bp and msLatency as text while its schema says a/b and an
        // integer (as its crypto example has it): the schema is served
        ['/v1/historic/forex/{from}/{to}/{date}', '/v1/historic/forex/{from}/{to}/{date}', FOREX, { allowExtra: ['ticks[].a', 'ticks[].b', 'map.a', 'map.b', 'map.x'], allowMissing: ['ticks[].ap', 'ticks[].bp', 'map.ap', 'map.bp'] }],
        ['/v1/historic/crypto/{from}/{to}/{date}', '/v1/historic/crypto/{from}/{to}/{date}', CRYPTO, { allowExtra: ['ticks[].i', 'map.i'] }],
      ];
      // every row field upstream's schema declares is written where the stored tick has it: the ticker
      // on every row; TRF time and id, correction, conditions and ids on the fixture's rows that carry them
      for (const [up, url] of [['/v2/ticks/stocks/trades/{ticker}/{date}', V2_TRADES], ['/v2/ticks/stocks/nbbo/{ticker}/{date}', V2_NBBO]] as const) {
        const b = await body(url);
        const rows = b.results as Record<string, unknown>[];
        expect(rows.every((r) => r.T === 'AAPL'), up).toBe(true);
        // one row holding every field some row has: upstream's schema requires each field on each row
        expect(upstreamBodyDifferences(up, { ...b, results: [Object.assign({}, ...rows)] }, ['.map']), up).toEqual([]); // the map is in upstream's example, not its schema
      }
      for (const [up, ours, url, opts] of cases) {
        const declared = new Set((doc.paths[ours].get.parameters as { name: string }[]).map((p) => p.name));
        expect(upstreamParameters(up).filter((p) => !declared.has(p)), up).toEqual([]);
        const example = upstreamExample(up) as Record<string, unknown>;
        expectSameShape(await body(url), { ...example, ...('msLatency' in example ? { msLatency: 0 } : {}) }, opts);
      }
    });
  });
}

describe('older tick endpoints and plans', () => {
  const T0 = '2024-03-11T13:30:00Z';
  /** 09:45:00.3 EDT on the fixture's trading day, while its session runs. */
  const DURING_SESSION = Date.parse(T0) + 15 * 60_000 + 300;

  for (const engine of engines()) {
    it(`today's ticks: a real-time plan sees them up to now with no notice, a delayed plan is told it is delayed (${engine.name})`, async () => {
      const store = await engine.open();
      const realtime = await startTestApp(store, { envelope: 'native', now: () => DURING_SESSION });
      const delayed = await startTestApp(store, { envelope: 'native', plan: 'developer', now: () => DURING_SESSION });
      try {
        await seedMarket(store);
        const live = await realtime.get(V2_TRADES);
        expect(live.status).toBe(200);
        expect(live.body.results.map((r: any) => r.i)).toEqual(ASC.filter((id) => id !== 't11')); // t11 comes at 20:30 EDT
        expect(live.body.notice).toBeUndefined();
        const late = await delayed.get(V2_TRADES);
        expect(late.body.results.map((r: any) => r.i)).toEqual(['t1', 't2']);
        expect(late.body.notice).toBe("Results were cut: the developer plan's data is 15 minutes delayed.");
      } finally {
        await realtime.close();
        await delayed.close();
        await store.close();
      }
    });
  }

  it('a 15-minute delayed plan sees the day up to its delayed clock; a plan without NBBO is refused quotes', async () => {
    const store = await engines()[0]!.open();
    // developer: trades but no NBBO, 15 minutes delayed; now = 09:45:00.3 EDT, so it sees up to 09:30:00.3
    const t = await startTestApp(store, { envelope: 'native', plan: 'developer', now: () => Date.parse(T0) + 15 * 60_000 + 300 });
    try {
      await seedMarket(store);
      const res = await t.get(V2_TRADES);
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: any) => r.i)).toEqual(['t1', 't2']);
      expect(ns(T0, 300_000_000n)).toBeLessThan(AAPL_TRADES[2]!.sip_timestamp);
      expect((await t.get(V2_NBBO)).status).toBe(403);
      expect((await t.get(FOREX)).status).toBe(403);
    } finally {
      await t.close();
      await store.close();
    }
  });
});
