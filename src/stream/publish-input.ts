// The body of POST /admin/publish: NDJSON of events in the feed's wire shape, or a flat-file CSV
// of trades or quotes (header first, as the importer reads them). Every line is checked before
// anything is written; the first bad one is reported by its line number.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlatFileError, readFlatFile } from '../ingest/flatfile.js';
import type { FuturesQuote, FuturesTrade } from '../domain/futures-market.js';
import type { QuoteRow, TradeRow } from '../domain/market-records.js';
import { parseJsonExact, type WireEvent } from './json.js';
import { CHANNELS, marketOfEvent, symbolKeyOf, type FeedMarket } from './markets.js';
import { eventOfQuote, eventOfTrade, quoteOfEvent, tradeOfEvent } from './wire-rows.js';
import { futuresQuoteOfEvent, futuresTradeOfEvent } from './futures-rows.js';

export interface PublishedEvent {
  market: FeedMarket;
  event: WireEvent;
  /** The flat-file row the event came from (its ns times are exact; the event's are ms). */
  row?: { trade: TradeRow } | { quote: QuoteRow };
}

export class PublishInputError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(line > 0 ? `line ${line}: ${reason}` : reason);
  }
}

type Kind = 'str' | 'num' | 'int' | 'int32' | 'int64' | 'int[]' | 'ms';

// Fields that must be present, and their types, for the channels that are stored or aggregated.
// `ms` is a Unix-millisecond integer (a nanosecond or second value is refused: it would land
// decades away).
const REQUIRED: Readonly<Record<string, Readonly<Record<string, Kind>>>> = {
  T: { p: 'num', s: 'num', t: 'ms' },
  Q: { bp: 'num', ap: 'num', t: 'ms' },
  XT: { p: 'num', s: 'num', t: 'ms' },
  XQ: { bp: 'num', bs: 'num', ap: 'num', as: 'num', t: 'ms' },
  C: { a: 'num', b: 'num', t: 'ms' },
};

// Futures ticks are stored keyed by (contract, time, sequence number): a trade needs its `q`, and
// sizes are whole contracts. A quote may be one-sided.
const FUTURES_REQUIRED: Readonly<Record<string, Readonly<Record<string, Kind>>>> = {
  T: { p: 'num', s: 'int', t: 'ms', q: 'int64' },
  Q: { t: 'ms' },
};
const FUTURES_TYPED: Readonly<Record<string, Kind>> = { bp: 'num', ap: 'num', bs: 'int', as: 'int', bt: 'ms', at: 'ms', q: 'int64' };

// Optional fields whose type matters to clients (the Go client rejects an event with a wrong type).
// Exchange, tape and TRF ids are stored as 32-bit integers.
const TYPED: Readonly<Record<string, Kind>> = {
  x: 'int32', z: 'int32', q: 'int64', trfi: 'int32', trft: 'ms', bx: 'int32', ax: 'int32', bs: 'num', as: 'num', r: 'ms', s: 'num', e: 'ms',
};

const BAR_CHANNELS = new Set(['A', 'AM', 'XA', 'XAS', 'CA', 'CAS']);

const MS_MIN = 0;
const MS_MAX = 100_000_000_000_000; // year 5138: a 16-digit value is ns or µs, not ms

function check(kind: Kind, v: unknown): string | undefined {
  switch (kind) {
    case 'str':
      return typeof v === 'string' && v !== '' ? undefined : 'a non-empty string';
    case 'num':
      return typeof v === 'number' && Number.isFinite(v) ? undefined : 'a number';
    case 'int':
      // 1e300 is an integer to JavaScript, but no column holds it
      return typeof v === 'number' && Number.isSafeInteger(v) ? undefined : 'an integer (at most 2^53 - 1 in size)';
    case 'int32':
      return typeof v === 'number' && Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31 ? undefined : 'a 32-bit integer';
    case 'int64':
      return (typeof v === 'number' && Number.isSafeInteger(v)) || (typeof v === 'bigint' && v >= -(1n << 63n) && v < 1n << 63n) ? undefined : 'a 64-bit integer';
    case 'int[]':
      return Array.isArray(v) && v.every((x) => check('int32', x) === undefined) ? undefined : 'an array of 32-bit integers';
    case 'ms':
      return typeof v === 'number' && Number.isInteger(v) && v >= MS_MIN && v < MS_MAX ? undefined : 'a Unix time in milliseconds';
  }
}

// Loops rather than Object.entries/values: every published event passes here, and the arrays
// those make were a third of the check's time (10,000 events a second and more on the loop).
function hasNull(v: unknown): boolean {
  if (v === null) return true;
  if (typeof v !== 'object') return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (hasNull(v[i])) return true;
    return false;
  }
  for (const k in v) if (hasNull((v as Record<string, unknown>)[k])) return true;
  return false;
}

/** The required fields of each channel as [field, kind] pairs, listed once. */
const entriesOf = (table: Readonly<Record<string, Readonly<Record<string, Kind>>>>) =>
  new Map(Object.entries(table).map(([ev, fields]) => [ev, Object.entries(fields)] as const));
const REQUIRED_ENTRIES = entriesOf(REQUIRED);
const FUTURES_REQUIRED_ENTRIES = entriesOf(FUTURES_REQUIRED);
const NONE: Readonly<Record<string, Kind>> = {};

/** Checks one parsed NDJSON value; returns the event with its market, or the reason it is refused. */
export function validateEvent(value: unknown, marketOverride?: FeedMarket): PublishedEvent | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'expected a JSON object (one event per line)';
  const o = value as Record<string, unknown>;
  if (typeof o.ev !== 'string' || o.ev === '' || o.ev === 'status') return '"ev" must name an event type such as T, Q or AM';
  const symKey = symbolKeyOf(o.ev);
  const sym = o[symKey];
  if (typeof sym !== 'string' || sym === '') return `"${symKey}" (the symbol of a ${o.ev} event) must be a non-empty string`;
  // PostgreSQL's text cannot hold a NUL character, and no symbol or id has one
  if (sym.includes('\0')) return `"${symKey}" must not contain a NUL character`;
  const market = marketOverride ?? marketOfEvent(o.ev, sym);
  if (!CHANNELS[market].has(o.ev)) return `"ev" ${JSON.stringify(o.ev)} is not a channel of the ${market} market`;
  if (hasNull(o)) return 'null values are not allowed (leave the field out)';
  const futures = market === 'futures';
  const required = (futures ? FUTURES_REQUIRED : REQUIRED)[o.ev] ?? NONE;
  for (const [k, kind] of (futures ? FUTURES_REQUIRED_ENTRIES : REQUIRED_ENTRIES).get(o.ev) ?? []) {
    if (!(k in o)) return `"${k}" is required on ${futures ? 'futures ' : ''}${o.ev} events`;
    const bad = check(kind, o[k]);
    if (bad) return `"${k}" must be ${bad}`;
  }
  const bar = BAR_CHANNELS.has(o.ev);
  for (const k in o) {
    if (k in required) continue;
    // on bars `s` is the window start; on trades and quotes a size
    const kind = k === 's' && bar ? 'ms' : (futures ? FUTURES_TYPED[k] : undefined) ?? TYPED[k];
    const bad = kind && check(kind, o[k]);
    if (bad) return `"${k}" must be ${bad}`;
  }
  if ((o.ev === 'T' || o.ev === 'XT') && 'c' in o && check('int[]', o.c)) return '"c" must be an array of integers';
  if (o.ev === 'T' && 'i' in o && (typeof o.i !== 'string' || o.i.includes('\0'))) return '"i" (trade id) must be a string without a NUL character';
  return { market, event: o as WireEvent };
}

function parseNdjson(text: string, marketOverride?: FeedMarket): PublishedEvent[] {
  const out: PublishedEvent[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = parseJsonExact(line);
    } catch (err) {
      throw new PublishInputError(i + 1, `not valid JSON (${(err as Error).message})`);
    }
    const r = validateEvent(value, marketOverride);
    if (typeof r === 'string') throw new PublishInputError(i + 1, r);
    out.push(r);
  }
  return out;
}

/** Trades or quotes of a flat-file CSV, read by the importer's own reader. */
async function parseCsv(text: string): Promise<PublishedEvent[]> {
  const dir = await mkdtemp(join(tmpdir(), 'tickerbase-publish-'));
  const file = join(dir, 'body.csv');
  try {
    await writeFile(file, text);
    const out: PublishedEvent[] = [];
    for await (const b of readFlatFile(file)) {
      if (b.kind === 'trades') for (const r of b.batch) out.push({ ...toPublished(eventOfTrade(r)), row: { trade: r } });
      else if (b.kind === 'quotes') for (const r of b.batch) out.push({ ...toPublished(eventOfQuote(r)), row: { quote: r } });
      else throw new PublishInputError(1, 'only trades and quotes flat files can be published (this header is of aggregates)');
    }
    return out;
  } catch (err) {
    if (err instanceof FlatFileError) throw new PublishInputError(err.line, err.reason);
    throw err;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function toPublished(event: WireEvent): PublishedEvent {
  const sym = event[symbolKeyOf(event.ev)];
  return { market: marketOfEvent(event.ev, typeof sym === 'string' ? sym : ''), event };
}

/** Events of a publish body: NDJSON when the first non-blank character is `{`, else a flat-file CSV. */
export async function parsePublishBody(text: string, marketOverride?: FeedMarket): Promise<PublishedEvent[]> {
  const first = text.trimStart()[0];
  if (first === undefined) throw new PublishInputError(0, 'the body is empty: send NDJSON events or a trades/quotes CSV');
  if (first === '{') return parseNdjson(text, marketOverride);
  // the flat-file reader makes stock, option, forex and crypto rows; futures ticks are NDJSON events
  if (marketOverride === 'futures') throw new PublishInputError(1, 'futures events are published as NDJSON (one T or Q event per line); a CSV body is read as a stock, option, forex or crypto flat file');
  return parseCsv(text);
}

/** The rows checked events are stored as: trades and quotes, futures ones apart (bars and others are not stored as ticks). */
export function rowsOfEvents(items: readonly PublishedEvent[]): { trades: TradeRow[]; quotes: QuoteRow[]; futures: { trades: FuturesTrade[]; quotes: FuturesQuote[] } } {
  const trades: TradeRow[] = [];
  const quotes: QuoteRow[] = [];
  const futures = { trades: [] as FuturesTrade[], quotes: [] as FuturesQuote[] };
  for (const { event, market, row } of items) {
    if (row) {
      if ('trade' in row) trades.push(row.trade);
      else quotes.push(row.quote);
      continue;
    }
    if (market === 'futures') {
      if (event.ev === 'T') futures.trades.push(futuresTradeOfEvent(event));
      else if (event.ev === 'Q') futures.quotes.push(futuresQuoteOfEvent(event));
      continue;
    }
    const t = tradeOfEvent(event, market);
    if (t) trades.push(t);
    else {
      const q = quoteOfEvent(event, market);
      if (q) quotes.push(q);
    }
  }
  return { trades, quotes, futures };
}
