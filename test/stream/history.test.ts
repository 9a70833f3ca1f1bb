import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BrokerEvent } from '../../src/stream/broker.js';
import { FeedHistory } from '../../src/stream/history.js';
import type { FeedMarket } from '../../src/stream/markets.js';

// The catch-up history keeps batches packed; what a reconnecting client is given must be exactly
// the kept events of its market and topics after its last time, in publish order.

const MARKETS: FeedMarket[] = ['stocks', 'crypto'];
const EVS = ['T', 'Q', 'AM'];
const SYMBOLS = ['AAPL', 'MSFT', 'O:AAPL251219C00150000'];

const event = fc.record({ market: fc.constantFrom(...MARKETS), ev: fc.constantFrom(...EVS), symbol: fc.constantFrom(...SYMBOLS), t: fc.integer({ min: 0, max: 50 }), note: fc.string({ maxLength: 6 }) });

function brokerEvent(e: { market: FeedMarket; ev: string; symbol: string; t: number; note: string }): BrokerEvent {
  // the symbol comes cut out of a longer text, as a frame scan gives it
  const frame = `${'x'.repeat(40)}${e.symbol}`;
  const symbol = frame.slice(40);
  const time = e.ev === 'AM' ? { s: e.t } : { t: e.t };
  return { market: e.market, ev: e.ev, symbol, json: JSON.stringify({ ev: e.ev, sym: e.symbol, ...time, n: e.note }) };
}

describe('the catch-up history', () => {
  it('gives back the kept events of a market and its topics after a time, in order, as published', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(event, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 12 }),
        fc.constantFrom(...MARKETS),
        fc.subarray(EVS.flatMap((ev) => [...SYMBOLS, '*'].map((symbol) => ({ text: `${ev}.${symbol}`, ev, symbol }))), { minLength: 1 }),
        fc.integer({ min: -1, max: 50 }),
        fc.integer({ min: 1, max: 40 }),
        (batches, market, topics, since, maxEvents) => {
          const history = new FeedHistory({ maxAgeMs: 60_000, maxEvents, now: () => 1_000 });
          const kept: BrokerEvent[][] = [];
          for (const b of batches) {
            const events = b.map(brokerEvent);
            history.append(events);
            kept.push(events);
            // the oldest batches go while more than maxEvents are kept (the newest batch always stays)
            while (kept.length > 1 && kept.reduce((n, k) => n + k.length, 0) > maxEvents) kept.shift();
          }
          const matching = kept.flat().filter((e) => e.market === market && topics.some((t) => t.ev === e.ev && (t.symbol === '*' || t.symbol === e.symbol)));
          const timeOf = (e: BrokerEvent) => {
            const o = JSON.parse(e.json) as { t?: number; s?: number };
            return o.t ?? o.s!;
          };
          const got = history.since(market, topics, since);
          expect(got.events).toEqual(matching.filter((e) => timeOf(e) > since).map((e) => e.json));
          expect(got.complete).toBe(matching.some((e) => timeOf(e) <= since));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('puts older batches from the bus before its own, without keeping an event twice, and forgets batches past their age', () => {
    let now = 10_000;
    const history = new FeedHistory({ maxAgeMs: 5_000, maxEvents: 1_000, now: () => now });
    const e = (t: number, sym = 'AAPL'): BrokerEvent => ({ market: 'stocks', ev: 'T', symbol: sym, json: `{"ev":"T","sym":"${sym}","t":${t}}` });
    history.append([e(3), e(4)]);
    history.seed([
      { at: 4_000, events: [e(0)] }, // older than 5 s: not kept
      { at: 8_000, events: [e(1), e(2), e(3)] },
    ]);
    const all = [{ text: 'T.*', ev: 'T', symbol: '*' }];
    expect(history.since('stocks', all, 0).events).toEqual([e(1), e(2), e(3), e(4)].map((x) => x.json));
    now = 14_500; // the seeded batch (at 8,000) is past its age; the appended one (at 10,000) is not
    expect(history.since('stocks', all, 0).events).toEqual([e(3), e(4)].map((x) => x.json));
    expect(history.since('crypto', all, 0).events).toEqual([]);
  });
});
