// Reading the records of a JSON, NDJSON or CSV file (gzipped or not) for the record importers
// (news, social posts, tickers, options contracts, declared data sets): every format becomes a
// stream of {line, value}, with value the record as JSON would give it, so one validator per data
// set serves every format and every message names the record's line.
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { parseJsonLongIntegersAsText } from '../domain/exact-json.js';
import { countQuotes, CsvError, CsvReader, parseCsvRecord } from './csv.js';

/** A field of a record and what is wrong with it. */
export interface FieldIssue {
  field: string;
  reason: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface SourceRecord {
  line: number;
  value: unknown;
  /** Set instead of value when the record could not even be read. */
  issue?: FieldIssue;
}

async function* bytesOf(file: string): AsyncGenerator<Buffer> {
  const stream = createReadStream(file);
  yield* (file.endsWith('.gz') ? stream.pipe(createGunzip()) : stream) as AsyncIterable<Buffer>;
}

async function readAll(file: string): Promise<string> {
  const parts: Buffer[] = [];
  for await (const b of bytesOf(file)) parts.push(b);
  const text = Buffer.concat(parts).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

async function firstChars(file: string, n: number): Promise<string> {
  let text = '';
  const decoder = new StringDecoder('utf8');
  for await (const b of bytesOf(file)) {
    text += decoder.write(b);
    if (text.length >= n) break;
  }
  return text.replace(/^\uFEFF/, '');
}

interface ElementSpan {
  /** Line of the element's first character. */
  line: number;
  start: number;
  /** Index just past the element's last character. */
  end: number;
}

/**
 * Where each element of the top-level array lies, or of the array under the top-level key
 * "results" (an upstream response body). JSON.parse gives the values; this gives their places for
 * messages, and lets a broken file be blamed on the record that breaks it.
 */
export function elementSpans(text: string, target: 'root' | 'results'): ElementSpan[] {
  const spans: ElementSpan[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let keyStart = 0;
  let lastKey = '';
  let targetDepth = -1;
  let done = false;
  let expectElement = false;
  let lastSignificant = 0;
  const close = () => {
    const open = spans[spans.length - 1];
    if (open && open.end < 0) open.end = lastSignificant + 1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 92) escaped = true;
      else if (c === 34) {
        inString = false;
        lastSignificant = i;
        if (depth === 1) lastKey = text.slice(keyStart, i);
      }
      continue;
    }
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    if (expectElement && depth === targetDepth && c !== 93) {
      spans.push({ line, start: i, end: -1 });
      expectElement = false;
    }
    if (c === 34) {
      inString = true;
      keyStart = i + 1;
    } else if (c === 91 || c === 123) {
      depth++;
      if (c === 91 && !done && targetDepth < 0 && ((target === 'root' && depth === 1) || (target === 'results' && depth === 2 && lastKey === 'results'))) {
        targetDepth = depth;
        expectElement = true;
      }
    } else if (c === 93 || c === 125) {
      if (depth === targetDepth && c === 93) {
        close();
        done = true;
        targetDepth = -1;
      }
      depth--;
    } else if (c === 44 && depth === targetDepth) {
      close();
      expectElement = true;
    }
    if (!(c === 44 && depth === targetDepth)) lastSignificant = i;
  }
  close();
  return spans;
}

export function elementLines(text: string, target: 'root' | 'results'): number[] {
  return elementSpans(text, target).map((s) => s.line);
}

/** The line to blame for a document JSON.parse refused: the first element that does not parse alone. */
function jsonErrorLine(text: string): number {
  const target = text.trimStart().startsWith('[') ? 'root' : 'results';
  for (const span of elementSpans(text, target)) {
    try {
      JSON.parse(text.slice(span.start, span.end));
    } catch {
      return span.line;
    }
  }
  return 1;
}

async function* jsonRecords(file: string, parse: JsonParse): AsyncGenerator<SourceRecord> {
  const text = await readAll(file);
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (err) {
    yield { line: jsonErrorLine(text), value: undefined, issue: { field: '(json)', reason: `not valid JSON: ${(err as Error).message}` } };
    return;
  }
  let values: unknown[];
  let lines: number[];
  if (Array.isArray(parsed)) {
    values = parsed;
    lines = elementLines(text, 'root');
  } else if (isObj(parsed) && Array.isArray(parsed.results)) {
    values = parsed.results;
    lines = elementLines(text, 'results');
  } else if (isObj(parsed)) {
    values = [parsed];
    lines = [1];
  } else {
    yield { line: 1, value: undefined, issue: { field: '(json)', reason: 'expected a JSON array of records, an object with a "results" array, or one JSON object per line' } };
    return;
  }
  for (const [i, value] of values.entries()) yield { line: lines[i] ?? 1, value };
}

async function* ndjsonRecords(file: string, parse: JsonParse): AsyncGenerator<SourceRecord> {
  let line = 0;
  let pending = '';
  const handle = (text: string): SourceRecord | undefined => {
    line++;
    const t = text.trim();
    if (t.length === 0) return undefined;
    try {
      return { line, value: parse(t) };
    } catch (err) {
      return { line, value: undefined, issue: { field: '(json)', reason: `not valid JSON: ${(err as Error).message}` } };
    }
  };
  let first = true;
  // A character split across two chunks must be decoded whole.
  const decoder = new StringDecoder('utf8');
  for await (const b of bytesOf(file)) {
    const parts = (pending + decoder.write(b)).split('\n');
    pending = parts.pop()!;
    for (let text of parts) {
      if (first) text = text.replace(/^\uFEFF/, '');
      first = false;
      const r = handle(text);
      if (r) yield r;
    }
  }
  pending += decoder.end();
  if (pending.length > 0) {
    const r = handle(pending);
    if (r) yield r;
  }
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Converters of the cells of named CSV columns (lists, JSON, numbers), chosen from the header. */
export type CsvCellConverters = (header: string[]) => Record<string, (cell: string) => unknown>;

/** Characters a record whose quoted field spans lines may take before the file is refused. */
const MAX_RECORD_CHARS = 16 * 1024 * 1024;

async function* csvRecords(file: string, cellsFor: CsvCellConverters): AsyncGenerator<SourceRecord> {
  const reader = new CsvReader(bytesOf(file));
  let header: string[] | undefined;
  let cells: Record<string, (cell: string) => unknown> = {};
  // A record whose quoted field holds line breaks (long text in filings and news): its lines so
  // far, the line it starts on, and how many quotes they hold (odd while the field is open).
  let open: { line: number; text: string; quotes: number; last: number } | undefined;
  try {
    for await (const chunk of reader) {
      while (chunk.next()) {
        let line = chunk.line;
        let fields: string[];
        if (open) {
          const raw = chunk.raw();
          // The tokenizer skips blank lines; inside a quoted field they are part of the text.
          open.text += '\n'.repeat(chunk.line - open.last) + raw;
          open.quotes += countQuotes(raw);
          open.last = chunk.line;
          if (open.quotes % 2 === 1) {
            if (open.text.length <= MAX_RECORD_CHARS) continue;
            yield { line: open.line, value: undefined, issue: { field: '(csv)', reason: `quoted field not closed within ${MAX_RECORD_CHARS} characters` } };
            return;
          }
          line = open.line;
          const text = open.text;
          open = undefined;
          try {
            fields = parseCsvRecord(text);
          } catch (err) {
            if (!(err instanceof CsvError)) throw err;
            yield { line, value: undefined, issue: { field: '(csv)', reason: err.reason } };
            continue;
          }
        } else if (chunk.error !== undefined) {
          const raw = chunk.raw();
          const quotes = countQuotes(raw);
          if (quotes % 2 === 1) {
            open = { line: chunk.line, text: raw, quotes, last: chunk.line };
            continue;
          }
          yield { line: chunk.line, value: undefined, issue: { field: '(csv)', reason: chunk.error } };
          continue;
        } else {
          fields = chunk.fields();
        }
        if (!header) {
          header = fields.map((f) => f.trim());
          cells = cellsFor(header);
          continue;
        }
        if (fields.length !== header.length) {
          yield { line, value: undefined, issue: { field: '(csv)', reason: `has ${fields.length} fields, the header has ${header.length}` } };
          continue;
        }
        const record: Obj = {};
        for (const [i, name] of header.entries()) {
          const cell = fields[i]!;
          if (cell === '') continue;
          // Column names are file content: never let one reach a prototype (`__proto__.x`).
          const dot = name.indexOf('.');
          if (dot > 0) {
            const parent = name.slice(0, dot);
            const child = name.slice(dot + 1);
            if (UNSAFE_KEYS.has(parent) || UNSAFE_KEYS.has(child)) continue;
            const sub = Object.hasOwn(record, parent) && isObj(record[parent]) ? (record[parent] as Obj) : (record[parent] = {});
            sub[child] = cell;
          } else if (!UNSAFE_KEYS.has(name)) record[name] = Object.hasOwn(cells, name) ? cells[name]!(cell) : cell;
        }
        yield { line, value: record };
      }
    }
  } catch (err) {
    if (err instanceof CsvError) yield { line: err.line, value: undefined, issue: { field: '(csv)', reason: err.reason } };
    else throw err;
  }
  if (open) yield { line: open.line, value: undefined, issue: { field: '(csv)', reason: 'unterminated quoted field (it runs to the end of the file)' } };
}

export type FileFormat = 'json' | 'ndjson' | 'csv';

/** By extension (.csv, .ndjson/.jsonl, .json; under .gz too), else by the first characters. */
export async function detectFormat(file: string): Promise<FileFormat> {
  const name = basename(file).toLowerCase().replace(/\.gz$/, '');
  if (name.endsWith('.csv')) return 'csv';
  if (name.endsWith('.ndjson') || name.endsWith('.jsonl')) return 'ndjson';
  const head = (await firstChars(file, 64 * 1024)).trimStart();
  if (head.startsWith('[')) return 'json';
  if (head.startsWith('{')) {
    // One complete object on the first line is NDJSON, unless it is an upstream body with "results".
    try {
      const first: unknown = JSON.parse(head.split('\n', 1)[0]!);
      return isObj(first) && Array.isArray(first.results) ? 'json' : 'ndjson';
    } catch {
      return 'json';
    }
  }
  return name.endsWith('.json') ? 'json' : 'csv';
}

type JsonParse = (text: string) => unknown;

/** The exact parse of JSON records: integers of 16 digits or more as their decimal text. */
export { parseJsonLongIntegersAsText as parseJsonExact };

/**
 * The records of a file in the given format; CSV cells stay text unless `cellsFor` converts them.
 * With `exactIntegers`, JSON integers of 16 digits or more come as decimal text (parseJsonLongIntegersAsText).
 */
export function readSourceRecords(file: string, format: FileFormat, cellsFor: CsvCellConverters = () => ({}), opts: { exactIntegers?: boolean } = {}): AsyncGenerator<SourceRecord> {
  if (format === 'csv') return csvRecords(file, cellsFor);
  const parse: JsonParse = opts.exactIntegers ? parseJsonLongIntegersAsText : JSON.parse;
  if (format === 'ndjson') return ndjsonRecords(file, parse);
  return jsonRecords(file, parse);
}
