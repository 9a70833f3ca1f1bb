// The stored columns of trades, quotes and bars, and those rows in PostgreSQL's binary COPY
// format in that column order: what an import streams into the store (MarketDataPort.newRowsLoader). Free of
// any driver, so that the flat-file reader thread can encode batches as it parses them.
import type { BarRow, QuoteRow, TradeRow } from '../../domain/market-records.js';
import type { NewRows } from './market-port.js';

/** Stored for an absent sequence number / trade id (unique indexes treat NULLs as distinct). */
export const NO_SEQUENCE = -1n;
export const NO_ID = '';

export const BAR_COLUMNS = ['ticker', 't', 'o', 'h', 'l', 'c', 'v', 'vw', 'n'] as const;
export const TRADE_COLUMNS = [
  'ticker', 'sip_timestamp', 'sequence_number', 'exchange', 'id', 'price', 'size',
  'participant_timestamp', 'trf_timestamp', 'conditions', 'correction', 'tape', 'trf_id',
] as const;
export const QUOTE_COLUMNS = [
  'ticker', 'ts', 'sequence_number', 'ts_is_sip', 'participant_timestamp', 'trf_timestamp',
  'ask_price', 'ask_size', 'ask_exchange', 'bid_price', 'bid_size', 'bid_exchange', 'conditions', 'indicators', 'tape',
] as const;

// Rows go out in PostgreSQL's binary COPY format: per row a 16-bit field count, then per field
// a 32-bit length (-1: NULL) and the value as the column's type sends it (text: UTF-8; bigint:
// 8 bytes; integer: 4; double precision: an 8-byte IEEE double; all big-endian). The server then
// parses no numbers, and neither side formats any. The types are those of the columns in
// migrations/postgres/0100_market_data.sql, which the server checks: a column whose type changed
// fails the COPY ("incorrect binary data format"). Values print exactly as the driver's COPY of
// value arrays stores them (-0 as 0, as String(-0) is '0').

/** Writes binary COPY tuples into a growing buffer. */
class TupleWriter {
  private buf: Buffer;
  private view: DataView;
  pos = 0;

  constructor(bytes: number) {
    this.buf = Buffer.allocUnsafe(bytes);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.length);
  }

  /** Room for `bytes` more. */
  room(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + bytes));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
    this.view = new DataView(grown.buffer, grown.byteOffset, grown.length);
  }

  /** Starts a row of `fields` values with its ticker, making room for `fixed` more bytes. */
  row(fields: number, ticker: Buffer, fixed: number): void {
    this.room(2 + 4 + ticker.length + fixed);
    this.view.setInt16(this.pos, fields);
    this.pos += 2;
    this.bytes(ticker);
  }

  null(): void {
    this.view.setInt32(this.pos, -1);
    this.pos += 4;
  }

  text(s: string): void {
    this.room(4 + 3 * s.length);
    const n = this.buf.write(s, this.pos + 4, 'utf8');
    this.view.setInt32(this.pos, n);
    this.pos += 4 + n;
  }

  bytes(b: Buffer): void {
    this.room(4 + b.length);
    this.view.setInt32(this.pos, b.length);
    b.copy(this.buf, this.pos + 4);
    this.pos += 4 + b.length;
  }

  int8(v: bigint): void {
    this.view.setInt32(this.pos, 8);
    this.view.setBigInt64(this.pos + 4, v);
    this.pos += 12;
  }

  /** A bigint column holding an integer number (Unix ms, counts: 0 … 2^53). */
  int8n(v: number): void {
    this.view.setInt32(this.pos, 8);
    this.view.setUint32(this.pos + 4, Math.floor(v / 4294967296));
    this.view.setUint32(this.pos + 8, v >>> 0);
    this.pos += 12;
  }

  int4(v: number, column: string): void {
    if (!(v >= -2147483648 && v <= 2147483647)) throw new RangeError(`${column}: ${v} is out of range for type integer`);
    this.view.setInt32(this.pos, 4);
    this.view.setInt32(this.pos + 4, v);
    this.pos += 8;
  }

  float8(v: number): void {
    this.view.setInt32(this.pos, 8);
    this.view.setFloat64(this.pos + 4, v + 0);
    this.pos += 12;
  }

  optInt8(v: bigint | undefined): void {
    if (v === undefined) this.null();
    else this.int8(v);
  }

  optInt8n(v: number | undefined): void {
    if (v === undefined) this.null();
    else this.int8n(v);
  }

  optInt4(v: number | undefined, column: string): void {
    if (v === undefined) this.null();
    else this.int4(v, column);
  }

  optFloat8(v: number | undefined): void {
    if (v === undefined) this.null();
    else this.float8(v);
  }

  optCodes(codes: number[] | undefined): void {
    if (codes === undefined || codes.length === 0) this.null();
    else this.text(codes.join(','));
  }

  /** The tuples written, in a buffer of their own. */
  take(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}

/** A ticker's UTF-8 bytes, remembering the last one (rows come grouped by ticker). */
function tickerBytes(): (s: string) => Buffer {
  let last = '';
  let lastBytes = Buffer.alloc(0);
  return (s) => {
    if (s !== last) {
      last = s;
      lastBytes = Buffer.from(s, 'utf8');
    }
    return lastBytes;
  };
}

type Tuple<T> = (w: TupleWriter, row: T, ticker: (s: string) => Buffer) => void;

// Fixed bytes of a row besides its texts; texts get room of their own as they are written.
const BAR_BYTES = 8 * 4 + 8 * 8;
const barTuple: Tuple<BarRow> = (w, b, ticker) => {
  w.row(9, ticker(b.ticker), BAR_BYTES);
  w.int8n(b.t);
  w.float8(b.o);
  w.float8(b.h);
  w.float8(b.l);
  w.float8(b.c);
  w.optFloat8(b.v);
  w.optFloat8(b.vw);
  w.optInt8n(b.n);
};

const TRADE_BYTES = 12 * 4 + 4 * 8 + 2 * 8 + 4 * 4;
const tradeTuple: Tuple<TradeRow> = (w, r, ticker) => {
  w.row(13, ticker(r.ticker), TRADE_BYTES);
  w.int8(r.sip_timestamp);
  w.int8(r.sequence_number ?? NO_SEQUENCE);
  w.int4(r.exchange, 'exchange');
  w.text(r.id ?? NO_ID);
  w.room(TRADE_BYTES);
  w.float8(r.price);
  w.float8(r.size);
  w.optInt8(r.participant_timestamp);
  w.optInt8(r.trf_timestamp);
  w.optCodes(r.conditions);
  w.room(TRADE_BYTES);
  w.optInt4(r.correction, 'correction');
  w.optInt4(r.tape, 'tape');
  w.optInt4(r.trf_id, 'trf_id');
};

const QUOTE_BYTES = 14 * 4 + 8 * 8 + 4 * 4;
const quoteTuple: Tuple<QuoteRow> = (w, q, ticker) => {
  const ts = q.sip_timestamp ?? q.participant_timestamp;
  if (ts === undefined) throw new Error(`quote of ${q.ticker} has neither sip_timestamp nor participant_timestamp`);
  w.row(15, ticker(q.ticker), QUOTE_BYTES);
  w.int8(ts);
  w.int8(q.sequence_number ?? NO_SEQUENCE);
  w.int4(q.sip_timestamp === undefined ? 0 : 1, 'ts_is_sip');
  w.optInt8(q.participant_timestamp);
  w.optInt8(q.trf_timestamp);
  w.float8(q.ask_price);
  w.optFloat8(q.ask_size);
  w.optInt4(q.ask_exchange, 'ask_exchange');
  w.float8(q.bid_price);
  w.optFloat8(q.bid_size);
  w.optInt4(q.bid_exchange, 'bid_exchange');
  w.optCodes(q.conditions);
  w.optCodes(q.indicators);
  w.room(QUOTE_BYTES);
  w.optInt4(q.tape, 'tape');
};

const TUPLES: { [K in keyof NewRows]: { tuple: Tuple<NewRows[K]>; bytes: number } } = {
  minute: { tuple: barTuple, bytes: BAR_BYTES + 16 },
  trades: { tuple: tradeTuple, bytes: TRADE_BYTES + 32 },
  quotes: { tuple: quoteTuple, bytes: QUOTE_BYTES + 24 },
};

/**
 * An encoder of batches of `kind` as binary COPY tuples of its columns (BAR_COLUMNS,
 * TRADE_COLUMNS, QUOTE_COLUMNS), for the batches of one stream (the stream adds the format's
 * header and trailer).
 */
export function copyRowsOf<K extends keyof NewRows>(kind: K): (rows: readonly NewRows[K][]) => Uint8Array {
  const { tuple, bytes } = TUPLES[kind] as { tuple: Tuple<NewRows[K]>; bytes: number };
  const ticker = tickerBytes();
  return (rows) => {
    const w = new TupleWriter(rows.length * bytes + 64);
    for (let i = 0; i < rows.length; i++) tuple(w, rows[i]!, ticker);
    return w.take();
  };
}
