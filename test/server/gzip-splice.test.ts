// Cached answers gzipped from pieces compressed once: whatever the bytes spliced between them,
// every gzip decoder must read back exactly head + spliced bytes + tail, CRC and length checked.
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32, crc32Combine, gzipPieces, splicedGzip, tableCrc32 } from '../../src/server/gzip-splice.js';

describe('spliced gzip', () => {
  it('decodes to head, spliced bytes and tail for any of them', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 5000 }), (head, middle, tail) => {
        const h = Buffer.from(head);
        const m = Buffer.from(middle);
        const t = Buffer.from(tail);
        const body = splicedGzip(gzipPieces(h, t), m);
        expect(gunzipSync(body).equals(Buffer.concat([h, m, t]))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('splices request ids into a large JSON page compressed once', () => {
    const items = Array.from({ length: 3000 }, (_, i) => `{"ticker":"T${i}","name":"Company ${i} — Société","price":${i * 1.25}}`).join(',');
    const head = Buffer.from('{"status":"OK","request_id":"');
    const tail = Buffer.from(`","results":[${items}]}`);
    const pieces = gzipPieces(head, tail);
    for (const id of ['a1b2c3', 'ffffffffffffffffffffffffffffffff']) {
      const body = JSON.parse(gunzipSync(splicedGzip(pieces, Buffer.from(id))).toString('utf8'));
      expect(body.request_id).toBe(id);
      expect(body.results).toHaveLength(3000);
    }
    expect(pieces.tail.length).toBeLessThan(tail.length / 4); // compressed, not stored
  });

  it('refuses spliced bytes over one stored block', () => {
    const pieces = gzipPieces(Buffer.from('a'), Buffer.from('b'));
    expect(() => splicedGzip(pieces, Buffer.alloc(70_000))).toThrow(RangeError);
  });

  it("combines CRCs as the CRC of the joined bytes, and agrees with zlib's CRC", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.uint8Array({ maxLength: 2000 }), (a, b) => {
        const joined = Buffer.concat([a, b]);
        expect(crc32Combine(tableCrc32(a), tableCrc32(b), b.length)).toBe(tableCrc32(joined));
        expect(crc32(joined)).toBe(tableCrc32(joined));
      }),
      { numRuns: 300 },
    );
    expect(tableCrc32(Buffer.from('123456789'))).toBe(0xcbf43926); // the CRC-32 check value
  });
});
