// Descending pages of v3 trades and quotes answered from a ticker's ticks kept in memory. Each
// page must be the page the store writes for the same range (items byte for byte, count, the
// position the next page resumes after) over time bounds and cursors falling on ties of time and
// sequence number, for stock, crypto and quote forms, also while the feed writes the ticker's
// ticks (in order, out of order, again with other values); a ticker with more ticks than a list
// takes keeps its newest and leaves older pages to the store; a size only JavaScript writes is left
// to the store; a write is never answered from a list read before it. Both engines.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { QuoteRow, TradeRow } from '../../src/domain/market-records.js';
import { listenLiveWrites, type LiveWrite } from '../../src/services/live-events.js';
import { storeTicks } from '../../src/services/live-ticks.js';
import { TickLists, type TickListFeed, type TickListForm } from '../../src/services/tick-lists.js';
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

/** The store's import version and its live writes, as the server's lists follow them. */
const liveFeed = (store: Store): TickListFeed => ({ importVersion: () => store.importVersion(), listen: (l) => listenLiveWrites(store, l) });
/** The whole data version, which every write moves, and no live writes. */
const wholeVersion = (store: Store): TickListFeed => ({ importVersion: () => store.dataVersion(), listen: () => () => {} });

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

    /**
     * Walks a ticker's stock trades page by page by their cursors while the list answers, each page
     * as the store writes it; how many pages and ticks came from the list.
     */
    async function walkFromList(lists: TickLists, first: TickRange): Promise<{ pages: number; ticks: number }> {
      let range = first;
      const seen = { pages: 0, ticks: 0 };
      for (;;) {
        const expected = await store.market.readTradesJsonPage(range, STOCK);
        const kept = await lists.page(range, STOCK);
        if (kept === undefined) return seen;
        expect(text(kept)).toEqual(text(expected));
        seen.pages++;
        seen.ticks += kept.count;
        if (!expected!.next) return seen;
        range = { ...range, after: expected!.next };
      }
    }

    const storePage = (range: TickRange, form: TickListForm) => (form === 'quotes' ? store.market.readQuotesJsonPage(range) : store.market.readTradesJsonPage(range, form));
    const SPAN = 80n * 12_345_678_901n;
    const bound = fc.option(fc.bigInt({ min: -SPAN / 10n, max: SPAN + SPAN / 10n }).map((d) => T0 + d), { nil: undefined });

    it('answers every descending page, and every page of a walk by its cursors, as the store writes it', async () => {
      const lists = new TickLists(store.market, wholeVersion(store));
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
              const kept = await lists.page(range, form);
              // NONE has no list until a page of more than 5,000 has it read (empty)
              if (ticker !== 'NONE' || kept !== undefined) expect(text(kept)).toEqual(text(expected));
              if (!expected?.next) break;
              range = { ...range, after: expected.next };
            }
          },
        ),
        { numRuns: 120 },
      );
    });

    it('leaves ascending pages, sizes only JavaScript writes and pages past the newest ticks of a longer list to the store', async () => {
      const lists = new TickLists(store.market, wholeVersion(store), undefined, 299, 7);
      await Promise.all([lists.want('AAA', STOCK), lists.want('MANY', STOCK), lists.want('ODD', STOCK), lists.want('AAA', 'quotes')]);
      const desc: Omit<TickRange, 'ticker'> = { order: 'desc', limit: 11 };
      expect(await lists.page({ ticker: 'ODD', ...desc }, STOCK)).toBeUndefined();
      expect(await lists.page({ ticker: 'AAA', ...desc, order: 'asc' }, 'quotes')).toBeUndefined();
      expect((await lists.page({ ticker: 'AAA', ...desc }, 'quotes'))?.count).toBe(10); // 200 quotes
      expect(await lists.page({ ticker: 'AAA', ...desc }, CRYPTO)).toBeUndefined(); // another form is another list
      // MANY has 300 trades, of which the list keeps the newest 299: a walk of pages of 10 has them
      // from the list until the page whose row after it would be the 300th
      expect((await walkFromList(lists, { ticker: 'MANY', ...desc })).pages).toBe(29);
      expect(await lists.page({ ticker: 'MANY', ...desc, limit: 299 }, STOCK)).toBeDefined();
      expect(await lists.page({ ticker: 'MANY', ...desc, limit: 300 }, STOCK)).toBeUndefined();
      const small = new TickLists(store.market, wholeVersion(store), 1000);
      await small.want('AAA', STOCK);
      expect(await small.page({ ticker: 'AAA', ...desc }, STOCK)).toBeUndefined(); // over the budget
      expect(small.bytes).toBeLessThan(1000);
    });

    it('keeps a list read in several parts (PostgreSQL reads 4,096 ticks a part) as the store pages it, its oldest tick left out past the limit', async () => {
      // 9,000 trades, multi-byte text among them: the parts' lengths are bytes, not characters
      const many: TradeRow[] = Array.from({ length: 9000 }, (_, i) => ({
        ticker: 'PARTS',
        sip_timestamp: T0 + BigInt(Math.floor(i / 3)) * 1_000_000n,
        price: 50 + (i % 97) / 8,
        size: 1 + (i % 13),
        exchange: 4,
        id: i % 7 === 0 ? `é${i}` : String(i),
        sequence_number: BigInt(i),
      }));
      await store.market.insertTrades(many);
      await settledDataVersion(store, engine.name);
      for (const maxRows of [60_000, 8_500]) {
        const lists = new TickLists(store.market, wholeVersion(store), undefined, maxRows);
        await lists.want('PARTS', STOCK);
        // the whole list in pages of 2,000; of the shorter one, the pages that end within its 8,500
        expect((await walkFromList(lists, { ticker: 'PARTS', order: 'desc', limit: 2_001 })).ticks).toBe(maxRows === 60_000 ? 9000 : 8000);
      }
    });

    it('reads the list for a first page of more than 5,000 ticks, once for pages asked at once, and answers them from it', async () => {
      const lists = new TickLists(store.market, wholeVersion(store));
      const read = vi.spyOn(store.market, 'readTickList');
      try {
        const big: TickRange = { ticker: 'AAA', order: 'desc', limit: 50_001 };
        const pages = await Promise.all([lists.page(big, STOCK), lists.page(big, STOCK)]);
        expect(read).toHaveBeenCalledTimes(1);
        const expected = text(await store.market.readTradesJsonPage(big, STOCK));
        for (const p of pages) expect(text(p)).toEqual(expected);
        expect(await lists.page({ ticker: 'AAA', order: 'desc', limit: 11 }, 'quotes')).toBeUndefined(); // a small first page: the store's
        expect(read).toHaveBeenCalledTimes(1);
      } finally {
        read.mockRestore();
      }
    });

    it('never answers from a list read before an import', async () => {
      const lists = new TickLists(store.market, liveFeed(store));
      const read = vi.spyOn(store.market, 'readTickList');
      await lists.want('NEW', STOCK);
      await lists.want('NEW', STOCK);
      expect(read).toHaveBeenCalledTimes(1);
      expect((await lists.page({ ticker: 'NEW', order: 'desc', limit: 10 }, STOCK))?.count).toBe(0);
      await store.market.insertTrades([{ ...trades('NEW')[5]! }]);
      await vi.waitFor(async () => expect(await lists.page({ ticker: 'NEW', order: 'desc', limit: 10 }, STOCK)).toBeUndefined());
      await settledDataVersion(store, engine.name);
      await lists.want('NEW', STOCK);
      expect(text(await lists.page({ ticker: 'NEW', order: 'desc', limit: 10 }, STOCK))?.count).toBe(1);
      read.mockRestore();
      lists.close();
    });

    it("extends a ticker's list with its live ticks, reading only those, one read at a time, and leaves it be for another ticker's", async () => {
      await settledDataVersion(store, engine.name);
      const lists = new TickLists(store.market, liveFeed(store));
      const read = vi.spyOn(store.market, 'readTickList');
      try {
        await lists.want('AAA', STOCK);
        const first = { ticker: 'AAA', order: 'desc', limit: 5 } as const;
        const before = text(await lists.page(first, STOCK));
        expect(before?.count).toBe(4);
        await storeTicks(store, [{ ...trades('LIVE')[0]!, sip_timestamp: T0 + 5n }], []);
        expect(text(await lists.page(first, STOCK))).toEqual(before);
        expect(read).toHaveBeenCalledTimes(1);
        await storeTicks(store, [{ ...trades('AAA')[0]!, sip_timestamp: T0 + SPAN * 2n, price: 999 }], []);
        // pages asked at once wait for one read of what was written
        const pages = await Promise.all([lists.page(first, STOCK), lists.page(first, STOCK), lists.page({ ...first, limit: 301 }, STOCK)]);
        expect(read).toHaveBeenCalledTimes(2);
        expect(read.mock.calls[1]![3]).toBe(T0 + SPAN * 2n); // from the time written on
        expect(String(text(pages[0])?.items)).toContain('"price":999');
        expect(text(pages[0])).toEqual(text(await store.market.readTradesJsonPage(first, STOCK)));
        expect(text(pages[2])).toEqual(text(await store.market.readTradesJsonPage({ ...first, limit: 301 }, STOCK)));
      } finally {
        read.mockRestore();
        lists.close();
      }
    });

    it('keeps the whole list when the store already holds newer ticks than the feed has told of (publishes told in order once committed)', async () => {
      await store.market.insertTrades(trades('LAG'));
      await settledDataVersion(store, engine.name);
      // the list hears only the writes passed on here: the first one below is committed but not yet told
      let tell: ((w: LiveWrite) => void) | undefined;
      const feed: TickListFeed = { importVersion: () => store.importVersion(), listen: (l) => ((tell = l), () => {}) };
      const heard: LiveWrite[] = [];
      const stop = listenLiveWrites(store, (w) => heard.push(w));
      const lists = new TickLists(store.market, feed);
      try {
        await lists.want('LAG', STOCK);
        await storeTicks(store, [{ ...trades('LAG')[0]!, sip_timestamp: T0 + SPAN * 3n, sequence_number: 1n, price: 333 }], []);
        await storeTicks(store, [{ ...trades('LAG')[0]!, sip_timestamp: T0 + SPAN * 2n, sequence_number: 1n, price: 222 }], []);
        tell!(heard[1]!);
        const range = { ticker: 'LAG', order: 'desc', limit: 400 } as const;
        const fromList = text(await lists.page(range, STOCK));
        expect(fromList).toEqual(text(await store.market.readTradesJsonPage(range, STOCK)));
        expect(fromList?.count).toBe(302);
      } finally {
        stop();
        lists.close();
      }
    });

    it('answers, while the feed writes trades and quotes in and out of order, every page as the store writes it', async () => {
      await settledDataVersion(store, engine.name);
      const MS = 1_000_000n;
      const span = 600_000n * MS; // ten minutes
      const tick = fc.record({
        at: fc.bigInt({ min: 0n, max: span }).map((d) => (d / (37n * MS)) * 37n * MS), // few distinct times: ties
        seq: fc.integer({ min: -1, max: 5 }), // -1: none (stored as -1)
        price: fc.integer({ min: 100, max: 110 }),
        size: fc.constantFrom(1, 100, 0.25, 7.5),
        conditions: fc.option(fc.constantFrom<number[]>([12], [37, 41]), { nil: undefined }),
      });
      const publish = fc.record({ kind: fc.constant('publish' as const), ticks: fc.array(tick, { minLength: 1, maxLength: 8 }), newest: fc.boolean() });
      const read = fc.record({
        kind: fc.constant('read' as const),
        form: fc.constantFrom<'stock' | 'crypto' | 'quotes'>('stock', 'crypto', 'quotes'),
        gte: fc.option(fc.bigInt({ min: -span / 10n, max: span + span / 2n }), { nil: undefined }),
        lt: fc.option(fc.bigInt({ min: -span / 10n, max: span + span / 2n }), { nil: undefined }),
        limit: fc.constantFrom(2, 3, 4, 7, 30, 50_001),
        pages: fc.integer({ min: 1, max: 4 }),
      });
      let run = 0;
      let fromLists = 0;
      let reads = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(fc.oneof(publish, read), { minLength: 2, maxLength: 14 }), async (steps) => {
          run++;
          const stock = `LV${run}`;
          const crypto = `X:LV${run}USD`;
          let latest = T0; // the newest time published so far
          let n = 0;
          const write = async (ticks: { at: bigint; seq: number; price: number; size: number; conditions?: number[] }[], newest: boolean) => {
            const base = newest ? latest : T0;
            const rows = ticks.map((k) => ({ ...k, t: base + k.at }));
            for (const r of rows) if (r.t > latest) latest = r.t;
            const trade = (ticker: string, r: (typeof rows)[number]): TradeRow => ({
              ticker, sip_timestamp: r.t, price: r.price, size: r.size, exchange: 4, id: `i${r.seq}`, sequence_number: r.seq < 0 ? undefined : BigInt(r.seq), conditions: r.conditions,
              participant_timestamp: r.seq % 2 ? r.t - 5n : undefined,
            });
            const quote = (r: (typeof rows)[number]): QuoteRow => ({
              ticker: stock, sip_timestamp: r.t, sequence_number: r.seq < 0 ? undefined : BigInt(r.seq), ask_price: r.price + 1, bid_price: r.price, bid_size: r.size, conditions: r.conditions,
            });
            // the same key again (same time, sequence, id, price and size) replaces the other fields
            await storeTicks(store, rows.flatMap((r) => [trade(stock, r), trade(crypto, r)]), rows.map(quote));
            n += rows.length;
          };
          await write([{ at: 0n, seq: 0, price: 100, size: 1 }, { at: 37n * MS, seq: 1, price: 101, size: 2 }], true);
          // the server's lists, and small ones that keep 12 ticks in segments of 3 (older pages from the store)
          const all = [new TickLists(store.market, liveFeed(store)), new TickLists(store.market, liveFeed(store), undefined, 12, 3)];
          const forms = { stock: [stock, STOCK], crypto: [crypto, CRYPTO], quotes: [stock, 'quotes'] } as const;
          try {
            for (const lists of all) for (const [ticker, form] of Object.values(forms)) await lists.want(ticker, form);
            for (const step of steps) {
              if (step.kind === 'publish') {
                await write(step.ticks, step.newest);
                continue;
              }
              const [ticker, form] = forms[step.form];
              let range: TickRange = { ticker, order: 'desc', limit: step.limit, gte: step.gte === undefined ? undefined : T0 + step.gte, lt: step.lt === undefined ? undefined : T0 + step.lt };
              for (let p = 0; p < step.pages; p++) {
                for (const [i, lists] of all.entries()) {
                  const version = store.importVersion();
                  let kept = await lists.page(range, form);
                  if (kept === undefined && store.importVersion() !== version) {
                    await lists.want(ticker, form); // PostgreSQL's row counters moved the import version: read again
                    kept = await lists.page(range, form);
                  }
                  const expected = await storePage(range, form);
                  reads++;
                  if (i === 0 && store.importVersion() === version) expect(kept).toBeDefined(); // the whole list is kept
                  if (kept !== undefined) {
                    fromLists++;
                    expect(text(kept)).toEqual(text(expected));
                  }
                }
                const expected = await storePage(range, form);
                if (!expected?.next) break;
                range = { ...range, after: expected.next };
              }
            }
          } finally {
            for (const lists of all) lists.close();
          }
          expect(n).toBeGreaterThan(0);
        }),
        { numRuns: engine.name === 'postgres' ? 40 : 80 },
      );
      expect(fromLists).toBeGreaterThan(reads / 2);
    }, 300_000);

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
