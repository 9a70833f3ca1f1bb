// Upstream's events reach local subscribers as upstream wrote them: a frame is read without being
// built (accepting exactly the JSON that JSON.parse accepts), cut into its events' own texts
// whatever the spacing and nesting, routed by channel and symbol, and only event objects pass.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchSymbol, symbolKeyOf, type FeedMarket } from '../../src/stream/markets.js';
import { scanFrame } from '../../src/stream/relay/frame-scan.js';
import { relayedEvents } from '../../src/stream/relay/pass-through.js';

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** What the relay must make of a frame, by way of JSON.parse. */
function expected(text: string, market: FeedMarket) {
  const items = JSON.parse(text) as unknown;
  if (!Array.isArray(items)) return [];
  return items.flatMap((e: unknown) => {
    if (e === null || typeof e !== 'object' || Array.isArray(e)) return [];
    const o = e as Record<string, unknown>;
    if (typeof o.ev !== 'string' || o.ev === 'status') return [];
    const s = o[symbolKeyOf(o.ev)];
    return [{ ev: o.ev, symbol: matchSymbol(market, typeof s === 'string' ? s : ''), value: o }];
  });
}

const spacing = fc.constantFrom(undefined, 0, 1, 2, '\t', ' \r\n ');
const name = fc.oneof(fc.constantFrom('T', 'Q', 'AM', 'XT', 'C', 'LULD', 'status'), fc.string({ maxLength: 4 }));
const event = fc.record(
  {
    ev: fc.oneof(name, fc.integer(), fc.constant(null)),
    sym: fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('A"B', 'ü\\x', 'AAPL'), fc.double()),
    pair: fc.constantFrom('BTC-USD', 'X:ETHUSD', 'EUR/USD'),
    p: fc.oneof(fc.constantFrom('EUR/USD', 'C:GBP-USD'), fc.double({ noNaN: true, noDefaultInfinity: true })),
    T: fc.string({ maxLength: 5 }),
    rest: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: [] },
);
const frame = fc.array(fc.oneof({ weight: 4, arbitrary: event }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) }), { maxLength: 8 });

describe('relay pass-through', () => {
  it('accepts exactly the texts JSON.parse accepts: valid, damaged and arbitrary', () => {
    const damaged = fc
      .tuple(fc.jsonValue(), spacing, fc.nat(), fc.constantFrom('', '"', '\\', ',', ']', '}', '[', '{', ':', '-', '0', 'e', '.', ' ', '\u0001', 'tru', 'nul'), fc.nat({ max: 2 }))
      .map(([v, space, at, ch, cut]) => {
        const t = JSON.stringify(v, null, space);
        const k = at % (t.length + 1);
        return t.slice(0, k) + ch + t.slice(k + cut);
      });
    const text = fc.oneof(
      fc.tuple(fc.jsonValue(), spacing).map(([v, s]) => JSON.stringify(v, null, s)),
      damaged,
      fc.string(),
      fc.constantFrom('', ' ', '[1,]', '[01]', '[1.]', '[-]', '["\\u12G4"]', '["\\x"]', '[1e]', '[.5]', '[1]x', '{"a" 1}', '[true false]', '  [ ]  ', '"\t"'),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(scanFrame(t) !== undefined, t).toBe(parses(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives every event object of a frame, with its channel, symbol and own text, as JSON.parse reads them', () => {
    fc.assert(
      fc.property(frame, spacing, fc.constantFrom<FeedMarket>('stocks', 'crypto', 'forex'), (items, space, market) => {
        const text = JSON.stringify(items, null, space);
        const got = relayedEvents(text, market)!;
        const want = expected(text, market);
        expect(got.map((e) => [e.market, e.ev, e.symbol])).toEqual(want.map((e) => [market, e.ev, e.symbol]));
        expect(got.map((e) => JSON.parse(e.json) as unknown)).toEqual(want.map((e) => e.value));
        for (const e of got) expect(e.json).toBe(e.json.trim());
      }),
      { numRuns: 1000 },
    );
  });

  it("passes each event's text exactly as upstream wrote it: long integers, number spellings and escapes intact", () => {
    const first = '{"ev":"T","sym":"AAPL","i":"7","p":100.10,"s":100,"c":[14,41],"t":1765000000000,"q":12345678901234567890}';
    const second = '{ "ev" : "Q", "sym":"A\\"B]", "bp":1e2, "x":{"nested":[1,{"k":"}"}]} }';
    const text = `[${first},\n  ${second}]`;
    const events = relayedEvents(text, 'stocks')!;
    expect(events.map((e) => e.json)).toEqual([first, second]);
    expect(events.map((e) => [e.market, e.ev, e.symbol])).toEqual([
      ['stocks', 'T', 'AAPL'],
      ['stocks', 'Q', 'A"B]'],
    ]);
  });

  it('routes crypto and forex events by their matching spelling of the pair', () => {
    const [xt] = relayedEvents('[{"ev":"XT","pair":"BTC-USD","p":1,"t":1}]', 'crypto')!;
    const [c] = relayedEvents('[{"ev":"C","p":"EUR/USD","a":1,"b":1,"t":1}]', 'forex')!;
    expect([xt!.symbol, c!.symbol]).toEqual(['BTCUSD', 'EURUSD']);
  });

  it('leaves out statuses and anything that is not an event object; a frame that is not JSON is refused', () => {
    const text = '[{"ev":"status","status":"success","message":"subscribed to: T.*"},1,"x",null,[],{"sym":"A"},{"ev":"T","sym":"A","t":1}]';
    expect(relayedEvents(text, 'stocks')!.map((e) => e.json)).toEqual(['{"ev":"T","sym":"A","t":1}']);
    expect(relayedEvents('{"ev":"T"}', 'stocks')).toEqual([]);
    // a repeated key: the last one counts, as JSON.parse reads it
    expect(relayedEvents('[{"ev":"T","sym":"A","ev":1}]', 'stocks')).toEqual([]);
    expect(relayedEvents('[{"ev":"T","sym":"A","sym":{"x":1}},{"sym":"B","ev":"Q","ev":"T"}]', 'stocks')!.map((e) => [e.ev, e.symbol])).toEqual([['T', ''], ['T', 'B']]);
    expect(relayedEvents('[{"ev":"T",', 'stocks')).toBeUndefined();
  });
});
