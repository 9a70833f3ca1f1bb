// Rows of upstream REST bodies of market data (bars, trades and quotes as the aggregates and v3
// endpoints give them), checked field by field: a record of the wrong shape refuses the whole page
// with `results[i].field: reason`. Integers of 16 digits or more come as decimal text from the
// REST client and are read exactly. Used by `sync rest`, read-through and the relay's gap repair.
import type { BarRow, QuoteRow, TradeRow } from '../domain/market-records.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A record that is not what the API promises: `field` is its path in the body (`results[3].o`). */
export class RecordShapeError extends Error {
  override readonly name = 'RecordShapeError';
  constructor(readonly field: string, readonly reason: string) {
    super(`${field}: ${reason}`);
  }
}

/** Reads the fields of one record, naming each by its path in the body when it is wrong. */
class Fields {
  constructor(private readonly v: Obj, private readonly at: string) {}

  private fail(name: string, reason: string): never {
    throw new RecordShapeError(`${this.at}.${name}`, reason);
  }

  has(name: string): boolean {
    return this.v[name] !== undefined && this.v[name] !== null;
  }

  num(name: string): number;
  num(name: string, optional: true): number | undefined;
  num(name: string, optional = false): number | undefined {
    const x = this.v[name];
    if (x === undefined || x === null) return optional ? undefined : this.fail(name, 'is missing');
    // Integers of 16 digits or more come as text from the exact parser.
    const n = typeof x === 'string' && /^-?\d{16,}$/.test(x) ? Number(x) : x;
    if (typeof n !== 'number' || !Number.isFinite(n)) return this.fail(name, `must be a number, got ${JSON.stringify(x)}`);
    return n;
  }

  int(name: string): number;
  int(name: string, optional: true): number | undefined;
  int(name: string, optional = false): number | undefined {
    const n = optional ? this.num(name, true) : this.num(name);
    if (n !== undefined && !Number.isSafeInteger(n)) return this.fail(name, `must be an integer, got ${JSON.stringify(this.v[name])}`);
    return n;
  }

  /** An integer of any size (nanosecond times, sequence numbers), exactly. */
  big(name: string): bigint;
  big(name: string, optional: true): bigint | undefined;
  big(name: string, optional = false): bigint | undefined {
    const x = this.v[name];
    if (x === undefined || x === null) return optional ? undefined : this.fail(name, 'is missing');
    if (typeof x === 'number' && Number.isSafeInteger(x)) return BigInt(x);
    if (typeof x === 'string' && /^-?\d+$/.test(x)) return BigInt(x);
    return this.fail(name, `must be an integer, got ${JSON.stringify(x)}`);
  }

  str(name: string): string;
  str(name: string, optional: true): string | undefined;
  str(name: string, optional = false): string | undefined {
    const x = this.v[name];
    if (x === undefined || x === null) return optional ? undefined : this.fail(name, 'is missing');
    if (typeof x !== 'string') return this.fail(name, `must be a string, got ${JSON.stringify(x)}`);
    return x;
  }

  bool(name: string): boolean | undefined {
    const x = this.v[name];
    if (x === undefined || x === null) return undefined;
    if (typeof x !== 'boolean') return this.fail(name, `must be true or false, got ${JSON.stringify(x)}`);
    return x;
  }

  ints(name: string): number[] | undefined {
    const x = this.v[name];
    if (x === undefined || x === null) return undefined;
    if (!Array.isArray(x) || !x.every((i) => typeof i === 'number' && Number.isSafeInteger(i))) return this.fail(name, 'must be a list of integers');
    return x as number[];
  }

  strings(name: string): string[] {
    const x = this.v[name];
    if (!Array.isArray(x) || !x.every((i) => typeof i === 'string')) return this.fail(name, 'must be a list of strings');
    return x as string[];
  }

  obj(name: string): Obj | undefined {
    const x = this.v[name];
    if (x === undefined || x === null) return undefined;
    if (!isObj(x)) return this.fail(name, 'must be an object');
    return x;
  }
}

/** The records of a list body's `results` (absent or null: none), each with its reader. */
export function resultsOf(body: Obj): Fields[] {
  const r = body.results;
  if (r === undefined || r === null) return [];
  if (!Array.isArray(r)) throw new RecordShapeError('results', 'must be a list');
  return r.map((v, i) => {
    if (!isObj(v)) throw new RecordShapeError(`results[${i}]`, 'must be an object');
    return new Fields(v, `results[${i}]`);
  });
}

export function barsOf(body: Obj, ticker: string): BarRow[] {
  return resultsOf(body).map((f) => ({
    ticker,
    t: f.int('t'),
    o: f.num('o'),
    h: f.num('h'),
    l: f.num('l'),
    c: f.num('c'),
    v: f.num('v', true),
    vw: f.num('vw', true),
    n: f.int('n', true),
  }));
}

/** Grouped daily bars: one bar per ticker, named by `T`. */
export function groupedBarsOf(body: Obj): BarRow[] {
  return resultsOf(body).map((f) => ({ ticker: f.str('T'), t: f.int('t'), o: f.num('o'), h: f.num('h'), l: f.num('l'), c: f.num('c'), v: f.num('v', true), vw: f.num('vw', true), n: f.int('n', true) }));
}

export function tradesOf(body: Obj, ticker: string): TradeRow[] {
  return resultsOf(body).map((f) => {
    const participant = f.big('participant_timestamp', true);
    // Crypto trades carry only the participant time (as the flat files do).
    const sip = f.has('sip_timestamp') ? f.big('sip_timestamp') : participant ?? f.big('sip_timestamp');
    return {
      ticker,
      sip_timestamp: sip,
      participant_timestamp: participant,
      trf_timestamp: f.big('trf_timestamp', true),
      price: f.num('price'),
      size: f.num('size'),
      exchange: f.int('exchange'),
      id: f.has('id') ? String(f.str('id')) : undefined,
      conditions: f.ints('conditions'),
      correction: f.int('correction', true),
      sequence_number: f.big('sequence_number', true),
      tape: f.int('tape', true),
      trf_id: f.int('trf_id', true),
    };
  });
}

export function quotesOf(body: Obj, ticker: string): QuoteRow[] {
  return resultsOf(body).map((f) => ({
    ticker,
    sip_timestamp: f.big('sip_timestamp', true),
    participant_timestamp: f.big('participant_timestamp', true),
    trf_timestamp: f.big('trf_timestamp', true),
    ask_price: f.num('ask_price'),
    ask_size: f.num('ask_size', true),
    ask_exchange: f.int('ask_exchange', true),
    bid_price: f.num('bid_price'),
    bid_size: f.num('bid_size', true),
    bid_exchange: f.int('bid_exchange', true),
    conditions: f.ints('conditions'),
    indicators: f.ints('indicators'),
    sequence_number: f.big('sequence_number', true),
    tape: f.int('tape', true),
  }));
}
