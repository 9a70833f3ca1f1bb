// Ticker list pages sorted by ticker are slices of lists kept in memory. Each page must be the
// page the store writes for the same query (items byte for byte, count, the cursor's position):
// every bound (ticker, gt/gte/lt/lte), both orders, active and inactive lists, one market, walks
// through the whole list with cursors, and tickers outside ASCII whose byte order differs from
// JavaScript's string order; a write is never answered from a list of before it. Both engines.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AS_OF } from '../../src/demo/load.js';
import { demoTickers } from '../../src/demo/universe.js';
import { compareUtf8, TickerListIndex } from '../../src/services/ticker-list-index.js';
import { TickerService } from '../../src/services/tickers.js';
import type { Store } from '../../src/store/index.js';
import type { TickerRecord } from '../../src/store/records.js';
import type { TickerItemsPage, TickerQuery } from '../../src/store/repos/reference.js';
import { engines } from '../helpers/engines.js';

describe('compareUtf8', () => {
  it('orders texts as their UTF-8 bytes (the ticker column\'s collation)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(Math.sign(compareUtf8(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
      }),
      { numRuns: 2000 },
    );
    // JavaScript's own order puts U+FF21 after an astral character's surrogate; UTF-8 does not
    expect('\uff21' > '\u{1f600}').toBe(true);
    expect(compareUtf8('\uff21', '\u{1f600}')).toBeLessThan(0);
  });
});

/** Every 7th demo ticker and the first 40, plus tickers whose order needs the byte comparison. */
function sample(): TickerRecord[] {
  const all = demoTickers(DEMO_AS_OF).filter((_t, i) => i < 40 || i % 7 === 0);
  const base = all.find((t) => t.market === 'stocks' && t.active)!;
  const odd = ['A\u00e9', 'A\uff21', 'A\u{1f600}', 'Z\u20ac', 'AA.B', 'AA-B'].map((ticker) => ({ ...base, ticker }));
  return [...all, ...odd];
}

/** The page as text, for comparing a slice with the store's joined items. */
function text(p: TickerItemsPage | undefined): { items: string; count: number; next?: unknown } | undefined {
  if (!p) return undefined;
  const items = Buffer.isBuffer(p.items) ? p.items.toString() : p.items.join(',');
  return { items, count: p.count, ...(p.next ? { next: p.next } : {}) };
}

function query(q: Partial<TickerQuery>): TickerQuery {
  return { active: true, sort: 'ticker', order: 'asc', limit: 101, ...q };
}

for (const engine of engines()) {
  describe(`ticker list kept in memory (${engine.name})`, () => {
    let store: Store;
    let index: TickerListIndex;
    const version = () => store.reference.tickersVersion();

    /** The index's page once its list is read (the first ask starts the read). */
    async function fromIndex(q: TickerQuery): Promise<TickerItemsPage | undefined> {
      const v = await version();
      const first = index.page(q, v);
      if (first) return first;
      await index.settled();
      return index.page(q, v);
    }

    beforeAll(async () => {
      store = await engine.open();
      await store.reference.upsertTickers(sample());
      index = new TickerListIndex(store.reference);
    });
    afterAll(async () => store?.close());

    const cases: Array<Partial<TickerQuery>> = [
      {},
      { limit: 1001 },
      { limit: 2 },
      { order: 'desc', limit: 51 },
      { active: false, limit: 21 },
      { active: false, order: 'desc' },
      { market: 'crypto', limit: 31 },
      { market: 'fx', order: 'desc', limit: 11 },
      { tickerGte: 'B', limit: 41 },
      { tickerGt: 'AAPL', tickerLt: 'MSFT', limit: 1001 },
      { tickerGte: 'A', tickerLte: 'A\uffff', order: 'desc' },
      { tickerLt: 'C', order: 'desc', limit: 17 },
      { ticker: 'AAPL' },
      { ticker: 'NOPE' },
      { tickerGt: 'ZZZZZZ' },
      { tickerGte: 'A\u00e9', tickerLte: 'A\u{1f600}' },
      { market: 'stocks', tickerGte: 'M', tickerLt: 'N', order: 'desc', limit: 4 },
    ];
    for (const c of cases) {
      it(`walks ${JSON.stringify(c)} page by page as the store does`, async () => {
        let after: TickerQuery['after'];
        let pages = 0;
        for (;;) {
          const q = query({ ...c, after });
          const expected = await store.reference.tickerItemsPage(q);
          const got = await fromIndex(q);
          expect(text(got)).toEqual(text(expected));
          pages++;
          if (!expected?.next) break;
          after = expected.next;
        }
        expect(pages).toBeGreaterThan(0);
      });
    }

    it('answers nothing it does not keep: other sort fields, a date, a search, a type', async () => {
      const v = await version();
      for (const q of [query({ sort: 'name' }), query({ date: '2020-01-02' }), query({ search: 'corp' }), query({ types: ['ETF'] }), query({ exchange: 'XNAS' })]) {
        expect(index.page(q, v)).toBeUndefined();
      }
      await index.settled();
    });

    it('never answers from a list older than the tickers version; reads the new one', async () => {
      const q = query({ ticker: 'AAPL' });
      const before = await fromIndex(q);
      expect(before?.count).toBe(1);
      const aapl = sample().find((t) => t.ticker === 'AAPL')!;
      await store.reference.upsertTickers([{ ...aapl, name: 'Renamed Apple Inc.' }]);
      const v = await version();
      expect(index.page(q, v)).toBeUndefined(); // its list is of the old version: the store answers
      await index.settled();
      const after = index.page(q, v);
      expect(after?.items.toString()).toContain('Renamed Apple Inc.');
      expect(text(after)).toEqual(text(await store.reference.tickerItemsPage(q)));
    });

    it('a service page sorted by ticker comes from the kept list once read, the same as the store\'s', async () => {
      let storePages = 0;
      const reference = Object.create(store.reference) as Store['reference'];
      reference.tickerItemsPage = (q) => {
        storePages++;
        return store.reference.tickerItemsPage(q);
      };
      const service = new TickerService({ reference, market: store.market, dataVersion: () => store.dataVersion() }, Date.now);
      const params = { active: true, sort: 'ticker' as const, order: 'asc' as const, 'ticker.gte': 'M' };
      const first = await service.itemsPage(params, { limit: 26 });
      expect(storePages).toBe(1); // not kept yet: the store's page
      await service.listIndex.settled();
      const second = await service.itemsPage(params, { limit: 26 });
      expect(storePages).toBe(1); // the kept list's
      expect(text(second)).toEqual(text(first));
    });
  });
}
