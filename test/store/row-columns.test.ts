// Rows sent to the SQLite write thread as columns come back as the same rows: numbers, bigints
// (exact ns timestamps), strings, arrays, and fields some rows leave out.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromColumns, toColumns } from '../../src/store/row-columns.js';

const row = fc.record(
  {
    ticker: fc.string(),
    sip_timestamp: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    price: fc.double({ noNaN: true }),
    size: fc.oneof(fc.integer(), fc.bigInt({ min: 0n, max: 2n ** 62n })),
    id: fc.string(),
    conditions: fc.array(fc.integer()),
  },
  { requiredKeys: ['ticker'] },
);

describe('row columns', () => {
  it('gives back the rows it was given, field for field, the typed columns as transferable buffers', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 30 }), (rows) => {
        const { packed, transfer } = toColumns(rows);
        expect(fromColumns(structuredClone(packed, { transfer }))).toEqual(rows);
      }),
    );
  });
});
