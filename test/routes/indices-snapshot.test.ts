import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { startTestApp, walkPages } from '../helpers/app.js';
import { useSeededApps } from '../helpers/app-fixture.js';
import { expectSameShape, skipConformance, upstreamBody } from '../helpers/conformance.js';
import { engines } from '../helpers/engines.js';
import { DAY, MID, PREV_START, et, loadSnapshotFixture, nsOf } from '../helpers/snapshot-fixture.js';

// GET /v3/snapshot/indices: the index tickers of the universal snapshot, at the same clock.
// Three index tickers with bars, one without any (left out of the listing), beside stocks.
const PATH = '/v3/snapshot/indices';
const INDICES = ['I:AAA', 'I:NDX', 'I:SPX'] as const;

async function seed(store: Store): Promise<void> {
  await loadSnapshotFixture(store);
  await store.reference.upsertTickers(
    [...INDICES, 'I:NODATA'].map((ticker) => ({
      ticker, name: `Index ${ticker.slice(2)}`, market: 'indices' as const, locale: 'us' as const, active: true,
      last_updated_utc: '2026-11-20T00:00:00Z', valid_from: '2000-01-01',
    })),
  );
  await store.market.insertBars('day', INDICES.map((ticker, i) => ({ ticker, t: PREV_START, o: 100 * (i + 1), h: 100 * (i + 1), l: 100 * (i + 1), c: 100 * (i + 1), v: 0, n: 0 })));
  await store.market.insertBars(
    'minute',
    INDICES.flatMap((ticker, i) => [
      { ticker, t: et(DAY, '09:30'), o: 100 * (i + 1) + 1, h: 100 * (i + 1) + 3, l: 100 * (i + 1) - 1, c: 100 * (i + 1) + 2, v: 0, n: 0 },
      { ticker, t: et(DAY, '10:30'), o: 100 * (i + 1) + 2, h: 100 * (i + 1) + 6, l: 100 * (i + 1) + 2, c: 100 * (i + 1) + 5, v: 0, n: 0 },
    ]),
  );
}

for (const engine of engines()) {
  describe(`indices snapshot ${PATH} (${engine.name})`, () => {
    const { apps: [t, wrapped] } = useSeededApps(engine, seed, { envelope: 'native', now: () => MID }, { envelope: 'wrapped', now: () => MID });

    async function body(url: string) {
      const res = await t.get(url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    }

    it('lists only the index tickers with data, each as /v3/snapshot?type=indices gives it', async () => {
      const b = await body(PATH);
      expect(b.results.map((r: any) => r.ticker)).toEqual([...INDICES]);
      expect(b.results.every((r: any) => r.type === 'indices')).toBe(true);
      expect(b.next_url).toBeUndefined();
      const universal = await body('/v3/snapshot?type=indices');
      expect(b.results).toEqual(universal.results);
    });

    it('value = latest completed minute close; session = the day against the previous close', async () => {
      const spx = (await body(`${PATH}?ticker=I:SPX`)).results[0];
      expect(spx).toMatchObject({ ticker: 'I:SPX', name: 'Index SPX', type: 'indices', value: 305, timeframe: 'REAL-TIME' });
      expect(spx.session).toMatchObject({ open: 301, high: 306, low: 299, close: 305, previous_close: 300, change: 5 });
      expect(spx.session.change_percent).toBeCloseTo((5 / 300) * 100, 2);
      expect(BigInt(spx.last_updated)).toBe(nsOf(et(DAY, '10:31')));
    });

    it('ticker.any_of: in the order asked for; unknown tickers and tickers of other markets are NOT_FOUND items', async () => {
      const b = await body(`${PATH}?ticker.any_of=I:SPX,AAA,I:NOPE,I:AAA`);
      expect(b.results.map((r: any) => r.ticker)).toEqual(['I:SPX', 'AAA', 'I:NOPE', 'I:AAA']);
      expect(b.results[1]).toEqual({ error: 'NOT_FOUND', message: 'Ticker not found.', ticker: 'AAA' });
      expect(b.results[2]).toEqual({ error: 'NOT_FOUND', message: 'Ticker not found.', ticker: 'I:NOPE' });
      expect(b.results[3].value).toBe(105);
    });

    it('pages with limit and next_url in both orders, and filters ticker ranges', async () => {
      // a page may come back short: a listed index ticker without data at the clock has no item
      const asc = await walkPages(t, `${PATH}?limit=1`);
      expect(asc.every((p) => p.results.length <= 1)).toBe(true);
      expect(asc[0].next_url).toMatch(/\/v3\/snapshot\/indices\?cursor=/);
      expect(asc.flatMap((p) => p.results.map((r: any) => r.ticker))).toEqual([...INDICES]);
      const desc = await walkPages(t, `${PATH}?limit=2&order=desc`);
      expect(desc.flatMap((p) => p.results.map((r: any) => r.ticker))).toEqual([...INDICES].reverse());
      expect((await body(`${PATH}?ticker.gt=I:AAA&ticker.lte=I:NDX`)).results.map((r: any) => r.ticker)).toEqual(['I:NDX']);
    });

    it('refuses a bad limit, type and a cursor of the universal listing, naming the parameter', async () => {
      for (const url of [`${PATH}?limit=251`, `${PATH}?limit=0`, `${PATH}?sort=value`]) {
        const res = await wrapped.get(url);
        expect(res.status, url).toBe(400);
        expect(res.body.data.message).toMatch(/limit|sort/);
      }
      const next = (await body('/v3/snapshot?limit=1')).next_url as string;
      const res = await wrapped.get(`${PATH}?cursor=${new URL(next).searchParams.get('cursor')}`);
      expect(res.status).toBe(400);
      expect(res.body.data.message).toMatch(/cursor/);
    });

    it('has the field names and JSON types of the recorded upstream body', async () => {
      const upstream = upstreamBody('v3/snapshot/indices.json');
      if (!upstream) return skipConformance(PATH);
      expectSameShape(await body(`${PATH}?ticker.any_of=I:NDX,I:SPX`), upstream, { allowExtra: ['results[].timeframe', 'results[].last_updated'] });
    });
  });
}

describe(`${PATH} and plans`, () => {
  it('is refused to a plan without snapshots', async () => {
    const store = await engines()[0]!.open();
    const t = await startTestApp(store, { plan: 'free', now: () => MID });
    try {
      await seed(store);
      const res = await t.get(PATH);
      expect(res.status).toBe(403);
    } finally {
      await t.close();
      await store.close();
    }
  });
});
