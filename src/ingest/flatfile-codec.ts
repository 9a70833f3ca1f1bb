// A batch of flat-file rows in a compact, transferable form: the reader thread
// (flatfile-worker.ts) encodes each batch it parses, posts it with its typed arrays' buffers
// transferred (no copy), and the importing thread decodes it back to the very same row objects.
//
// Why not post the row objects: structured cloning (v8.serialize) of 1M trades costs the
// receiving thread ~0.8-1.3 s to deserialize, about what parsing them costs in the first place.
// Decoding typed arrays is a plain loop of array reads and object literals.
//
// Layout, per batch of `count` rows, row-major (row r's slots at r * width ... r * width + width - 1):
// - `tickers`: the distinct tickers of the batch (files are sorted by ticker, so few), and
//   `tickerOf[r]` the index of row r's ticker.
// - `nums` (Float64Array): every number field, required or optional (prices, sizes, codes, bar
//   times in ms). Doubles hold each exactly, fractions and -0 included.
// - `bigs` (BigInt64Array): ns timestamps and sequence numbers (the reader keeps them within
//   0 … 2^63−1, so they fit).
// - `present` (Uint16Array): bit k set when optional field k of the row is there. An absent
//   field's slots hold 0 and are not read.
// - `text` + `textEnds`: optional strings (trade ids) concatenated; a string ends at
//   textEnds[r * width + k] and starts where the one before ended. '' present differs from absent
//   by its bit.
// - `listValues` + `listEnds`: optional lists of integers (conditions, indicators), likewise.
//
// Encoder and decoder are written out per kind (not driven by a field table) because the decoder
// runs on the importing thread, where the time goes: object literals of one shape per kind keep
// it monomorphic, and give rows of the same shape (same keys, same order, absent = undefined) as
// readFlatFile's.
//
// The messages between the two threads are declared at the end.

import type { MessagePort } from 'node:worker_threads';
import type { FlatFileBatch, FlatFileErrorCode, FlatFileProgress, FlatFileSummary, RejectedRow } from './flatfile.js';
import type { BarRow, FlatFileKind, QuoteRow, TradeRow } from '../domain/market-records.js';
import { COPY_MIN_ROWS } from '../store/driver.js';
import { copyRowsOf } from '../store/repos/market-copy.js';
import { newRowsDaysOf } from '../store/repos/market.js';
import type { NewRows } from '../store/repos/market-port.js';

export interface EncodedBatch {
  kind: FlatFileKind;
  count: number;
  tickers: string[];
  tickerOf: Uint32Array;
  present: Uint16Array;
  nums: Float64Array;
  bigs: BigInt64Array;
  text: string;
  textEnds: Uint32Array;
  listValues: Float64Array;
  listEnds: Uint32Array;
}

/** The buffers to transfer with a posted batch (each typed array owns its buffer). */
export function transferables(e: EncodedBatch): ArrayBuffer[] {
  return [e.tickerOf, e.present, e.nums, e.bigs, e.textEnds, e.listValues, e.listEnds].map((a) => a.buffer as ArrayBuffer);
}

// ---------------------------------------------------------------------------------------------
// Slots. Widths: how many slots of each array a row takes.

// Trades: bigs sip, participant?, trf?, sequence?; nums price, size, exchange, correction?,
// tape?, trf_id?; text id?; lists conditions?.
const TRADE_BIGS = 4;
const TRADE_NUMS = 6;
const enum TradeBit {
  Participant = 1,
  Trf = 2,
  Sequence = 4,
  Correction = 8,
  Tape = 16,
  TrfId = 32,
  Id = 64,
  Conditions = 128,
}

// Quotes: bigs sip?, participant?, trf?, sequence?; nums ask_price, ask_size?, ask_exchange?,
// bid_price, bid_size?, bid_exchange?, tape?; lists conditions?, indicators?.
const QUOTE_BIGS = 4;
const QUOTE_NUMS = 7;
const enum QuoteBit {
  Sip = 1,
  Participant = 2,
  Trf = 4,
  Sequence = 8,
  AskSize = 16,
  AskExchange = 32,
  BidSize = 64,
  BidExchange = 128,
  Tape = 256,
  Conditions = 512,
  Indicators = 1024,
}

// Bars: nums t, o, h, l, c, v?, vw?, n?.
const BAR_NUMS = 8;
const enum BarBit {
  V = 1,
  Vw = 2,
  N = 4,
}

// ---------------------------------------------------------------------------------------------
// Encoding (reader thread).

/** Collects the variable-length parts while a batch is encoded. */
class Tail {
  readonly strings: string[] = [];
  textLength = 0;
  readonly values: number[] = [];

  /** Appends `s` (when there) and returns where the text now ends. */
  text(s: string | undefined): number {
    if (s !== undefined && s.length > 0) {
      this.strings.push(s);
      this.textLength += s.length;
    }
    return this.textLength;
  }

  list(l: number[] | undefined): number {
    if (l !== undefined) for (let i = 0; i < l.length; i++) this.values.push(l[i]!);
    return this.values.length;
  }
}

class Tickers {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  private last = '';
  private lastIndex = -1;

  of(ticker: string): number {
    if (ticker === this.last && this.lastIndex >= 0) return this.lastIndex;
    let i = this.index.get(ticker);
    if (i === undefined) {
      i = this.names.length;
      this.names.push(ticker);
      this.index.set(ticker, i);
    }
    this.last = ticker;
    this.lastIndex = i;
    return i;
  }
}

function encoded(
  kind: FlatFileKind,
  count: number,
  tickers: Tickers,
  parts: Pick<EncodedBatch, 'tickerOf' | 'present' | 'nums' | 'bigs' | 'textEnds' | 'listEnds'>,
  tail: Tail,
): EncodedBatch {
  return {
    kind,
    count,
    tickers: tickers.names,
    ...parts,
    text: tail.strings.join(''),
    listValues: new Float64Array(tail.values),
  };
}

function encodeTrades(rows: readonly TradeRow[]): EncodedBatch {
  const n = rows.length;
  const tickers = new Tickers();
  const tail = new Tail();
  const tickerOf = new Uint32Array(n);
  const present = new Uint16Array(n);
  const nums = new Float64Array(n * TRADE_NUMS);
  const bigs = new BigInt64Array(n * TRADE_BIGS);
  const textEnds = new Uint32Array(n);
  const listEnds = new Uint32Array(n);
  for (let r = 0; r < n; r++) {
    const row = rows[r]!;
    const b = r * TRADE_BIGS;
    const f = r * TRADE_NUMS;
    let bits = 0;
    tickerOf[r] = tickers.of(row.ticker);
    bigs[b] = row.sip_timestamp;
    if (row.participant_timestamp !== undefined) {
      bits |= TradeBit.Participant;
      bigs[b + 1] = row.participant_timestamp;
    }
    if (row.trf_timestamp !== undefined) {
      bits |= TradeBit.Trf;
      bigs[b + 2] = row.trf_timestamp;
    }
    if (row.sequence_number !== undefined) {
      bits |= TradeBit.Sequence;
      bigs[b + 3] = row.sequence_number;
    }
    nums[f] = row.price;
    nums[f + 1] = row.size;
    nums[f + 2] = row.exchange;
    if (row.correction !== undefined) {
      bits |= TradeBit.Correction;
      nums[f + 3] = row.correction;
    }
    if (row.tape !== undefined) {
      bits |= TradeBit.Tape;
      nums[f + 4] = row.tape;
    }
    if (row.trf_id !== undefined) {
      bits |= TradeBit.TrfId;
      nums[f + 5] = row.trf_id;
    }
    if (row.id !== undefined) bits |= TradeBit.Id;
    textEnds[r] = tail.text(row.id);
    if (row.conditions !== undefined) bits |= TradeBit.Conditions;
    listEnds[r] = tail.list(row.conditions);
    present[r] = bits;
  }
  return encoded('trades', n, tickers, { tickerOf, present, nums, bigs, textEnds, listEnds }, tail);
}

function encodeQuotes(rows: readonly QuoteRow[]): EncodedBatch {
  const n = rows.length;
  const tickers = new Tickers();
  const tail = new Tail();
  const tickerOf = new Uint32Array(n);
  const present = new Uint16Array(n);
  const nums = new Float64Array(n * QUOTE_NUMS);
  const bigs = new BigInt64Array(n * QUOTE_BIGS);
  const listEnds = new Uint32Array(n * 2);
  for (let r = 0; r < n; r++) {
    const row = rows[r]!;
    const b = r * QUOTE_BIGS;
    const f = r * QUOTE_NUMS;
    let bits = 0;
    tickerOf[r] = tickers.of(row.ticker);
    if (row.sip_timestamp !== undefined) {
      bits |= QuoteBit.Sip;
      bigs[b] = row.sip_timestamp;
    }
    if (row.participant_timestamp !== undefined) {
      bits |= QuoteBit.Participant;
      bigs[b + 1] = row.participant_timestamp;
    }
    if (row.trf_timestamp !== undefined) {
      bits |= QuoteBit.Trf;
      bigs[b + 2] = row.trf_timestamp;
    }
    if (row.sequence_number !== undefined) {
      bits |= QuoteBit.Sequence;
      bigs[b + 3] = row.sequence_number;
    }
    nums[f] = row.ask_price;
    if (row.ask_size !== undefined) {
      bits |= QuoteBit.AskSize;
      nums[f + 1] = row.ask_size;
    }
    if (row.ask_exchange !== undefined) {
      bits |= QuoteBit.AskExchange;
      nums[f + 2] = row.ask_exchange;
    }
    nums[f + 3] = row.bid_price;
    if (row.bid_size !== undefined) {
      bits |= QuoteBit.BidSize;
      nums[f + 4] = row.bid_size;
    }
    if (row.bid_exchange !== undefined) {
      bits |= QuoteBit.BidExchange;
      nums[f + 5] = row.bid_exchange;
    }
    if (row.tape !== undefined) {
      bits |= QuoteBit.Tape;
      nums[f + 6] = row.tape;
    }
    if (row.conditions !== undefined) bits |= QuoteBit.Conditions;
    listEnds[2 * r] = tail.list(row.conditions);
    if (row.indicators !== undefined) bits |= QuoteBit.Indicators;
    listEnds[2 * r + 1] = tail.list(row.indicators);
    present[r] = bits;
  }
  return encoded('quotes', n, tickers, { tickerOf, present, nums, bigs, textEnds: new Uint32Array(0), listEnds }, tail);
}

function encodeBars(kind: 'minute_aggs' | 'day_aggs', rows: readonly BarRow[]): EncodedBatch {
  const n = rows.length;
  const tickers = new Tickers();
  const tickerOf = new Uint32Array(n);
  const present = new Uint16Array(n);
  const nums = new Float64Array(n * BAR_NUMS);
  for (let r = 0; r < n; r++) {
    const row = rows[r]!;
    const f = r * BAR_NUMS;
    let bits = 0;
    tickerOf[r] = tickers.of(row.ticker);
    nums[f] = row.t;
    nums[f + 1] = row.o;
    nums[f + 2] = row.h;
    nums[f + 3] = row.l;
    nums[f + 4] = row.c;
    if (row.v !== undefined) {
      bits |= BarBit.V;
      nums[f + 5] = row.v;
    }
    if (row.vw !== undefined) {
      bits |= BarBit.Vw;
      nums[f + 6] = row.vw;
    }
    if (row.n !== undefined) {
      bits |= BarBit.N;
      nums[f + 7] = row.n;
    }
    present[r] = bits;
  }
  const none = { bigs: new BigInt64Array(0), textEnds: new Uint32Array(0), listEnds: new Uint32Array(0) };
  return encoded(kind, n, tickers, { tickerOf, present, nums, ...none }, new Tail());
}

export function encodeBatch(b: FlatFileBatch): EncodedBatch {
  switch (b.kind) {
    case 'trades':
      return encodeTrades(b.batch);
    case 'quotes':
      return encodeQuotes(b.batch);
    default:
      return encodeBars(b.kind, b.batch);
  }
}

// ---------------------------------------------------------------------------------------------
// Decoding (importing thread).

function list(values: Float64Array, start: number, end: number): number[] {
  const out = new Array<number>(end - start);
  for (let i = start; i < end; i++) out[i - start] = values[i]!;
  return out;
}

function decodeTrades(e: EncodedBatch): TradeRow[] {
  const { count, tickers, tickerOf, present, nums, bigs, text, textEnds, listValues, listEnds } = e;
  const rows = new Array<TradeRow>(count);
  let textStart = 0;
  let listStart = 0;
  for (let r = 0; r < count; r++) {
    const b = r * TRADE_BIGS;
    const f = r * TRADE_NUMS;
    const bits = present[r]!;
    const textEnd = textEnds[r]!;
    const listEnd = listEnds[r]!;
    rows[r] = {
      ticker: tickers[tickerOf[r]!]!,
      sip_timestamp: bigs[b]!,
      participant_timestamp: bits & TradeBit.Participant ? bigs[b + 1] : undefined,
      trf_timestamp: bits & TradeBit.Trf ? bigs[b + 2] : undefined,
      price: nums[f]!,
      size: nums[f + 1]!,
      exchange: nums[f + 2]!,
      id: bits & TradeBit.Id ? text.slice(textStart, textEnd) : undefined,
      conditions: bits & TradeBit.Conditions ? list(listValues, listStart, listEnd) : undefined,
      correction: bits & TradeBit.Correction ? nums[f + 3] : undefined,
      sequence_number: bits & TradeBit.Sequence ? bigs[b + 3] : undefined,
      tape: bits & TradeBit.Tape ? nums[f + 4] : undefined,
      trf_id: bits & TradeBit.TrfId ? nums[f + 5] : undefined,
    };
    textStart = textEnd;
    listStart = listEnd;
  }
  return rows;
}

function decodeQuotes(e: EncodedBatch): QuoteRow[] {
  const { count, tickers, tickerOf, present, nums, bigs, listValues, listEnds } = e;
  const rows = new Array<QuoteRow>(count);
  let listStart = 0;
  for (let r = 0; r < count; r++) {
    const b = r * QUOTE_BIGS;
    const f = r * QUOTE_NUMS;
    const bits = present[r]!;
    const conditionsEnd = listEnds[2 * r]!;
    const indicatorsEnd = listEnds[2 * r + 1]!;
    rows[r] = {
      ticker: tickers[tickerOf[r]!]!,
      sip_timestamp: bits & QuoteBit.Sip ? bigs[b] : undefined,
      participant_timestamp: bits & QuoteBit.Participant ? bigs[b + 1] : undefined,
      trf_timestamp: bits & QuoteBit.Trf ? bigs[b + 2] : undefined,
      ask_price: nums[f]!,
      ask_size: bits & QuoteBit.AskSize ? nums[f + 1] : undefined,
      ask_exchange: bits & QuoteBit.AskExchange ? nums[f + 2] : undefined,
      bid_price: nums[f + 3]!,
      bid_size: bits & QuoteBit.BidSize ? nums[f + 4] : undefined,
      bid_exchange: bits & QuoteBit.BidExchange ? nums[f + 5] : undefined,
      conditions: bits & QuoteBit.Conditions ? list(listValues, listStart, conditionsEnd) : undefined,
      indicators: bits & QuoteBit.Indicators ? list(listValues, conditionsEnd, indicatorsEnd) : undefined,
      sequence_number: bits & QuoteBit.Sequence ? bigs[b + 3] : undefined,
      tape: bits & QuoteBit.Tape ? nums[f + 6] : undefined,
    };
    listStart = indicatorsEnd;
  }
  return rows;
}

function decodeBars(e: EncodedBatch): BarRow[] {
  const { count, tickers, tickerOf, present, nums } = e;
  const rows = new Array<BarRow>(count);
  for (let r = 0; r < count; r++) {
    const f = r * BAR_NUMS;
    const bits = present[r]!;
    rows[r] = {
      ticker: tickers[tickerOf[r]!]!,
      t: nums[f]!,
      o: nums[f + 1]!,
      h: nums[f + 2]!,
      l: nums[f + 3]!,
      c: nums[f + 4]!,
      v: bits & BarBit.V ? nums[f + 5] : undefined,
      vw: bits & BarBit.Vw ? nums[f + 6] : undefined,
      n: bits & BarBit.N ? nums[f + 7] : undefined,
    };
  }
  return rows;
}

export function decodeBatch(e: EncodedBatch): FlatFileBatch {
  switch (e.kind) {
    case 'trades':
      return { kind: 'trades', batch: decodeTrades(e) };
    case 'quotes':
      return { kind: 'quotes', batch: decodeQuotes(e) };
    default:
      return { kind: e.kind, batch: decodeBars(e) };
  }
}

// ---------------------------------------------------------------------------------------------
// Batches encoded for COPY (reader thread), for an import that streams rows into the store as
// new (MarketDataPort.newRowsLoader): the importing thread then only passes bytes on, and no row
// object is made twice.

/** The rows of the flat-file kinds that a store can load as new. */
const NEW_ROWS_OF: Partial<Record<FlatFileKind, keyof NewRows>> = { minute_aggs: 'minute', trades: 'trades', quotes: 'quotes' };

/** A batch as binary COPY tuples of the store's columns, with what the importer needs of its rows. */
export interface CopyRowsBatch {
  kind: 'minute_aggs' | 'trades' | 'quotes';
  rows: keyof NewRows;
  /** market-copy.ts: copyRowsOf. */
  tuples: Uint8Array;
  count: number;
  /** Minute bars: the batch's tickers and its first and last bar start (Unix ms); else [] and NaN. */
  tickers: string[];
  minT: number;
  maxT: number;
  /** The UTC days of the rows' time keys (the store makes their partitions before loading them). */
  days: number[];
}

/**
 * What the rows of a file whose first batch is `first` load as when they are new, or undefined
 * when they go to the store as rows: kinds the store cannot load as new, and files of one small
 * batch (a few INSERTs cost fewer round trips than a COPY).
 */
export function newRowsOf(first: FlatFileBatch): keyof NewRows | undefined {
  return first.batch.length < COPY_MIN_ROWS ? undefined : NEW_ROWS_OF[first.kind];
}

/** The COPY encoder of a file whose first batch is `first` (null: see newRowsOf). */
export function copyEncoderFor(first: FlatFileBatch): ((b: FlatFileBatch) => CopyRowsBatch) | null {
  const rows = newRowsOf(first);
  if (rows === undefined) return null;
  const encode = copyRowsOf(rows) as (rows: readonly (BarRow | TradeRow | QuoteRow)[]) => Uint8Array;
  return (b) => {
    const bytes = encode(b.batch);
    // Its own buffer, whole, so that it can be transferred.
    const tuples = bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length ? bytes : new Uint8Array(bytes);
    const tickers: string[] = [];
    let minT = NaN;
    let maxT = NaN;
    if (b.kind === 'minute_aggs') {
      const seen = new Set<string>();
      minT = Infinity;
      maxT = -Infinity;
      for (const bar of b.batch) {
        seen.add(bar.ticker);
        if (bar.t < minT) minT = bar.t;
        if (bar.t > maxT) maxT = bar.t;
      }
      tickers.push(...seen);
    }
    const days = newRowsDaysOf(rows, b.batch as NewRows[typeof rows][]);
    return { kind: b.kind as CopyRowsBatch['kind'], rows, tuples, count: b.batch.length, tickers, minT, maxT, days };
  };
}

// ---------------------------------------------------------------------------------------------
// Messages between the importing thread (flatfile-threaded.ts) and the reader (flatfile-worker.ts).

/** Indexes into the shared Int32Array. */
export const IN_FLIGHT = 0;
export const CANCELLED = 1;

export interface WorkerInput {
  /** The file's path, or the name of a stream whose bytes come over `bytes`. */
  path: string;
  /** The file's bytes when it is a stream, not a path (flatfile-byte-port.ts). */
  bytes?: MessagePort;
  /** The stream's length in bytes, for progress (with `bytes`). */
  totalBytes?: number;
  /** Only rows of these tickers. */
  tickers?: string[];
  kindHint?: FlatFileKind;
  skipBadRows: boolean;
  batchSize?: number;
  /** Whether the importing thread listens for rejects / progress (else they are not sent). */
  rejects: boolean;
  progress: boolean;
  credits: Int32Array;
  maxInFlight: number;
  /** Send batches encoded for COPY where copyEncoderFor has an encoder for the file. */
  copyRows: boolean;
}

export type ReaderEvent = { reject: RejectedRow } | { progress: FlatFileProgress };

export interface SerializedError {
  flatFile: boolean;
  file: string;
  line: number;
  reason: string;
  code: FlatFileErrorCode;
  message: string;
}

/** `credit`: the message counts against maxInFlight (the last one, done or error, does not). */
export type WorkerMessage = { events: ReaderEvent[]; credit: boolean } & (
  | { type: 'batch'; batch: EncodedBatch }
  | { type: 'copy'; copy: CopyRowsBatch }
  | { type: 'events' }
  | { type: 'done'; summary: FlatFileSummary }
  | { type: 'error'; error: SerializedError }
);
