// The 'native' serializer: JSON.stringify with pre-written JSON spliced in where the body holds
// JsonItems, JsonArray or JoinedJsonItems. A body whose spliced JSON is bytes comes out as one
// buffer; every form must parse to the body an object-by-object serialization would give.
import { describe, expect, it } from 'vitest';
import { JoinedJsonItems, JsonArray, JsonItems, envelope, nativeJson } from '../../src/server/serializer.js';

const ITEMS = [{ ticker: 'A', name: 'Agilent "A" Inc.' }, { ticker: 'É', name: 'Société Générale — 株式 $& $1' }, { ticker: 'Z', name: 'z\u0000z' }];
const JOINED = ITEMS.map((i) => JSON.stringify(i)).join(',');

function body(results: unknown): unknown {
  return envelope(true, { status: 'OK', request_id: 'r1', count: ITEMS.length, results, next_url: 'http://h/v3/x?cursor=abc' }, true);
}
const WANT = { ok: true, data: { status: 'OK', request_id: 'r1', count: 3, results: ITEMS, next_url: 'http://h/v3/x?cursor=abc' } };

describe('nativeJson', () => {
  it('splices joined items given as bytes into one buffer', () => {
    const out = nativeJson(body(new JoinedJsonItems(Buffer.from(JOINED), ITEMS.length)));
    expect(Buffer.isBuffer(out)).toBe(true);
    expect(JSON.parse(out.toString())).toEqual(WANT);
  });

  it('writes text when every spliced value is text', () => {
    for (const results of [new JoinedJsonItems(JOINED, 3), new JsonItems(ITEMS.map((i) => JSON.stringify(i))), new JsonArray(`[${JOINED}]`, 3)]) {
      const out = nativeJson(body(results));
      expect(typeof out).toBe('string');
      expect(JSON.parse(out as string)).toEqual(WANT);
    }
  });

  it('writes an empty page as an empty array', () => {
    const out = nativeJson({ count: 0, results: new JoinedJsonItems(Buffer.alloc(0), 0) });
    expect(JSON.parse(out.toString())).toEqual({ count: 0, results: [] });
  });

  it('splices several values of one body, each in its place', () => {
    const out = nativeJson({ a: new JoinedJsonItems(Buffer.from('1,2'), 2), b: 'x', c: new JsonArray('[3]', 1) });
    expect(JSON.parse(out.toString())).toEqual({ a: [1, 2], b: 'x', c: [3] });
  });
});
