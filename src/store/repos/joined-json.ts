// Pages whose rows the engine writes as JSON and joins: the part of a page statement that
// aggregates the rows, and the reading of what it returns.
//
// SQLite joins the whole page into one text handed over as bytes (one buffer, no string). A
// PostgreSQL result arrives as text and the driver makes a string of every value; V8 puts a
// string over 128 KiB in its large-object space, which cost about 1 ms per 280 KB page on the
// development VM against 30 µs for the same text in ten strings. So PostgreSQL joins the page in
// chunks of CHUNK_ROWS rows, one result row each, and the serializer writes the chunks in turn.
import type { SqlDriver } from '../driver.js';
import { toNumber } from '../driver.js';

/** Rows per joined chunk on PostgreSQL: ~30 KB of ticker items, ~20 KB of trades. */
const CHUNK_ROWS = 100;

/**
 * Pages of at least this many rows are long reads (RawRowsOptions.long): on SQLite the statement
 * then runs on the store's reader thread (a 12,000-trade page took 30-40 ms), where smaller ones
 * cost less than the hand-over.
 */
export const LONG_READ_ROWS = 5000;

/** A page's rows as JSON items joined by commas (no brackets): one buffer, or texts or buffers to write in turn with commas between. */
export type JoinedItems = Buffer | readonly (string | Buffer)[];

/**
 * The page branch of a page statement: `kind` 'page', the chunk's number, its rows, its rows
 * whose `filled` column is not null (all rows when not given), the chunk's items joined, and any
 * `more` columns (", max(t) AS at", or NULLs for the other branches' columns), over `rows` (a
 * subquery already in the page's order, which `order` restates by its column names). The column
 * types are those the other branches must match: text, bigint, bigint, bigint, then bytes
 * (SQLite) or text. `object` is evaluated once per row: name it nowhere else in the branch.
 */
export function joinedPageBranch(engine: SqlDriver['engine'], object: string, rows: string, order: string, opts: { filled?: string; more?: string } = {}): string {
  const filled = opts.filled ?? '*';
  const aggregates = opts.more ?? '';
  if (engine === 'sqlite') {
    // The aggregate takes a FROM subquery that has a LIMIT in the subquery's order (SQLite runs
    // it as a co-routine); an ORDER BY inside string_agg would copy every item into a sorter again.
    return `SELECT 'page' AS kind, 0 AS chunk, count(*) AS n, count(${filled}) AS filled, CAST(string_agg(${object}, ',') AS BLOB) AS items${aggregates} FROM ${rows} p`;
  }
  return `SELECT 'page' AS kind, (r - 1) / ${CHUNK_ROWS} AS chunk, count(*) AS n, count(${filled}) AS filled, string_agg(${object}, ',' ORDER BY r) AS items${aggregates}
            FROM (SELECT row_number() OVER (ORDER BY ${order}) AS r, * FROM ${rows} p0) p GROUP BY (r - 1) / ${CHUNK_ROWS}`;
}

/**
 * The key branch of a page statement: the page's last row and the one after it, whose presence
 * says more follow, numbered in the page's order ('key1', 'key2': a window over two rows), with
 * `columns` after the five of joinedPageBranch. `rows` selects them: the page's query with LIMIT 2
 * OFFSET (page size - 1); `order` restates its order by the column names of `rows`.
 */
export function keyRowsBranch(engine: SqlDriver['engine'], columns: string, rows: string, order: string): string {
  return `SELECT 'key' || row_number() OVER (ORDER BY ${order}) AS kind, ${nullPageColumns(engine)}, ${columns} FROM ${rows} k`;
}

/** The key rows of a page statement (keyRowsBranch's), each as its columns after the first five. */
export function pageKeys(rows: readonly unknown[][]): { last?: unknown[]; next?: unknown[] } {
  return { last: rows.find((r) => r[0] === 'key1')?.slice(5), next: rows.find((r) => r[0] === 'key2')?.slice(5) };
}

/** The columns joinedPageBranch's rows have, as NULLs typed for the other branches of the statement. */
function nullPageColumns(engine: SqlDriver['engine']): string {
  return `CAST(NULL AS BIGINT) AS chunk, CAST(NULL AS BIGINT) AS n, CAST(NULL AS BIGINT) AS filled, ${engine === 'sqlite' ? 'CAST(NULL AS BLOB)' : 'CAST(NULL AS TEXT)'} AS items`;
}

/**
 * The page from the rows of a page statement whose first five columns are joinedPageBranch's:
 * its items, rows, and rows whose object was not null.
 */
export function joinedPage(rows: readonly unknown[][]): { items: JoinedItems; count: number; filled: number } {
  const chunks = rows.filter((r) => r[0] === 'page').sort((a, b) => toNumber(a[1] as number) - toNumber(b[1] as number));
  let count = 0;
  let filled = 0;
  for (const c of chunks) {
    count += toNumber(c[2] as number);
    filled += toNumber(c[3] as number);
  }
  const first = chunks[0]?.[4];
  const items: JoinedItems = Buffer.isBuffer(first) ? first : chunks.map((c) => String(c[4] ?? '')).filter((t) => t !== '');
  return { items, count, filled };
}
