// The feed's event encoding: exact integers, absent fields left out, non-finite numbers refused,
// and the same text whichever way an event is written (plain events go through JSON.stringify).
import { describe, expect, it } from 'vitest';
import { encodeEvent, parseJsonExact, type WireEvent } from '../../src/stream/json.js';

const enc = (e: Record<string, unknown>) => encodeEvent(e as WireEvent);

describe('encodeEvent', () => {
  it('writes a plain trade as its JSON, keys in order', () => {
    const e = { ev: 'T', sym: 'BRK.A', x: 4, i: '52983525029461', z: 1, p: 612345.5, s: 1, c: [12, 37], t: 1749825067412, q: 0, f: false, n: -0 };
    expect(enc(e)).toBe('{"ev":"T","sym":"BRK.A","x":4,"i":"52983525029461","z":1,"p":612345.5,"s":1,"c":[12,37],"t":1749825067412,"q":0,"f":false,"n":0}');
  });

  it('escapes strings as JSON does, with or without bigints in the event', () => {
    const sym = 'A"B\\C\n\u0001é😀';
    const escaped = '"A\\"B\\\\C\\n\\u0001é😀"';
    expect(enc({ ev: 'T', sym })).toBe(`{"ev":"T","sym":${escaped}}`);
    expect(enc({ ev: 'T', sym, t: 1n })).toBe(`{"ev":"T","sym":${escaped},"t":1}`);
    expect((JSON.parse(enc({ ev: 'T', sym })) as { sym: string }).sym).toBe(sym);
  });

  it('writes nanosecond bigints as exact digits, also inside lists and objects', () => {
    const text = enc({ ev: 'FMV', sym: 'AAPL', t: 1749825067412345678n, l: [1749825067412345679n, 1], o: { t: 1749825067412345680n, s: 'x' } });
    expect(text).toBe('{"ev":"FMV","sym":"AAPL","t":1749825067412345678,"l":[1749825067412345679,1],"o":{"t":1749825067412345680,"s":"x"}}');
    expect(parseJsonExact(text)).toEqual({ ev: 'FMV', sym: 'AAPL', t: 1749825067412345678n, l: [1749825067412345679n, 1], o: { t: 1749825067412345680n, s: 'x' } });
  });

  it('reads every integer of 16 digits or more as a bigint, negative or nested, and leaves shorter ones and digits in strings alone', () => {
    expect(parseJsonExact('[{"q":-1000000000000000,"a":[[9007199254740993]]},{"i":"12345678901234567","t":999999999999999}]')).toEqual([
      { q: -1000000000000000n, a: [[9007199254740993n]] },
      { i: '12345678901234567', t: 999999999999999 },
    ]);
    expect(parseJsonExact('{"p":1.5e20,"s":1000000000000000.5}')).toEqual({ p: 1.5e20, s: 1000000000000000.5 });
  });

  it('leaves out absent fields instead of writing null', () => {
    expect(enc({ ev: 'T', sym: 'AAPL', z: null, p: 1 })).toBe('{"ev":"T","sym":"AAPL","p":1}');
    expect(enc({ ev: 'T', sym: 'AAPL', c: undefined, p: 1 })).toBe('{"ev":"T","sym":"AAPL","p":1}');
  });

  it('refuses a number that is not finite, wherever it is', () => {
    expect(() => enc({ ev: 'T', sym: 'AAPL', p: Number.NaN })).toThrow(/not a finite number/);
    expect(() => enc({ ev: 'T', sym: 'AAPL', c: [1, Infinity] })).toThrow(/not a finite number/);
  });
});
