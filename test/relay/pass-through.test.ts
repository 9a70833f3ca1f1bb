// Upstream's events reach local subscribers as upstream wrote them: a frame is cut into its
// events' own texts (whatever the spacing and nesting), routed by channel and symbol, and only
// event objects pass.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { elementTexts, relayedEvents } from '../../src/stream/relay/pass-through.js';

describe('relay pass-through', () => {
  it('cuts any JSON array into the texts of its elements, however it is spaced', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), fc.constantFrom(undefined, 0, 1, 2, '\t', ' \r\n '), (items, space) => {
        const text = JSON.stringify(items, null, space);
        const texts = elementTexts(text);
        expect(texts.map((t) => JSON.parse(t) as unknown)).toEqual(JSON.parse(text));
        if (space === undefined) expect(texts).toEqual(items.map((v) => JSON.stringify(v)));
        for (const t of texts) expect(t).toBe(t.trim());
      }),
      { numRuns: 300 },
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
    expect(relayedEvents('[{"ev":"T",', 'stocks')).toBeUndefined();
  });
});
