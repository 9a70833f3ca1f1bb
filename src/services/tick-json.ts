// Large pages of trades, quotes and bars written as JSON text straight from the rows the store
// read (arrays of column values): the same bodies as tradeToWire / quoteToWire / the bar objects
// of rangeBars give through a JSON serializer, keys in the same order, optional keys omitted when
// absent. Nanosecond times and sequence numbers arrive as decimal text and are written as bare
// JSON integers, exact above 2^53, with no object or BigInt per tick.
import type { BarTuple } from '../domain/bars.js';
import type { TickerMarket } from '../domain/ticker-market.js';
import type { RawQuote, RawTrade } from '../store/repos/market-port.js';
import { decimalQuantity } from '../domain/decimal-quantity.js';

/** The stored sequence number of a tick without one. */
const NO_SEQUENCE = '-1';

// Condition and indicator lists repeat across rows: each stored text is turned into its JSON
// array once ('' for an empty list, which is omitted). Bounded, as the texts come from data.
const codeCache = new Map<string, string>();
const CODE_CACHE_MAX = 4096;

/** The JSON array of stored codes ('12,37' → '[12,37]'), or '' when there are none. */
function codesJson(stored: string | null): string {
  if (stored === null || stored === '') return '';
  let json = codeCache.get(stored);
  if (json === undefined) {
    json = JSON.stringify(stored.split(',').map(Number));
    if (codeCache.size >= CODE_CACHE_MAX) codeCache.clear();
    codeCache.set(stored, json);
  }
  return json;
}

/** A JSON string literal; ids are nearly always plain digits, which need no escaping. */
const PLAIN = /^[0-9A-Za-z_.:-]*$/;
const jsonString = (s: string): string => (PLAIN.test(s) ? `"${s}"` : JSON.stringify(s));

// The writers push pieces (strings and numbers) into one array joined once at the end: a flat
// string with no intermediate string per row (concatenating per row made ~1.6x the work).
type Pieces = (string | number)[];

/**
 * Which fields a list writes of each trade, in upstream's alphabetical key order: `venue` adds
 * correction, id, tape and the TRF fields; `crypto` writes the participant time (or the time key)
 * and no SIP time; `decimalSize` adds the size as text; `wholeSize` writes whole shares as `size`
 * and the exact size as `size_fraction`; `ticker` names the row's ticker.
 */
interface TradeForm {
  venue: boolean;
  crypto?: boolean;
  decimalSize?: boolean;
  wholeSize?: boolean;
  ticker?: string;
}

function writeTrades(rows: readonly RawTrade[], form: TradeForm): string {
  const { venue, crypto, decimalSize, wholeSize } = form;
  const name = form.ticker === undefined ? undefined : jsonString(form.ticker);
  const p: Pieces = ['['];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    p.push(i === 0 ? '{' : ',{');
    const codes = codesJson(r[9]);
    if (codes !== '') p.push('"conditions":', codes, ',');
    if (venue && r[10] !== null) p.push('"correction":', r[10], ',');
    if (decimalSize) p.push('"decimal_size":"', decimalQuantity(r[6]), '",');
    p.push('"exchange":', r[3]);
    if (venue && r[4] !== '') p.push(',"id":', jsonString(r[4]));
    const participant = crypto ? (r[7] ?? r[0]) : r[7];
    if (participant !== null) p.push(',"participant_timestamp":', participant);
    p.push(',"price":', r[5]);
    if (r[1] !== NO_SEQUENCE) p.push(',"sequence_number":', r[1]);
    if (!crypto) p.push(',"sip_timestamp":', r[0]);
    if (wholeSize) p.push(',"size":', Math.trunc(r[6]), ',"size_fraction":', r[6]);
    else p.push(',"size":', r[6]);
    if (venue && r[11] !== null) p.push(',"tape":', r[11]);
    if (name !== undefined) p.push(',"ticker":', name);
    if (venue && r[12] !== null) p.push(',"trf_id":', r[12]);
    if (venue && r[8] !== null) p.push(',"trf_timestamp":', r[8]);
    p.push('}');
  }
  p.push(']');
  return p.join('');
}

/**
 * v3 trades as a JSON array: tradeToWire's fields (stocks add decimal_size; crypto trades carry
 * their participant time, or the time key, and no SIP time).
 */
export function tradesJson(rows: readonly RawTrade[], market: TickerMarket): string {
  return writeTrades(rows, { venue: true, crypto: market === 'crypto', decimalSize: market === 'stocks' });
}

/** /options/v3/trades rows: an option trade's own fields and its ticker (see OptionTradeWire). */
export function optionTradesJson(rows: readonly RawTrade[], ticker: string): string {
  return writeTrades(rows, { venue: false, ticker });
}

/** /stocks/dev/trades rows: v3's stock trade with whole-share `size`, exact `size_fraction` and the ticker (see DevTradeWire). */
export function devTradesJson(rows: readonly RawTrade[], ticker: string): string {
  return writeTrades(rows, { venue: true, wholeSize: true, ticker });
}

/** The two sides of a quote, from ask_exchange to bid_size (the keys every quote list starts with). */
function pushQuoteSides(p: Pieces, r: RawQuote): void {
  if (r[8] !== null) p.push('"ask_exchange":', r[8], ',');
  p.push('"ask_price":', r[6]);
  if (r[7] !== null) p.push(',"ask_size":', r[7]);
  if (r[11] !== null) p.push(',"bid_exchange":', r[11]);
  p.push(',"bid_price":', r[9]);
  if (r[10] !== null) p.push(',"bid_size":', r[10]);
}

/** v3 quotes as a JSON array: quoteToWire's fields (forex quotes have no SIP time). */
export function quotesJson(rows: readonly RawQuote[]): string {
  const p: Pieces = ['['];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    p.push(i === 0 ? '{' : ',{');
    pushQuoteSides(p, r);
    const conditions = codesJson(r[12]);
    if (conditions !== '') p.push(',"conditions":', conditions);
    const indicators = codesJson(r[13]);
    if (indicators !== '') p.push(',"indicators":', indicators);
    if (r[4] !== null) p.push(',"participant_timestamp":', r[4]);
    if (r[1] !== NO_SEQUENCE) p.push(',"sequence_number":', r[1]);
    if (r[3] === 1) p.push(',"sip_timestamp":', r[0]);
    if (r[14] !== null) p.push(',"tape":', r[14]);
    if (r[5] !== null) p.push(',"trf_timestamp":', r[5]);
    p.push('}');
  }
  p.push(']');
  return p.join('');
}

/** /options/v3/quotes rows: the NBBO's sides, sequence, SIP time and the ticker (see OptionQuoteWire). */
export function optionQuotesJson(rows: readonly RawQuote[], ticker: string): string {
  const name = jsonString(ticker);
  const p: Pieces = ['['];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    p.push(i === 0 ? '{' : ',{');
    pushQuoteSides(p, r);
    if (r[1] !== NO_SEQUENCE) p.push(',"sequence_number":', r[1]);
    if (r[3] === 1) p.push(',"sip_timestamp":', r[0]);
    p.push(',"ticker":', name, '}');
  }
  p.push(']');
  return p.join('');
}

/**
 * Aggregate bars as a JSON array in upstream's key order (v, vw, o, c, h, l, t, n), `otc: true`
 * on each when set. Bars hold only numbers, which V8's JSON.stringify writes about twice as fast
 * from one short-lived object per bar as the pieces above (measured on 50,000 minute bars).
 */
export function barTuplesJson(rows: readonly BarTuple[], otc: boolean): string {
  const out = new Array<object>(rows.length);
  const flag = otc ? true : undefined;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    out[i] = { v: r[5] ?? undefined, vw: r[6] ?? undefined, o: r[1], c: r[4], h: r[2], l: r[3], t: r[0], n: r[7] ?? undefined, otc: flag };
  }
  return JSON.stringify(out);
}
