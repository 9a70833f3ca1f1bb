import { describe, expect, it } from 'vitest';
import { buildFuturesReferenceDemo } from '../../src/demo/futures.js';
import { upsertSets } from '../../src/demo/partner.js';
import type { Store } from '../../src/store/index.js';
import { FUTURES_PRODUCTS } from '../../src/store/repos/futures-catalog.js';
import { walkPages } from '../helpers/app.js';
import { useSeededApps } from '../helpers/app-fixture.js';
import { wrappedRejection } from '../helpers/bad-request.js';
import { engines } from '../helpers/engines.js';

const AS_OF = '2026-11-20';

/** The demo's five products, ES also with an older description that a newer one supersedes. */
async function seed(store: Store): Promise<void> {
  await upsertSets(store, { 'futures-products': buildFuturesReferenceDemo(AS_OF)['futures-products']! });
  await store.datasets.upsert(FUTURES_PRODUCTS, [{ product_code: 'ES', date: '2026-01-02', name: 'E-mini S&P 500 (old name)', trading_venue: 'XCME' }]);
}

for (const engine of engines()) {
  describe(`futures market status (${engine.name})`, () => {
    let clock = Date.parse('2026-11-20T15:00:00Z');
    const { apps: [t] } = useSeededApps(engine, seed, { now: () => clock });
    const rejects = wrappedRejection(t);
    const results = async (url: string) => {
      const res = await t.get(url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.results as any[];
    };
    /** The state of ES at an instant: event, session date and event time. */
    const esAt = async (iso: string) => {
      clock = Date.parse(iso);
      const [es] = await results('/futures/vX/market-status?product_code=ES');
      return `${es.market_event} ${es.session_end_date} ${es.timestamp} ${es.market_status}`;
    };

    it('follows the Globex week: open from Sunday 18:00 ET, daily pre-open hour at 17:00 ET, closed from Friday 17:00 ET', async () => {
      expect(await esAt('2026-11-20T15:00:00Z')).toBe('open 2026-11-20 2026-11-19T23:00:00+00:00 open'); // Friday 10:00 ET
      expect(await esAt('2026-11-20T22:30:00Z')).toBe('close 2026-11-20 2026-11-20T22:00:00+00:00 closed'); // Friday 17:30 ET
      expect(await esAt('2026-11-22T12:00:00Z')).toBe('close 2026-11-20 2026-11-20T22:00:00+00:00 closed'); // Sunday morning
      expect(await esAt('2026-11-22T22:30:00Z')).toBe('pre_open 2026-11-23 2026-11-22T22:00:00+00:00 pre_open'); // Sunday 17:30 ET
      expect(await esAt('2026-11-22T23:00:00Z')).toBe('open 2026-11-23 2026-11-22T23:00:00+00:00 open'); // Sunday 18:00 ET, to the second
      expect(await esAt('2026-11-23T22:15:00Z')).toBe('pre_open 2026-11-24 2026-11-23T22:00:00+00:00 pre_open'); // Monday's maintenance hour
    });

    it('halts early on holidays and stays closed on full closures', async () => {
      // Thanksgiving: halted at 13:00 ET; the next session opens at 18:00 ET the same day
      expect(await esAt('2026-11-26T19:00:00Z')).toBe('close 2026-11-26 2026-11-26T18:00:00+00:00 closed');
      expect(await esAt('2026-11-27T00:00:00Z')).toBe('open 2026-11-27 2026-11-26T23:00:00+00:00 open');
      // Christmas Eve closes at 13:15 ET; Christmas has no session, so the close lasts until Sunday 27 December
      expect(await esAt('2026-12-25T17:00:00Z')).toBe('close 2026-12-24 2026-12-24T18:15:00+00:00 closed');
      expect(await esAt('2026-12-27T22:10:00Z')).toBe('pre_open 2026-12-28 2026-12-27T22:00:00+00:00 pre_open');
    });

    it('lists every product by code, each with its latest name and venue', async () => {
      clock = Date.parse('2026-11-20T15:00:00Z');
      const rows = await results('/futures/vX/market-status');
      expect(rows.map((r) => r.product_code)).toEqual(['CL', 'ES', 'GC', 'NQ', 'ZN']);
      expect(rows[1]).toEqual({
        market_event: 'open', market_status: 'open', name: 'E-mini S&P 500 Futures', product_code: 'ES', session_end_date: '2026-11-20', timestamp: '2026-11-19T23:00:00+00:00', trading_venue: 'XCME',
      });
      expect((await results('/futures/v1/market-status')).map((r) => r.product_code)).toEqual(['CL', 'ES', 'GC', 'NQ', 'ZN']);
    });

    it('filters by product code: equal, any of, ranges', async () => {
      const codes = async (q: string) => (await results(`/futures/vX/market-status?${q}`)).map((r) => r.product_code);
      expect(await codes('product_code=GC')).toEqual(['GC']);
      expect(await codes('product_code.any_of=ZN,CL,XX')).toEqual(['CL', 'ZN']);
      expect(await codes('product_code.gte=ES&product_code.lt=NQ')).toEqual(['ES', 'GC']);
      expect(await codes('product_code.gt=ZN')).toEqual([]);
    });

    it('pages to the end at a small limit', async () => {
      const pages = await walkPages(t, '/futures/v1/market-status?limit=2');
      expect(pages.map((p) => p.results.map((r: any) => r.product_code))).toEqual([['CL', 'ES'], ['GC', 'NQ'], ['ZN']]);
      expect(pages.at(-1).next_url).toBeUndefined();
    });

    it('refuses bad parameters naming them', async () => {
      await rejects('/futures/vX/market-status?limit=101', 'limit must be an integer from 1 to 100');
      await rejects('/futures/vX/market-status?limit=0', /^limit /);
      await rejects('/futures/v1/market-status?product_code.any_of=ES,,NQ', /^product_code\.any_of /);
      await rejects(`/futures/vX/market-status?product_code=${'X'.repeat(300)}`, /^product_code /);
    });
  });
}
