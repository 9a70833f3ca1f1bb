// Rows sent to the write thread as columns, one message per batch: a column of numbers or of
// bigints is a typed array whose memory is handed over (transferred, not copied), any other
// column a plain array of its values. Posted as objects, 5,000 trades cost the event loop about
// 10 ms of structured cloning (2 µs a row, and the garbage of the copy) before the thread could
// start; columns of primitives clone without a per-row object.
export interface RowColumns {
  length: number;
  /** Per field: its values by row (undefined where a row has none). */
  columns: Record<string, Float64Array | BigInt64Array | unknown[]>;
}

/** `rows` as columns, and the buffers to transfer with them. */
export function toColumns(rows: readonly object[]): { packed: RowColumns; transfer: ArrayBuffer[] } {
  const keys = new Set<string>();
  for (const row of rows) for (const k in row) keys.add(k);
  const columns: RowColumns['columns'] = {};
  const transfer: ArrayBuffer[] = [];
  for (const k of keys) {
    const values = rows.map((r) => (r as Record<string, unknown>)[k]);
    if (values.every((v) => typeof v === 'number')) {
      const a = Float64Array.from(values as number[]);
      columns[k] = a;
      transfer.push(a.buffer);
    } else if (values.every((v) => typeof v === 'bigint')) {
      const a = BigInt64Array.from(values as bigint[]);
      columns[k] = a;
      transfer.push(a.buffer);
    } else columns[k] = values;
  }
  return { packed: { length: rows.length, columns }, transfer };
}

/** The rows of `toColumns`, each with the fields it had (a field left undefined is left out). */
export function fromColumns<T>(packed: RowColumns): T[] {
  const entries = Object.entries(packed.columns);
  const rows = new Array<T>(packed.length);
  for (let i = 0; i < packed.length; i++) {
    const row: Record<string, unknown> = {};
    for (const [k, col] of entries) {
      const v = col[i];
      if (v !== undefined) row[k] = v;
    }
    rows[i] = row as T;
  }
  return rows;
}
