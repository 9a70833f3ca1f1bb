import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';
import { DAY, MID, et, loadSnapshotFixture } from '../helpers/snapshot-fixture.js';

// Plans: snapshots as of the plan's delayed clock, tick fields only for plans that include them.
const engine = engines()[0]!;

describe('snapshots and plans', () => {
  let store: Store;
  const apps: TestApp[] = [];
  const app = async (plan: string) => {
    const t = await startTestApp(store, { envelope: 'native', plan, now: () => MID });
    apps.push(t);
    return t;
  };
  beforeAll(async () => {
    store = await engine.open();
    await loadSnapshotFixture(store);
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    await store.close();
  });

  it('a delayed plan sees the snapshot 15 minutes back, marked DELAYED, without trades and quotes it lacks', async () => {
    const t = await app('starter');
    const res = await t.get('/v2/snapshot/locale/us/markets/stocks/tickers/AAA');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('DELAYED');
    expect(res.body.notice).toMatch(/15 minutes delayed/);
    const snap = res.body.ticker;
    // 10:45 ET: the 09:30 and 10:00 minutes are complete, the 10:59 one is not
    expect(snap.min.t).toBe(et(DAY, '10:00'));
    expect(snap.day.c).toBe(103.5);
    expect(snap.lastTrade).toBeUndefined();
    expect(snap.lastQuote).toBeUndefined();
  });

  it('a plan with trades but not quotes gets lastTrade only; real-time plans get both at the clock', async () => {
    const dev = (await (await app('developer')).get('/v2/snapshot/locale/us/markets/stocks/tickers/AAA')).body.ticker;
    expect(dev.lastTrade.p).toBe(101); // the last trade before 10:45 ET
    expect(dev.lastQuote).toBeUndefined();
    const adv = await (await app('advanced')).get('/v2/snapshot/locale/us/markets/stocks/tickers/AAA');
    expect(adv.body.status).toBe('OK');
    expect(adv.body.ticker.lastTrade.p).toBe(104);
    expect(adv.body.ticker.lastQuote.p).toBe(103.9);
  });

  it('fmv only for plans that include it: the NBBO midpoint at the clock, on the ticker and in the list', async () => {
    const adv = await (await app('advanced')).get('/v2/snapshot/locale/us/markets/stocks/tickers/AAA');
    expect(adv.body.ticker.fmv).toBeUndefined();
    const business = await app('business');
    const one = (await business.get('/v2/snapshot/locale/us/markets/stocks/tickers/AAA')).body;
    expect(one.count).toBe(1);
    const q = one.ticker.lastQuote;
    expect(one.ticker.fmv).toBeCloseTo((q.p + q.P) / 2, 6);
    const listed = (await business.get('/v2/snapshot/locale/us/markets/stocks/tickers?tickers=AAA')).body.tickers;
    expect(listed[0].fmv).toBe(one.ticker.fmv);
  });

  it('plans without snapshots, quotes or indicators are refused with 403', async () => {
    const free = await app('free');
    for (const url of ['/v2/snapshot/locale/us/markets/stocks/tickers', '/v3/snapshot/options/ZZA', '/v1/indicators/sma/AAA']) {
      const res = await free.get(url);
      expect(res.status, url).toBe(403);
      expect(res.body.status).toBe('NOT_AUTHORIZED');
    }
    const starter = await app('starter');
    expect((await starter.get('/v1/conversion/EUR/USD')).status).toBe(403); // quotes (nbbo) not included
    expect((await starter.get('/v1/marketstatus/now')).status).toBe(200); // reference data
  });
});
