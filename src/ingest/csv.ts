// Streaming CSV tokenizer. Bytes are cut at the last newline of each incoming buffer and
// decoded once per chunk; records are then located inside that chunk's text by offsets, so
// a consumer can parse numbers straight from the text without creating a string per field.
// Measured on minute aggregates this is ~4x faster than `line.split(',')` + `Number()`.
//
// RFC 4180 quoting is supported within a physical line (embedded commas, doubled quotes).
// The tokenizer does not let a quoted field span lines: market-data flat files never contain
// line breaks in a field, and refusing them keeps one stray quote from swallowing the rest of
// the file. Readers of text data sets (filings, news) join the lines of such a record
// themselves and split it with parseCsvRecord.

const LF = 10;
const CR = 13;
const QUOTE = 34;
const COMMA = 44;
const BOM = 0xfeff;

/** A problem with the byte stream itself (not with one record), e.g. a line with no end. */
export class CsvError extends Error {
  override readonly name = 'CsvError';
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

/**
 * The complete lines of one decoded chunk, walked record by record with `next()`.
 * After `next()` returns true, field `i` of the current record lies in
 * `text.slice(starts[i], ends[i])` with its quotes removed (use `field(i)` for the
 * unescaped string), `line` is its 1-based physical line number and `error` is set
 * (with `fieldCount` 0) when the line is not valid CSV. Blank lines are skipped.
 */
export class CsvChunk {
  /** Physical line number of the current record. */
  line: number;
  fieldCount = 0;
  starts = new Int32Array(32);
  ends = new Int32Array(32);
  /** Why the current line is not valid CSV, or undefined. */
  error: string | undefined = undefined;

  private pos: number;
  private lineStart = 0;
  private lineEnd = 0;
  // Cached positions of the next quote and comma at or after `pos`, so lines without them
  // do not each rescan the rest of the chunk.
  private nextQuote = -1;
  private nextComma = -1;
  // Per field of the current record: 1 when it held doubled quotes to unescape.
  private doubledQuotes = new Uint8Array(32);
  private anyDoubledQuotes = false;

  constructor(
    /** Decoded text: whole lines, each ending in `\n` except possibly the last one of the stream. */
    readonly text: string,
    /** Line number of the first line in `text`. */
    firstLine: number,
    start = 0,
  ) {
    this.line = firstLine - 1;
    this.pos = start;
  }

  next(): boolean {
    const text = this.text;
    const len = text.length;
    while (this.pos < len) {
      const start = this.pos;
      let nl = text.indexOf('\n', start);
      if (nl === -1) nl = len;
      this.pos = nl + 1;
      this.line++;
      let end = nl;
      if (end > start && text.charCodeAt(end - 1) === CR) end--;
      if (end === start) continue;
      this.lineStart = start;
      this.lineEnd = end;
      if (this.nextQuote !== len && this.nextQuote < start) {
        const q = text.indexOf('"', start);
        this.nextQuote = q === -1 ? len : q;
      }
      if (this.nextQuote < end) this.tokenizeQuoted(start, end);
      else this.tokenizePlain(start, end);
      return true;
    }
    return false;
  }

  /** Skips the remaining lines and returns the number of the last line in this chunk. */
  drain(): number {
    const text = this.text;
    while (this.pos < text.length) {
      const nl = text.indexOf('\n', this.pos);
      this.line++;
      this.pos = nl === -1 ? text.length : nl + 1;
    }
    return this.line;
  }

  /** Field `i` of the current record as a string, with doubled quotes unescaped. */
  field(i: number): string {
    const s = this.text.slice(this.starts[i], this.ends[i]);
    return this.anyDoubledQuotes && this.doubledQuotes[i] === 1 ? s.replaceAll('""', '"') : s;
  }

  /** All fields of the current record. */
  fields(): string[] {
    const out = new Array<string>(this.fieldCount);
    for (let i = 0; i < this.fieldCount; i++) out[i] = this.field(i);
    return out;
  }

  /** The current line as it appears in the file, without its line break. */
  raw(): string {
    return this.text.slice(this.lineStart, this.lineEnd);
  }

  private tokenizePlain(start: number, end: number): void {
    const text = this.text;
    let k = 0;
    this.starts[0] = start;
    let c = this.nextComma;
    if (c !== text.length && c < start) {
      c = text.indexOf(',', start);
      if (c === -1) c = text.length;
    }
    while (c < end) {
      this.ends[k] = c;
      if (++k === this.starts.length) this.grow();
      this.starts[k] = c + 1;
      c = text.indexOf(',', c + 1);
      if (c === -1) c = text.length;
    }
    this.nextComma = c;
    this.ends[k] = end;
    this.fieldCount = k + 1;
    this.error = undefined;
    this.anyDoubledQuotes = false;
  }

  private tokenizeQuoted(start: number, end: number): void {
    const text = this.text;
    let k = 0;
    let anyDoubled = false;
    let i = start;
    // Next quote at or after i, or `end`; next() found the first one.
    let quote = this.nextQuote;
    for (;;) {
      if (k + 1 >= this.starts.length) this.grow();
      if (i < end && text.charCodeAt(i) === QUOTE) {
        let j = i + 1;
        let doubled = 0;
        let close: number;
        for (;;) {
          close = text.indexOf('"', j);
          if (close === -1 || close >= end) return this.fail('unterminated quoted field');
          if (close + 1 < end && text.charCodeAt(close + 1) === QUOTE) {
            doubled = 1;
            j = close + 2;
            continue;
          }
          break;
        }
        this.starts[k] = i + 1;
        this.ends[k] = close;
        this.doubledQuotes[k++] = doubled;
        if (doubled === 1) anyDoubled = true;
        i = close + 1;
        quote = text.indexOf('"', i);
        if (quote === -1 || quote > end) quote = end;
        if (i === end) break;
        if (text.charCodeAt(i) !== COMMA) return this.fail('unexpected character after closing quote');
        i++;
      } else {
        let c = text.indexOf(',', i);
        if (c === -1 || c > end) c = end;
        if (quote < c) return this.fail('quote inside unquoted field');
        this.starts[k] = i;
        this.ends[k] = c;
        this.doubledQuotes[k++] = 0;
        if (c === end) break;
        i = c + 1;
      }
    }
    this.fieldCount = k;
    this.error = undefined;
    this.anyDoubledQuotes = anyDoubled;
  }

  private fail(reason: string): void {
    this.fieldCount = 0;
    this.error = reason;
  }

  private grow(): void {
    const size = this.starts.length * 2;
    const starts = new Int32Array(size);
    const ends = new Int32Array(size);
    starts.set(this.starts);
    ends.set(this.ends);
    this.starts = starts;
    this.ends = ends;
    const flags = new Uint8Array(size);
    flags.set(this.doubledQuotes);
    this.doubledQuotes = flags;
  }
}

export interface CsvReaderOptions {
  /** A line longer than this (in bytes) is an error rather than a reason to buffer without end. */
  maxLineBytes?: number;
}

/**
 * Turns a byte stream into `CsvChunk`s of whole lines, holding at most one incoming buffer
 * plus one partial line at a time. Handles LF and CRLF, and skips a leading UTF-8 BOM.
 * Iterate it once; read each chunk fully (or not: unread lines are still counted).
 */
export class CsvReader implements AsyncIterable<CsvChunk> {
  private completeLines = 0;
  private readonly maxLineBytes: number;

  constructor(
    private readonly source: AsyncIterable<Uint8Array>,
    options: CsvReaderOptions = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? 16 * 1024 * 1024;
  }

  /** Physical lines handed out so far; when the source fails, the line it broke in is this + 1. */
  get linesRead(): number {
    return this.completeLines;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<CsvChunk> {
    // The unfinished line: pieces are joined once its end arrives, not copied on every buffer.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let first = true;
    for await (const data of this.source) {
      const buf = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      const last = buf.lastIndexOf(LF);
      if (last === -1) {
        pending.push(buf);
        pendingBytes += buf.length;
        if (pendingBytes > this.maxLineBytes) {
          throw new CsvError(this.completeLines + 1, `line longer than ${this.maxLineBytes} bytes`);
        }
        continue;
      }
      const text =
        pending.length === 0
          ? buf.toString('utf8', 0, last + 1)
          : Buffer.concat([...pending, buf.subarray(0, last + 1)]).toString('utf8');
      pending = last + 1 < buf.length ? [buf.subarray(last + 1)] : [];
      pendingBytes = buf.length - last - 1;
      yield* this.emit(text, first);
      first = false;
    }
    if (pending.length > 0) yield* this.emit(Buffer.concat(pending).toString('utf8'), first);
  }

  private *emit(text: string, first: boolean): Generator<CsvChunk> {
    const chunk = new CsvChunk(text, this.completeLines + 1, first && text.charCodeAt(0) === BOM ? 1 : 0);
    yield chunk;
    this.completeLines = chunk.drain();
  }
}

/** Splits one line of CSV into its fields; throws CsvError (line 1) when it is malformed. */
export function parseCsvLine(line: string): string[] {
  const chunk = new CsvChunk(line, 1);
  if (!chunk.next()) return [];
  if (chunk.error !== undefined) throw new CsvError(1, chunk.error);
  return chunk.fields();
}

/** Number of double quotes in `text`: odd when a quoted field is left open at its end. */
export function countQuotes(text: string): number {
  let n = 0;
  for (let i = text.indexOf('"'); i !== -1; i = text.indexOf('"', i + 1)) n++;
  return n;
}

/**
 * Splits one CSV record that may hold line breaks inside quoted fields (RFC 4180) into its
 * fields; throws CsvError (line 1) when it is malformed.
 */
export function parseCsvRecord(text: string): string[] {
  const fields: string[] = [];
  const n = text.length;
  let i = 0;
  for (;;) {
    if (text.charCodeAt(i) === QUOTE) {
      let value = '';
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q === -1) throw new CsvError(1, 'unterminated quoted field');
        value += text.slice(j, q);
        if (text.charCodeAt(q + 1) !== QUOTE) {
          i = q + 1;
          break;
        }
        value += '"';
        j = q + 2;
      }
      fields.push(value);
      if (i === n) return fields;
      if (text.charCodeAt(i) !== COMMA) throw new CsvError(1, 'unexpected character after closing quote');
      i++;
    } else {
      let c = text.indexOf(',', i);
      if (c === -1) c = n;
      const value = text.slice(i, c);
      if (value.includes('"')) throw new CsvError(1, 'quote inside unquoted field');
      if (value.includes('\n')) throw new CsvError(1, 'line break outside a quoted field');
      fields.push(value);
      if (c === n) return fields;
      i = c + 1;
    }
  }
}
