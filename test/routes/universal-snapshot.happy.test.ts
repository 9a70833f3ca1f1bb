import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { startTestApp, walkPages } from '../helpers/app.js';
import { expectSameShape, skipConformance, upstreamBody } from '../helpers/conformance.js';
import { engines } from '../helpers/engines.js';
import { ns, referenceContracts } from '../helpers/options-fixture.js';
import { AFTER, DAY, MID, PREV_START, et, loadSessionPartsFixture, loadSnapshotFixture, nsOf } from '../helpers/snapshot-fixture.js';
import { useSeededApps } from '../helpers/app-fixture.js';
import { useNativeServer } from '../helpers/app-fixture.js';

// The universal snapshot against the per-market snapshots at the same clock (MID = 11:00 ET on
// 2026-11-19 = 16:00Z, the forex fixture's clock too; AFTER = 21:00 ET).
const U = '/v3/snapshot';
const STOCKS = '/v2/snapshot/locale/us/markets/stocks/tickers';
const FX = '/v2/snapshot/locale/global/markets/forex/tickers';
const CRYPTO = '/v2/snapshot/locale/global/markets/crypto/tickers';
const ZZA_CALL_100 = 'O:ZZA261218C00100000';
const INDEX = 'I:TST';

async function seed(store: Store): Promise<void> {
  await loadSnapshotFixture(store);
  await loadSessionPartsFixture(store);
  await store.options.upsertContracts(referenceContracts());
  await store.market.insertBars('day', [
    { ticker: ZZA_CALL_100, t: PREV_START, o: 4, h: 4.5, l: 3.8, c: 4.2, v: 300, vw: 4.1, n: 40 },
    { ticker: 'ZZA', t: PREV_START, o: 99, h: 100.5, l: 98, c: 100, v: 1e6, vw: 99.5, n: 1000 },
    { ticker: INDEX, t: PREV_START, o: 500, h: 505, l: 495, c: 500, v: 0, n: 0 },
  ]);
  await store.market.insertBars('minute', [
    { ticker: ZZA_CALL_100, t: et(DAY, '09:30'), o: 4.3, h: 4.6, l: 4.3, c: 4.5, v: 70, vw: 4.45, n: 9 },
    { ticker: INDEX, t: et(DAY, '09:30'), o: 501, h: 503, l: 500, c: 502, v: 0, n: 0 },
    { ticker: INDEX, t: et(DAY, '10:30'), o: 502, h: 506, l: 502, c: 505, v: 0, n: 0 },
  ]);
  await store.market.insertTrades([
    { ticker: 'ZZA', sip_timestamp: ns(MID - 5000), price: 101, size: 100, exchange: 4, id: 'z1', sequence_number: 9n },
    { ticker: ZZA_CALL_100, sip_timestamp: ns(MID - 60_000, 7n), price: 4.85, size: 3, exchange: 312, sequence_number: 3n, conditions: [209] },
  ]);
  await store.market.insertQuotes([
    { ticker: ZZA_CALL_100, sip_timestamp: ns(MID - 20_000, 9n), bid_price: 4.8, ask_price: 5, bid_size: 40, ask_size: 55, bid_exchange: 301, ask_exchange: 302, sequence_number: 5n },
  ]);
  await store.options.upsertOpenInterest([{ ticker: ZZA_CALL_100, date: DAY, open_interest: 1750 }]);
  await store.reference.upsertTickers([
    { ticker: INDEX, name: 'Test Index', market: 'indices', locale: 'us', active: true, last_updated_utc: '2026-11-20T00:00:00Z', valid_from: '2000-01-01' },
    ...(
      [
        ['C:EURUSD', 'Euro - United States dollar', 'fx'],
        ['C:GBPUSD', 'British pound - United States dollar', 'fx'],
        ['X:BTCUSD', 'Bitcoin - United States Dollar', 'crypto'],
        ['X:ETHUSD', 'Ethereum - United States Dollar', 'crypto'],
      ] as const
    ).map(([ticker, name, market]) => ({ ticker, name, market, locale: 'global' as const, active: true, last_updated_utc: '2026-11-20T00:00:00Z', valid_from: '2000-01-01' })),
  ]);
}

/** Every ticker the listing covers at MID, in code-unit order. */
function universeAtMid(): string[] {
  const stocks = ['AAA', 'BBB', 'CCC', 'EXT', 'ZZA'];
  for (let i = 0; i < 25; i++) stocks.push(`G${String(i).padStart(2, '0')}`, `L${String(i).padStart(2, '0')}`);
  const options = referenceContracts().filter((c) => c.expiration_date >= DAY).map((c) => c.ticker);
  return [...stocks, 'C:EURUSD', 'C:GBPUSD', 'X:BTCUSD', 'X:ETHUSD', ...options, INDEX].sort();
}

for (const engine of engines()) {
  describe(`universal snapshot /v3/snapshot (${engine.name})`, () => {
    let clock = MID;
    const { apps: [t, wrapped] } = useSeededApps(engine, seed, { envelope: 'native', now: () => clock }, { envelope: 'wrapped', now: () => clock });

    async function body(url: string, at = clock) {
      clock = at;
      const res = await t.get(url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    }
    const one = async (ticker: string, at: number) => {
      const b = await body(`${U}?ticker=${encodeURIComponent(ticker)}`, at);
      expect(b.results).toHaveLength(1);
      return b.results[0];
    };

    for (const [label, at] of [['mid-session', MID], ['after the close', AFTER]] as const) {
      it(`stocks agree with /v2/snapshot (${label}): session = day bar, last trade, quote and minute`, async () => {
        const u = await one('AAA', at);
        const v2 = (await body(`${STOCKS}/AAA`, at)).ticker;
        expect(u).toMatchObject({ ticker: 'AAA', name: 'Alpha', type: 'stocks' });
        expect(u.session).toMatchObject({
          open: v2.day.o,
          high: v2.day.h,
          low: v2.day.l,
          close: v2.day.c,
          volume: v2.day.v,
          previous_close: v2.prevDay.c,
          change: v2.todaysChange,
          change_percent: v2.todaysChangePerc,
          price: v2.lastTrade.p,
        });
        expect(u.last_trade).toMatchObject({ price: v2.lastTrade.p, size: v2.lastTrade.s, id: v2.lastTrade.i, exchange: v2.lastTrade.x, last_updated: v2.lastTrade.t, timeframe: 'REAL-TIME' });
        expect(u.last_quote).toMatchObject({ bid: v2.lastQuote.p, ask: v2.lastQuote.P, bid_size: v2.lastQuote.s, ask_size: v2.lastQuote.S, last_updated: v2.lastQuote.t });
        expect(u.last_minute).toMatchObject({ open: v2.min.o, close: v2.min.c, volume: v2.min.v, transactions: v2.min.n });
      });
    }

    /** The session's change split (absent keys left out). */
    const split = (session: Record<string, number>) =>
      Object.fromEntries(Object.entries(session).filter(([k]) => /^(early|regular|late)_trading_change/.test(k)));

    it('splits the change by session part: pre-market and regular from the previous close, after hours from the regular close', async () => {
      // EXT: previous close 50; pre-market last 51 by 08:00 and 51.5 at 09:00; regular 53 at 10:30 and close 54; after hours 55 at 16:30 and last 53.5
      const cases: [at: number, status: string, expected: Record<string, number>][] = [
        [et(DAY, '08:00'), 'early_trading', { early_trading_change: 1, early_trading_change_percent: 2 }],
        [MID, 'open', { early_trading_change: 1.5, early_trading_change_percent: 3, regular_trading_change: 3, regular_trading_change_percent: 6 }],
        [et(DAY, '17:00'), 'late_trading', {
          early_trading_change: 1.5, early_trading_change_percent: 3, regular_trading_change: 4, regular_trading_change_percent: 8,
          late_trading_change: 1, late_trading_change_percent: 1.852,
        }],
        [AFTER, 'closed', {
          early_trading_change: 1.5, early_trading_change_percent: 3, regular_trading_change: 4, regular_trading_change_percent: 8,
          late_trading_change: -0.5, late_trading_change_percent: -0.926,
        }],
      ];
      for (const [at, status, expected] of cases) {
        const u = await one('EXT', at);
        expect(u.market_status).toBe(status);
        expect(split(u.session), status).toEqual(expected);
      }
      // before the next pre-market the finished session is still the one shown
      expect(split((await one('EXT', et('2026-11-20', '03:00'))).session)).toEqual(cases[3]![2]);
    });

    it('a part without prices has no change: AAA trades in the regular session only; other markets have no split', async () => {
      expect(split((await one('AAA', MID)).session)).toEqual({ regular_trading_change: 4, regular_trading_change_percent: 4 });
      expect(split((await one('AAA', AFTER)).session)).toEqual({ regular_trading_change: 6, regular_trading_change_percent: 6 });
      expect(split((await one(INDEX, MID)).session)).toEqual({});
      expect(split((await one('C:EURUSD', MID)).session)).toEqual({});
      expect(split((await one('X:BTCUSD', MID)).session)).toEqual({});
    });

    it('writes volumes and sizes as decimal strings too, and the last trade\'s exchange time', async () => {
      const ext = await one('EXT', AFTER);
      expect(ext.session).toMatchObject({ volume: 5500.875, decimal_volume: '5500.875' });
      expect(ext.last_minute).toMatchObject({ volume: 100, decimal_volume: '100.0' });
      expect(ext.last_trade).toMatchObject({ size: 0.5, decimal_size: '0.5' });
      const aaa = await one('AAA', MID);
      expect(aaa.session).toMatchObject({ volume: 15_000, decimal_volume: '15000.0' });
      expect(aaa.last_minute).toMatchObject({ volume: 4000, decimal_volume: '4000.0' });
      expect(aaa.last_trade).toMatchObject({ size: 300, decimal_size: '300.0' });
      clock = MID;
      const raw = await t.app.inject({ method: 'GET', url: `${U}?ticker=AAA`, headers: { 'x-api-key': t.key } });
      expect(raw.body).toContain(`"participant_timestamp":${nsOf(et(DAY, '10:59', 30), 100_000n)}`);
      expect(raw.body).toContain(`"last_updated":${nsOf(et(DAY, '10:59', 30), 123_456n)}`);
    });

    it('market_status follows the clock', async () => {
      expect((await one('AAA', MID)).market_status).toBe('open');
      expect((await one('AAA', et(DAY, '17:00'))).market_status).toBe('late_trading');
      expect((await one('AAA', et(DAY, '08:00'))).market_status).toBe('early_trading');
      expect((await one('AAA', AFTER)).market_status).toBe('closed');
      expect((await one('X:BTCUSD', AFTER)).market_status).toBe('open');
    });

    it('forex and crypto agree with their v2 snapshots', async () => {
      const fx = await one('C:EURUSD', MID);
      const fx2 = (await body(`${FX}/C:EURUSD`, MID)).ticker;
      expect(fx).toMatchObject({ type: 'fx', name: 'Euro - United States dollar', session: { open: fx2.day.o, close: fx2.day.c, high: fx2.day.h, low: fx2.day.l, volume: fx2.day.v, previous_close: fx2.prevDay.c, change: fx2.todaysChange, change_percent: fx2.todaysChangePerc } });
      expect(fx.last_quote).toMatchObject({ bid: fx2.lastQuote.b, ask: fx2.lastQuote.a, exchange: fx2.lastQuote.x });
      expect(fx.last_quote.bid).toBe(1.1219);
      const btc = await one('X:BTCUSD', MID);
      const btc2 = (await body(`${CRYPTO}/X:BTCUSD`, MID)).ticker;
      expect(btc).toMatchObject({ type: 'crypto', session: { close: btc2.day.c, open: btc2.day.o, volume: btc2.day.v, previous_close: btc2.prevDay.c, change: btc2.todaysChange } });
      expect(btc.last_trade.price).toBe(btc2.lastTrade.p);
      expect(btc.last_trade.price).toBe(63_000);
    });

    it('options agree with the chain snapshot: greeks, IV, break-even, open interest, underlying', async () => {
      const u = await one(ZZA_CALL_100, MID);
      const chain = (await body(`/v3/snapshot/options/ZZA/${ZZA_CALL_100}`, MID)).results;
      expect(u).toMatchObject({ ticker: ZZA_CALL_100, type: 'options', name: 'ZZA $100 Call' });
      expect(Object.keys(chain.greeks)).toEqual(expect.arrayContaining(['delta', 'gamma', 'theta', 'vega']));
      expect(u.greeks).toEqual(chain.greeks);
      expect(u.implied_volatility).toBe(chain.implied_volatility);
      expect(u.break_even_price).toBe(chain.break_even_price);
      expect(u.open_interest).toBe(1750);
      expect(u.underlying_asset).toEqual(chain.underlying_asset);
      expect(u.last_quote).toMatchObject({ bid: 4.8, ask: 5, midpoint: chain.last_quote.midpoint });
      expect(u.last_trade).toEqual(chain.last_trade);
      expect(u.details).toMatchObject({ contract_type: 'call', strike_price: 100, expiration_date: '2026-12-18', underlying_ticker: 'ZZA' });
      expect(u.session).toMatchObject({ close: chain.day.close, open: chain.day.open, volume: chain.day.volume, previous_close: chain.day.previous_close, change: chain.day.change });
    });

    it('indices: value = latest completed minute close, session against the previous close', async () => {
      const u = await one(INDEX, MID);
      expect(u).toMatchObject({ ticker: INDEX, type: 'indices', name: 'Test Index', value: 505, timeframe: 'REAL-TIME' });
      expect(u.session).toMatchObject({ open: 501, high: 506, low: 500, close: 505, previous_close: 500, change: 5, change_percent: 1 });
      expect(u.last_updated).toBe(Number(ns(et(DAY, '10:31'))));
    });

    it('ticker.any_of: exactly those, in the order requested; unknown tickers are NOT_FOUND items', async () => {
      const list = ['X:BTCUSD', 'AAA', ZZA_CALL_100, 'NOPE', 'C:EURUSD', 'O:NOPE261218C00100000', INDEX, 'AAA'];
      const b = await body(`${U}?ticker.any_of=${encodeURIComponent(list.join(','))}`, MID);
      expect(b.status).toBe('OK');
      expect(typeof b.request_id).toBe('string');
      expect(b.results.map((r: any) => r.ticker)).toEqual(list.slice(0, 7));
      expect(b.results[3]).toEqual({ error: 'NOT_FOUND', message: 'Ticker not found.', ticker: 'NOPE' });
      expect(b.results[5]).toEqual({ error: 'NOT_FOUND', message: 'Ticker not found.', ticker: 'O:NOPE261218C00100000' });
      expect(b.results.map((r: any) => r.type)).toEqual(['crypto', 'stocks', 'options', undefined, 'fx', undefined, 'indices']);
      expect(b.next_url).toBeUndefined();
      // forex and crypto pairs may be spelt with a dash
      const dashed = await body(`${U}?ticker.any_of=X:BTC-USD`, MID);
      expect(dashed.results[0].ticker).toBe('X:BTCUSD');
    });

    it('type filters the named tickers and the listing', async () => {
      const b = await body(`${U}?type=stocks&ticker.any_of=X:BTCUSD,AAA,C:EURUSD,BBB`, MID);
      expect(b.results.map((r: any) => r.ticker)).toEqual(['AAA', 'BBB']);
      const fx = await body(`${U}?type=fx`, MID);
      expect(fx.results.map((r: any) => r.ticker)).toEqual(['C:EURUSD', 'C:GBPUSD']);
      const options = await body(`${U}?type=options&limit=250`, MID);
      expect(options.results.every((r: any) => r.type === 'options')).toBe(true);
      expect(options.results).toHaveLength(referenceContracts().filter((c) => c.expiration_date >= DAY).length);
    });

    it('ticker ranges', async () => {
      const b = await body(`${U}?type=options&ticker.gte=O:ZZA261218&ticker.lt=O:ZZB&limit=50`, MID);
      expect(b.results.map((r: any) => r.ticker)).toEqual(
        referenceContracts().filter((c) => c.underlying_ticker === 'ZZA' && c.expiration_date >= '2026-12-18').map((c) => c.ticker).sort(),
      );
      const exact = await body(`${U}?ticker.gte=AAA&ticker.lte=BBB`, MID);
      expect(exact.results.map((r: any) => r.ticker)).toEqual(['AAA', 'BBB']);
      const gt = await body(`${U}?ticker.gt=AAA&ticker.lte=BBB&order=desc`, MID);
      expect(gt.results.map((r: any) => r.ticker)).toEqual(['BBB']);
    });

    it('listing: default limit 10; the next_url walk yields every ticker once, in order, both directions', async () => {
      clock = MID;
      const first = await body(U, MID);
      expect(first.results).toHaveLength(10);
      expect(first.next_url).toMatch(/\/v3\/snapshot\?cursor=/);
      const expected = universeAtMid();
      const pages = await walkPages(t, `${U}?limit=7`);
      const seen = pages.flatMap((p) => p.results.map((r: any) => r.ticker));
      expect(seen).toEqual(expected);
      expect(pages.slice(0, -1).every((p) => p.results.length === 7)).toBe(true);
      const desc = (await walkPages(t, `${U}?limit=25&order=desc`)).flatMap((p) => p.results.map((r: any) => r.ticker));
      expect(desc).toEqual([...expected].reverse());
      const all = await body(`${U}?limit=250`, MID);
      expect(all.results.map((r: any) => r.ticker)).toEqual(expected);
      expect(all.next_url).toBeUndefined();
      // OTC tickers are listed only when named, as the v2 snapshot's default
      expect(seen).not.toContain('OTCX');
      expect((await one('OTCX', MID)).ticker).toBe('OTCX');
    });

    it('both envelopes', async () => {
      clock = MID;
      const res = await wrapped.get(`${U}?ticker.any_of=AAA,NOPE`);
      expect(res.status).toBe(200);
      expect(res.body.ok).toBe(true);
      expect(res.body.data.status).toBe('OK');
      expect(res.body.data.results.map((r: any) => r.ticker)).toEqual(['AAA', 'NOPE']);
      const native = await t.get(`${U}?ticker.any_of=AAA,NOPE`);
      expect(native.body.ok).toBeUndefined();
      expect(native.body.results).toEqual(res.body.data.results);
    });

    it('conformance with the recorded upstream bodies (field names and JSON types)', async () => {
      const cases: [file: string, url: string, opts: Parameters<typeof expectSameShape>[2]][] = [
        [
          'v3/snapshot.json',
          `${U}?ticker.any_of=${ZZA_CALL_100},AAA,NOPE`,
          {
            allowMissing: ['results[].fmv', 'results[].session.early_trading_change', 'results[].session.early_trading_change_percent', 'results[].session.late_trading_change', 'results[].session.late_trading_change_percent'],
            // AAA trades in the regular session only (no early or late change); upstream's schema declares the regular
            // change, the decimal size and the exchange time, which this recorded body lacks
            allowExtra: [
              'results[].session.price', 'results[].session.decimal_volume', 'results[].last_minute', 'results[].last_quote.ask_exchange', 'results[].last_quote.bid_exchange',
              'results[].session.regular_trading_change', 'results[].session.regular_trading_change_percent', 'results[].last_trade.decimal_size', 'results[].last_trade.participant_timestamp',
            ],
          },
        ],
        [
          'v3/snapshot~3.json',
          `${U}?ticker.any_of=AAA,BBB,ZZA`,
          {
            // the fixture's trades carry no conditions: the key is left out, as upstream leaves out keys without a value;
            // AAA, BBB and ZZA trade in the regular session only, so only the regular change is there (upstream's
            // schema declares the regular change, the decimal size and the exchange time, which this older body lacks)
            allowMissing: ['next_url', 'results[].session.early_trading_change', 'results[].session.early_trading_change_percent', 'results[].last_trade.conditions'],
            allowExtra: [
              'results[].session.decimal_volume', 'results[].last_minute', 'results[].session.regular_trading_change', 'results[].session.regular_trading_change_percent',
              'results[].last_trade.decimal_size', 'results[].last_trade.participant_timestamp',
            ],
          },
        ],
        ['v3/snapshot~4.json', `${U}?type=fx`, { allowMissing: ['next_url', 'results[].fmv'], allowExtra: ['results[].session.price'] }],
        ['v3/snapshot~5.json', `${U}?type=indices`, { allowMissing: ['next_url'] }],
        ['v3/snapshot~6.json', `${U}?type=crypto`, { allowMissing: ['next_url', 'results[].fmv'], allowExtra: ['results[].last_trade.size'] }],
      ];
      for (const [file, url, opts] of cases) {
        const upstream = upstreamBody(file);
        if (!upstream) {
          skipConformance(`${U} (${file})`);
          continue;
        }
        const ours = await body(url, MID);
        expect(ours.results.length, file).toBeGreaterThan(0);
        expectSameShape(ours, upstream, opts);
      }
    });
  });
}

describe('universal snapshot and plans', () => {
  const engine = engines()[0]!;
  let store: Store;
  beforeAll(async () => {
    store = await engine.open();
    await seed(store);
  });
  afterAll(async () => store.close());

  it('a delayed plan sees the items as of its delayed clock, marked DELAYED, without the ticks it lacks', async () => {
    const t = await startTestApp(store, { envelope: 'native', plan: 'starter', now: () => MID });
    try {
      const u = (await t.get(`${U}?ticker.any_of=AAA,${ZZA_CALL_100}`)).body;
      const v2 = (await t.get(`${STOCKS}/AAA`)).body.ticker;
      expect(u.results[0].session.close).toBe(v2.day.c);
      expect(u.results[0].session.close).toBe(103.5); // 10:45 ET: the 10:59 minute is not visible
      expect(u.results[0].last_trade).toBeUndefined();
      expect(u.results[0].last_quote).toBeUndefined();
      expect(u.results[1].underlying_asset.timeframe).toBe('DELAYED');
      expect(u.results[1].last_quote).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('a plan without snapshots is refused', async () => {
    const t = await startTestApp(store, { envelope: 'native', plan: 'free', now: () => MID });
    try {
      const res = await t.get(`${U}?ticker=AAA`);
      expect(res.status).toBe(403);
    } finally {
      await t.close();
    }
  });
});

describe('universal snapshot through @massive.com/client-js (native mode)', () => {
  const engine = engines()[0]!;
  const { server } = useNativeServer(engine, seed, { now: () => MID });

  it('getSnapshots with tickerAnyOf, type and limit', async () => {
    const rest = server.client();
    const named = await rest.getSnapshots({ tickerAnyOf: `AAA,${ZZA_CALL_100},NOPE` });
    expect(named.status).toBe('OK');
    expect(named.results?.map((r) => r.ticker)).toEqual(['AAA', ZZA_CALL_100, 'NOPE']);
    expect(named.results?.[0]?.session?.close).toBe(104);
    expect(named.results?.[1]?.greeks?.delta).toBeGreaterThan(0);
    expect(named.results?.[2]?.error).toBe('NOT_FOUND');
    const fx = await rest.getSnapshots({ type: 'fx' as never, limit: 1 });
    expect(fx.results?.map((r) => r.ticker)).toEqual(['C:EURUSD']);
    expect(fx.next_url).toContain('/v3/snapshot?cursor=');
  });
});

