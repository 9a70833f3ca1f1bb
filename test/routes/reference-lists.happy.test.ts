import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITIONS, EXCHANGES, TICKER_TYPES } from '../../src/demo/facts/reference.js';
import type { Store } from '../../src/store/index.js';
import type { ConditionRecord, TickerTypeRecord } from '../../src/store/records.js';
import { CONDITION_SORT_FIELDS, TICKER_SORT_FIELDS } from '../../src/store/repos/reference.js';
import { startTestApp, walkPages, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';
import { FIXTURE_TICKERS, bulkTickers } from '../helpers/reference-fixture.js';

// Filters, sorting and paging of the reference lists (conditions, exchanges, ticker types, tickers).
// Every expectation is worked out from the seeded records, or from the endpoint's own one-page
// listing when only the paging is under test.

const BULK = bulkTickers(120);
const SEEDED_TICKERS = [...FIXTURE_TICKERS, ...BULK];
/** What /v3/reference/tickers lists by default: the current version of each active ticker. */
const CURRENT_ACTIVE = SEEDED_TICKERS.filter((r) => r.active && r.valid_to === undefined);

// Ticker types beyond the shipped table, so that locale=global and other asset classes select something.
const EXTRA_TYPES: TickerTypeRecord[] = [
  { code: 'CRYPTO', description: 'Digital Currency Pair', asset_class: 'crypto', locale: 'global' },
  { code: 'FX', description: 'Currency Pair', asset_class: 'fx', locale: 'global' },
];
const SEEDED_TYPES = [...TICKER_TYPES, ...EXTRA_TYPES];

/** Byte-wise comparison (every seeded string is ASCII, so UTF-16 code units order as bytes do). */
function cmp(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function expectMonotonic(values: (string | number)[], order: 'asc' | 'desc', label: string): void {
  for (let i = 1; i < values.length; i++) {
    const c = cmp(values[i - 1]!, values[i]!);
    if (order === 'asc' ? c > 0 : c < 0) {
      throw new Error(`${label}: ${JSON.stringify(values[i - 1])} then ${JSON.stringify(values[i])} at ${i} is out of ${order} order`);
    }
  }
}

const condKey = (c: { asset_class: string; id: number; type: string }) => `${c.asset_class}/${c.id}/${c.type}`;
// On the wire every condition has legacy and sip_mapping (false and {} when the record has none).
const SEEDED_CONDITIONS = new Map(CONDITIONS.map((c) => [condKey(c), { ...c, legacy: c.legacy ?? false, sip_mapping: c.sip_mapping ?? {} }]));

/** A condition's value for a sort field, as a user would compare the rows they were sent. */
function conditionSortValue(c: ConditionRecord, field: (typeof CONDITION_SORT_FIELDS)[number]): string | number {
  switch (field) {
    case 'id':
      return c.id;
    case 'legacy':
      return c.legacy ? 1 : 0;
    case 'data_types':
      return c.data_types.join(',');
    default:
      return c[field];
  }
}

/** Each row is a seeded condition, unchanged, and no row comes twice; returns the rows' keys. */
function expectSeededOnce(rows: ConditionRecord[], label: string): string[] {
  const keys = rows.map(condKey);
  expect(new Set(keys).size, `${label}: a row came twice`).toBe(keys.length);
  for (const r of rows) expect(r, label).toEqual(SEEDED_CONDITIONS.get(condKey(r)));
  return keys;
}

const sortedKeys = (rows: { asset_class: string; id: number; type: string }[]) => rows.map(condKey).sort();

for (const engine of engines()) {
  describe(`reference lists (${engine.name})`, () => {
    let store: Store;
    let t: TestApp;
    beforeAll(async () => {
      store = await engine.open();
      await store.reference.upsertTickers(SEEDED_TICKERS);
      await store.reference.replaceTickerTypes(SEEDED_TYPES);
      await store.reference.replaceExchanges(EXCHANGES);
      await store.reference.replaceConditions(CONDITIONS);
      t = await startTestApp(store);
    });
    afterAll(async () => {
      await t?.close();
      await store?.close();
    });

    async function data(url: string): Promise<any> {
      const res = await t.get(url);
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
      return t.data(res);
    }

    async function walk(url: string): Promise<{ pages: any[]; rows: any[] }> {
      const pages = await walkPages(t, url);
      for (const p of pages) expect(p.count, url).toBe(p.results.length);
      return { pages, rows: pages.flatMap((p) => p.results) };
    }

    // ------------------------------------------------------------------------------------------
    describe('conditions', () => {
      it('answers 10 rows by default, sorted by asset_class ascending, with a next_url', async () => {
        const page = await data('/v3/reference/conditions');
        expect(CONDITIONS.length).toBeGreaterThan(10);
        expect(page.results).toHaveLength(10);
        expect(page.count).toBe(10);
        expect(page.next_url).toMatch(/\/v3\/reference\/conditions\?cursor=[^&]+$/);
        expectSeededOnce(page.results, 'default page');
        const classes = CONDITIONS.map((c) => c.asset_class).sort(cmp);
        expect(page.results.map((r: ConditionRecord) => r.asset_class)).toEqual(classes.slice(0, 10));
      });

      it('walks next_url pages of the default listing: every seeded condition exactly once', async () => {
        const { pages, rows } = await walk('/v3/reference/conditions');
        expect(pages).toHaveLength(Math.ceil(CONDITIONS.length / 10));
        for (const p of pages.slice(0, -1)) expect(p.results).toHaveLength(10);
        expect(pages.at(-1).next_url).toBeUndefined();
        expect(expectSeededOnce(rows, 'default walk').sort()).toEqual(sortedKeys(CONDITIONS));
        expectMonotonic(rows.map((r) => r.asset_class), 'asc', 'default walk');
      });

      const filters: [string, (c: ConditionRecord) => boolean][] = [
        ['asset_class=stocks', (c) => c.asset_class === 'stocks'],
        ['asset_class=options', (c) => c.asset_class === 'options'],
        ['asset_class=crypto', (c) => c.asset_class === 'crypto'],
        ['asset_class=fx', (c) => c.asset_class === 'fx'],
        ['data_type=trade', (c) => c.data_types.includes('trade')],
        ['data_type=bbo', (c) => c.data_types.includes('bbo')],
        ['data_type=nbbo', (c) => c.data_types.includes('nbbo')],
        ['id=0', (c) => c.id === 0],
        ['id=1', (c) => c.id === 1],
        ['id=12', (c) => c.id === 12],
        ['id=999', (c) => c.id === 999],
        ['sip=CTA', (c) => c.sip_mapping?.CTA !== undefined],
        ['sip=UTP', (c) => c.sip_mapping?.UTP !== undefined],
        ['sip=OPRA', (c) => c.sip_mapping?.OPRA !== undefined],
        ['asset_class=stocks&data_type=trade&sip=CTA', (c) => c.asset_class === 'stocks' && c.data_types.includes('trade') && c.sip_mapping?.CTA !== undefined],
        ['asset_class=stocks&id=1', (c) => c.asset_class === 'stocks' && c.id === 1],
        ['asset_class=crypto&sip=CTA', (c) => c.asset_class === 'crypto' && c.sip_mapping?.CTA !== undefined],
      ];
      for (const [qs, keep] of filters) {
        it(`filters ${qs}`, async () => {
          const expected = CONDITIONS.filter(keep);
          const page = await data(`/v3/reference/conditions?${qs}&limit=1000`);
          expect(page.count).toBe(expected.length);
          expect(page.next_url).toBeUndefined();
          expect(expectSeededOnce(page.results, qs).sort()).toEqual(sortedKeys(expected));
        });
      }

      it('the filters select something and leave something out (the cases above are not vacuous)', () => {
        for (const [qs, keep] of filters.filter(([q]) => !['asset_class=fx', 'id=999', 'asset_class=crypto&sip=CTA'].includes(q))) {
          const n = CONDITIONS.filter(keep).length;
          expect(n, qs).toBeGreaterThan(0);
          expect(n, qs).toBeLessThan(CONDITIONS.length);
        }
      });

      it('walks a filtered listing across pages: each matching row once, none other', async () => {
        const expected = CONDITIONS.filter((c) => c.asset_class === 'stocks' && c.sip_mapping?.UTP !== undefined);
        expect(expected.length).toBeGreaterThan(8);
        const { pages, rows } = await walk('/v3/reference/conditions?asset_class=stocks&sip=UTP&sort=name&order=desc&limit=4');
        expect(pages).toHaveLength(Math.ceil(expected.length / 4));
        expect(expectSeededOnce(rows, 'filtered walk').sort()).toEqual(sortedKeys(expected));
        expectMonotonic(rows.map((r) => r.name), 'desc', 'filtered walk by name desc');
      });

      for (const sort of CONDITION_SORT_FIELDS) {
        for (const order of ['asc', 'desc'] as const) {
          it(`sort=${sort}&order=${order}: pages in order, every row once, as the one-page listing`, async () => {
            const { pages, rows } = await walk(`/v3/reference/conditions?sort=${sort}&order=${order}`);
            expect(pages).toHaveLength(Math.ceil(CONDITIONS.length / 10));
            expect(expectSeededOnce(rows, `${sort} ${order}`).sort()).toEqual(sortedKeys(CONDITIONS));
            const values = rows.map((r) => conditionSortValue(r, sort));
            expectMonotonic(values, order, `sort=${sort}&order=${order}`);
            // The field really orders the rows: not every row has the same value.
            expect(new Set(values).size).toBeGreaterThan(1);
            const whole = await data(`/v3/reference/conditions?sort=${sort}&order=${order}&limit=1000`);
            expect(rows.map(condKey)).toEqual(whole.results.map(condKey));
          });
        }
      }

      it('order=desc reverses the default sort', async () => {
        const page = await data('/v3/reference/conditions?order=desc');
        expect(page.results).toHaveLength(10);
        const classes = CONDITIONS.map((c) => c.asset_class).sort(cmp).reverse();
        expect(page.results.map((r: ConditionRecord) => r.asset_class)).toEqual(classes.slice(0, 10));
      });
    });

    // ------------------------------------------------------------------------------------------
    describe('exchanges', () => {
      const byClassThenId = (a: (typeof EXCHANGES)[number], b: (typeof EXCHANGES)[number]) => cmp(a.asset_class, b.asset_class) || a.id - b.id;
      const cases: [string, (e: (typeof EXCHANGES)[number]) => boolean][] = [
        ['', () => true],
        ['asset_class=stocks', (e) => e.asset_class === 'stocks'],
        ['asset_class=options', (e) => e.asset_class === 'options'],
        ['asset_class=crypto', (e) => e.asset_class === 'crypto'],
        ['asset_class=fx', (e) => e.asset_class === 'fx'],
        ['asset_class=futures', (e) => e.asset_class === 'futures'],
        ['locale=us', (e) => e.locale === 'us'],
        ['locale=global', (e) => e.locale === 'global'],
        ['asset_class=stocks&locale=us', (e) => e.asset_class === 'stocks' && e.locale === 'us'],
        ['asset_class=crypto&locale=us', (e) => e.asset_class === 'crypto' && e.locale === 'us'],
      ];
      for (const [qs, keep] of cases) {
        it(`lists ${qs || 'every exchange'}, ordered by asset class then id`, async () => {
          const expected = EXCHANGES.filter(keep).sort(byClassThenId);
          const page = await data(`/v3/reference/exchanges${qs ? `?${qs}` : ''}`);
          expect(page.count).toBe(expected.length);
          expect(page.results).toEqual(expected);
          expect(page.next_url).toBeUndefined();
        });
      }

      it('the locale and asset class filters each split the seeded venues', () => {
        for (const f of [(e: (typeof EXCHANGES)[number]) => e.locale === 'us', (e: (typeof EXCHANGES)[number]) => e.asset_class === 'crypto']) {
          const n = EXCHANGES.filter(f).length;
          expect(n).toBeGreaterThan(0);
          expect(n).toBeLessThan(EXCHANGES.length);
        }
      });
    });

    // ------------------------------------------------------------------------------------------
    describe('ticker types', () => {
      const cases: [string, (r: TickerTypeRecord) => boolean][] = [
        ['', () => true],
        ['asset_class=stocks', (r) => r.asset_class === 'stocks'],
        ['asset_class=indices', (r) => r.asset_class === 'indices'],
        ['asset_class=crypto', (r) => r.asset_class === 'crypto'],
        ['asset_class=options', (r) => r.asset_class === 'options'],
        ['locale=us', (r) => r.locale === 'us'],
        ['locale=global', (r) => r.locale === 'global'],
        ['asset_class=fx&locale=global', (r) => r.asset_class === 'fx' && r.locale === 'global'],
        ['asset_class=stocks&locale=global', (r) => r.asset_class === 'stocks' && r.locale === 'global'],
      ];
      for (const [qs, keep] of cases) {
        it(`lists ${qs || 'every type'} in the seeded order`, async () => {
          const expected = SEEDED_TYPES.filter(keep);
          const page = await data(`/v3/reference/tickers/types${qs ? `?${qs}` : ''}`);
          expect(page.count).toBe(expected.length);
          expect(page.results).toEqual(expected);
        });
      }
    });

    // ------------------------------------------------------------------------------------------
    describe('tickers', () => {
      const byTicker = (a: { ticker: string }, b: { ticker: string }) => cmp(a.ticker, b.ticker);

      it('answers 100 rows by default, the first 100 tickers, and a next_url to the rest', async () => {
        expect(CURRENT_ACTIVE.length).toBeGreaterThan(100);
        const expected = [...CURRENT_ACTIVE].sort(byTicker).map((r) => r.ticker);
        const first = await data('/v3/reference/tickers');
        expect(first.count).toBe(100);
        expect(first.results.map((r: any) => r.ticker)).toEqual(expected.slice(0, 100));
        expect(first.next_url).toMatch(/\/v3\/reference\/tickers\?cursor=[^&]+$/);
        const { pages, rows } = await walk('/v3/reference/tickers');
        expect(pages).toHaveLength(2);
        expect(rows.map((r) => r.ticker)).toEqual(expected);
      });

      for (const sort of TICKER_SORT_FIELDS) {
        for (const order of ['asc', 'desc'] as const) {
          it(`sort=${sort}&order=${order}: pages in order, every row once, as the one-page listing`, async () => {
            const { pages, rows } = await walk(`/v3/reference/tickers?sort=${sort}&order=${order}&limit=17`);
            expect(pages).toHaveLength(Math.ceil(CURRENT_ACTIVE.length / 17));
            const seen = rows.map((r) => r.ticker);
            expect(new Set(seen).size, 'a ticker came twice').toBe(seen.length);
            expect([...seen].sort(cmp)).toEqual(CURRENT_ACTIVE.map((r) => r.ticker).sort(cmp));
            // Rows with no value for the field sort as an empty string would.
            expectMonotonic(rows.map((r) => r[sort] ?? ''), order, `sort=${sort}&order=${order}`);
            const whole = await data(`/v3/reference/tickers?sort=${sort}&order=${order}&limit=1000`);
            expect(seen).toEqual(whole.results.map((r: any) => r.ticker));
          });
        }
      }

      it('sort=delisted_utc walks the delisted listing too', async () => {
        const delisted = SEEDED_TICKERS.filter((r) => !r.active && r.valid_to === undefined);
        expect(delisted.length).toBeGreaterThan(0);
        const { rows } = await walk('/v3/reference/tickers?active=false&sort=delisted_utc&order=desc&limit=1');
        expect(rows.map((r) => r.ticker).sort(cmp)).toEqual(delisted.map((r) => r.ticker).sort(cmp));
      });

      // T0000 ... T0119 and nothing else of the fixture starts with T.
      const RANGE = 'ticker.gte=T&ticker.lt=U';
      const inRange = CURRENT_ACTIVE.filter((r) => r.ticker >= 'T' && r.ticker < 'U');

      for (const order of ['asc', 'desc'] as const) {
        it(`next_url is absent when the last page ends on a page boundary (order=${order})`, async () => {
          const n = inRange.length;
          expect(n).toBe(BULK.length);
          const expected = inRange.map((r) => r.ticker).sort(cmp);
          if (order === 'desc') expected.reverse();
          // exactly N rows with limit=N: one page, nothing more to follow
          const one = await data(`/v3/reference/tickers?${RANGE}&order=${order}&limit=${n}`);
          expect(one.count).toBe(n);
          expect(one.next_url).toBeUndefined();
          expect(one.results.map((r: any) => r.ticker)).toEqual(expected);
          // limits that divide N: the final page is full and carries no next_url
          for (const limit of [n / 2, n / 3, n / 4, n / 5, n / 8, n / 10]) {
            expect(Number.isInteger(limit)).toBe(true);
            const { pages, rows } = await walk(`/v3/reference/tickers?${RANGE}&order=${order}&limit=${limit}`);
            expect(pages, `limit=${limit}`).toHaveLength(n / limit);
            for (const p of pages) expect(p.results, `limit=${limit}`).toHaveLength(limit);
            for (const p of pages.slice(0, -1)) expect(typeof p.next_url, `limit=${limit}`).toBe('string');
            expect(pages.at(-1).next_url, `limit=${limit}`).toBeUndefined();
            expect(rows.map((r) => r.ticker)).toEqual(expected);
          }
          // more room than rows: no next_url either
          expect((await data(`/v3/reference/tickers?${RANGE}&order=${order}&limit=${n + 1}`)).next_url).toBeUndefined();
        });

        it(`next_url is present whenever rows remain (order=${order})`, async () => {
          const n = inRange.length;
          const expected = inRange.map((r) => r.ticker).sort(cmp);
          if (order === 'desc') expected.reverse();
          // one row short of everything: a next_url leading to a page with the last row alone
          const first = await data(`/v3/reference/tickers?${RANGE}&order=${order}&limit=${n - 1}`);
          expect(first.count).toBe(n - 1);
          expect(typeof first.next_url).toBe('string');
          const u = new URL(first.next_url);
          const second = await data(u.pathname + u.search);
          expect(second.results.map((r: any) => r.ticker)).toEqual([expected[n - 1]]);
          expect(second.next_url).toBeUndefined();
          // a limit that does not divide N: every page but the last has next_url; the last is short
          const limit = 7;
          expect(n % limit).not.toBe(0);
          const { pages, rows } = await walk(`/v3/reference/tickers?${RANGE}&order=${order}&limit=${limit}`);
          expect(pages).toHaveLength(Math.ceil(n / limit));
          expect(pages.at(-1).results).toHaveLength(n % limit);
          expect(pages.at(-1).next_url).toBeUndefined();
          expect(rows.map((r) => r.ticker)).toEqual(expected);
        });
      }

      it('a listing with no match has no next_url', async () => {
        const page = await data('/v3/reference/tickers?ticker=NOPE&limit=1');
        expect(page.count).toBe(0);
        expect(page.results).toEqual([]);
        expect(page.next_url).toBeUndefined();
      });

      it('the whole default listing in one page of exactly its size has no next_url', async () => {
        const page = await data(`/v3/reference/tickers?limit=${CURRENT_ACTIVE.length}`);
        expect(page.count).toBe(CURRENT_ACTIVE.length);
        expect(page.next_url).toBeUndefined();
        const short = await data(`/v3/reference/tickers?limit=${CURRENT_ACTIVE.length - 1}`);
        expect(typeof short.next_url).toBe('string');
      });
    });
  });
}
