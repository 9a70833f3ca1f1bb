// Descending pages of v3 trades and quotes answered from a ticker's ticks kept in memory. Each
// page must be the page the store writes for the same range (items byte for byte, count, the
// position the next page resumes after) over time bounds and cursors falling on ties of time and
// sequence number, for stock, crypto and quote forms; a ticker with more ticks than a list takes,
// or with a size only JavaScript writes, is left to the store; a write is never answered from a
// list read before it. Both engines.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { QuoteRow, TradeRow } from '../../src/domain/market-records.js';
import { LiveVersions } from '../../src/services/live-versions.js';
import { storeTicks } from '../../src/services/live-ticks.js';
import { TickLists, type TickListForm } from '../../src/services/tick-lists.js';
import type { Store } from '../../src/store/index.js';
import type { TickJsonPage, TickRange } from '../../src/store/repos/market-port.js';
import { startTestApp } from '../helpers/app.js';
import { settledDataVersion } from '../helpers/data-version.js';
import { engines } from '../helpers/engines.js';

const T0 = 1_772_800_000_000_000_000n; // 2026-03-06, ns
const STOCK = { crypto: false, decimalSize: true };
const CRYPTO = { crypto: true, decimalSize: false };

/** 300 trades of `ticker` over about an hour: runs of equal times, equal sequence numbers within them, odd sizes and optional fields. */
function trades(ticker: string): TradeRow[] {
  const out: TradeRow[] = [];
  for (let i = 0; i < 300; i++) {
    const ts = T0 + BigInt(Math.floor(i / 4)) * 12_345_678_901n; // four trades a time
    out.push({
      ticker,
      sip_timestamp: ts,
      participant_timestamp: i % 3 === 0 ? undefined : ts - 1_000n,
      price: 100 + i / 7,
      size: i % 5 === 0 ? 0.25 + i : 100 + i,
      exchange: 1 + (i % 3),
      id: i % 11 === 0 ? '' : `id"${i}}`, // quotes and braces inside the item's text
      conditions: i % 2 === 0 ? [12, 37] : undefined,
      sequence_number: BigInt(Math.floor(i / 2)), // pairs share a sequence number: the store key breaks the tie
      tape: i % 4 === 0 ? undefined : 1,
      trf_id: i % 9 === 0 ? 201 : undefined,
    });
  }
  return out;
}

function quotes(ticker: string): QuoteRow[] {
  return Array.from({ length: 200 }, (_, i) => ({
    ticker,
    sip_timestamp: T0 + BigInt(Math.floor(i / 3)) * 9_876_543_210n,
    ask_price: 101 + i / 9,
    bid_price: 100 + i / 9,
    ask_size: i % 4 === 0 ? undefined : 3 + i,
    bid_size: 2 + i,
    ask_exchange: 11,
    bid_exchange: i % 2 === 0 ? 12 : undefined,
    conditions: i % 5 === 0 ? [1] : undefined,
    sequence_number: BigInt(i),
    tape: 3,
  }));
}

const text = (p: TickJsonPage | undefined) => p && { items: Buffer.isBuffer(p.items) ? p.items.toString() : p.items.map(String).join(','), count: p.count, next: p.next };

for (const engine of engines()) {
  describe(`trades and quotes kept by ticker (${engine.name})`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
      await store.market.insertTrades([...trades('AAA'), ...trades('X:BTCUSD'), ...trades('MANY'), { ...trades('ODD')[0]!, size: 1234567890.5 }]);
      await store.market.insertQuotes(quotes('AAA'));
      await settledDataVersion(store, engine.name); // PostgreSQL hears its own commits a moment later
    }, 120_000);
    afterAll(async () => store?.close());

    const storePage = (range: TickRange, form: TickListForm) => (form === 'quotes' ? store.market.readQuotesJsonPage(range) : store.market.readTradesJsonPage(range, form));
    const SPAN = 80n * 12_345_678_901n;
    const bound = fc.option(fc.bigInt({ min: -SPAN / 10n, max: SPAN + SPAN / 10n }).map((d) => T0 + d), { nil: undefined });

    it('answers every descending page, and every page of a walk by its cursors, as the store writes it', async () => {
      const lists = new TickLists(store.market, () => store.dataVersion());
      const wantAll = async () => {
        for (const [ticker, form] of [['AAA', STOCK], ['X:BTCUSD', CRYPTO], ['AAA', 'quotes']] as const) await lists.want(ticker, form);
        return store.dataVersion();
      };
      // PostgreSQL's data version also moves once a minute (to see other programs' writes), which
      // drops the kept lists: a run that crosses a minute reads them again.
      let version = await wantAll();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom<[string, TickListForm]>(['AAA', STOCK], ['X:BTCUSD', CRYPTO], ['AAA', 'quotes'], ['NONE', STOCK]),
          bound,
          bound,
          fc.constantFrom(2, 3, 4, 5, 8, 101, 301, 50_001),
          async ([ticker, form], gte, lt, limit) => {
            let range: TickRange = { ticker, gte, lt, order: 'desc', limit };
            for (let pages = 0; pages < 400; pages++) {
              const expected = await storePage(range, form);
              if (store.dataVersion() !== version) version = await wantAll();
              const kept = lists.page(range, form);
              if (ticker === 'NONE') expect(kept).toBeUndefined();
              else expect(text(kept)).toEqual(text(expected));
              if (!expected?.next) break;
              range = { ...range, after: expected.next };
            }
          },
        ),
        { numRuns: 120 },
      );
    });

    it('leaves ascending pages, tickers with more ticks than a list takes and sizes only JavaScript writes to the store', async () => {
      const lists = new TickLists(store.market, () => store.dataVersion(), undefined, 299);
      await Promise.all([lists.want('AAA', STOCK), lists.want('MANY', STOCK), lists.want('ODD', STOCK), lists.want('AAA', 'quotes')]);
      const desc: Omit<TickRange, 'ticker'> = { order: 'desc', limit: 11 };
      expect(lists.page({ ticker: 'MANY', ...desc }, STOCK)).toBeUndefined(); // 300 trades
      expect(lists.page({ ticker: 'ODD', ...desc }, STOCK)).toBeUndefined();
      expect(lists.page({ ticker: 'AAA', ...desc, order: 'asc' }, 'quotes')).toBeUndefined();
      expect(lists.page({ ticker: 'AAA', ...desc }, 'quotes')?.count).toBe(10); // 200 quotes
      expect(lists.page({ ticker: 'AAA', ...desc }, CRYPTO)).toBeUndefined(); // another form is another list
      const small = new TickLists(store.market, () => store.dataVersion(), 1000);
      await small.want('AAA', STOCK);
      expect(small.page({ ticker: 'AAA', ...desc }, STOCK)).toBeUndefined(); // over the budget
      expect(small.bytes).toBe(0);
    });

    it('never answers from a list read before a write', async () => {
      const lists = new TickLists(store.market, () => store.dataVersion());
      const read = vi.spyOn(store.market, 'readTickList');
      await lists.want('NEW', STOCK);
      await lists.want('NEW', STOCK);
      expect(read).toHaveBeenCalledTimes(1);
      expect(lists.page({ ticker: 'NEW', order: 'desc', limit: 10 }, STOCK)?.count).toBe(0);
      await store.market.insertTrades([{ ...trades('NEW')[5]! }]);
      await vi.waitFor(() => expect(lists.page({ ticker: 'NEW', order: 'desc', limit: 10 }, STOCK)).toBeUndefined());
      await settledDataVersion(store, engine.name);
      await lists.want('NEW', STOCK);
      expect(text(lists.page({ ticker: 'NEW', order: 'desc', limit: 10 }, STOCK))?.count).toBe(1);
      read.mockRestore();
    });

    it("keeps a ticker's list while the feed writes another ticker's trades, and reads it again after its own", async () => {
      await settledDataVersion(store, engine.name);
      const versions = new LiveVersions(store, () => store.importVersion());
      const lists = new TickLists(store.market, (ticker) => versions.of({ ticker }));
      try {
        await lists.want('AAA', STOCK);
        const before = text(lists.page({ ticker: 'AAA', order: 'desc', limit: 5 }, STOCK));
        expect(before?.count).toBe(4);
        await storeTicks(store, [{ ...trades('LIVE')[0]!, sip_timestamp: T0 + 5n }], []);
        expect(text(lists.page({ ticker: 'AAA', order: 'desc', limit: 5 }, STOCK))).toEqual(before);
        await storeTicks(store, [{ ...trades('AAA')[0]!, sip_timestamp: T0 + SPAN * 2n, price: 999 }], []);
        expect(lists.page({ ticker: 'AAA', order: 'desc', limit: 5 }, STOCK)).toBeUndefined();
        await lists.want('AAA', STOCK);
        expect(String(text(lists.page({ ticker: 'AAA', order: 'desc', limit: 5 }, STOCK))?.items)).toContain('999');
      } finally {
        versions.close();
      }
    });

    it('answers /v3/trades and /v3/quotes pages from the kept list once read, as the store would, unless the budget is 0 (--memory-ticks-mb 0)', async () => {
      const bodies: unknown[][] = [];
      for (const budget of [undefined, 0]) {
        const app = await startTestApp(store, { envelope: 'native', now: () => Number(T0 / 1_000_000n) + 86_400_000, config: { envelope: 'native', tickListBytes: budget } });
        const seen: unknown[] = [];
        const get = async (path: string) => {
          const res = await app.get(path);
          expect(res.status).toBe(200);
          seen.push({ ...res.body, request_id: undefined, next_url: res.body.next_url?.replace(/^https?:\/\/[^/]+/, '') });
          return res.body;
        };
        try {
          const reads = vi.spyOn(store.market, 'readTradesJsonPage');
          const quoteReads = vi.spyOn(store.market, 'readQuotesJsonPage');
          const url = (end: bigint) => `/v3/trades/AAA?timestamp.lte=${end}&limit=7`;
          const first = await get(url(T0 + SPAN));
          expect(first.results).toHaveLength(7);
          expect(app.app.ctx.services.tradesQuotes.lists?.bytes ?? 0).toBe(0); // one page: no list read yet
          // other end times: not in the response cache, each page its own; the second has the list read
          expect((await get(url(T0 + SPAN - 1_000_000_000n))).results).toHaveLength(7);
          await app.app.ctx.services.tradesQuotes.lists?.want('AAA', STOCK);
          for (let i = 2; i <= 4; i++) expect((await get(url(T0 + SPAN - BigInt(i) * 1_000_000_000n))).results).toHaveLength(7);
          const second = await get(new URL(first.next_url).pathname + new URL(first.next_url).search);
          expect(second.results).toHaveLength(7);
          expect(second.next_url).toBeDefined();
          await get('/v3/quotes/AAA?limit=5');
          await get('/v3/quotes/AAA?limit=6');
          await app.app.ctx.services.tradesQuotes.lists?.want('AAA', 'quotes');
          await get('/v3/quotes/AAA?limit=4');
          expect(reads).toHaveBeenCalledTimes(budget === 0 ? 6 : 2);
          expect(quoteReads).toHaveBeenCalledTimes(budget === 0 ? 3 : 2);
          reads.mockRestore();
          quoteReads.mockRestore();
        } finally {
          await app.close();
        }
        bodies.push(seen);
      }
      expect(bodies[0]).toEqual(bodies[1]);
    });
  });
}
