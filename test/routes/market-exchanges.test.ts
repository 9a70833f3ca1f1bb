import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCHANGES } from '../../src/demo/facts/reference.js';
import type { Store } from '../../src/store/index.js';
import type { ExchangeRecord } from '../../src/store/records.js';
import { startTestApp, walkPages, type TestApp } from '../helpers/app.js';
import { wrappedRejection } from '../helpers/bad-request.js';
import { engines } from '../helpers/engines.js';
import { haveUpstreamOpenapi, upstreamBodyDifferences, UPSTREAM_OPENAPI } from '../helpers/upstream-openapi.js';

// The per-market venue lists (/stocks|options|forex|crypto/v1/exchanges) over the stored exchanges:
// which venues each lists, in which order, the fields upstream gives each market, and paging.

// Two extra currency venues, one sharing an id with the shipped one: the list pages on id and
// stored order, so both rows of id 48 come once each.
const EXTRA: ExchangeRecord[] = [
  { id: 49, type: 'exchange', asset_class: 'fx', locale: 'global', name: 'Currency Banks 2' },
  { id: 48, type: 'exchange', asset_class: 'fx', locale: 'global', name: 'Currency Banks 1b' },
];
const SEEDED = [...EXCHANGES, ...EXTRA];

const MARKETS = [
  ['stocks', 'stocks'],
  ['options', 'options'],
  ['forex', 'fx'],
  ['crypto', 'crypto'],
] as const;

/** A market's seeded venues as upstream's list gives them: by id, stored order within an id. */
function expected(assetClass: string): ExchangeRecord[] {
  return SEEDED.map((e, i) => ({ e, i }))
    .filter(({ e }) => e.asset_class === assetClass)
    .sort((a, b) => a.e.id - b.e.id || a.i - b.i)
    .map(({ e }) => e);
}

for (const engine of engines()) {
  describe(`per-market exchanges (${engine.name})`, () => {
    let store: Store;
    let t: TestApp;
    let native: TestApp;
    beforeAll(async () => {
      store = await engine.open();
      await store.reference.replaceExchanges(SEEDED);
      t = await startTestApp(store);
      native = await startTestApp(store, { envelope: 'native' });
    });
    afterAll(async () => {
      await t?.close();
      await native?.close();
      await store?.close();
    });

    for (const [path, assetClass] of MARKETS) {
      it(`/${path}/v1/exchanges lists the stored ${assetClass} venues by id, ids as strings`, async () => {
        const res = await t.get(`/${path}/v1/exchanges`);
        expect(res.status).toBe(200);
        const body = t.data(res);
        const want = expected(assetClass);
        expect(want.length).toBeGreaterThan(0);
        expect(body.count).toBe(want.length);
        expect(body.next_url).toBeUndefined();
        expect(body.results.map((r: any) => r.id)).toEqual(want.map((e) => String(e.id)));
        expect(body.results.map((r: any) => r.name)).toEqual(want.map((e) => e.name));
      });

      it(`/${path}/v1/exchanges pages with limit and next_url, every venue once`, async () => {
        const pages = await walkPages(t, `/${path}/v1/exchanges?limit=2`);
        const want = expected(assetClass);
        expect(pages).toHaveLength(Math.ceil(want.length / 2));
        for (const p of pages.slice(0, -1)) expect(p.results).toHaveLength(2);
        expect(pages.flatMap((p) => p.results.map((r: any) => `${r.id}/${r.name}`))).toEqual(want.map((e) => `${e.id}/${e.name}`));
      });

      it(`/${path}/v1/exchanges sends only the fields upstream declares for that market`, async (c) => {
        if (!haveUpstreamOpenapi) {
          console.log(`upstream schema check skipped: ${UPSTREAM_OPENAPI} is not available`);
          return c.skip();
        }
        const res = await native.get(`/${path}/v1/exchanges`);
        expect(res.status).toBe(200);
        // count is in upstream's example bodies though its schema leaves it out
        expect(upstreamBodyDifferences(`/${path}/v1/exchanges`, res.body, ['.count'])).toEqual([]);
      });
    }

    it('gives stock and option venues their MIC, participant id and locale in capitals', async () => {
      const nyse = t.data(await t.get('/stocks/v1/exchanges')).results.find((r: any) => r.id === '10');
      const seeded = EXCHANGES.find((e) => e.asset_class === 'stocks' && e.id === 10)!;
      expect(nyse).toEqual({
        id: '10', type: seeded.type, name: seeded.name, acronym: seeded.acronym, locale: 'US',
        mic: seeded.mic, operating_mic: seeded.operating_mic, participant_id: seeded.participant_id, url: seeded.url,
      });
      const cboe = t.data(await t.get('/options/v1/exchanges')).results.find((r: any) => r.id === '302');
      expect(cboe).toMatchObject({ name: 'Chicago Board Options Exchange', mic: 'XCBO', participant_id: 'C', locale: 'US' });
    });

    it('gives crypto venues an id, type, name and url, and currency venues no more than id, type and name', async () => {
      const coinbase = t.data(await t.get('/crypto/v1/exchanges')).results.find((r: any) => r.id === '1');
      expect(coinbase).toEqual({ id: '1', type: 'exchange', name: 'Coinbase', url: 'https://www.coinbase.com' });
      for (const r of t.data(await t.get('/forex/v1/exchanges')).results) expect(Object.keys(r).sort()).toEqual(['id', 'name', 'type']);
    });

    it('answers an empty list when no venue of the market is stored', async () => {
      const empty = await engine.open();
      const e = await startTestApp(empty);
      try {
        const res = await e.get('/crypto/v1/exchanges');
        expect(res.status).toBe(200);
        expect(e.data(res)).toMatchObject({ count: 0, results: [] });
      } finally {
        await e.close();
        await empty.close();
      }
    });

    it('refuses a limit outside 1..1000 and a cursor of another list, naming the parameter', async () => {
      const rejects = wrappedRejection(t);
      await rejects('/stocks/v1/exchanges?limit=0', /limit/);
      await rejects('/options/v1/exchanges?limit=1001', /limit/);
      await rejects('/crypto/v1/exchanges?limit=x', /limit/);
      const next = t.data(await t.get('/stocks/v1/exchanges?limit=1')).next_url as string;
      const cursor = new URL(next).searchParams.get('cursor');
      const res = await t.get(`/options/v1/exchanges?cursor=${cursor}`);
      expect(res.status).toBe(400);
      expect(res.body.data.message).toMatch(/cursor/);
    });
  });
}
