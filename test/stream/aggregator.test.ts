// One process's live bars: trades of several tickers interleaved and out of order within their
// windows, over several publishes, make the bars REST makes of the same trades.
import { describe, expect, it } from 'vitest';
import { barsFromTrades } from '../../src/domain/bars.js';
import type { BarRow, TradeRow } from '../../src/domain/market-records.js';
import { LiveAggregator } from '../../src/stream/aggregator.js';
import type { WireEvent } from '../../src/stream/json.js';

const M = 1_749_825_000_000;

function trade(ticker: string, ms: number, price: number, size: number): TradeRow {
  return { ticker, sip_timestamp: BigInt(ms) * 1_000_000n, price, size, exchange: 4 } as TradeRow;
}

describe('live bars of one process', () => {
  it('bars of interleaved tickers, trades out of order and across publishes, equal the aggregates of the same trades', async () => {
    let now = M;
    const emitted: WireEvent[] = [];
    const stored: BarRow[] = [];
    const agg = new LiveAggregator({
      now: () => now, graceMs: 1000, retainMs: 300_000,
      emit: (events) => emitted.push(...events),
      storeMinuteBars: async (b) => void stored.push(...b),
      storeFuturesMinuteBars: async () => {},
      onError: (err) => {
        throw err;
      },
    });
    const all: TradeRow[] = [];
    // second 1 and 2 of the minute, each ticker's trades alternating with the other's, a straggler of second 1 after second 2
    const publishes = [
      [trade('AA', M + 1_000, 10, 100), trade('BB', M + 1_100, 20, 5), trade('AA', M + 1_500, 11, 50), trade('BB', M + 2_100, 21, 7)],
      [trade('AA', M + 2_200, 9, 10), trade('AA', M + 1_900, 12, 1), trade('BB', M + 1_200, 19, 3)],
      [trade('AA', M + 61_000, 13, 2)],
    ];
    for (const batch of publishes) {
      agg.add(batch);
      all.push(...batch);
    }
    now = M + 122_000;
    agg.tick();
    await agg.close();
    for (const ticker of ['AA', 'BB']) {
      const prints = all.filter((t) => t.ticker === ticker).map((t) => ({ t_ns: t.sip_timestamp, price: t.price, size: t.size }));
      const seconds = emitted.filter((e) => e.ev === 'A' && e.sym === ticker).map((e) => [e.s, e.o, e.h, e.l, e.c, e.v]);
      expect(seconds).toEqual(barsFromTrades(prints, 'second', 'UTC').map((b) => [b.t, b.o, b.h, b.l, b.c, b.v]));
      const minutes = stored.filter((b) => b.ticker === ticker).map((b) => [b.t, b.o, b.h, b.l, b.c, b.v, b.n]);
      expect(minutes).toEqual(barsFromTrades(prints, 'minute', 'UTC').map((b) => [b.t, b.o, b.h, b.l, b.c, b.v, b.n]));
    }
    expect(stored.find((b) => b.ticker === 'AA' && b.t === M)).toMatchObject({ o: 10, c: 9, h: 12, l: 9, v: 161, n: 4 });
  });
});
