// The relay recorder's reading of frames: runs gathered by size and by time (a frame never
// split), and the same rows, bars, refusals and tickers whether read on the recorder's thread or
// on the event loop, in the order the frames came, with sequence numbers past 2^53 exact.
import { afterEach, describe, expect, it } from 'vitest';
import type { QuoteRow, TradeRow } from '../../src/domain/market-records.js';
import { unpackTicks } from '../../src/store/live-writes.js';
import { FrameReader, type RunResult } from '../../src/stream/relay/frame-reader.js';
import type { RelayedFrame } from '../../src/stream/relay/record-batch.js';
import { RunGatherer } from '../../src/stream/relay/run-gatherer.js';

const readers: FrameReader[] = [];
afterEach(async () => {
  for (const r of readers.splice(0)) await r.close();
});

const frame = (text: string): RelayedFrame => ({ market: 'stocks', text });

describe('relay recorder: runs of frames', () => {
  it('ends a run at the event limit without splitting a frame, and a lone frame after the gathering time', async () => {
    const runs: number[][] = [];
    const g = new RunGatherer(30, 6, (frames) => runs.push(frames.map((f) => f.text.length)));
    const sized = (n: number) => frame('x'.repeat(n));
    g.add(sized(3), 3);
    g.add(sized(3), 3); // reaches 6: ends the run
    g.add(sized(4), 4);
    g.add(sized(4), 4); // 8 would pass 6: the run before ends first
    g.add(sized(9), 9); // larger than the limit alone: a run of its own
    expect(runs).toEqual([[3, 3], [4], [4], [9]]);
    g.add(sized(1), 1);
    expect(runs).toHaveLength(4);
    await new Promise((r) => setTimeout(r, 80));
    expect(runs).toEqual([[3, 3], [4], [4], [9], [1]]);
    g.add(sized(2), 2);
    g.flush();
    expect(runs.at(-1)).toEqual([2]);
  });
});

describe('relay recorder: reading frames', () => {
  const big = 9_007_199_254_740_993n; // 2^53 + 1
  const frames: RelayedFrame[] = [
    frame(`[{"ev":"T","sym":"AAPL","x":4,"i":"1","z":3,"p":190.5,"s":100,"t":1749825067412,"q":${big}},{"ev":"status","status":"success","message":"hi"}]`),
    frame('[{"ev":"Q","sym":"AAPL","bx":4,"bp":190.4,"bs":2,"ax":7,"ap":190.6,"as":3,"t":1749825067413,"q":7,"z":3}]'),
    frame('[{"ev":"T","sym":"MSFT","p":"not a price","s":1,"t":1749825067414}]'),
    frame('[{"ev":"AM","sym":"AAPL","o":1,"h":2,"l":0.5,"c":1.5,"v":1000,"vw":1.2,"z":100,"s":1749825060000,"e":1749825120000}]'),
    frame('[{"ev":"T","sym":"MSFT","x":11,"i":"2","z":3,"p":420,"s":5,"t":1749825067415,"q":8}]'),
  ];
  const events = [1, 1, 1, 1, 1];

  /** Every run of `frames` read through a reader that ends a run each 2 events. */
  async function readAll(thread: boolean): Promise<RunResult[]> {
    const runs: RunResult[] = [];
    const reader = new FrameReader({ gatherMs: 10_000, maxEvents: 2, thread }, (r) => runs.push(r));
    readers.push(reader);
    frames.forEach((f, i) => reader.add(f, events[i]!));
    reader.flush();
    for (let i = 0; i < 200 && runs.reduce((n, r) => n + r.events, 0) < 5; i++) await new Promise((r) => setTimeout(r, 10));
    return runs;
  }

  function rowsOf(runs: RunResult[]) {
    const trades: TradeRow[] = [];
    const quotes: QuoteRow[] = [];
    const out = { trades, quotes, bars: [] as unknown[], refused: 0, tickers: [] as string[] };
    for (const r of runs) {
      if ('error' in r) throw new Error(r.error);
      const t = unpackTicks(r.batch.ticks);
      trades.push(...(t.trades as TradeRow[]));
      quotes.push(...(t.quotes as QuoteRow[]));
      out.bars.push(...r.batch.bars);
      out.refused += r.batch.refused;
      for (const [, tickers] of r.batch.tickers) out.tickers.push(...tickers);
    }
    return out;
  }

  it('gives the same rows on its thread as on the event loop, in order, integers exact', async () => {
    const onThread = await readAll(true);
    const onLoop = await readAll(false);
    expect(onThread.map((r) => r.events)).toEqual([2, 2, 1]);
    expect(onLoop.map((r) => r.events)).toEqual([2, 2, 1]);
    const a = rowsOf(onThread);
    expect(rowsOf(onLoop)).toEqual(a);
    expect(a.trades.map((t) => [t.ticker, t.sequence_number, t.sip_timestamp])).toEqual([
      ['AAPL', big, 1_749_825_067_412_000_000n],
      ['MSFT', 8n, 1_749_825_067_415_000_000n],
    ]);
    expect(a.quotes.map((q) => [q.ticker, q.bid_price, q.ask_price])).toEqual([['AAPL', 190.4, 190.6]]);
    expect(a.bars).toEqual([{ ticker: 'AAPL', t: 1749825060000, o: 1, h: 2, l: 0.5, c: 1.5, v: 1000, vw: 1.2, n: 10 }]);
    expect(a.refused).toBe(1); // the trade whose price is text
    expect(a.tickers).toEqual(['AAPL', 'AAPL', 'MSFT']);
  });
});
