// Snapshots answered from live state must be what the full path computes from the store at the
// same clock: random trades, quotes and minute bars (of stocks, forex, crypto and option
// contracts) go through the publish path's store writes (services/live-ticks.ts) while the clock
// moves, and after each step the live state's single-ticker, full-market and gainers/losers
// answers, the universal snapshot's items and the option chain's snapshots are compared, as JSON
// text, with the store's. Both engines.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BarRow, QuoteRow, TradeRow } from '../../src/domain/market-records.js';
import { LiveSnapshots } from '../../src/services/live-snapshots.js';
import { optionSnapshots } from '../../src/services/options-chain.js';
import { UniversalSnapshotService, type UniversalRequest } from '../../src/services/universal-snapshot.js';
import type { OptionsContractRecord } from '../../src/store/repos/options.js';
import { storeLiveMinuteBars, storeTicks } from '../../src/services/live-ticks.js';
import { marketSnapshots, movers, rankMovers, snapshotJson, storeInputsReader, type SnapshotInputsReader, type SnapshotMarket, type VisibleTicks } from '../../src/services/snapshots.js';
import type { Store } from '../../src/store/index.js';
import { settledDataVersion } from '../helpers/data-version.js';
import { engines } from '../helpers/engines.js';
import { AFTER, DAY, et, loadSnapshotFixture, MID } from '../helpers/snapshot-fixture.js';

const TICKERS: Record<SnapshotMarket, string[]> = {
  stocks: ['AAA', 'BBB', 'OTCX', 'G03', 'NEWT'],
  fx: ['C:EURUSD', 'C:GBPUSD'],
  crypto: ['X:BTCUSD', 'X:ETHUSD', 'X:NEWUSD'],
};
/** Contracts on AAA (a stock of the fixture), traded and quoted like the others. */
const CONTRACTS: OptionsContractRecord[] = [
  { ticker: 'O:AAA261218C00050000', underlying_ticker: 'AAA', contract_type: 'call', exercise_style: 'american', expiration_date: '2026-12-18', strike_price: 50, shares_per_contract: 100 },
  { ticker: 'O:AAA261218P00055000', underlying_ticker: 'AAA', contract_type: 'put', exercise_style: 'american', expiration_date: '2026-12-18', strike_price: 55, shares_per_contract: 100 },
];
const ALL = [...Object.values(TICKERS).flat(), ...CONTRACTS.map((c) => c.ticker)];
/** Every ticker the universal snapshot is asked for: each market's, an index and a contract. */
const UNIVERSAL = [...ALL, 'I:NDX'].join(',');
const NS = 1_000_000n;

type Step =
  | { kind: 'trade'; ticker: string; offsetMs: number; seq: number; price: number; size: number }
  | { kind: 'quote'; ticker: string; offsetMs: number; seq: number; bid: number }
  | { kind: 'bar'; ticker: string; minutesBack: number; c: number; v: number }
  | { kind: 'clock'; ms: number };

const price = fc.integer({ min: 1, max: 400 }).map((p) => p / 4);
const step: fc.Arbitrary<Step> = fc.oneof(
  // ticks near the clock, a few ahead of it; few sequence numbers, so times and numbers tie
  fc.record({ kind: fc.constant('trade' as const), ticker: fc.constantFrom(...ALL), offsetMs: fc.integer({ min: -120_000, max: 3_000 }), seq: fc.integer({ min: 0, max: 2 }), price, size: fc.integer({ min: 1, max: 30_000 }) }),
  fc.record({ kind: fc.constant('quote' as const), ticker: fc.constantFrom(...ALL), offsetMs: fc.integer({ min: -120_000, max: 3_000 }), seq: fc.integer({ min: 0, max: 2 }), bid: price }),
  fc.record({ kind: fc.constant('bar' as const), ticker: fc.constantFrom(...ALL), minutesBack: fc.integer({ min: 0, max: 5 }), c: price, v: fc.integer({ min: 1, max: 50_000 }) }),
  // mostly within the session, sometimes after it (stored day bars) or back before the fixture's clock
  fc.record({ kind: fc.constant('clock' as const), ms: fc.oneof(fc.integer({ min: MID, max: et(DAY, '15:00') }), fc.integer({ min: et(DAY, '09:00'), max: AFTER + 3_600_000 })) }),
);

const quoteOf = (ticker: string, ns: bigint, seq: number, bid: number): QuoteRow =>
  ticker.startsWith('C:')
    ? { ticker, participant_timestamp: ns, bid_price: bid, ask_price: bid + 0.25, bid_exchange: 48, ask_exchange: 48, sequence_number: BigInt(seq) }
    : { ticker, sip_timestamp: ns, bid_price: bid, ask_price: bid + 0.25, bid_size: 2, ask_size: 3, sequence_number: BigInt(seq) };

const text = (pieces: readonly Buffer[]) => pieces.map(String);
/** JSON with bigints as numbers' text (ns times exact). */
const json = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x));

for (const engine of engines()) {
  describe(`snapshots from live state (${engine.name})`, () => {
    let store: Store;
    let clock = MID;
    let live: LiveSnapshots;
    beforeAll(async () => {
      store = await engine.open();
      await loadSnapshotFixture(store);
      await settledDataVersion(store, engine.name); // PostgreSQL hears its own commits a moment later
      await store.options.upsertContracts(CONTRACTS);
      live = new LiveSnapshots(store, () => clock);
    }, 120_000);
    afterAll(async () => {
      live?.close();
      await store?.close();
    });

    it('answers single-ticker, full-market, movers, universal and option chain snapshots as the store does after every published event', async () => {
      let answered = 0;
      const apply = async (s: Step) => {
        const at = BigInt(clock) * NS;
        if (s.kind === 'clock') clock = s.ms;
        else if (s.kind === 'trade') {
          const t: TradeRow = { ticker: s.ticker, sip_timestamp: at + BigInt(s.offsetMs) * NS, price: s.price, size: s.size, exchange: 4, sequence_number: BigInt(s.seq), id: s.seq === 0 ? '' : `t${s.seq}`, conditions: s.seq === 1 ? [] : [12] };
          await storeTicks(store, [t], []);
        } else if (s.kind === 'quote') await storeTicks(store, [], [quoteOf(s.ticker, at + BigInt(s.offsetMs) * NS, s.seq, s.bid)]);
        else {
          const t = Math.floor(clock / 60_000) * 60_000 - s.minutesBack * 60_000;
          const bar: BarRow = { ticker: s.ticker, t, o: s.c, h: s.c + 1, l: s.c - 1, c: s.c, v: s.v, vw: s.c, n: 3 };
          await storeLiveMinuteBars(store, [bar]);
        }
      };
      const check = async (show: VisibleTicks, includeOtc: boolean) => {
        for (const market of ['stocks', 'fx', 'crypto'] as const) {
          for (const ticker of TICKERS[market]) {
            const kept = await live.one(market, ticker, clock, show);
            if (kept === undefined) continue;
            answered++;
            const [want] = await marketSnapshots(store, { market, tickers: [ticker], nowMs: clock, includeOtc: true, show });
            expect({ ticker, snapshot: kept === null ? null : String(snapshotJson(kept.ranked.snapshot)) }).toEqual({ ticker, snapshot: want ? String(snapshotJson(want.snapshot)) : null });
          }
          const list = await live.list(market, clock, includeOtc, show);
          if (list !== undefined) {
            answered++;
            const want = await marketSnapshots(store, { market, nowMs: clock, includeOtc, show });
            expect(text(list.pieces)).toEqual(want.map((r) => String(snapshotJson(r.snapshot))));
            expect(list.count).toBe(want.length);
          }
          const ranked = await live.ranked(market, clock, includeOtc, show);
          if (ranked !== undefined) {
            for (const direction of ['gainers', 'losers'] as const) {
              const want = await movers(store, { market, nowMs: clock, includeOtc, show }, direction);
              expect(rankMovers(ranked, market, direction).map((s) => String(snapshotJson(s)))).toEqual(want.map((s) => String(snapshotJson(s))));
            }
          }
        }
      };
      const liveInputs: SnapshotInputsReader = (market, tickers, nowMs) => live.inputs(market, tickers, nowMs);
      const universal = { live: new UniversalSnapshotService(store, undefined, liveInputs), store: new UniversalSnapshotService(store, undefined) };
      // the universal snapshot's items and the option chain's snapshots, from live inputs and from the store
      const checkUniversalAndOptions = async (show: VisibleTicks) => {
        const r: UniversalRequest = {
          clock: { nowMs: clock, realMs: clock, timeframe: 'REAL-TIME' },
          entitled: (dataset) => dataset === 'snapshots' || (dataset === 'trades' ? show.trades : show.quotes),
        };
        const q = { order: 'asc' as const };
        expect(json(await universal.live.named(UNIVERSAL, q, r))).toBe(json(await universal.store.named(UNIVERSAL, q, r)));
        const view = { ...show, timeframe: 'REAL-TIME' as const };
        const chain = (inputs: SnapshotInputsReader) => optionSnapshots(store, inputs, 'AAA', CONTRACTS, clock, view);
        expect(json(await chain(liveInputs))).toBe(json(await chain(storeInputsReader(store.snapshotReads))));
      };
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), fc.boolean(), fc.boolean(), async (steps, trades, otc) => {
          for (const s of steps) {
            await apply(s);
            await check({ trades, quotes: !trades }, otc);
            await checkUniversalAndOptions({ trades, quotes: !trades });
          }
        }),
        { numRuns: engine.name === 'sqlite' ? 40 : 15 },
      );
      // the live state answered (not every request fell back to the store)
      expect(answered).toBeGreaterThan(50);
    }, 600_000);

    it('answers from memory between changes and reads again only what a live write or a new minute touched', async () => {
      clock = AFTER + 2 * 3_600_000; // later than every tick the property published
      await settledDataVersion(store, engine.name); // away from PostgreSQL's poll of row counters
      const show = { trades: true, quotes: true };
      await live.list('stocks', clock, true, show);
      const reads = store.snapshotReads;
      let calls = 0;
      const original = reads.lastDayBarsBefore.bind(reads);
      reads.lastDayBarsBefore = async (tickers, beforeMs) => {
        calls++;
        return original(tickers, beforeMs);
      };
      try {
        const first = await live.list('stocks', clock, true, show);
        expect(calls).toBe(0);
        // a later trade is applied in place: no read, and the answer shows it
        await storeTicks(store, [{ ticker: 'BBB', sip_timestamp: BigInt(clock) * NS, price: 47.25, size: 10, exchange: 4, sequence_number: 99n }], []);
        const second = await live.list('stocks', clock, true, show);
        expect(calls).toBe(0);
        expect(second!.pieces.length).toBe(first!.pieces.length);
        expect(String(second!.pieces.find((p) => String(p).includes('"ticker":"BBB"')))).toContain('"p":47.25');
        // a stored minute bar has its ticker, and only it, read again
        await storeLiveMinuteBars(store, [{ ticker: 'BBB', t: Math.floor(clock / 60_000) * 60_000 - 60_000, o: 47, h: 48, l: 46, c: 47.5, v: 100, vw: 47, n: 2 }]);
        await live.list('stocks', clock, true, show);
        expect(calls).toBe(1);
        // a new minute (crypto days have no end) re-reads no ticker: none has a bar stored ahead of the clock
        await live.list('crypto', clock, true, show);
        calls = 0;
        clock += 60_000;
        expect((await live.list('crypto', clock, true, show))?.count).toBeGreaterThan(0);
        expect(calls).toBe(0);
      } finally {
        reads.lastDayBarsBefore = original;
      }
    });

    it('applies a trade published while its ticker is being read to what the read brings', async () => {
      clock = AFTER + 2 * 3_600_000 + 120_000; // later than every tick published before
      const show = { trades: true, quotes: true };
      const reads = store.snapshotReads;
      const original = reads.lastTrades.bind(reads);
      let release = () => {};
      const gate = new Promise<void>((r) => (release = r));
      // the read's trades are taken before the trade below is stored, and handed over after it
      reads.lastTrades = async (tickers, atNs) => {
        const rows = await original(tickers, atNs);
        await gate;
        return rows;
      };
      try {
        await storeLiveMinuteBars(store, [{ ticker: 'BBB', t: Math.floor(clock / 60_000) * 60_000 - 120_000, o: 47, h: 48, l: 46, c: 47.5, v: 100, vw: 47, n: 2 }]); // BBB to be read again
        const reading = live.one('stocks', 'BBB', clock, show);
        await new Promise((r) => setImmediate(r));
        await storeTicks(store, [{ ticker: 'BBB', sip_timestamp: BigInt(clock) * NS - 5n, price: 48.75, size: 3, exchange: 4, sequence_number: 7n }], []);
        release();
        const kept = await reading;
        const [want] = await marketSnapshots(store, { market: 'stocks', tickers: ['BBB'], nowMs: clock, includeOtc: true, show });
        expect(kept && String(snapshotJson(kept.ranked.snapshot))).toBe(String(snapshotJson(want!.snapshot)));
        expect(String(live.oneNow('stocks', 'BBB', clock, show)?.json)).toContain('"p":48.75');
      } finally {
        reads.lastTrades = original;
        release();
      }
    });

    it('keeps a trade published ahead of the clock out of the full market until the clock reaches it, as the store does', async () => {
      const at = AFTER + 2 * 3_600_000 + 240_000; // after the day's close: one clock epoch for the rest of the day
      const show = { trades: true, quotes: true };
      await storeTicks(store, [{ ticker: 'AAA', sip_timestamp: BigInt(at + 60_000) * NS, price: 77.5, size: 5, exchange: 4, sequence_number: 8n }], []);
      const texts = async (nowMs: number) => (await live.list('stocks', nowMs, true, show))?.pieces.map(String);
      const fromStore = async (nowMs: number) => (await marketSnapshots(store, { market: 'stocks', nowMs, includeOtc: true, show })).map((r) => String(snapshotJson(r.snapshot)));
      // AAA's last trade price in a list's pieces (other tickers may hold a 77.5 from the tests before)
      const aaaPrice = (pieces: string[] | undefined) => (pieces ?? []).map((t) => JSON.parse(t) as { ticker: string; lastTrade?: { p: number } }).find((x) => x.ticker === 'AAA')?.lastTrade?.p;
      // a clock past the trade: the list has it, and keeps it
      expect(await texts(at + 120_000)).toEqual(await fromStore(at + 120_000));
      expect(aaaPrice(await texts(at + 120_000))).toBe(77.5);
      // a clock before it (a publisher's clock ahead of the server's, or a replay set back): not yet
      const before = await texts(at);
      expect(aaaPrice(before)).not.toBe(77.5);
      if (before !== undefined) expect(before).toEqual(await fromStore(at));
      expect(aaaPrice(live.listNow('stocks', at, true, show)?.pieces.map(String))).not.toBe(77.5);
    });
  });
}
