// The ticker list in memory: apps page through the whole list (often at every start), and a page
// read by the store costs a walk of the index and a copy of every item (about 0.5 ms for 1,000
// tickers on SQLite, more on PostgreSQL). Each list of current tickers (active or not, one market
// or all) is kept as its stored list items joined in one buffer, in the list's order, with the
// byte offset where each item starts, so a page sorted by ticker is a slice of that buffer found
// by binary search. A list is read again, off the request path, when the tickers version moves;
// until then, and for every other shape of request (a date, a search, other filters or sort
// fields), pages are read by the store as before.
import type { Market } from '../store/records.js';
import type { CurrentTickerItems, TickerItemsPage, TickerQuery } from '../store/repos/reference.js';

/** Lists of more current tickers than this are not kept (each row costs its item, ~300 bytes). */
export const MAX_INDEXED_TICKERS = 100_000;

/** One list, ascending by (ticker, id), as of one tickers version. */
class TickerList {
  readonly tickers: string[];
  readonly ids: number[];
  private readonly asc: JoinedRows;
  private desc?: JoinedRows;

  constructor(
    readonly version: string,
    rows: CurrentTickerItems['rows'],
  ) {
    this.tickers = rows.map((r) => r.ticker);
    this.ids = rows.map((r) => r.id);
    this.asc = joinRows(rows);
  }

  get length(): number {
    return this.ids.length;
  }

  /** The items joined in `order` (the descending form is built on its first use). */
  items(order: 'asc' | 'desc'): JoinedRows {
    if (order === 'asc') return this.asc;
    this.desc ??= reversed(this.asc);
    return this.desc;
  }
}

/** Items joined by commas, and where item i starts (starts[n] is one past the end plus a comma). */
interface JoinedRows {
  bytes: Buffer;
  starts: Uint32Array;
}

function joinRows(rows: readonly { json: string }[]): JoinedRows {
  const starts = new Uint32Array(rows.length + 1);
  let size = 0;
  for (let i = 0; i < rows.length; i++) {
    starts[i] = size;
    size += Buffer.byteLength(rows[i]!.json) + 1;
  }
  starts[rows.length] = size;
  const bytes = Buffer.allocUnsafe(size);
  for (let i = 0; i < rows.length; i++) {
    bytes.write(rows[i]!.json, starts[i]!);
    bytes[starts[i + 1]! - 1] = 0x2c; // ','
  }
  return { bytes, starts };
}

/** The same items in the opposite order. */
function reversed(j: JoinedRows): JoinedRows {
  const n = j.starts.length - 1;
  const starts = new Uint32Array(n + 1);
  const bytes = Buffer.allocUnsafe(j.bytes.length);
  let at = 0;
  for (let k = 0; k < n; k++) {
    const i = n - 1 - k;
    starts[k] = at;
    at += j.bytes.copy(bytes, at, j.starts[i]!, j.starts[i + 1]!); // the item and its comma
  }
  starts[n] = at;
  return { bytes, starts };
}

/**
 * Compares two texts in the order of their UTF-8 bytes, the order of the store's ticker column
 * (SQLite's BINARY collation, PostgreSQL's "C"). Below U+D800 that is the order of UTF-16 code
 * units, which JavaScript compares; past it the two differ, so those compare as bytes.
 */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x < 0xd800 && y < 0xd800) return x - y;
    return Buffer.compare(Buffer.from(a), Buffer.from(b)); // i may fall inside a surrogate pair
  }
  return a.length - b.length;
}

/** The store's reads the index needs. */
export interface TickerListSource {
  currentTickerItems(active: boolean, market: Market | undefined, maxRows: number): Promise<CurrentTickerItems | undefined>;
}

export class TickerListIndex {
  private readonly lists = new Map<string, TickerList>();
  /** Reads in flight, by list: at most one each. */
  private readonly reading = new Map<string, Promise<void>>();

  constructor(private readonly source: TickerListSource) {}

  /**
   * The page `q` asks for (q.limit is the page size plus one, as the store takes it), from the
   * list kept for `version`; undefined when the request is of another shape or the list is not
   * (yet) kept at that version, in which case a read of it is started.
   */
  page(q: TickerQuery, version: string): TickerItemsPage | undefined {
    if (!servable(q)) return undefined;
    const name = `${q.active ? 1 : 0}:${q.market ?? ''}`;
    const list = this.lists.get(name);
    if (list?.version !== version) {
      this.read(name, q.active, q.market);
      return undefined;
    }
    return pageOf(list, q);
  }

  /** Settles when the reads started so far have ended (for tests and warm-up). */
  async settled(): Promise<void> {
    while (this.reading.size > 0) await Promise.all(this.reading.values());
  }

  private read(name: string, active: boolean, market: Market | undefined): void {
    if (this.reading.has(name)) return;
    const done = this.source
      .currentTickerItems(active, market, MAX_INDEXED_TICKERS)
      .then(
        (found) => {
          if (found) this.lists.set(name, new TickerList(found.version, found.rows));
          else this.lists.delete(name);
        },
        () => {}, // not kept: the store answers the list's pages, and reports its own errors there
      )
      .finally(() => this.reading.delete(name));
    this.reading.set(name, done);
  }
}

/** Requests the lists answer: current tickers in ticker order, bounded by ticker only. */
function servable(q: TickerQuery): boolean {
  return (
    q.sort === 'ticker' &&
    q.date === undefined &&
    q.search === undefined &&
    q.types === undefined &&
    q.exchange === undefined &&
    q.cusip === undefined &&
    q.cik === undefined &&
    (q.after === undefined || (typeof q.after.value === 'string' && typeof q.after.id === 'number'))
  );
}

/** The first index whose (ticker, id) is after (ticker, id) = (t, id) when `inclusive` is false, else at or after. */
function lowerBound(list: TickerList, t: string, id: number, inclusive: boolean): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareUtf8(list.tickers[mid]!, t) || list.ids[mid]! - id;
    if (c < 0 || (c === 0 && !inclusive)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function pageOf(list: TickerList, q: TickerQuery): TickerItemsPage {
  // The rows the filters keep are the ascending range [from, to).
  let from = 0;
  let to = list.length;
  const atLeast = (t: string, inclusive: boolean) => {
    from = Math.max(from, lowerBound(list, t, inclusive ? -Infinity : Infinity, true));
  };
  const below = (t: string, inclusive: boolean) => {
    to = Math.min(to, lowerBound(list, t, inclusive ? Infinity : -Infinity, true));
  };
  if (q.ticker !== undefined) {
    atLeast(q.ticker, true);
    below(q.ticker, true);
  }
  if (q.tickerGt !== undefined) atLeast(q.tickerGt, false);
  if (q.tickerGte !== undefined) atLeast(q.tickerGte, true);
  if (q.tickerLt !== undefined) below(q.tickerLt, false);
  if (q.tickerLte !== undefined) below(q.tickerLte, true);
  if (q.after !== undefined) {
    const at = lowerBound(list, q.after.value as string, q.after.id as number, q.order === 'desc');
    if (q.order === 'asc') from = Math.max(from, at);
    else to = Math.min(to, at);
  }
  const size = q.limit - 1;
  const available = Math.max(0, to - from);
  const count = Math.min(size, available);
  const n = list.length;
  // the page's first and last rows, as ascending indexes
  const first = q.order === 'asc' ? from : to - 1;
  const last = q.order === 'asc' ? from + count - 1 : to - count;
  const joined = list.items(q.order);
  const at = q.order === 'asc' ? first : n - 1 - first; // the first row's place in `joined`
  const items = count === 0 ? Buffer.alloc(0) : joined.bytes.subarray(joined.starts[at]!, joined.starts[at + count]! - 1);
  const page: TickerItemsPage = { items, count, fromMemory: true };
  if (available > size && count > 0) page.next = { value: list.tickers[last]!, id: list.ids[last]! };
  return page;
}
