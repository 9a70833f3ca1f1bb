// Trades and quotes of a ticker kept in memory whole, newest first. Pages of v3 trades and quotes
// read anew (up to other instants, or walked with cursors) each have the store walk its index and
// write every tick as JSON (about 30 ms of CPU for 12,000 trades on SQLite). A ticker with few
// enough ticks is instead kept as the JSON items the store writes, joined in one buffer, with
// where each item ends and its position (time, sequence number, store key), so a descending page
// is one slice found by binary search. A list is read after a second page of its ticker was read
// from the store, off that request's path; it is used while the ticker's data version (the import
// version and the ticker's live writes: live-versions.ts) stays where it was before the read, so
// the feed's trades of other tickers leave it be, within a byte budget (a list larger than the whole budget is not kept),
// the least recently asked ticker going first. Ascending pages, and tickers with more ticks than a
// list takes, go to the store as before.
import type { TickJsonPage, TickListItems, TickRange, TradeJsonForm } from '../store/repos/market-port.js';

/** Default budget of the kept lists: 16 MiB, about 70,000 trades (some 230 bytes each with their positions). */
export const DEFAULT_TICK_LISTS_BYTES = 16 * 2 ** 20;
/** Tickers with more ticks than this are never kept: a liquid stock trades millions of times a day. */
export const MAX_LIST_ROWS = 100_000;
/** Tickers whose store reads are counted at once; past it the count starts over. */
const MAX_COUNTED = 10_000;
/** What a kept list costs beyond its bytes (objects, map entry), for the budget. */
const LIST_OVERHEAD = 128;

/** Trades in one of their forms, or quotes. */
export type TickListForm = TradeJsonForm | 'quotes';

/** The store's read the kept lists need. */
export interface TickListSource {
  readTickList(ticker: string, form: TickListForm, maxRows: number): Promise<TickListItems | undefined>;
}

/** A ticker's ticks, newest first: items joined by commas, where item i ends (exclusive), its position. */
interface List {
  items: Buffer;
  ends: Uint32Array;
  ts: BigInt64Array;
  seq: BigInt64Array;
  pk: BigInt64Array;
}

function listOf(read: TickListItems): List {
  const n = read.count;
  const ends = new Uint32Array(n);
  const ts = new BigInt64Array(n);
  const seq = new BigInt64Array(n);
  const pk = new BigInt64Array(n);
  if (n === 0) return { items: read.items, ends, ts, seq, pk };
  const lengths = read.lengths.split(',');
  const keys = read.keys.split(',');
  if (lengths.length !== n || keys.length !== n) throw new Error(`tick list: ${n} ticks but ${lengths.length} lengths and ${keys.length} positions`);
  let at = 0;
  for (let i = 0; i < n; i++) {
    ends[i] = at + Number(lengths[i]);
    at = ends[i]! + 1; // past the comma
    const [t, s, k] = keys[i]!.split(':');
    ts[i] = BigInt(t!);
    seq[i] = BigInt(s!);
    pk[i] = BigInt(k!);
  }
  if (ends[n - 1] !== read.items.length) throw new Error(`tick list: items of ${read.items.length} bytes, lengths sum to ${ends[n - 1]}`);
  return { items: read.items, ends, ts, seq, pk };
}

const cost = (l: List) => l.items.length + l.ends.byteLength + 3 * l.ts.byteLength + LIST_OVERHEAD;

/** The first index whose tick is older than time `t` (the list is newest first). */
function firstBefore(l: List, t: bigint): number {
  let lo = 0;
  let hi = l.ts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (l.ts[mid]! >= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index whose position comes after `(t, s, k)` in the list's order (time, sequence, key, all descending). */
function firstAfter(l: List, t: bigint, s: bigint, k: bigint): number {
  let lo = 0;
  let hi = l.ts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const mt = l.ts[mid]!;
    const notPast = mt > t || (mt === t && (l.seq[mid]! > s || (l.seq[mid] === s && l.pk[mid]! >= k)));
    if (notPast) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const formName = (form: TickListForm) => (form === 'quotes' ? 'q' : `t${form.crypto ? 1 : 0}${form.decimalSize ? 1 : 0}`);

export class TickLists {
  /** Kept lists by `form:ticker` with the ticker's version they were read at, least recently asked first; null: too many ticks to keep. */
  private readonly lists = new Map<string, { list: List | null; version: string }>();
  private readonly loading = new Map<string, Promise<void>>();
  /** Pages read from the store, by `form:ticker`, at the ticker's version then. */
  private readonly storeReads = new Map<string, { n: number; version: string }>();
  private heldBytes = 0;

  constructor(
    private readonly source: TickListSource,
    /** The version of a ticker's ticks: moves whenever they may have changed. */
    private readonly currentVersion: (ticker: string) => string,
    readonly maxBytes = DEFAULT_TICK_LISTS_BYTES,
    private readonly maxRows = MAX_LIST_ROWS,
  ) {}

  /** Bytes held by the kept lists. */
  get bytes(): number {
    return this.heldBytes;
  }

  /**
   * The page readTradesJsonPage (or readQuotesJsonPage) would give for `range` from the ticker's
   * kept list; undefined when none is kept at the ticker's current version or the page is
   * ascending, and the store then reads it.
   */
  page(range: TickRange, form: TickListForm): TickJsonPage | undefined {
    if (range.order !== 'desc' || range.gt !== undefined || range.lte !== undefined) return undefined;
    const name = `${formName(form)}:${range.ticker}`;
    const kept = this.current(name, range.ticker);
    const list = kept?.list;
    if (!list) return undefined;
    this.lists.delete(name); // to the newest end
    this.lists.set(name, kept!);
    let start = range.lt === undefined ? 0 : firstBefore(list, range.lt);
    if (range.after) start = Math.max(start, firstAfter(list, BigInt(range.after.ts), BigInt(range.after.seq), BigInt(range.after.pk)));
    const end = range.gte === undefined ? list.ts.length : firstBefore(list, range.gte);
    const take = Math.max(0, Math.min(end - start, range.limit - 1));
    if (take === 0) return { items: Buffer.alloc(0), count: 0, fromMemory: true };
    const last = start + take - 1;
    const page: TickJsonPage = { items: list.items.subarray(start === 0 ? 0 : list.ends[start - 1]! + 1, list.ends[last]!), count: take, fromMemory: true };
    if (start + take < end) page.next = { ts: String(list.ts[last]), seq: String(list.seq[last]), pk: String(list.pk[last]) };
    return page;
  }

  /**
   * Tells that a page of the ticker was read from the store. The second such page at one version
   * of the ticker has its list read (want): a ticker whose ticks change every second (live
   * publishing) would otherwise have its list read after nearly every page, and found outdated
   * before its next one.
   */
  readFromStore(ticker: string, form: TickListForm): void {
    const version = this.currentVersion(ticker);
    const name = `${formName(form)}:${ticker}`;
    const seen = this.storeReads.get(name);
    const n = seen?.version === version ? seen.n + 1 : 1;
    if (this.storeReads.size >= MAX_COUNTED) this.storeReads.clear();
    this.storeReads.set(name, { n, version });
    if (n >= 2) void this.want(ticker, form);
  }

  /**
   * Reads the ticker's list unless it is kept, being read, or known too large at its current
   * version; the returned promise (also for a read already under way) settles once it is done.
   */
  want(ticker: string, form: TickListForm): Promise<void> {
    const version = this.currentVersion(ticker); // before the read: a write meanwhile moves it
    const name = `${formName(form)}:${ticker}`;
    if (this.current(name, ticker) !== undefined) return Promise.resolve();
    const under = this.loading.get(name);
    if (under) return under;
    const done = this.source.readTickList(ticker, form, this.maxRows).then(
      (read) => {
        if (version !== this.currentVersion(ticker)) return;
        const list = read === undefined ? null : listOf(read);
        this.keep(name, list !== null && cost(list) > this.maxBytes ? null : list, version);
      },
      () => undefined, // the store answers meanwhile; a later page asks again
    );
    const settled = done.finally(() => {
      if (this.loading.get(name) === settled) this.loading.delete(name);
    });
    this.loading.set(name, settled);
    return settled;
  }

  /** The kept list of `name` if it was read at the ticker's current version; an outdated one is dropped. */
  private current(name: string, ticker: string): { list: List | null; version: string } | undefined {
    const kept = this.lists.get(name);
    if (kept === undefined) return undefined;
    if (kept.version === this.currentVersion(ticker)) return kept;
    this.drop(name);
    return undefined;
  }

  private drop(name: string): void {
    const kept = this.lists.get(name);
    if (kept?.list) this.heldBytes -= cost(kept.list);
    this.lists.delete(name);
  }

  private keep(name: string, list: List | null, version: string): void {
    this.drop(name);
    this.lists.set(name, { list, version });
    if (list) this.heldBytes += cost(list);
    for (const [oldest, kept] of this.lists) {
      if (this.heldBytes <= this.maxBytes) break;
      if (kept.list) this.heldBytes -= cost(kept.list);
      this.lists.delete(oldest);
    }
  }
}
