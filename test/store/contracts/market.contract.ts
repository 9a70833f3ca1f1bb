// The market-data repository contract: bars, trades and quotes as stored and read back, their
// natural keys (idempotent imports), keyset paging with ties, and nanosecond times above 2^53.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/index.js';
import type { BarRow, QuoteRow, TradeRow } from '../../../src/domain/market-records.js';
import { rawTickPosition, type TickPosition, type TickRange } from '../../../src/store/repos/market-port.js';
import { nyMidnight, nyTime } from '../../../src/domain/calendar.js';
import { dayBarsFromMinuteBars, type Bar } from '../../../src/domain/bars.js';
import { createRng } from '../../../src/demo/random.js';
import { bar, quote, trade } from './market-rows.js';
import { BIG, clearTables, countRows, useStore, type MakeStore } from './store-fixture.js';

export function runMarketRepoContract(makeStore: MakeStore): void {
  describe('market data repository', () => {
    const open = useStore(makeStore);
    let store: Store;
    beforeEach(async () => {
      store = open();
      await clearTables(store, ['minute_bars', 'day_bars', 'trades', 'quotes']);
    });

    describe('bars', () => {
      const d1 = nyMidnight('2024-03-08');
      const d2 = nyMidnight('2024-03-11');
      const d3 = nyMidnight('2024-03-12');

      it('stores bars once: re-inserting the same bars writes nothing', async () => {
        const rows = [bar('AAPL', d1, 170), bar('AAPL', d2, 171), bar('MSFT', d1, 400)];
        expect(await store.market.insertBars('day', rows)).toBe(3);
        expect(await store.market.insertBars('day', rows)).toBe(0);
        expect(await countRows(store, 'day_bars')).toBe(3);
        const many = Array.from({ length: 150 }, (_, i) => bar('SPY', d1 + i * 60_000, 500 + i));
        expect(await store.market.insertBars('minute', many)).toBe(150);
        expect(await store.market.insertBars('minute', many)).toBe(0);
        expect(await countRows(store, 'minute_bars')).toBe(150);
      });

      it('reads a [from, to) range in either order, cut by limit', async () => {
        await store.market.insertBars('day', [bar('AAPL', d1, 170), bar('AAPL', d2, 171), bar('AAPL', d3, 172), bar('MSFT', d2, 400)]);
        const asc = await store.market.readBars('day', { ticker: 'AAPL', fromMs: d1, toMs: d3, order: 'asc', limit: 10 });
        expect(asc.map((b) => b.t)).toEqual([d1, d2]);
        expect(asc[0]).toEqual({ ticker: 'AAPL', t: d1, o: 170, h: 171, l: 169, c: 170.5, v: 100, vw: undefined, n: 3 });
        const desc = await store.market.readBars('day', { ticker: 'AAPL', fromMs: 0, toMs: d3 + 1, order: 'desc', limit: 2 });
        expect(desc.map((b) => b.t)).toEqual([d3, d2]);
      });

      it('keeps index bars without volume or transactions, and fractional volume exact', async () => {
        await store.market.insertBars('minute', [
          bar('I:SPX', d1, 5100.25, { v: undefined, n: undefined }),
          bar('AAPL', d1, 170, { v: 1234.5678, vw: 170.1234 }),
        ]);
        const [spx] = await store.market.readBars('minute', { ticker: 'I:SPX', fromMs: 0, toMs: d2, order: 'asc', limit: 5 });
        expect(spx!.v).toBeUndefined();
        expect(spx!.n).toBeUndefined();
        expect(spx!.o).toBe(5100.25);
        const [aapl] = await store.market.readBars('minute', { ticker: 'AAPL', fromMs: 0, toMs: d2, order: 'asc', limit: 5 });
        expect(aapl!.v).toBe(1234.5678);
        expect(aapl!.vw).toBe(170.1234);
      });

      it('answers grouped daily (dayBarsAt) and previous close (lastDayBarBefore)', async () => {
        await store.market.insertBars('day', [bar('MSFT', d1, 400), bar('AAPL', d1, 170), bar('AAPL', d2, 171), bar('AAPL', d3, 172)]);
        expect((await store.market.dayBarsAt(d1)).map((b) => b.ticker)).toEqual(['AAPL', 'MSFT']);
        expect(await store.market.dayBarsAt(d1 + 1)).toEqual([]);
        expect((await store.market.lastDayBarBefore('AAPL', d3))!.t).toBe(d2);
        expect((await store.market.lastDayBarBefore('AAPL', d3 + 1))!.t).toBe(d3);
        expect(await store.market.lastDayBarBefore('AAPL', d1)).toBeUndefined();
      });

      it('lists the tickers that have bars of a kind', async () => {
        await store.market.insertBars('minute', [bar('X:BTCUSD', d1, 1), bar('C:EURUSD', d1, 1), bar('AAPL', d1, 1), bar('AAPL', d2, 1)]);
        await store.market.insertBars('day', [bar('MSFT', d1, 1)]);
        expect(await store.market.tickersWithBars('minute')).toEqual(['AAPL', 'C:EURUSD', 'X:BTCUSD']);
        expect(await store.market.tickersWithBars('day')).toEqual(['MSFT']);
      });
    });

    describe('deriveDayBars', () => {
      const day = '2024-03-08';
      const minutes = [
        bar('AAPL', nyTime(day, '04:00'), 10, { h: 10.5, l: 9.9, c: 10.1, v: 5, n: 1 }), // pre-market counts
        bar('AAPL', nyTime(day, '09:30'), 10.1, { h: 12, l: 10, c: 11, v: 100, n: 10 }),
        bar('AAPL', nyTime(day, '19:59'), 11, { h: 11.2, l: 8, c: 9, v: 7, n: 2 }), // after-hours counts
        bar('AAPL', nyTime('2024-03-11', '09:30'), 20, { h: 21, l: 19, c: 20, v: 1, n: 1 }),
      ];

      it('builds a bar per ET calendar day from every minute of that day', async () => {
        await store.market.insertBars('minute', minutes);
        expect(await store.market.deriveDayBars(['AAPL'])).toBe(2);
        const days = await store.market.readBars('day', { ticker: 'AAPL', fromMs: 0, toMs: Date.UTC(2030, 0), order: 'asc', limit: 10 });
        expect(days).toEqual([
          { ticker: 'AAPL', t: nyMidnight(day), o: 10, h: 12, l: 8, c: 9, v: 112, vw: undefined, n: 13 },
          { ticker: 'AAPL', t: nyMidnight('2024-03-11'), o: 20, h: 21, l: 19, c: 20, v: 1, vw: undefined, n: 1 },
        ]);
      });

      it('puts forex days at 00:00 UTC', async () => {
        // 23:30 UTC on the 7th and 00:30 UTC on the 8th: the same ET day, two UTC days.
        await store.market.insertBars('minute', [
          bar('C:EURUSD', Date.UTC(2024, 2, 7, 23, 30), 1.09),
          bar('C:EURUSD', Date.UTC(2024, 2, 8, 0, 30), 1.1),
        ]);
        await store.market.deriveDayBars();
        const days = await store.market.readBars('day', { ticker: 'C:EURUSD', fromMs: 0, toMs: Date.UTC(2030, 0), order: 'asc', limit: 10 });
        expect(days.map((d) => d.t)).toEqual([Date.UTC(2024, 2, 7), Date.UTC(2024, 2, 8)]);
      });

      it('never replaces an imported day bar, and an imported bar replaces a derived one', async () => {
        await store.market.insertBars('minute', minutes);
        const given = bar('AAPL', nyMidnight(day), 99);
        await store.market.insertBars('day', [given]);
        await store.market.deriveDayBars(['AAPL']);
        const read = (t: number) => store.market.readBars('day', { ticker: 'AAPL', fromMs: t, toMs: t + 1, order: 'asc', limit: 1 });
        expect((await read(nyMidnight(day)))[0]!.o).toBe(99);
        expect((await read(nyMidnight('2024-03-11')))[0]!.o).toBe(20);
        await store.market.insertBars('day', [bar('AAPL', nyMidnight('2024-03-11'), 42)]);
        expect((await read(nyMidnight('2024-03-11')))[0]!.o).toBe(42);
        await store.market.deriveDayBars(['AAPL']);
        expect((await read(nyMidnight('2024-03-11')))[0]!.o).toBe(42);
      });

      it.each([
        ['every day', false],
        // An import's: the days of its minutes (one statement on PostgreSQL).
        ['the days of a window', true],
      ])('matches dayBarsFromMinuteBars across DST changes, with partial vw, volume and counts (%s)', async (_, windowed) => {
        const rng = createRng('derive');
        for (const [ticker, zone] of [['MSFT', 'America/New_York'], ['C:GBPUSD', 'UTC']] as const) {
          const minutes: BarRow[] = [];
          // 2024-03-08 .. 2024-03-12 and 2024-11-01 .. 2024-11-05 (both DST changes), every ~7 minutes.
          for (const start of [Date.UTC(2024, 2, 8), Date.UTC(2024, 10, 1)]) {
            for (let t = start; t < start + 4 * 86_400_000; t += 60_000 * rng.int(1, 13)) {
              const o = rng.float(10, 20);
              const c = rng.float(10, 20);
              minutes.push({
                ticker, t, o, c, h: Math.max(o, c) + rng.next(), l: Math.min(o, c) - rng.next(),
                v: rng.chance(0.1) ? undefined : rng.chance(0.1) ? 0 : rng.int(1, 5000) + 0.5,
                vw: rng.chance(0.5) ? rng.float(10, 20) : undefined,
                n: rng.chance(0.1) ? undefined : rng.int(1, 50),
              });
            }
          }
          await store.market.insertBars('minute', minutes);
          const window = { fromMs: Math.min(...minutes.map((m) => m.t)), toMs: Math.max(...minutes.map((m) => m.t)) };
          await store.market.deriveDayBars([ticker], windowed ? window : undefined);
          const got = await store.market.readBars('day', { ticker, fromMs: 0, toMs: Date.UTC(2030, 0), order: 'asc', limit: 100 });
          const want = dayBarsFromMinuteBars(minutes as Bar[], zone);
          expect(got.map((b) => b.t)).toEqual(want.map((b) => b.t));
          got.forEach((b, i) => {
            const w = want[i]!;
            expect([b.o, b.h, b.l, b.c, b.n]).toEqual([w.o, w.h, w.l, w.c, w.n]);
            expect(b.v).toBeCloseTo(w.v, 6);
            expect(b.vw).toBeCloseTo(w.vw!, 9);
          });
        }
      });

      it('takes a day\'s only vw as is', async () => {
        await store.market.insertBars('minute', [
          bar('AAPL', nyTime('2024-03-08', '09:30'), 10, { vw: 10.123456789 }),
          bar('AAPL', nyTime('2024-03-08', '12:30'), 10),
        ]);
        await store.market.deriveDayBars(['AAPL']);
        const [d] = await store.market.readBars('day', { ticker: 'AAPL', fromMs: 0, toMs: Date.UTC(2030, 0), order: 'asc', limit: 1 });
        expect(d!.vw).toBe(10.123456789);
      });

      it('limits the work to the days of a window and refreshes derived bars there', async () => {
        await store.market.insertBars('minute', minutes);
        expect(await store.market.deriveDayBars(['AAPL'], { fromMs: nyTime('2024-03-11', '12:00'), toMs: nyTime('2024-03-11', '12:00') })).toBe(1);
        expect(await countRows(store, 'day_bars')).toBe(1);
        await store.market.insertBars('minute', [bar('AAPL', nyTime('2024-03-11', '15:59'), 30, { h: 31, l: 29, c: 30, v: 2, n: 1 })]);
        await store.market.deriveDayBars(['AAPL'], { fromMs: nyTime('2024-03-11', '15:59'), toMs: nyTime('2024-03-11', '15:59') });
        const [d] = await store.market.readBars('day', { ticker: 'AAPL', fromMs: nyMidnight('2024-03-11'), toMs: nyMidnight('2024-03-12'), order: 'asc', limit: 1 });
        expect(d).toMatchObject({ o: 20, h: 31, c: 30, v: 3, n: 2 });
      });
    });

    describe('trades', () => {
      it('round-trips every column, nanoseconds above 2^53 exactly', async () => {
        const t: TradeRow = {
          ticker: 'AAPL', sip_timestamp: BIG * 200n + 123n, participant_timestamp: BIG * 200n + 7n, trf_timestamp: BIG * 200n + 99n,
          price: 189.015, size: 0.5, exchange: 4, id: '52983525034825', conditions: [12, 37], correction: 1,
          sequence_number: 9_007_199_254_740_993n, tape: 3, trf_id: 201,
        };
        expect(await store.market.insertTrades([t])).toBe(1);
        const [read] = await store.market.readTrades({ ticker: 'AAPL', order: 'desc', limit: 10 });
        expect(read!.row).toEqual(t);
        expect(read!.position.ts).toBe((BIG * 200n + 123n).toString());
        expect(await store.market.lastTrade('AAPL')).toEqual(t);
      });

      it('keeps absent optional columns absent (options and crypto rows)', async () => {
        const option = trade('O:MU240119C00080000', 1_700_000_000_000_000_000n, undefined, { participant_timestamp: undefined, tape: undefined });
        const crypto = trade('X:BTCUSD', 1_700_000_000_000_000_001n, undefined, { id: '191450340', tape: undefined, conditions: [2] });
        await store.market.insertTrades([option, crypto]);
        expect((await store.market.lastTrade('O:MU240119C00080000'))).toEqual(option);
        expect((await store.market.lastTrade('X:BTCUSD'))).toEqual(crypto);
      });

      it('is idempotent on the natural key, but keeps distinct prints that share a nanosecond', async () => {
        const ts = 1_700_000_000_000_000_000n;
        const rows = [
          trade('AAPL', ts, 1n), trade('AAPL', ts, 2n), trade('AAPL', ts + 1n, 3n),
          // options: no id, no sequence — same ns, same exchange, different size
          trade('O:X', ts, undefined, { size: 1 }), trade('O:X', ts, undefined, { size: 2 }),
        ];
        expect(await store.market.insertTrades(rows)).toBe(5);
        expect(await store.market.insertTrades(rows)).toBe(0);
        expect(await countRows(store, 'trades')).toBe(5);
      });

      it('inserts large batches (multi-row statements plus a remainder)', async () => {
        const rows = Array.from({ length: 1000 }, (_, i) => trade('SPY', 1_700_000_000_000_000_000n + BigInt(i), BigInt(i)));
        expect(await store.market.insertTrades(rows)).toBe(1000);
        expect(await countRows(store, 'trades')).toBe(1000);
      });

      it('filters by time bounds, orders asc/desc and cuts by limit', async () => {
        const base = BIG * 190n;
        await store.market.insertTrades([0n, 1n, 2n, 3n, 4n].map((i) => trade('AAPL', base + i * 10n, i)));
        const ts = async (r: Partial<TickRange>) =>
          (await store.market.readTrades({ ticker: 'AAPL', order: 'asc', limit: 100, ...r })).map((p) => p.row.sip_timestamp - base);
        expect(await ts({ gte: base + 10n, lt: base + 40n })).toEqual([10n, 20n, 30n]);
        expect(await ts({ gt: base + 10n, lte: base + 40n })).toEqual([20n, 30n, 40n]);
        expect(await ts({ order: 'desc', limit: 2 })).toEqual([40n, 30n]);
        expect(await ts({ gte: base + 20n, lte: base + 20n })).toEqual([20n]);
        expect(await ts({ ticker: 'MSFT' })).toEqual([]);
      });

      it('pages by keyset through ties on the timestamp, every row once, both orders', async () => {
        const ts = BIG * 180n;
        // Five prints at one nanosecond: two share a sequence number (different exchanges).
        const rows = [
          trade('AAPL', ts - 1n, 1n),
          trade('AAPL', ts, 5n), trade('AAPL', ts, 2n), trade('AAPL', ts, 2n, { exchange: 7, id: 'other' }),
          trade('AAPL', ts, 3n), trade('AAPL', ts, undefined, { exchange: 9 }),
          trade('AAPL', ts + 1n, 1n),
        ];
        await store.market.insertTrades(rows);
        for (const order of ['asc', 'desc'] as const) {
          const seen: string[] = [];
          let after: TickPosition | undefined;
          for (let guard = 0; guard < 20; guard++) {
            const page = await store.market.readTrades({ ticker: 'AAPL', order, limit: 2, after });
            if (page.length === 0) break;
            for (const p of page) seen.push(`${p.row.sip_timestamp - ts}/${p.row.sequence_number ?? '-'}/${p.row.exchange}`);
            after = page[page.length - 1]!.position;
          }
          const expected = ['-1/1/4', '0/-/9', '0/2/4', '0/2/7', '0/3/4', '0/5/4', '1/1/4'];
          expect(seen).toEqual(order === 'asc' ? expected : [...expected].reverse());
        }
      });

      it('finds the last trade at or before a time', async () => {
        const base = BIG * 170n;
        await store.market.insertTrades([trade('AAPL', base, 1n, { price: 1 }), trade('AAPL', base + 100n, 2n, { price: 2 }), trade('AAPL', base + 100n, 3n, { price: 3 })]);
        expect((await store.market.lastTrade('AAPL'))!.price).toBe(3);
        expect((await store.market.lastTrade('AAPL', base + 99n))!.price).toBe(1);
        expect((await store.market.lastTrade('AAPL', base + 100n))!.price).toBe(3);
        expect(await store.market.lastTrade('AAPL', base - 1n)).toBeUndefined();
        expect(await store.market.lastTrade('MSFT')).toBeUndefined();
      });
    });

    describe('quotes', () => {
      it('round-trips a stock quote exactly and stays idempotent', async () => {
        const q = quote('AAPL', BIG * 201n + 5n, 9_007_199_254_740_995n, { conditions: [1], indicators: [604, 607], trf_timestamp: BIG * 201n });
        expect(await store.market.insertQuotes([q, q])).toBe(1);
        expect(await store.market.insertQuotes([q])).toBe(0);
        expect(await store.market.lastQuote('AAPL')).toEqual(q);
      });

      it('orders and filters forex quotes by their participant time (they have no SIP time)', async () => {
        const base = 1_700_000_000_000_000_000n;
        const fx = (i: bigint): QuoteRow => ({
          ticker: 'C:EURUSD', sip_timestamp: undefined, participant_timestamp: base + i, trf_timestamp: undefined,
          ask_price: 1.1 + Number(i) / 1000, ask_size: undefined, ask_exchange: 48, bid_price: 1.09, bid_size: undefined,
          bid_exchange: 48, conditions: undefined, indicators: undefined, sequence_number: undefined, tape: undefined,
        });
        await store.market.insertQuotes([fx(2n), fx(0n), fx(1n)]);
        const page = await store.market.readQuotes({ ticker: 'C:EURUSD', gt: base, order: 'asc', limit: 10 });
        expect(page.map((p) => p.row)).toEqual([fx(1n), fx(2n)]);
        expect(await store.market.lastQuote('C:EURUSD', base + 1n)).toEqual(fx(1n));
      });

      it('pages raw trades and quotes in numeric order through ties whose numbers differ in digit count', async () => {
        const ts = BIG * 190n;
        // Sequence numbers 8..12 and 98..101 at one nanosecond: as text "10" would sort before "9".
        const seqs = [8n, 9n, 10n, 11n, 12n, 98n, 99n, 100n, 101n];
        await store.market.insertTrades(seqs.map((q) => trade('SEQ', ts, q)));
        await store.market.insertQuotes(seqs.map((q) => quote('SEQ', ts, q)));
        for (const order of ['asc', 'desc'] as const) {
          for (const read of [(r: TickRange) => store.market.readTradesRaw(r), (r: TickRange) => store.market.readQuotesRaw(r)]) {
            const seen: string[] = [];
            let after: TickPosition | undefined;
            for (let guard = 0; guard < 20; guard++) {
              const page = await read({ ticker: 'SEQ', order, limit: 2, after });
              if (page.length === 0) break;
              seen.push(...page.map((r) => r[1]));
              after = rawTickPosition(page[page.length - 1]!);
            }
            const want = seqs.map(String);
            expect(seen).toEqual(order === 'asc' ? want : [...want].reverse());
          }
        }
      });

      it('pages quotes by keyset with ties on the timestamp', async () => {
        const ts = BIG * 150n;
        await store.market.insertQuotes([quote('SPY', ts, 3n), quote('SPY', ts, 1n), quote('SPY', ts, 2n), quote('SPY', ts + 1n, 1n)]);
        const first = await store.market.readQuotes({ ticker: 'SPY', order: 'desc', limit: 2 });
        const second = await store.market.readQuotes({ ticker: 'SPY', order: 'desc', limit: 2, after: first[1]!.position });
        expect([...first, ...second].map((p) => `${p.row.sip_timestamp! - ts}/${p.row.sequence_number}`)).toEqual(['1/1', '0/3', '0/2', '0/1']);
      });
    });
  });
}
