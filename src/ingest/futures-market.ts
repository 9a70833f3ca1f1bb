// Importer of futures market data: trades, quotes and minute bars of futures contracts, as a JSON
// array, an upstream response body ({"results": [...]}: /futures/vX/trades, /quotes, or /aggs at
// resolution=1min), NDJSON or CSV, with the API's field names. The kind comes from --dataset
// (futures-trades, futures-quotes, futures-bars) or from the fields: `timestamp` with price and
// size (trades) or a bid/ask price (quotes), `window_start` with OHLC and session_end_date or
// dollar_volume (bars; the stock minute flat files have neither). Nanosecond times and sequence
// numbers are read exactly (as text from CSV, as 16+ digit integers from JSON). A row without a
// session_end_date gets the trading date of the Globex session it falls in (or the next one).
// Every row is checked (`file:line: field: reason`); a bad row fails the file and nothing of it is
// written. Rows are upserted on their keys: a re-import replaces a stored row with the same key
// (corrections win).
import { statSync } from 'node:fs';
import { parseDate } from '../domain/calendar.js';
import { sessionEndDateOfNs, type FuturesMinuteBar, type FuturesQuote, type FuturesTrade } from '../domain/futures-market.js';
import { MAX_STORED_NS } from '../domain/nanoseconds.js';
import type { Store } from '../store/index.js';
import { fieldNamesFromHead } from './datasets.js';
import { ImportError, registerImporter, type Importer, type ImporterResult } from './load.js';
import { detectFormat, readSourceRecords, type FieldIssue } from './source-records.js';

const KINDS = ['futures-trades', 'futures-quotes', 'futures-bars'] as const;
type Kind = (typeof KINDS)[number];

const MAX_ISSUES = 20;
const BATCH = 5000;
const MINUTE_NS = 60_000_000_000n;

/** The kind of futures rows a file with these fields holds, if any. */
export function futuresKindOf(fields: Iterable<string>): Kind | undefined {
  const f = new Set(fields);
  if (!f.has('ticker') || f.has('sip_timestamp')) return undefined;
  if (f.has('timestamp') && (f.has('bid_price') || f.has('ask_price'))) return 'futures-quotes';
  if (f.has('timestamp') && f.has('price') && f.has('size')) return 'futures-trades';
  const ohlc = ['window_start', 'open', 'high', 'low', 'close'].every((k) => f.has(k));
  if (ohlc && (f.has('session_end_date') || f.has('dollar_volume'))) return 'futures-bars';
  return undefined;
}

type Obj = Record<string, unknown>;
const absent = (v: unknown) => v === undefined || v === null || v === '';

/** Reads a record's fields, collecting one issue per bad field. */
class FieldReader {
  readonly issues: FieldIssue[] = [];
  constructor(private readonly r: Obj) {}

  private fail(field: string, reason: string): undefined {
    this.issues.push({ field, reason });
    return undefined;
  }

  has(field: string): boolean {
    return !absent(this.r[field]);
  }

  ticker(): string {
    const v = this.r.ticker;
    if (typeof v !== 'string' || !/^[A-Za-z0-9:._-]{1,64}$/.test(v)) return this.fail('ticker', 'must be a contract ticker of 1 to 64 letters or digits') ?? '';
    return v.toUpperCase();
  }

  /** A 64-bit integer (ns time, sequence number) from decimal text or an exact JSON integer. */
  bigint(field: string, required: true): bigint;
  bigint(field: string, required?: false): bigint | undefined;
  bigint(field: string, required = false): bigint | undefined {
    const v = this.r[field];
    if (absent(v)) return required ? this.fail(field, 'is required') : undefined;
    const text = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : typeof v === 'string' ? v.trim() : '';
    if (!/^\d{1,19}$/.test(text) || BigInt(text) > MAX_STORED_NS) return this.fail(field, 'must be a non-negative integer (Unix ns for times)');
    return BigInt(text);
  }

  number(field: string, required: true, integer?: boolean): number;
  number(field: string, required?: false, integer?: boolean): number | undefined;
  number(field: string, required = false, integer = false): number | undefined {
    const v = this.r[field];
    if (absent(v)) return required ? this.fail(field, 'is required') : undefined;
    const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v.trim()) : NaN;
    if (!Number.isFinite(n)) return this.fail(field, 'must be a number');
    if (integer && (!Number.isSafeInteger(n) || n < 0)) return this.fail(field, 'must be a non-negative integer');
    return n;
  }

  /** session_end_date, or the trading date of `at` when the record has none. */
  sessionEndDate(at: bigint | undefined): string {
    const v = this.r.session_end_date;
    if (absent(v)) return at === undefined ? '' : sessionEndDateOfNs(at);
    if (typeof v !== 'string' || parseDate(v) === null) return this.fail('session_end_date', 'must be a real date in the form YYYY-MM-DD') ?? '';
    return v;
  }
}

function readTrade(r: FieldReader): FuturesTrade {
  const timestamp = r.bigint('timestamp', true);
  return {
    ticker: r.ticker(), timestamp, sequence_number: r.bigint('sequence_number', true), session_end_date: r.sessionEndDate(timestamp),
    price: r.number('price', true), size: r.number('size', true, true), report_sequence: r.bigint('report_sequence'), channel: r.number('channel', false, true),
  };
}

function readQuote(r: FieldReader): FuturesQuote {
  const timestamp = r.bigint('timestamp', true);
  const q: FuturesQuote = {
    ticker: r.ticker(), timestamp, sequence_number: r.bigint('sequence_number', true), session_end_date: r.sessionEndDate(timestamp),
    bid_price: r.number('bid_price'), bid_size: r.number('bid_size', false, true), bid_timestamp: r.bigint('bid_timestamp'),
    ask_price: r.number('ask_price'), ask_size: r.number('ask_size', false, true), ask_timestamp: r.bigint('ask_timestamp'),
    report_sequence: r.bigint('report_sequence'), channel: r.number('channel', false, true),
  };
  if (!r.has('bid_price') && !r.has('ask_price')) r.issues.push({ field: 'bid_price', reason: 'or ask_price is required' });
  return q;
}

function readBar(r: FieldReader): FuturesMinuteBar {
  const windowStart = r.bigint('window_start', true);
  if (windowStart !== undefined && windowStart % MINUTE_NS !== 0n) r.issues.push({ field: 'window_start', reason: 'must be the start of a minute in Unix ns (a multiple of 60,000,000,000)' });
  const bar: FuturesMinuteBar = {
    ticker: r.ticker(), window_start: windowStart, session_end_date: r.sessionEndDate(windowStart),
    open: r.number('open', true), high: r.number('high', true), low: r.number('low', true), close: r.number('close', true),
    volume: r.number('volume', true, true), transactions: r.number('transactions', true, true), dollar_volume: r.number('dollar_volume', true),
  };
  if (r.issues.length === 0 && (bar.low > Math.min(bar.open, bar.close) || bar.high < Math.max(bar.open, bar.close))) {
    r.issues.push({ field: 'high', reason: 'and low must hold open and close (low ≤ open, close ≤ high)' });
  }
  return bar;
}

type FuturesRow = FuturesTrade | FuturesQuote | FuturesMinuteBar;

const READERS: Record<Kind, (r: FieldReader) => FuturesRow> = { 'futures-trades': readTrade, 'futures-quotes': readQuote, 'futures-bars': readBar };

function writer(store: Store, kind: Kind): (rows: FuturesRow[]) => Promise<number> {
  if (kind === 'futures-trades') return (rows) => store.futures.insertTrades(rows as FuturesTrade[]);
  if (kind === 'futures-quotes') return (rows) => store.futures.insertQuotes(rows as FuturesQuote[]);
  return (rows) => store.futures.insertMinuteBars(rows as FuturesMinuteBar[]);
}

export const futuresMarketImporter: Importer = {
  name: 'futures-market',
  extensions: ['.json', '.ndjson', '.jsonl', '.csv', '.json.gz', '.ndjson.gz', '.jsonl.gz', '.csv.gz'],
  detect(path, head, opts) {
    if (opts?.dataset !== undefined) return (KINDS as readonly string[]).includes(opts.dataset);
    return futuresKindOf(fieldNamesFromHead(path, head)) !== undefined;
  },
  async run(ctx): Promise<ImporterResult> {
    const totalBytes = statSync(ctx.path).size;
    const format = await detectFormat(ctx.path);
    let kind = ctx.dataset as Kind | undefined;
    const issues: string[] = [];
    let more = 0;
    let rows = 0;
    let rejected = 0;
    let written = 0;
    let batch: FuturesRow[] = [];
    let write: ((rows: FuturesRow[]) => Promise<number>) | undefined;
    const flush = async () => {
      if (batch.length > 0 && issues.length === 0) written += await write!(batch);
      batch = [];
    };
    const report = (line: number, problems: FieldIssue[], raw: unknown) => {
      if (ctx.skipBadRows) {
        rejected++;
        ctx.reject({ line, reason: problems.map((p) => `${p.field}: ${p.reason}`).join('; '), raw: typeof raw === 'string' ? raw : JSON.stringify(raw) ?? '' });
        return;
      }
      for (const p of problems) {
        if (issues.length < MAX_ISSUES) issues.push(`${ctx.path}:${line}: ${p.field}: ${p.reason}`);
        else more++;
      }
    };
    for await (const rec of readSourceRecords(ctx.path, format, undefined, { exactIntegers: true })) {
      if (rec.issue) {
        report(rec.line, [rec.issue], '');
        continue;
      }
      if (typeof rec.value !== 'object' || rec.value === null || Array.isArray(rec.value)) {
        report(rec.line, [{ field: '(record)', reason: 'must be a JSON object' }], rec.value);
        continue;
      }
      if (kind === undefined) {
        kind = futuresKindOf(Object.keys(rec.value));
        if (kind === undefined) throw new ImportError(`${ctx.path}:${rec.line}: the fields (${Object.keys(rec.value).join(', ')}) are not those of futures trades, quotes or bars; pass --dataset (${KINDS.join(', ')})`);
      }
      write ??= writer(ctx.store, kind);
      const reader = new FieldReader(rec.value as Obj);
      const row = READERS[kind](reader);
      if (reader.issues.length > 0) {
        report(rec.line, reader.issues, rec.value);
        continue;
      }
      rows++;
      batch.push(row);
      if (batch.length >= BATCH) await flush();
    }
    if (issues.length > 0) throw new ImportError(issues.join('\n') + (more > 0 ? `\n… and ${more} more problem${more === 1 ? '' : 's'}` : ''));
    if (kind === undefined) throw new ImportError(`${ctx.path}:1: holds no records`);
    await flush();
    ctx.progress({ bytes: totalBytes, totalBytes, rows, rejected });
    return { kind, rows, written };
  },
};

registerImporter(futuresMarketImporter);
