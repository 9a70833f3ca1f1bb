// Trades and quotes of a ticker kept in memory, newest first, as the JSON items the store writes,
// so that a descending page of v3 trades or quotes is a few slices found by binary search instead
// of the store walking its index and writing every tick as JSON (a 50,000-trade page cost 60-130
// ms of CPU on SQLite).
//
// A ticker's list is read after a second page of it was read from the store (off that request's
// path), or for a first page of more than LIST_FOR_PAGE_ROWS ticks: its newest MAX_LIST_ROWS. The
// feed's live writes (services/live-events.ts) do not drop it; each marks the list dirty from the
// earliest time it wrote. The next page asked of that ticker first has the store write again only
// its ticks of that time or later (a handful while the ticker trades live, with the same SQL as
// the rest, so the items are the store's own), which replace the list's ticks from that time on.
// Pages made meanwhile wait for that read, so a page never misses a write made before it was
// asked. Imports and corrections move the store's import version, which drops every list.
//
// A list is a few segments, each its own buffer: the read's ticks cut into chunks of CHUNK_ROWS,
// and the small reads of live ticks in front, merged pairwise as they pile up (each tick is copied
// a few times, never the whole list). Ticks beyond MAX_LIST_ROWS are let go from the oldest end a
// segment at a time, so a ticker trading all day keeps a bounded list; a page reaching past the
// oldest kept tick of such a list goes to the store. Ascending pages go to the store too.
import type { QuoteRow, TradeRow } from '../domain/market-records.js';
import type { TickJsonPage, TickListItems, TickListPart, TickRange, TradeJsonForm } from '../store/repos/market-port.js';
import type { LiveWrite } from './live-events.js';
import { LoopSlices } from './loop-slices.js';

/**
 * Default budget of the kept lists: 64 MiB. A tick costs about 230 bytes with its position, so
 * this holds the newest MAX_LIST_ROWS ticks of four liquid tickers, or hundreds of smaller lists.
 */
export const DEFAULT_TICK_LISTS_BYTES = 64 * 2 ** 20;
/**
 * The newest ticks a list keeps: the largest page (50,000) and the row telling whether more follow,
 * with room for pages starting a little below the newest (a time bound, the next page of a smaller
 * one). About 14 MB for a stock's trades; a liquid stock trades millions of times a day.
 */
export const MAX_LIST_ROWS = 60_000;
/** Ticks in one segment at most: copying or parsing one takes a ms or two. */
export const CHUNK_ROWS = 4096;
/** More segments than this and the two smallest neighbours are merged (pages would be many pieces). */
const MAX_SEGMENTS = 40;
/** A first page of more ticks than this has its ticker's list read and is answered from it. */
const LIST_FOR_PAGE_ROWS = 5000;
/** Tickers whose store reads are counted at once; past it the count starts over. */
const MAX_COUNTED = 10_000;
/** What a kept list costs beyond its segments' bytes (objects, map entry), for the budget. */
const LIST_OVERHEAD = 256;

/** Trades in one of their forms, or quotes. */
export type TickListForm = TradeJsonForm | 'quotes';

/** The store's read the kept lists need. */
export interface TickListSource {
  readTickList(ticker: string, form: TickListForm, maxRows: number, since?: bigint): Promise<TickListItems | undefined>;
}

/** What renews the kept lists: the store's import version (drops them all) and its live writes (extend them). */
export interface TickListFeed {
  importVersion(): string;
  /** Calls the listener after each committed live write; returns the way to stop. */
  listen(listener: (write: LiveWrite) => void): () => void;
}

/**
 * Ticks read together, newest first: their items joined by commas in one buffer, where item i ends
 * (exclusive), its position; the ticks in [start, stop) are the list's (those before start were
 * read again since, those from stop on let go).
 */
interface Segment {
  readonly items: Buffer;
  readonly ends: Uint32Array;
  readonly ts: BigInt64Array;
  readonly seq: BigInt64Array;
  readonly pk: BigInt64Array;
  readonly start: number;
  readonly stop: number;
}

const live = (s: Segment) => s.stop - s.start;
/** Where item i of `s` begins in its buffer. */
const itemStart = (s: Segment, i: number) => (i === 0 ? 0 : s.ends[i - 1]! + 1);
/** The items [from, to) of `s` joined by commas. */
const itemBytes = (s: Segment, from: number, to: number) => s.items.subarray(itemStart(s, from), s.ends[to - 1]!);
const segmentCost = (s: Segment) => s.items.length + s.ends.byteLength + 3 * s.ts.byteLength;

/** A ticker's kept ticks, and what was written since they were read. */
interface Entry {
  readonly importVersion: string;
  /** Newest first; undefined until the first read is done; null: not kept at this import version (a size only JavaScript writes). */
  segments: Segment[] | undefined | null;
  /** Whether the segments hold every tick of the ticker (else only the newest). */
  complete: boolean;
  count: number;
  bytes: number;
  /** Live writes of the ticker noted since the entry was made, and how many of them the segments include. */
  written: number;
  covered: number;
  /** The earliest time written by the writes not yet read, and how many ticks they wrote. */
  dirtyFrom: bigint | undefined;
  dirtyRows: number;
  /** The one read of this list under way. */
  reading: Promise<void> | undefined;
}

const TRADE_FORMS = ['t00', 't01', 't10', 't11'];
const formName = (form: TickListForm) => (form === 'quotes' ? 'q' : `t${form.crypto ? 1 : 0}${form.decimalSize ? 1 : 0}`);
const tradeTime = (r: TradeRow) => r.sip_timestamp;
// the time quotes are stored, ordered and filtered on (store/repos/market.ts: writeQuote)
const quoteTime = (r: QuoteRow) => r.sip_timestamp ?? r.participant_timestamp;

/**
 * Reads the decimal integers of a text one after the other (`-1` included), each ended by any
 * other character, without cutting the text into strings (60,000 positions split into strings
 * and parsed took about twice as long and left that many strings for the collector).
 */
class DecimalReader {
  private at = 0;

  constructor(private readonly text: string) {}

  /** The next integer as a number (exact below 2^53: lengths). */
  number(): number {
    let v = 0;
    for (let c = this.text.charCodeAt(this.at); c >= 48 && c <= 57; c = this.text.charCodeAt(++this.at)) v = v * 10 + (c - 48);
    this.at++; // the separator
    return v;
  }

  /** The next integer as a 64-bit one: its digits taken as two numbers of at most 10 and 9 digits. */
  bigint(): bigint {
    const negative = this.text.charCodeAt(this.at) === 45; // '-'
    if (negative) this.at++;
    const from = this.at;
    let to = from;
    for (let c = this.text.charCodeAt(to); c >= 48 && c <= 57; c = this.text.charCodeAt(++to));
    const cut = Math.max(from, to - 9);
    let hi = 0;
    let lo = 0;
    for (let i = from; i < cut; i++) hi = hi * 10 + (this.text.charCodeAt(i) - 48);
    for (let i = cut; i < to; i++) lo = lo * 10 + (this.text.charCodeAt(i) - 48);
    this.at = to + 1;
    const v = hi === 0 ? BigInt(lo) : BigInt(hi) * 1_000_000_000n + BigInt(lo);
    return negative ? -v : v;
  }

  get done(): boolean {
    return this.at >= this.text.length;
  }
}

/** Rows parsed between two looks at the slice clock. */
const ROWS_PER_LOOK = 256;

/** The ticks of `read` (positions parsed) cut into segments of chunkRows, the loop let go when a slice is due. */
async function segmentsOf(read: TickListItems, chunkRows: number, slices: LoopSlices): Promise<Segment[]> {
  const out: Segment[] = [];
  for (const part of read.parts) {
    await partSegments(part, chunkRows, slices, out);
    await slices.pass();
  }
  return out;
}

/** The ticks of one part of a read, cut into segments of chunkRows, added to `out`. */
async function partSegments(part: TickListPart, chunkRows: number, slices: LoopSlices, out: Segment[]): Promise<void> {
  const n = part.count;
  if (n === 0) return;
  // text (PostgreSQL's) becomes bytes here, a part at a time; each chunk of them is a copy of its own,
  // so that letting the oldest chunks go frees their memory, unless the part is one chunk
  const items = typeof part.items === 'string' ? Buffer.from(part.items) : part.items;
  const own = typeof part.items === 'string' && n <= chunkRows;
  const lengths = new DecimalReader(part.lengths);
  const keys = new DecimalReader(part.keys);
  let at = 0; // where the chunk's first item begins in items
  for (let from = 0; from < n; from += chunkRows) {
    const rows = Math.min(chunkRows, n - from);
    const ends = new Uint32Array(rows);
    const ts = new BigInt64Array(rows);
    const seq = new BigInt64Array(rows);
    const pk = new BigInt64Array(rows);
    let end = 0;
    for (let i = 0; i < rows; i++) {
      end += lengths.number();
      ends[i] = end;
      end += 1; // past the comma
      ts[i] = keys.bigint();
      seq[i] = keys.bigint();
      pk[i] = keys.bigint();
      if (i % ROWS_PER_LOOK === ROWS_PER_LOOK - 1) await slices.pass();
    }
    const bytes = ends[rows - 1]!;
    if (at + bytes > items.length) throw new Error(`tick list: items of ${items.length} bytes, lengths sum past them`);
    out.push({ items: own ? items : Buffer.from(items.subarray(at, at + bytes)), ends, ts, seq, pk, start: 0, stop: rows });
    at += bytes + 1;
    await slices.pass();
  }
  if (at - 1 !== items.length || !lengths.done || !keys.done) throw new Error(`tick list: ${n} ticks do not match their lengths and positions`);
}

/** One segment holding the live ticks of `a` then those of `b` (a's all newer). */
function joinSegments(a: Segment, b: Segment): Segment {
  const na = live(a);
  const nb = live(b);
  const aBytes = itemBytes(a, a.start, a.stop);
  const bBytes = itemBytes(b, b.start, b.stop);
  const items = Buffer.allocUnsafe(aBytes.length + 1 + bBytes.length);
  aBytes.copy(items, 0);
  items[aBytes.length] = 0x2c; // ','
  bBytes.copy(items, aBytes.length + 1);
  const ends = new Uint32Array(na + nb);
  const aFrom = itemStart(a, a.start);
  for (let i = 0; i < na; i++) ends[i] = a.ends[a.start + i]! - aFrom;
  const bFrom = itemStart(b, b.start);
  const shift = aBytes.length + 1;
  for (let i = 0; i < nb; i++) ends[na + i] = b.ends[b.start + i]! - bFrom + shift;
  const joined = (x: BigInt64Array, y: BigInt64Array) => {
    const out = new BigInt64Array(na + nb);
    out.set(x.subarray(a.start, a.stop), 0);
    out.set(y.subarray(b.start, b.stop), na);
    return out;
  };
  return { items, ends, ts: joined(a.ts, b.ts), seq: joined(a.seq, b.seq), pk: joined(a.pk, b.pk), start: 0, stop: na + nb };
}

/**
 * Merges the front segments while the first is as large as the second (as a binary counter does)
 * and together they fit a chunk, and any two when there are too many.
 */
function compact(segments: Segment[], chunkRows: number): Segment[] {
  const out = segments.filter((s) => live(s) > 0);
  while (out.length >= 2 && live(out[0]!) >= live(out[1]!) && live(out[0]!) + live(out[1]!) <= chunkRows) out.splice(0, 2, joinSegments(out[0]!, out[1]!));
  while (out.length > MAX_SEGMENTS) {
    let best = 0;
    for (let i = 1; i + 1 < out.length; i++) if (live(out[i]!) + live(out[i + 1]!) < live(out[best]!) + live(out[best + 1]!)) best = i;
    out.splice(best, 2, joinSegments(out[best]!, out[best + 1]!));
  }
  return out;
}

/** The first index in [s.start, s.stop) for which `past` holds (false, then true along the segment); s.stop when none. */
function firstPast(s: Segment, past: (s: Segment, i: number) => boolean): number {
  let lo = s.start;
  let hi = s.stop;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (past(s, mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The list's index (over all segments) of the first tick for which `past` holds; the count when none. */
function indexPast(segments: readonly Segment[], past: (s: Segment, i: number) => boolean): number {
  let base = 0;
  for (const s of segments) {
    if (!past(s, s.stop - 1)) {
      base += live(s);
      continue;
    }
    return base + firstPast(s, past) - s.start;
  }
  return base;
}

/** The first tick older than time t (the list is newest first). */
const olderThan = (t: bigint) => (s: Segment, i: number) => s.ts[i]! < t;

/** The first tick after position (t, sq, k) in the list's order (time, sequence, key, all descending). */
const after = (t: bigint, sq: bigint, k: bigint) => (s: Segment, i: number) => {
  const mt = s.ts[i]!;
  return mt < t || (mt === t && (s.seq[i]! < sq || (s.seq[i] === sq && s.pk[i]! < k)));
};

/** The segments without their ticks of time `t` or later. */
function olderPart(segments: readonly Segment[], t: bigint): Segment[] {
  const out: Segment[] = [];
  for (const s of segments) {
    if (s.ts[s.stop - 1]! >= t) continue; // all of it is newer
    out.push(s.ts[s.start]! >= t ? { ...s, start: firstPast(s, olderThan(t)) } : s);
  }
  return out;
}

export class TickLists {
  /** Kept lists by `form:ticker`, least recently asked first. */
  private readonly lists = new Map<string, Entry>();
  /** Pages read from the store, by `form:ticker`, at the import version then. */
  private readonly storeReads = new Map<string, { n: number; version: string }>();
  private heldBytes = 0;
  private readonly stop: () => void;

  constructor(
    private readonly source: TickListSource,
    private readonly feed: TickListFeed,
    readonly maxBytes = DEFAULT_TICK_LISTS_BYTES,
    private readonly maxRows = MAX_LIST_ROWS,
    /** Ticks in a segment at most (tests make it small). */
    private readonly chunkRows = CHUNK_ROWS,
  ) {
    this.stop = feed.listen((w) => this.noteWrite(w));
  }

  /** Bytes held by the kept lists. */
  get bytes(): number {
    return this.heldBytes;
  }

  close(): void {
    this.stop();
  }

  /**
   * The page readTradesJsonPage (or readQuotesJsonPage) would give for `range` now, from the
   * ticker's kept list (after reading the ticks written since, if any); undefined when no list is
   * kept, the page is ascending or reaches past the oldest kept tick of a list that holds only the
   * newest: the store then reads it.
   */
  async page(range: TickRange, form: TickListForm): Promise<TickJsonPage | undefined> {
    if (range.order !== 'desc' || range.gt !== undefined || range.lte !== undefined) return undefined;
    const name = `${formName(form)}:${range.ticker}`;
    // a page of many ticks has the list read instead: about what the page would cost, and the pages
    // after it are slices (4 connections asking for 50,000 trades each had the store write 4 pages)
    if (this.current(name) === undefined && range.limit > LIST_FOR_PAGE_ROWS && range.after === undefined) void this.want(range.ticker, form);
    const entry = this.current(name);
    if (entry === undefined) return undefined;
    const asked = entry.written; // every write before this page
    while (entry.segments === undefined || entry.covered < asked) {
      await this.update(name, range.ticker, form, entry);
      if (this.current(name) !== entry) return undefined; // dropped meanwhile (an import, a failed read)
    }
    if (entry.segments === null) return undefined;
    this.lists.delete(name); // to the newest end
    this.lists.set(name, entry);
    return pageOf(entry.segments, entry.count, entry.complete, range);
  }

  /**
   * Tells that a page of the ticker was read from the store. The second such page at one import
   * version has its list read (want): a ticker asked once is not worth its list.
   */
  readFromStore(ticker: string, form: TickListForm): void {
    const version = this.feed.importVersion();
    const name = `${formName(form)}:${ticker}`;
    const seen = this.storeReads.get(name);
    const n = seen?.version === version ? seen.n + 1 : 1;
    if (this.storeReads.size >= MAX_COUNTED) this.storeReads.clear();
    this.storeReads.set(name, { n, version });
    if (n >= 2) void this.want(ticker, form);
  }

  /**
   * Reads the ticker's list unless it is kept or being read at the current import version; the
   * returned promise (also for a read already under way) settles once it is done.
   */
  want(ticker: string, form: TickListForm): Promise<void> {
    const name = `${formName(form)}:${ticker}`;
    let entry = this.current(name);
    if (entry === undefined) {
      entry = { importVersion: this.feed.importVersion(), segments: undefined, complete: false, count: 0, bytes: 0, written: 0, covered: 0, dirtyFrom: undefined, dirtyRows: 0, reading: undefined };
      this.lists.set(name, entry);
    }
    return entry.segments === undefined ? this.update(name, ticker, form, entry) : Promise.resolve();
  }

  /**
   * Reads what the entry lacks, one read at a time per list: the whole list first, then the ticks
   * from the earliest time written since (the whole list again when that time is older than the
   * oldest tick of a list holding only the newest).
   */
  private update(name: string, ticker: string, form: TickListForm, entry: Entry): Promise<void> {
    if (entry.reading) return entry.reading;
    const run = async () => {
      const target = entry.written;
      const from = entry.dirtyFrom;
      const rows = entry.dirtyRows;
      entry.dirtyFrom = undefined;
      entry.dirtyRows = 0;
      const kept = entry.segments;
      if (kept === null || (kept !== undefined && from === undefined)) {
        entry.covered = target;
        return;
      }
      let since: bigint | undefined;
      let limit = this.maxRows;
      if (kept !== undefined) {
        const newer = indexPast(kept, olderThan(from!)); // kept ticks of that time or later
        if (newer < entry.count || entry.complete) {
          since = from;
          // the store holds no more of them than those kept and those written (other processes' writes move the import version)
          limit = Math.min(this.maxRows, newer + rows);
        }
      }
      let read = await this.source.readTickList(ticker, form, limit, since);
      if (this.current(name) !== entry) return;
      if (read !== undefined && since !== undefined && !read.complete && limit < this.maxRows) {
        // More ticks from that time on than were kept and noted: writes committed but not yet
        // heard of (publishes are told in arrival order once committed, so a later one can be in
        // the store first). Read them all rather than keep only the newest few.
        read = await this.source.readTickList(ticker, form, this.maxRows, since);
        if (this.current(name) !== entry) return;
      }
      if (read === undefined) {
        this.setSegments(name, entry, null, false);
        entry.covered = target;
        return;
      }
      const fresh = await segmentsOf(read, this.chunkRows, new LoopSlices());
      if (this.current(name) !== entry) return;
      if (since === undefined || kept === undefined) this.setSegments(name, entry, fresh, read.complete);
      else if (!read.complete) this.setSegments(name, entry, fresh, false); // more live ticks than a list keeps
      else this.setSegments(name, entry, [...fresh, ...olderPart(kept, since)], entry.complete);
      entry.covered = target;
    };
    // the store answers meanwhile; a later page asks again
    const reading = run().catch(() => {
      if (this.lists.get(name) === entry) this.drop(name);
    });
    entry.reading = reading.finally(() => {
      entry.reading = undefined;
    });
    return entry.reading;
  }

  /** Notes the ticks a live write stored: the lists of their tickers are read again from their earliest time on. */
  private noteWrite(w: LiveWrite): void {
    if (this.lists.size === 0) return;
    const earliest = new Map<string, { t: bigint; n: number }>();
    const add = (key: string, t: bigint | undefined) => {
      if (t === undefined) return;
      const e = earliest.get(key);
      if (e === undefined) earliest.set(key, { t, n: 1 });
      else {
        if (t < e.t) e.t = t;
        e.n++;
      }
    };
    for (const r of w.trades) add(`t:${r.ticker}`, tradeTime(r));
    for (const r of w.quotes) add(`q:${r.ticker}`, quoteTime(r));
    for (const [key, { t, n }] of earliest) {
      const ticker = key.slice(2);
      for (const form of key[0] === 'q' ? ['q'] : TRADE_FORMS) {
        const entry = this.lists.get(`${form}:${ticker}`);
        if (entry === undefined) continue;
        entry.written++;
        entry.dirtyRows += n;
        if (entry.dirtyFrom === undefined || t < entry.dirtyFrom) entry.dirtyFrom = t;
      }
    }
  }

  /** The entry of `name` if made at the current import version; an outdated one is dropped. */
  private current(name: string): Entry | undefined {
    const entry = this.lists.get(name);
    if (entry === undefined) return undefined;
    if (entry.importVersion === this.feed.importVersion()) return entry;
    this.drop(name);
    return undefined;
  }

  private drop(name: string): void {
    const entry = this.lists.get(name);
    if (entry !== undefined) this.heldBytes -= entry.bytes;
    this.lists.delete(name);
  }

  /** Keeps `segments` (without the ticks past maxRows) as the entry's list, within the byte budget. */
  private setSegments(name: string, entry: Entry, segments: Segment[] | null, complete: boolean): void {
    let list = segments === null ? null : compact(segments, this.chunkRows);
    let count = 0;
    if (list !== null) {
      for (const s of list) count += live(s);
      while (count > this.maxRows) {
        const last = list[list.length - 1]!;
        complete = false;
        if (count - live(last) >= this.maxRows) {
          list.pop();
          count -= live(last);
        } else {
          list[list.length - 1] = { ...last, stop: last.stop - (count - this.maxRows) };
          count = this.maxRows;
        }
      }
    }
    let bytes = LIST_OVERHEAD;
    for (const s of list ?? []) bytes += segmentCost(s);
    if (bytes > this.maxBytes) {
      list = null; // larger than the whole budget
      bytes = LIST_OVERHEAD;
      count = 0;
    }
    this.heldBytes += bytes - entry.bytes;
    entry.segments = list;
    entry.complete = complete;
    entry.count = count;
    entry.bytes = bytes;
    this.lists.delete(name); // to the newest end
    this.lists.set(name, entry);
    for (const [oldest] of this.lists) {
      if (this.heldBytes <= this.maxBytes || oldest === name) break;
      this.drop(oldest);
    }
  }
}

/** The page of `range` from a list of `count` ticks; undefined when it reaches past the oldest kept tick of an incomplete list. */
function pageOf(segments: readonly Segment[], count: number, complete: boolean, range: TickRange): TickJsonPage | undefined {
  let start = range.lt === undefined ? 0 : indexPast(segments, olderThan(range.lt));
  if (range.after) start = Math.max(start, indexPast(segments, after(BigInt(range.after.ts), BigInt(range.after.seq), BigInt(range.after.pk))));
  const end = range.gte === undefined ? count : indexPast(segments, olderThan(range.gte));
  // the end of the range lies beyond the list, which lacks the oldest ticks: only a page with its
  // row after it inside the list is known
  if (!complete && end === count && start + range.limit > count) return undefined;
  const take = Math.max(0, Math.min(end - start, range.limit - 1));
  if (take === 0) return { items: Buffer.alloc(0), count: 0, fromMemory: true };
  const pieces: Buffer[] = [];
  let base = 0;
  let lastAt: { s: Segment; i: number } | undefined;
  for (const s of segments) {
    const from = Math.max(start, base);
    const to = Math.min(start + take, base + live(s));
    if (from < to) {
      pieces.push(itemBytes(s, s.start + from - base, s.start + to - base));
      lastAt = { s, i: s.start + to - base - 1 };
    }
    base += live(s);
    if (base >= start + take) break;
  }
  const page: TickJsonPage = { items: pieces.length === 1 ? pieces[0]! : pieces, count: take, fromMemory: true };
  if (start + take < end) page.next = { ts: String(lastAt!.s.ts[lastAt!.i]), seq: String(lastAt!.s.seq[lastAt!.i]), pk: String(lastAt!.s.pk[lastAt!.i]) };
  return page;
}
