// Rows sent between threads as columns, one message per batch (to a SQLite file's write thread,
// from the relay's frame reader): a column of numbers or of
// bigints is a typed array whose memory is handed over (transferred, not copied), any other
// column a plain array of its values. Posted as objects, 5,000 trades cost the event loop about
// 10 ms of structured cloning (2 µs a row, and the garbage of the copy) before the thread could
// start; columns of primitives clone without a per-row object.
export interface RowColumns {
  length: number;
  /** Per field: its values by row (undefined where a row has none). */
  columns: Record<string, Float64Array | BigInt64Array | unknown[]>;
}

/**
 * `rows` as columns, and the buffers to transfer with them. Indexed loops over each field's
 * values, no arrays between: a live write thread is sent tens of thousands of rows a second, and
 * this runs on the event loop.
 */
export function toColumns(rows: readonly object[]): { packed: RowColumns; transfer: ArrayBuffer[] } {
  const n = rows.length;
  const keys = new Set<string>();
  for (let i = 0; i < n; i++) for (const k in rows[i]!) keys.add(k);
  const columns: RowColumns['columns'] = {};
  const transfer: ArrayBuffer[] = [];
  for (const k of keys) {
    let numbers = true;
    let bigints = true;
    let absent = true;
    for (let i = 0; i < n && (numbers || bigints || absent); i++) {
      const t = typeof (rows[i] as Record<string, unknown>)[k];
      if (t !== 'number') numbers = false;
      if (t !== 'bigint') bigints = false;
      if (t !== 'undefined') absent = false;
    }
    // a field no row has (a trade's optional times and codes) is not sent: fromColumns leaves it out
    if (absent) continue;
    if (numbers) {
      const a = new Float64Array(n);
      for (let i = 0; i < n; i++) a[i] = (rows[i] as Record<string, number>)[k]!;
      columns[k] = a;
      transfer.push(a.buffer);
    } else if (bigints) {
      const a = new BigInt64Array(n);
      for (let i = 0; i < n; i++) a[i] = (rows[i] as Record<string, bigint>)[k]!;
      columns[k] = a;
      transfer.push(a.buffer);
    } else {
      const values = new Array<unknown>(n);
      for (let i = 0; i < n; i++) values[i] = (rows[i] as Record<string, unknown>)[k];
      columns[k] = values;
    }
  }
  return { packed: { length: n, columns }, transfer };
}

/** The rows of `toColumns` (those from `from` to before `to`), each with the fields it had (a field left undefined is left out). */
export function fromColumns<T>(packed: RowColumns, from = 0, to = packed.length): T[] {
  const entries = Object.entries(packed.columns);
  const rows = new Array<T>(Math.max(0, to - from));
  for (let i = from; i < to; i++) {
    const row: Record<string, unknown> = {};
    for (const [k, col] of entries) {
      const v = col[i];
      if (v !== undefined) row[k] = v;
    }
    rows[i - from] = row as T;
  }
  return rows;
}

/** The rows of one live write (LiveTicks) as columns. */
export interface PackedTicks {
  trades: RowColumns;
  quotes: RowColumns;
  futuresTrades: RowColumns;
  futuresQuotes: RowColumns;
}

/** What `packTicks` packs: a LiveTicks. */
interface TickRows {
  trades: readonly object[];
  quotes: readonly object[];
  futuresTrades: readonly object[];
  futuresQuotes: readonly object[];
}

/** The rows of one live write as columns, and the buffers to transfer with them. */
export function packTicks(ticks: TickRows): { packed: PackedTicks; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  const pack = (rows: readonly object[]) => {
    const { packed, transfer: buffers } = toColumns(rows);
    transfer.push(...buffers);
    return packed;
  };
  return { packed: { trades: pack(ticks.trades), quotes: pack(ticks.quotes), futuresTrades: pack(ticks.futuresTrades), futuresQuotes: pack(ticks.futuresQuotes) }, transfer };
}

/** How many rows a PackedTicks holds. */
export function packedRows(p: PackedTicks): number {
  return p.trades.length + p.quotes.length + p.futuresTrades.length + p.futuresQuotes.length;
}
