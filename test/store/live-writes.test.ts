// The live feed's writes of ticks (Store.live, store/live-writes.ts) store what the importers'
// inserts store, on both engines: on PostgreSQL a small publish is one statement of column
// arrays instead of the transaction's multi-row INSERT, and on a SQLite file the rows travel to
// the write thread as columns; each must read back the same rows and count the rows it wrote the
// same way (a repeated row: nothing; a corrected one: one).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuoteRow, TradeRow } from '../../src/domain/market-records.js';
import { openStore, type Store } from '../../src/store/index.js';
import { engines, type EngineUnderTest } from '../helpers/engines.js';

const T0 = 1_749_825_065_000_000_000n;
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });

const trade = fc.record({
  at: fc.integer({ min: 0, max: 30 }),
  price: fc.double({ min: 0.0001, max: 5000, noNaN: true }),
  size: fc.integer({ min: 1, max: 1000 }),
  exchange: fc.integer({ min: 1, max: 20 }),
  id: opt(fc.string({ minLength: 1, maxLength: 6 })),
  conditions: opt(fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 3 })),
  correction: opt(fc.integer({ min: 0, max: 12 })),
  tape: opt(fc.integer({ min: 1, max: 3 })),
  trf_id: opt(fc.integer({ min: 1, max: 300 })),
  trf: fc.boolean(),
});

const quote = fc.record({
  at: fc.integer({ min: 0, max: 30 }),
  bid: fc.double({ min: 0.01, max: 5000, noNaN: true }),
  ask: fc.double({ min: 0.01, max: 5000, noNaN: true }),
  bid_size: opt(fc.integer({ min: 1, max: 500 })),
  ask_exchange: opt(fc.integer({ min: 1, max: 20 })),
  indicators: opt(fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 2 })),
});

type T = typeof trade extends fc.Arbitrary<infer X> ? X : never;
type Q = typeof quote extends fc.Arbitrary<infer X> ? X : never;

const tradeRow = (ticker: string, t: T): TradeRow => ({
  ticker, sip_timestamp: T0 + BigInt(t.at), sequence_number: BigInt(t.at), price: t.price, size: t.size, exchange: t.exchange, id: t.id,
  conditions: t.conditions, correction: t.correction, tape: t.tape, trf_id: t.trf_id, trf_timestamp: t.trf ? T0 + BigInt(t.at) - 5n : undefined,
});
const quoteRow = (ticker: string, q: Q): QuoteRow => ({
  ticker, sip_timestamp: T0 + BigInt(q.at), sequence_number: BigInt(q.at), bid_price: q.bid, ask_price: q.ask, bid_size: q.bid_size, ask_exchange: q.ask_exchange, indicators: q.indicators,
});

const dir = mkdtempSync(join(tmpdir(), 'tb-live-writes-'));
const sqliteFile: EngineUnderTest = { name: 'sqlite', open: () => openStore({ dataDir: dir }) };

for (const [label, engine] of [...engines().map((e) => [e.name, e] as const), ['sqlite file, write thread', sqliteFile] as const]) {
  describe(`live writes of ticks (${label})`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
    });
    afterAll(async () => {
      await store.close();
      if (engine === sqliteFile) rmSync(dir, { recursive: true, force: true });
    });

    const read = async (ticker: string) => {
      const range = { ticker, order: 'asc' as const, limit: 1000 };
      const strip = <R extends { ticker: string }>(rows: { row: R }[] | R[]) => rows.map((r) => ({ ...('row' in r ? r.row : r), ticker: '' }));
      return { trades: strip(await store.market.readTrades(range)), quotes: strip(await store.market.readQuotes(range)) };
    };

    it('stores and counts what a transaction of inserts stores and counts, repeats and corrections included', async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(trade, { maxLength: 25 }), fc.array(quote, { maxLength: 10 }), async (ts, qs) => {
          n++;
          const live = `LW${n}`;
          const plain = `PW${n}`;
          const liveTicks = { trades: ts.map((t) => tradeRow(live, t)), quotes: qs.map((q) => quoteRow(live, q)), futuresTrades: [], futuresQuotes: [] };
          const viaInserts = () =>
            store.transaction(async (tx) => ({ trades: await tx.market.insertTrades(ts.map((t) => tradeRow(plain, t))), quotes: await tx.market.insertQuotes(qs.map((q) => quoteRow(plain, q))) }));
          expect(await store.live.ticks(liveTicks)).toEqual(await viaInserts());
          expect(await read(live)).toEqual(await read(plain));
          // the same publish again writes nothing
          expect(await store.live.ticks(liveTicks)).toEqual(await viaInserts());
          // a corrected trade (same key, other conditions) is written again
          if (ts.length > 0) {
            const fixed = { ...ts[0]!, conditions: [99], correction: 1 };
            const again = await store.live.ticks({ ...liveTicks, trades: [tradeRow(live, fixed)], quotes: [] });
            const inserted = await store.transaction(async (tx) => tx.market.insertTrades([tradeRow(plain, fixed)]));
            expect(again.trades).toBe(inserted);
            expect(await read(live)).toEqual(await read(plain));
          }
        }),
        { numRuns: 25 },
      );
    });
  });
}
