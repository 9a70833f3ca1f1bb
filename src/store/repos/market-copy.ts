// The stored columns of trades, quotes and bars, and those rows as PostgreSQL COPY text in that
// column order: what an import streams into the store (MarketDataPort.newRowsLoader). Free of
// any driver, so that the flat-file reader thread can encode batches as it parses them.
import type { BarRow, QuoteRow, TradeRow } from '../../domain/market-records.js';
import { copyTextString } from '../postgres/copy-text.js';
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

// One template per table, written straight from the row object: no array of values per row, no
// per-value dispatch. Numbers and bigints print as String() does (as the driver's COPY of value
// arrays writes them); absent values as \N.
const NULL_TEXT = '\\N';

/** copyTextString, remembering the last string (rows come grouped by ticker). */
function textEscaper(): (s: string) => string {
  let last = '';
  let lastText = '';
  return (s) => {
    if (s !== last) {
      last = s;
      lastText = copyTextString(s);
    }
    return lastText;
  };
}

export type CopyLine<T> = (row: T, ticker: (s: string) => string) => string;

const barLine: CopyLine<BarRow> = (b, ticker) =>
  `${ticker(b.ticker)}\t${b.t}\t${b.o}\t${b.h}\t${b.l}\t${b.c}\t${b.v ?? NULL_TEXT}\t${b.vw ?? NULL_TEXT}\t${b.n ?? NULL_TEXT}\n`;

const codesText = (codes: number[] | undefined): string => (codes === undefined || codes.length === 0 ? NULL_TEXT : codes.join(','));

const tradeLine: CopyLine<TradeRow> = (r, ticker) =>
  `${ticker(r.ticker)}\t${r.sip_timestamp}\t${r.sequence_number ?? NO_SEQUENCE}\t${r.exchange}\t${r.id === undefined ? NO_ID : copyTextString(r.id)}\t${r.price}\t${r.size}\t${
    r.participant_timestamp ?? NULL_TEXT}\t${r.trf_timestamp ?? NULL_TEXT}\t${codesText(r.conditions)}\t${r.correction ?? NULL_TEXT}\t${r.tape ?? NULL_TEXT}\t${r.trf_id ?? NULL_TEXT}\n`;

const quoteLine: CopyLine<QuoteRow> = (q, ticker) => {
  const ts = q.sip_timestamp ?? q.participant_timestamp;
  if (ts === undefined) throw new Error(`quote of ${q.ticker} has neither sip_timestamp nor participant_timestamp`);
  return `${ticker(q.ticker)}\t${ts}\t${q.sequence_number ?? NO_SEQUENCE}\t${q.sip_timestamp === undefined ? 0 : 1}\t${q.participant_timestamp ?? NULL_TEXT}\t${
    q.trf_timestamp ?? NULL_TEXT}\t${q.ask_price}\t${q.ask_size ?? NULL_TEXT}\t${q.ask_exchange ?? NULL_TEXT}\t${q.bid_price}\t${q.bid_size ?? NULL_TEXT}\t${
    q.bid_exchange ?? NULL_TEXT}\t${codesText(q.conditions)}\t${codesText(q.indicators)}\t${q.tape ?? NULL_TEXT}\n`;
};

const LINES: { [K in keyof NewRows]: CopyLine<NewRows[K]> } = { minute: barLine, trades: tradeLine, quotes: quoteLine };

/**
 * An encoder of batches of `kind` as COPY text of its columns (BAR_COLUMNS, TRADE_COLUMNS,
 * QUOTE_COLUMNS), for the batches of one stream.
 */
export function copyLineOf<K extends keyof NewRows>(kind: K): (rows: readonly NewRows[K][]) => string {
  const line = LINES[kind] as CopyLine<NewRows[K]>;
  const ticker = textEscaper();
  return (rows) => {
    const lines = new Array<string>(rows.length);
    for (let i = 0; i < rows.length; i++) lines[i] = line(rows[i]!, ticker);
    return lines.join('');
  };
}
