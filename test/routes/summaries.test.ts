import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { startTestApp } from '../helpers/app.js';
import { useSeededApps } from '../helpers/app-fixture.js';
import { expectSameShape, skipConformance, upstreamBody } from '../helpers/conformance.js';
import { engines } from '../helpers/engines.js';
import { referenceContracts } from '../helpers/options-fixture.js';
import { DAY, MID, PREV_START, et, loadSessionPartsFixture, loadSnapshotFixture } from '../helpers/snapshot-fixture.js';

// /v1/summaries over the snapshot fixture at MID (11:00 ET on 2026-11-19): a stock with trades,
// a forex pair, an option contract with a day bar and an index, each held against the universal
// snapshot's item of the same ticker at the same clock.
const CALL = 'O:ZZA261218C00100000';
const INDEX = 'I:TST';

async function seed(store: Store): Promise<void> {
  await loadSnapshotFixture(store);
  await loadSessionPartsFixture(store);
  await store.options.upsertContracts(referenceContracts());
  await store.market.insertBars('day', [
    { ticker: CALL, t: PREV_START, o: 4, h: 4.5, l: 3.8, c: 4.2, v: 300, vw: 4.1, n: 40 },
    { ticker: INDEX, t: PREV_START, o: 500, h: 505, l: 495, c: 500, v: 0, n: 0 },
  ]);
  await store.market.insertBars('minute', [
    { ticker: CALL, t: et(DAY, '09:30'), o: 4.3, h: 4.6, l: 4.3, c: 4.5, v: 70, vw: 4.45, n: 9 },
    { ticker: INDEX, t: et(DAY, '10:30'), o: 502, h: 506, l: 502, c: 505, v: 0, n: 0 },
  ]);
  await store.reference.upsertTickers([
    { ticker: INDEX, name: 'Test Index', market: 'indices', locale: 'us', active: true, last_updated_utc: '2026-11-20T00:00:00Z', valid_from: '2000-01-01' },
    { ticker: 'C:EURUSD', name: 'Euro - United States dollar', market: 'fx', locale: 'global', active: true, last_updated_utc: '2026-11-20T00:00:00Z', valid_from: '2000-01-01' },
  ]);
}

for (const engine of engines()) {
  describe(`summaries /v1/summaries (${engine.name})`, () => {
    const { apps: [t, wrapped] } = useSeededApps(engine, seed, { envelope: 'native', now: () => MID }, { envelope: 'wrapped', now: () => MID });

    async function results(url: string) {
      const res = await t.get(url);
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
      return res.body.results as any[];
    }

    it('one summary per ticker, in the order asked for, across asset classes; unknown tickers as NOT_FOUND items', async () => {
      const asked = ['C:EURUSD', 'AAA', 'NOPE', CALL, INDEX];
      const rows = await results(`/v1/summaries?ticker.any_of=${encodeURIComponent(asked.join(','))}`);
      expect(rows.map((r) => r.ticker)).toEqual(asked);
      expect(rows.map((r) => r.type)).toEqual(['fx', 'stocks', undefined, 'options', 'indices']);
      expect(rows[2]).toEqual({ ticker: 'NOPE', error: 'NOT_FOUND', message: 'Ticker not found.' });
    });

    it('price = last trade (index: its value); session and market status as the universal snapshot gives them', async () => {
      const [aaa, index, call] = await results(`/v1/summaries?ticker.any_of=AAA,${INDEX},${CALL}`);
      const universal = (await t.get(`/v3/snapshot?ticker.any_of=AAA,${INDEX},${CALL}`)).body.results;
      expect(aaa).toMatchObject({ name: 'Alpha', price: 104, market_status: universal[0].market_status });
      expect(aaa.session).toEqual(universal[0].session);
      expect(index).toMatchObject({ name: 'Test Index', price: 505, session: universal[1].session });
      expect(call.options).toEqual({ contract_type: 'call', exercise_style: 'american', expiration_date: '2026-12-18', shares_per_contract: 100, strike_price: 100, underlying_ticker: 'ZZA' });
      expect(call.session).toEqual(universal[2].session);
    });

    it('splits the session change by part: pre-market and regular so far from the previous close (no after hours yet at 11:00)', async () => {
      const [ext, aaa] = await results('/v1/summaries?ticker.any_of=EXT,AAA');
      // EXT: previous close 50, pre-market last 51.5, last trade 53 at 10:30
      expect(ext).toMatchObject({ price: 53, session: { previous_close: 50, change: 3, change_percent: 6, decimal_volume: '3500.75' } });
      expect(ext.session).toMatchObject({ early_trading_change: 1.5, early_trading_change_percent: 3, regular_trading_change: 3, regular_trading_change_percent: 6 });
      expect(ext.session).not.toHaveProperty('late_trading_change');
      expect(ext.session).not.toHaveProperty('late_trading_change_percent');
      // AAA has no pre-market trades: no early change
      expect(aaa.session).toMatchObject({ regular_trading_change: 4, regular_trading_change_percent: 4 });
      expect(aaa.session).not.toHaveProperty('early_trading_change');
    });

    it('requires ticker.any_of and refuses more than 250 tickers, naming the parameter', async () => {
      let res = await wrapped.get('/v1/summaries');
      expect(res.status).toBe(400);
      expect(res.body.data.message).toMatch(/ticker\.any_of/);
      res = await wrapped.get(`/v1/summaries?ticker.any_of=${Array.from({ length: 251 }, (_, i) => `T${i}`).join(',')}`);
      expect(res.status).toBe(400);
      expect(res.body.data.message).toMatch(/ticker\.any_of/);
    });

    it('has the field names and JSON types of the recorded upstream body', async () => {
      const upstream = upstreamBody('v1/summaries.json');
      if (!upstream) return skipConformance('/v1/summaries');
      const ours = (await t.get(`/v1/summaries?ticker.any_of=AAA,${CALL},C:EURUSD,NOPE`)).body;
      expectSameShape(ours, upstream, {
        // branding and crypto are not served, AAA at 11:00 has no pre-market or after-hours change; the session's
        // price, its regular change and the instant of the data are additions (upstream's schema declares them)
        allowMissing: ['results[].branding', 'results[].session.early_trading_change', 'results[].session.early_trading_change_percent', 'results[].session.late_trading_change', 'results[].session.late_trading_change_percent'],
        allowExtra: [
          'results[].last_updated', 'results[].session.price', 'results[].session.decimal_volume', 'results[].error', 'results[].message',
          'results[].session.regular_trading_change', 'results[].session.regular_trading_change_percent',
        ],
      });
    });
  });
}

describe('/v1/summaries and plans', () => {
  it('is refused to a plan without snapshots', async () => {
    const store = await engines()[0]!.open();
    const t = await startTestApp(store, { plan: 'free', now: () => MID });
    try {
      expect((await t.get('/v1/summaries?ticker.any_of=AAA')).status).toBe(403);
    } finally {
      await t.close();
      await store.close();
    }
  });
});
