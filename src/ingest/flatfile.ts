// Reads upstream flat files (trades_v1, quotes_v1, minute_aggs_v1, day_aggs_v1; CSV or CSV.gz)
// for stocks, options, forex, crypto and indices as typed rows, in batches, in constant memory.
//
// Choices, where the upstream files leave room:
// - Columns are found by name in the header, never by position. Unknown columns are ignored
//   (upstream adds columns over time); a missing mandatory column is a header error.
// - Minute and day aggregates share one header: `kindHint` decides, else the path
//   (`minute_aggs` / `day_aggs` in the nearest segment), else the spacing of bars in the first
//   batch (`kindFromSpacing`).
// - Prices and sizes are decimals ≥ 0; 0 is allowed (a quote with no bid has bid_price 0).
//   Sizes and volumes may be fractional. Codes, exchanges and counts are integers ≥ 0.
// - Nanosecond fields are digits only, read exactly as bigint, at most 2^63−1 (the stores
//   keep them in 64-bit integers). An empty optional field is undefined; an empty required
//   one is an error.
// - Blank lines are skipped (still counted for line numbers); a row whose column count differs
//   from the header's is an error.

import { open, type FileHandle } from 'node:fs/promises';
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { CsvChunk, CsvError, CsvReader } from './csv.js';
import type { BarRow, FlatFileKind, QuoteRow, TradeRow } from '../domain/market-records.js';

export type FlatFileErrorCode = 'bad_header' | 'bad_row' | 'corrupt_gzip' | 'read_failed';

/** A file that cannot be read on; `message` is `file:line: reason` (line 0: the file as a whole). */
export class FlatFileError extends Error {
  override readonly name = 'FlatFileError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
    readonly code: FlatFileErrorCode = 'bad_row',
  ) {
    super(`${file}:${line}: ${reason}`);
  }
}

/** A row left out under `skipBadRows`. */
export interface RejectedRow {
  file: string;
  line: number;
  reason: string;
  /** The line as it is in the (decompressed) file. */
  raw: string;
  /** `file:line: reason` */
  message: string;
}

export interface FlatFileProgress {
  /** Bytes read so far from the file on disk (compressed bytes for .gz). */
  bytes: number;
  totalBytes: number;
  rows: number;
  rejected: number;
}

export interface ReadFlatFileOptions {
  /** Settles minute versus day aggregates (over the path); any other kind must match the header. */
  kindHint?: FlatFileKind;
  /** Leave bad rows out (reporting each to `onReject`) instead of throwing at the first. */
  skipBadRows?: boolean;
  onReject?: (row: RejectedRow) => void;
  /** Called after each decoded chunk (every 64 KiB or so). */
  onProgress?: (progress: FlatFileProgress) => void;
  /** Rows per yielded batch; 5,000 by default. */
  batchSize?: number;
  /**
   * Only rows of these tickers (as spelled in the file) are read; the others are passed over
   * unparsed, neither counted nor checked.
   */
  tickers?: ReadonlySet<string>;
}

/**
 * A flat file that is not a path on disk: its bytes (gzip or not) as a stream, opened afresh on
 * each call (a reader that must start over opens it again). `name` stands for the path in
 * messages (`name:line: reason`) and in telling minute from day aggregates.
 */
export interface FlatFileSource {
  name: string;
  /** Bytes of the stream, for progress (0 when unknown). */
  totalBytes: number;
  open(): Promise<AsyncIterable<Uint8Array>>;
}

/** The name a file goes by in messages: its path, or its source's name. */
export function flatFileName(input: string | FlatFileSource): string {
  return typeof input === 'string' ? input : input.name;
}

export type FlatFileBatch =
  | { kind: 'trades'; batch: TradeRow[] }
  | { kind: 'quotes'; batch: QuoteRow[] }
  | { kind: 'minute_aggs' | 'day_aggs'; batch: BarRow[] };

export interface FlatFileSummary {
  file: string;
  /** Undefined only for a file holding nothing but a header of undecidable aggregates. */
  kind: FlatFileKind | undefined;
  rows: number;
  rejected: number;
  /** Physical lines read, header included. */
  lines: number;
}

/** `'aggs'`: minute or day aggregates, which the header alone cannot tell apart. */
export type DetectedKind = FlatFileKind | 'aggs';

const REQUIRED: Record<'trades' | 'quotes' | 'aggs', readonly string[]> = {
  trades: ['ticker', 'price', 'size', 'exchange'],
  quotes: ['ticker', 'ask_price', 'bid_price'],
  aggs: ['ticker', 'open', 'close', 'high', 'low', 'window_start'],
};

/**
 * The kind of flat file a header belongs to. Aggregates are minute or day according to the
 * nearest path segment naming `minute_aggs` or `day_aggs` (upstream's layout is
 * `us_stocks_sip/minute_aggs_v1/2024/01/2024-01-02.csv.gz`); `'aggs'` when none does.
 * Throws FlatFileError (line 1) for a header of no known kind or missing a mandatory column.
 */
export function detectKind(header: readonly string[], fileName: string): DetectedKind {
  const columns = new Set(header);
  let kind: 'trades' | 'quotes' | 'aggs';
  if (columns.has('window_start')) kind = 'aggs';
  else if (columns.has('ask_price') || columns.has('bid_price')) kind = 'quotes';
  else if (columns.has('price')) kind = 'trades';
  else {
    throw new FlatFileError(
      fileName,
      1,
      `unrecognised header (expected trades_v1, quotes_v1 or *_aggs_v1 columns): ${header.join(',')}`,
      'bad_header',
    );
  }
  const missing = REQUIRED[kind].filter((name) => !columns.has(name));
  if (kind !== 'aggs' && !columns.has('sip_timestamp') && !columns.has('participant_timestamp')) {
    missing.push('sip_timestamp or participant_timestamp');
  }
  if (missing.length > 0) {
    throw new FlatFileError(fileName, 1, `${kind} header lacks column(s): ${missing.join(', ')}`, 'bad_header');
  }
  return kind === 'aggs' ? (aggsKindFromPath(fileName) ?? 'aggs') : kind;
}

function aggsKindFromPath(path: string): 'minute_aggs' | 'day_aggs' | undefined {
  const segments = path.split(/[\\/]/);
  for (let i = segments.length - 1; i >= 0; i--) {
    const m = /(minute|day)_aggs/.exec(segments[i]!);
    if (m) return m[1] === 'minute' ? 'minute_aggs' : 'day_aggs';
  }
  return undefined;
}

const DAY_MS = 86_400_000;

/**
 * Minute or day aggregates, judged from bars whose file name did not say: minute when some
 * ticker has two bars less than a day apart, day otherwise (a day file has bars a day or more
 * apart per ticker, and usually one bar per ticker).
 */
export function kindFromSpacing(bars: readonly BarRow[]): 'minute_aggs' | 'day_aggs' {
  const last = new Map<string, number>();
  for (const bar of bars) {
    const prev = last.get(bar.ticker);
    if (prev !== undefined && prev !== bar.t && Math.abs(bar.t - prev) < DAY_MS) return 'minute_aggs';
    last.set(bar.ticker, bar.t);
  }
  return 'day_aggs';
}

/**
 * Streams a flat file as batches of rows. Throws FlatFileError for an unreadable file, a bad
 * header, a truncated or corrupt gzip stream (even with `skipBadRows`), and, unless
 * `skipBadRows`, the first bad row. The rows of the unfinished batch are not yielded when it
 * throws. Returns a summary when done.
 */
export async function* readFlatFile(
  file: string | FlatFileSource,
  options: ReadFlatFileOptions = {},
): AsyncGenerator<FlatFileBatch, FlatFileSummary> {
  const { kindHint, skipBadRows = false, onReject, onProgress, batchSize = 5000, tickers } = options;
  const path = flatFileName(file);
  const input = typeof file === 'string' ? await openInput(file) : await openSource(file);
  const reader = new CsvReader(input.source);
  let layout: Layout | undefined;
  let kind: DetectedKind | undefined;
  let batch: Row[] = [];
  let rows = 0;
  let rejected = 0;

  const reject = (chunk: CsvChunk, reason: string): void => {
    if (!skipBadRows) throw new FlatFileError(path, chunk.line, reason, 'bad_row');
    rejected++;
    onReject?.({ file: path, line: chunk.line, reason, raw: chunk.raw(), message: `${path}:${chunk.line}: ${reason}` });
  };
  const progress = (): void =>
    onProgress?.({ bytes: input.bytesRead(), totalBytes: input.totalBytes, rows, rejected });

  try {
    for await (const chunk of reader) {
      while (chunk.next()) {
        if (layout === undefined) {
          if (chunk.error !== undefined) throw new FlatFileError(path, chunk.line, `header: ${chunk.error}`, 'bad_header');
          layout = resolveLayout(chunk.fields().map((name) => name.trim()), path, kindHint);
          kind = layout.kind;
          continue;
        }
        if (chunk.error !== undefined) {
          reject(chunk, chunk.error);
          continue;
        }
        if (tickers !== undefined && !tickers.has(chunk.field(layout.tickerColumn))) continue;
        if (chunk.fieldCount !== layout.width) {
          reject(chunk, `expected ${layout.width} columns, found ${chunk.fieldCount}`);
          continue;
        }
        let row: Row;
        try {
          row = layout.parse(chunk);
        } catch (err) {
          if (!(err instanceof RowReject)) throw err;
          reject(chunk, err.reason);
          continue;
        }
        batch.push(row);
        rows++;
        if (batch.length >= batchSize) {
          if (kind === 'aggs') kind = kindFromSpacing(batch as BarRow[]);
          yield { kind, batch } as FlatFileBatch;
          batch = [];
        }
      }
      progress();
    }
  } catch (err) {
    throw asFlatFileError(err, path, reader.linesRead, input.gzip);
  }
  if (layout === undefined) throw new FlatFileError(path, 0, 'empty file: no header', 'bad_header');
  if (batch.length > 0) {
    if (kind === 'aggs') kind = kindFromSpacing(batch as BarRow[]);
    yield { kind, batch } as FlatFileBatch;
  }
  progress();
  return { file: path, kind: kind === 'aggs' ? undefined : kind, rows, rejected, lines: reader.linesRead };
}

function asFlatFileError(err: unknown, file: string, linesRead: number, gzip: boolean): FlatFileError {
  if (err instanceof FlatFileError) return err;
  if (err instanceof CsvError) return new FlatFileError(file, err.line, err.reason, 'bad_row');
  const code = (err as { code?: unknown } | null)?.code;
  if (gzip && typeof code === 'string' && code.startsWith('Z_')) {
    return new FlatFileError(file, linesRead === 0 ? 0 : linesRead + 1, 'truncated or corrupt gzip stream', 'corrupt_gzip');
  }
  const detail = err instanceof Error ? err.message : String(err);
  return new FlatFileError(file, linesRead + 1, `read failed: ${detail}`, 'read_failed');
}

// ---------------------------------------------------------------------------------------------
// Opening: gzip by name or by magic bytes.

interface Input {
  source: AsyncIterable<Uint8Array>;
  gzip: boolean;
  totalBytes: number;
  bytesRead: () => number;
}

async function openInput(path: string): Promise<Input> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw new FlatFileError(path, 0, `cannot open: ${(err as Error).message}`, 'read_failed');
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new FlatFileError(path, 0, 'not a regular file', 'read_failed');
    const magic = Buffer.alloc(2);
    const { bytesRead } = await handle.read(magic, 0, 2, 0);
    const gzip = /\.gz$/i.test(path) || (bytesRead === 2 && magic[0] === 0x1f && magic[1] === 0x8b);
    const raw = handle.createReadStream({ start: 0, highWaterMark: 256 * 1024 });
    // pipeline() forwards a read error to the gunzip stream and tears both down on early exit.
    const source = gzip ? pipeline(raw, createGunzip({ chunkSize: 64 * 1024 }), () => {}) : raw;
    return { source, gzip, totalBytes: stat.size, bytesRead: () => raw.bytesRead };
  } catch (err) {
    await handle.close();
    if (err instanceof FlatFileError) throw err;
    throw new FlatFileError(path, 0, `cannot read: ${(err as Error).message}`, 'read_failed');
  }
}

/** A source's stream, gunzipped when its name ends in .gz or its first bytes are gzip's magic. */
async function openSource(source: FlatFileSource): Promise<Input> {
  let stream: AsyncIterable<Uint8Array>;
  try {
    stream = await source.open();
  } catch (err) {
    throw new FlatFileError(source.name, 0, `cannot open: ${(err as Error).message}`, 'read_failed');
  }
  const iterator = stream[Symbol.asyncIterator]();
  let first: IteratorResult<Uint8Array>;
  try {
    first = await iterator.next();
  } catch (err) {
    throw new FlatFileError(source.name, 0, `cannot read: ${(err as Error).message}`, 'read_failed');
  }
  let bytes = 0;
  async function* counted(): AsyncGenerator<Uint8Array> {
    let step = first;
    try {
      while (!step.done) {
        bytes += step.value.length;
        yield step.value;
        step = await iterator.next();
      }
    } finally {
      // Stopped early (a bad row, the caller left): let the source let go of its connection.
      if (!step.done) await iterator.return?.();
    }
  }
  const head = first.done ? undefined : first.value;
  const gzip = /\.gz$/i.test(source.name) || (head !== undefined && head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b);
  const raw = Readable.from(counted(), { objectMode: false, highWaterMark: 256 * 1024 });
  const output = gzip ? pipeline(raw, createGunzip({ chunkSize: 64 * 1024 }), () => {}) : raw;
  return { source: output, gzip, totalBytes: source.totalBytes, bytesRead: () => bytes };
}

// ---------------------------------------------------------------------------------------------
// Layouts: header → column indexes → a row parser specialised to them.

type Row = TradeRow | QuoteRow | BarRow;

interface Layout {
  kind: DetectedKind;
  width: number;
  tickerColumn: number;
  parse: (chunk: CsvChunk) => Row;
}

function resolveLayout(header: string[], file: string, kindHint: FlatFileKind | undefined): Layout {
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    if (index.has(name)) throw new FlatFileError(file, 1, `duplicate column: ${name}`, 'bad_header');
    index.set(name, i);
  });
  const col = (name: string): number => index.get(name) ?? -1;
  let kind = detectKind(header, file);
  if (kindHint !== undefined) {
    // The hint may settle (or overrule the path on) minute versus day, not change the kind.
    const compatible = kind === kindHint || (kind.endsWith('aggs') && kindHint.endsWith('_aggs'));
    if (!compatible) throw new FlatFileError(file, 1, `header is for ${kind}, not ${kindHint}`, 'bad_header');
    kind = kindHint;
  }
  const parse = kind === 'trades' ? tradeParser(col) : kind === 'quotes' ? quoteParser(col) : barParser(col);
  return { kind, width: header.length, tickerColumn: col('ticker'), parse };
}

type ColumnIndex = (name: string) => number;

function tradeParser(col: ColumnIndex): (c: CsvChunk) => TradeRow {
  const ticker = tickerReader(col('ticker'));
  const sip = col('sip_timestamp');
  const participant = col('participant_timestamp');
  const trf = col('trf_timestamp');
  const price = col('price');
  const size = col('size');
  const exchange = col('exchange');
  const id = col('id');
  const conditions = col('conditions');
  const correction = col('correction');
  const sequence = col('sequence_number');
  const tape = col('tape');
  const trfId = col('trf_id');
  return (c) => {
    // Crypto trades carry only the participant time; it then serves as the time key.
    const participantTs = sip < 0 ? timeNs(c, participant, 'participant_timestamp') : optTimeNs(c, participant, 'participant_timestamp');
    return {
      ticker: ticker(c),
      sip_timestamp: sip < 0 ? (participantTs as bigint) : timeNs(c, sip, 'sip_timestamp'),
      participant_timestamp: participantTs,
      trf_timestamp: optTimeNs(c, trf, 'trf_timestamp'),
      price: amount(c, price, 'price'),
      size: amount(c, size, 'size'),
      exchange: uint(c, exchange, 'exchange'),
      id: optText(c, id),
      conditions: optIntList(c, conditions, 'conditions'),
      correction: optUint(c, correction, 'correction'),
      sequence_number: optNs(c, sequence, 'sequence_number'),
      tape: optUint(c, tape, 'tape'),
      trf_id: optUint(c, trfId, 'trf_id'),
    };
  };
}

function quoteParser(col: ColumnIndex): (c: CsvChunk) => QuoteRow {
  const ticker = tickerReader(col('ticker'));
  const sip = col('sip_timestamp');
  const participant = col('participant_timestamp');
  const trf = col('trf_timestamp');
  const askPrice = col('ask_price');
  const askSize = col('ask_size');
  const askExchange = col('ask_exchange');
  const bidPrice = col('bid_price');
  const bidSize = col('bid_size');
  const bidExchange = col('bid_exchange');
  const conditions = col('conditions');
  const indicators = col('indicators');
  const sequence = col('sequence_number');
  const tape = col('tape');
  return (c) => ({
    ticker: ticker(c),
    sip_timestamp: sip < 0 ? undefined : timeNs(c, sip, 'sip_timestamp'),
    // Forex quotes carry only the participant time, so it is required there.
    participant_timestamp:
      sip < 0 ? timeNs(c, participant, 'participant_timestamp') : optTimeNs(c, participant, 'participant_timestamp'),
    trf_timestamp: optTimeNs(c, trf, 'trf_timestamp'),
    ask_price: amount(c, askPrice, 'ask_price'),
    ask_size: optAmount(c, askSize, 'ask_size'),
    ask_exchange: optUint(c, askExchange, 'ask_exchange'),
    bid_price: amount(c, bidPrice, 'bid_price'),
    bid_size: optAmount(c, bidSize, 'bid_size'),
    bid_exchange: optUint(c, bidExchange, 'bid_exchange'),
    conditions: optIntList(c, conditions, 'conditions'),
    indicators: optIntList(c, indicators, 'indicators'),
    sequence_number: optNs(c, sequence, 'sequence_number'),
    tape: optUint(c, tape, 'tape'),
  });
}

function barParser(col: ColumnIndex): (c: CsvChunk) => BarRow {
  const ticker = tickerReader(col('ticker'));
  const windowStart = col('window_start');
  const open = col('open');
  const high = col('high');
  const low = col('low');
  const close = col('close');
  const volume = col('volume');
  const transactions = col('transactions');
  return (c) => {
    const bar: BarRow = {
      ticker: ticker(c),
      t: msFromNs(c, windowStart, 'window_start'),
      o: amount(c, open, 'open'),
      h: amount(c, high, 'high'),
      l: amount(c, low, 'low'),
      c: amount(c, close, 'close'),
      v: optAmount(c, volume, 'volume'),
      vw: undefined,
      n: optUint(c, transactions, 'transactions'),
    };
    checkBarPrices(bar);
    return bar;
  };
}

/** A bar's prices must be consistent: low ≤ open, close ≤ high. */
function checkBarPrices(bar: BarRow): void {
  if (bar.h < bar.l) throw new RowReject(`high ${bar.h} is below low ${bar.l}`);
  if (bar.o < bar.l || bar.o > bar.h) throw new RowReject(`open ${bar.o} is outside [low ${bar.l}, high ${bar.h}]`);
  if (bar.c < bar.l || bar.c > bar.h) throw new RowReject(`close ${bar.c} is outside [low ${bar.l}, high ${bar.h}]`);
}

// ---------------------------------------------------------------------------------------------
// Field readers. Each reads field `i` of the current record straight from the chunk text and
// throws a RowReject (a plain object: no stack trace to build) when it is invalid.

class RowReject {
  constructor(readonly reason: string) {}
}

function invalid(c: CsvChunk, i: number, name: string, what: string): RowReject {
  return new RowReject(`${name}: ${what}: ${JSON.stringify(c.field(i))}`);
}

function isEmpty(c: CsvChunk, i: number): boolean {
  return i < 0 || c.starts[i] === c.ends[i];
}

/** Returns a reader of the ticker column that reuses the previous row's string when equal. */
function tickerReader(i: number): (c: CsvChunk) => string {
  let previous = '';
  return (c) => {
    const a = c.starts[i]!;
    const b = c.ends[i]!;
    if (a === b) throw new RowReject('ticker: missing');
    if (b - a === previous.length && c.text.startsWith(previous, a)) return previous;
    const ticker = c.field(i);
    checkTicker(ticker);
    // V8 makes a substring of 13+ characters (options tickers) a view that pins the whole
    // chunk text; a consumer keeping tickers (a symbol cache) must not pin the file in memory.
    previous = ticker.length >= 13 ? Buffer.from(ticker, 'utf8').toString('utf8') : ticker;
    return previous;
  };
}

/** Longest ticker accepted (options tickers are about 21 characters); as the tickers importer. */
const MAX_TICKER_LENGTH = 64;

/** A ticker is 1 to 64 printable ASCII characters without spaces (upstream symbols never have more). */
function checkTicker(ticker: string): void {
  if (ticker.length > MAX_TICKER_LENGTH) throw new RowReject(`ticker: longer than ${MAX_TICKER_LENGTH} characters (${ticker.length})`);
  for (let k = 0; k < ticker.length; k++) {
    const ch = ticker.charCodeAt(k);
    if (ch > 0x20 && ch < 0x7f) continue;
    const what = ch === 0x20 ? 'contains a space' : ch < 0x20 || ch === 0x7f ? 'contains a control character' : 'contains a character outside printable ASCII';
    throw new RowReject(`ticker: ${what}: ${JSON.stringify(ticker)}`);
  }
}

function optText(c: CsvChunk, i: number): string | undefined {
  return isEmpty(c, i) ? undefined : c.field(i);
}

/** A price, size or volume: a finite decimal ≥ 0, fractions allowed. */
function amount(c: CsvChunk, i: number, name: string): number {
  const a = c.starts[i]!;
  const b = c.ends[i]!;
  if (a === b) throw new RowReject(`${name}: missing`);
  const v = parseDecimal(c.text, a, b);
  if (v >= 0 && v !== Infinity) return v;
  throw invalid(c, i, name, Number.isNaN(v) ? 'not a number' : v < 0 ? 'negative' : 'out of range');
}

function optAmount(c: CsvChunk, i: number, name: string): number | undefined {
  return isEmpty(c, i) ? undefined : amount(c, i, name);
}

/** An id, count or code: an integer ≥ 0. */
function uint(c: CsvChunk, i: number, name: string): number {
  const a = c.starts[i]!;
  const b = c.ends[i]!;
  if (a === b) throw new RowReject(`${name}: missing`);
  const v = parseUint(c.text, a, b);
  if (v >= 0) return v;
  throw invalid(c, i, name, 'not a non-negative integer');
}

function optUint(c: CsvChunk, i: number, name: string): number | undefined {
  return isEmpty(c, i) ? undefined : uint(c, i, name);
}

const INT64_MAX = 9_223_372_036_854_775_807n;
const E9 = 1_000_000_000n;

/** A nanosecond timestamp or sequence number: an integer 0 … 2^63−1, exact. */
function ns(c: CsvChunk, i: number, name: string): bigint {
  const text = c.text;
  const a = c.starts[i]!;
  const b = c.ends[i]!;
  if (a === b) throw new RowReject(`${name}: missing`);
  // Digits before the last nine and the last nine, each exact as a double when ≤ 15 digits;
  // two small BigInt() conversions are cheaper than BigInt() of the string.
  const split = b - 9;
  let high = 0;
  let low = 0;
  for (let k = a; k < b; k++) {
    const d = text.charCodeAt(k) - 48;
    if (d < 0 || d > 9) throw invalid(c, i, name, 'not a non-negative integer');
    if (k < split) high = high * 10 + d;
    else low = low * 10 + d;
  }
  if (b - a <= 9) return BigInt(low);
  const v = split - a > 15 ? BigInt(text.slice(a, b)) : BigInt(high) * E9 + BigInt(low);
  if (b - a >= 19 && v > INT64_MAX) throw invalid(c, i, name, 'out of range');
  return v;
}

function optNs(c: CsvChunk, i: number, name: string): bigint | undefined {
  return isEmpty(c, i) ? undefined : ns(c, i, name);
}

/**
 * Smallest tick time accepted, Unix ns (1973-03-03): a time written in seconds, ms or µs would
 * otherwise be stored as a moment in January 1970. Upstream data starts in 2003.
 */
const MIN_TIME_NS = 100_000_000_000_000_000n;
const NOT_NS = 'before 1973: expected nanoseconds since 1970 (is it in seconds, ms or µs?)';

/** A tick timestamp: ns() that is also plausibly in nanoseconds. */
function timeNs(c: CsvChunk, i: number, name: string): bigint {
  const v = ns(c, i, name);
  if (v < MIN_TIME_NS) throw invalid(c, i, name, NOT_NS);
  return v;
}

function optTimeNs(c: CsvChunk, i: number, name: string): bigint | undefined {
  return isEmpty(c, i) ? undefined : timeNs(c, i, name);
}

/** A window start in ns as Unix ms, exact (sub-millisecond digits, never seen, are dropped). */
function msFromNs(c: CsvChunk, i: number, name: string): number {
  const text = c.text;
  const a = c.starts[i]!;
  const b = c.ends[i]!;
  if (a === b) throw new RowReject(`${name}: missing`);
  const split = b - 6;
  let ms = 0;
  for (let k = a; k < b; k++) {
    const d = text.charCodeAt(k) - 48;
    if (d < 0 || d > 9) throw invalid(c, i, name, 'not a non-negative integer');
    if (k < split) ms = ms * 10 + d;
  }
  if (split - a > 15) throw invalid(c, i, name, 'out of range');
  if (ms < MIN_WINDOW_START_MS) throw invalid(c, i, name, NOT_NS);
  return ms;
}

/**
 * Smallest window start accepted, Unix ms (1973-03-03, i.e. 10^17 ns): a window start written in
 * ms, µs or seconds would otherwise be read as a time in January 1970. Upstream data starts in 2003.
 */
const MIN_WINDOW_START_MS = 100_000_000_000;

const COMMA = 44;
const SPACE = 32;

/** Condition or indicator codes: `12,37` (quoted in the file), a single code, or empty. */
function optIntList(c: CsvChunk, i: number, name: string): number[] | undefined {
  if (isEmpty(c, i)) return undefined;
  const text = c.text;
  const b = c.ends[i]!;
  const list: number[] = [];
  let value = 0;
  let digits = 0;
  for (let k = c.starts[i]!; k <= b; k++) {
    const ch = k === b ? COMMA : text.charCodeAt(k);
    if (ch >= 48 && ch <= 57) {
      value = value * 10 + (ch - 48);
      digits++;
    } else if (ch === COMMA && digits > 0 && digits <= 15) {
      list.push(value);
      value = 0;
      digits = 0;
    } else if (ch !== SPACE || digits > 0) {
      throw invalid(c, i, name, 'not a list of integers');
    }
  }
  return list;
}

// ---------------------------------------------------------------------------------------------
// Number parsing from text offsets.

const POW10 = Array.from({ length: 23 }, (_, e) => 10 ** e);
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * text[a, b) as a decimal number, NaN when it is not one; always equal to Number() of the same
 * digits. Plain `123.4567` takes the exact fast path (an integer ≤ 2^53 divided by a power of
 * ten ≤ 10^22 is correctly rounded); signs, exponents and long mantissas fall back to Number()
 * after a syntax check that refuses what Number() would wrongly accept ('', ' ', '0x1f').
 */
export function parseDecimal(text: string, a: number, b: number): number {
  let mantissa = 0;
  let digits = 0;
  let dot = -1;
  for (let k = a; k < b; k++) {
    const ch = text.charCodeAt(k);
    if (ch >= 48 && ch <= 57) {
      mantissa = mantissa * 10 + (ch - 48);
      digits++;
    } else if (ch === 46 && dot < 0) {
      dot = k;
    } else {
      return parseDecimalSlow(text.slice(a, b));
    }
  }
  if (digits === 0) return NaN;
  if (mantissa > Number.MAX_SAFE_INTEGER) return parseDecimalSlow(text.slice(a, b));
  if (dot < 0) return mantissa;
  const scale = b - dot - 1;
  return scale <= 22 ? mantissa / POW10[scale]! : parseDecimalSlow(text.slice(a, b));
}

function parseDecimalSlow(s: string): number {
  return DECIMAL.test(s) ? Number(s) : NaN;
}

/** text[a, b) as an integer ≥ 0 of at most 15 digits, or -1. */
function parseUint(text: string, a: number, b: number): number {
  if (b - a > 15) return -1;
  let v = 0;
  for (let k = a; k < b; k++) {
    const d = text.charCodeAt(k) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}
