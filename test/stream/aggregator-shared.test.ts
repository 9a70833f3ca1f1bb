// Two aggregators standing for two processes that took trades of one ticker in one minute: each
// sees the other's trades as remote prints, one of them claims each window, and the minute is
// made from the stored trades, so one AM goes out, equal to the aggregate of all the trades.
import { describe, expect, it } from 'vitest';
import { barsFromTrades, type TradePrint } from '../../src/domain/bars.js';
import type { BarRow, TradeRow } from '../../src/domain/market-records.js';
import type { LivePrint } from '../../src/stream/broker.js';
import { LiveAggregator } from '../../src/stream/aggregator.js';
import type { WireEvent } from '../../src/stream/json.js';
import type { Claim, WindowClaims } from '../../src/stream/window-claims.js';

const M = 1_749_825_000_000;

/** The first to ask wins, as the Redis key or the primary decide. */
class FirstWins implements WindowClaims {
  private readonly taken = new Set<string>();
  async claim(span: string, start: number): Promise<Claim> {
    const key = `${span}:${start}`;
    if (this.taken.has(key)) return 'lost';
    this.taken.add(key);
    return 'won';
  }
}

function trade(i: number, ms: number, price: number, size: number): TradeRow {
  return { ticker: 'SHRD', sip_timestamp: BigInt(ms) * 1_000_000n, price, size, id: String(i), exchange: 4, tape: 3 } as TradeRow;
}

describe('live bars aggregated by two processes', () => {
  it('one AM per minute and one A per second in all, minute bars from the stored trades', async () => {
    let now = M;
    const stored: TradePrint[] = [];
    const claims = new FirstWins();
    const emitted: WireEvent[] = [];
    const bars: BarRow[] = [];
    const make = () =>
      new LiveAggregator({
        now: () => now, graceMs: 1000, retainMs: 300_000,
        emit: (events) => emitted.push(...events),
        storeMinuteBars: async (b) => void bars.push(...b),
        storeFuturesMinuteBars: async () => undefined,
        onError: (err) => { throw err; },
        shared: { claims, storedPrints: async () => [...stored] },
      });
    const a = make();
    const b = make();
    const take = (here: LiveAggregator, there: LiveAggregator, rows: TradeRow[]) => {
      for (const r of rows) stored.push({ t_ns: r.sip_timestamp, price: r.price, size: r.size });
      here.add(rows);
      there.addRemote(rows.map((r): LivePrint => ({ ticker: r.ticker, t: String(r.sip_timestamp), p: r.price, s: r.size })));
    };
    take(a, b, [trade(1, M + 100, 10, 100), trade(2, M + 20_000, 11, 50)]);
    take(b, a, [trade(3, M + 150, 9.5, 30), trade(4, M + 40_000, 12, 10)]);
    // a trade stored by a third process that neither saw (its bus message was lost)
    stored.push({ t_ns: BigInt(M + 50_000) * 1_000_000n, price: 8, size: 5 });

    now = M + 61_500;
    a.tick();
    b.tick();
    await new Promise((r) => setTimeout(r, 10));
    // stragglers from elsewhere: one for a second already emitted is left out; one for a second
    // nobody emitted yet (taken late by b) is emitted once, by the process that holds the minute's seconds
    const straggler = (ms: number): LivePrint => ({ ticker: 'SHRD', t: String(BigInt(ms) * 1_000_000n), p: 10, s: 1 });
    a.addRemote([straggler(M + 20_500)]);
    stored.push({ t_ns: BigInt(M + 45_000) * 1_000_000n, price: 13, size: 1 });
    b.add([trade(6, M + 45_000, 13, 1)]); // b stores its minute again from the store
    a.addRemote([straggler(M + 45_000)]);
    a.tick();
    b.tick();
    await a.close();
    await b.close();

    const minutes = emitted.filter((e) => e.ev === 'AM');
    const expected = barsFromTrades(stored.slice(0, 5), 'minute', 'UTC')[0]!;
    expect(minutes.map((e) => [e.s, e.o, e.h, e.l, e.c, e.v])).toEqual([[M, expected.o, expected.h, expected.l, expected.c, expected.v]]);
    expect(bars.map((r) => [r.t, r.v, r.n])).toEqual([[M, expected.v, 5], [M, expected.v + 1, 6]]);
    expect(emitted.filter((e) => e.ev === 'A').map((e) => e.s)).toEqual([M, M + 20_000, M + 40_000, M + 45_000]);
  });

  it('a trade taken after its minute was emitted elsewhere has the minute stored again from the store', async () => {
    let now = M;
    const stored: TradePrint[] = [];
    const claims = new FirstWins();
    const bars: BarRow[] = [];
    const make = () =>
      new LiveAggregator({
        now: () => now, graceMs: 1000, retainMs: 300_000,
        emit: () => undefined,
        storeMinuteBars: async (b) => void bars.push(...b),
        storeFuturesMinuteBars: async () => undefined,
        onError: (err) => { throw err; },
        shared: { claims, storedPrints: async () => [...stored] },
      });
    const a = make();
    const b = make();
    stored.push({ t_ns: BigInt(M + 100) * 1_000_000n, price: 10, size: 100 });
    a.add([trade(1, M + 100, 10, 100)]);
    now = M + 61_500;
    a.tick();
    await new Promise((r) => setTimeout(r, 10));
    // b takes a trade of that minute once it was due: a has already read the store
    stored.push({ t_ns: BigInt(M + 30_000) * 1_000_000n, price: 11, size: 20 });
    b.add([trade(2, M + 30_000, 11, 20)]);
    b.tick();
    await a.close();
    await b.close();
    expect(bars.map((r) => [r.t, r.v, r.n])).toEqual([[M, 100, 1], [M, 120, 2]]);
  });
});
