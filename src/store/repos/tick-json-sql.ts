// Pages of v3 trades and quotes and of minute bars written as JSON by the engine itself: one statement
// returns the page's rows already as JSON items joined by commas (bytes on SQLite), with what the
// cursor needs (the page's last row, whether another follows). No row reaches JavaScript, which
// on a page of tens of thousands of rows spares an array and a dozen values per row and the text
// built from them.
//
// The items hold the same fields with the same values as services/tick-json.ts writes from raw
// rows (tests compare the two on both engines), keys in the same order, absent values omitted:
// - integers (times in ns, sequence numbers, codes) as the engine's decimal text, exact in 64 bits;
// - prices and sizes as the engine's text of the double, which both engines write so that it
//   reads back as the same double (SQLite 3.43+; PostgreSQL 12+ with extra_float_digits >= 1,
//   its default); it may differ from JavaScript's text ("100.0" for 100) but not in value;
// - decimal_size (the size rounded to six decimals, trailing zeros dropped down to one) as the
//   size's shortest text when that has no exponent and at most six decimals and the size is under
//   1e9: then rounding the double itself to six decimals gives that text too (a double under 1e9 is
//   within 6e-8 of it). A page holding any other size is written by JavaScript instead.
import { DAY_MS } from '../../domain/rfc3339.js';
import type { SqlDriver, SqlValue } from '../driver.js';
import { joinedPage, joinedPageBranch, keyRowsBranch, LONG_READ_ROWS, pageKeys } from './joined-json.js';
import { toNumber } from '../driver.js';
import type { BarJsonPage, BarRange, MinuteBarDayItems, TickJsonPage, TickListItems, TickListPart, TickRange, TradeJsonForm } from './market-port.js';

type Engine = SqlDriver['engine'];

/** A JSON string literal of a text column. */
const quoted = (engine: Engine, col: string) => (engine === 'sqlite' ? `json_quote(${col})` : `to_json(${col})::text`);

/** The text of an integer or double column (see the file's comment for doubles). */
const text = (col: string) => `CAST(${col} AS TEXT)`;

/** `,"key":value` when the column is not null, else nothing. */
const optional = (key: string, col: string, value = text(col)) => `CASE WHEN ${col} IS NULL THEN '' ELSE ',"${key}":' || ${value} END`;

/** Where `c` first stands in `size_text` (1-based; 0: nowhere). */
const inSizeText = (engine: Engine, c: string) => (engine === 'sqlite' ? `instr(size_text, '${c}')` : `strpos(size_text, '${c}')`);

/** Whether the size's shortest text (`size_text`) is its decimal_size as well (see the file's comment). */
const sizeTextIsDecimal = (engine: Engine) => {
  const dot = inSizeText(engine, '.');
  return `abs(size) < 1e9 AND ${inSizeText(engine, 'e')} = 0 AND (${dot} = 0 OR length(size_text) - ${dot} <= 6)`;
};

/**
 * The JSON object of one trade row, from the columns of the page's subquery (which names
 * `size_text`, the size's shortest text, so that it is formatted once).
 */
function tradeObject(engine: Engine, form: TradeJsonForm): string {
  const parts = [
    `'{' || CASE WHEN conditions IS NULL OR conditions = '' THEN '' ELSE '"conditions":[' || conditions || '],' END`,
    `CASE WHEN correction IS NULL THEN '' ELSE '"correction":' || ${text('correction')} || ',' END`,
  ];
  // "236.000000" → "236.0", "0.250000" → "0.25"
  // SQLite writes "100.0" for 100, PostgreSQL "100": decimal_size always has a fractional part
  if (form.decimalSize) parts.push(`'"decimal_size":"' || size_text || CASE WHEN ${inSizeText(engine, '.')} = 0 THEN '.0' ELSE '' END || '",'`);
  parts.push(`'"exchange":' || ${text('exchange')}`);
  parts.push(`CASE WHEN id = '' THEN '' ELSE ',"id":' || ${quoted(engine, 'id')} END`);
  parts.push(
    form.crypto
      ? `',"participant_timestamp":' || ${text('COALESCE(participant_timestamp, sip_timestamp)')}`
      : optional('participant_timestamp', 'participant_timestamp'),
  );
  parts.push(`',"price":' || ${text('price')}`);
  parts.push(`CASE WHEN sequence_number = -1 THEN '' ELSE ',"sequence_number":' || ${text('sequence_number')} END`);
  if (!form.crypto) parts.push(`',"sip_timestamp":' || ${text('sip_timestamp')}`);
  parts.push(`',"size":' || size_text`);
  parts.push(optional('tape', 'tape'), optional('trf_id', 'trf_id'), optional('trf_timestamp', 'trf_timestamp'), `'}'`);
  return parts.join('\n || ');
}

/** The JSON object of one quote row (quotesJson's keys and order; forex quotes have no SIP time). */
function quoteObject(): string {
  return [
    `'{' || CASE WHEN ask_exchange IS NULL THEN '' ELSE '"ask_exchange":' || ${text('ask_exchange')} || ',' END`,
    `'"ask_price":' || ${text('ask_price')}`,
    optional('ask_size', 'ask_size'),
    optional('bid_exchange', 'bid_exchange'),
    `',"bid_price":' || ${text('bid_price')}`,
    optional('bid_size', 'bid_size'),
    `CASE WHEN conditions IS NULL OR conditions = '' THEN '' ELSE ',"conditions":[' || conditions || ']' END`,
    `CASE WHEN indicators IS NULL OR indicators = '' THEN '' ELSE ',"indicators":[' || indicators || ']' END`,
    optional('participant_timestamp', 'participant_timestamp'),
    `CASE WHEN sequence_number = -1 THEN '' ELSE ',"sequence_number":' || ${text('sequence_number')} END`,
    `CASE WHEN ts_is_sip = 1 THEN ',"sip_timestamp":' || ${text('ts')} ELSE '' END`,
    optional('tape', 'tape'),
    optional('trf_timestamp', 'trf_timestamp'),
    `'}'`,
  ].join('\n || ');
}

/** The rows of a tick page: `where` and `params` select the range's rows, `orderBy` orders them (naming the table's columns), `rowOrder` is that order by bare names. */
export interface TickPageQuery {
  where: string;
  params: readonly SqlValue[];
  orderBy: string;
  rowOrder: string;
}

/**
 * Reads a page of ticks of `table` (range.limit is the page size plus one: the row that tells
 * whether more follow) as JSON objects written by `object` over the table's columns and `extra`;
 * undefined when `check` does not hold for every row of the page.
 */
async function readTickJsonPage(db: SqlDriver, table: string, time: string, object: string, extra: string, check: string, range: TickRange, query: TickPageQuery): Promise<TickJsonPage | undefined> {
  const size = range.limit - 1;
  const { where, params, orderBy, rowOrder } = query;
  const pageRows = `(SELECT *${extra} FROM ${table} WHERE ${where} ORDER BY ${orderBy} LIMIT ?)`;
  const keyRows = `(SELECT ${time}, sequence_number, pk FROM ${table} WHERE ${where} ORDER BY ${orderBy} LIMIT 2 OFFSET ?)`;
  const keyColumns = `${text(time)} AS time_text, ${text('sequence_number')} AS seq, ${text('pk')} AS pk_text, CAST(NULL AS BIGINT) AS writable`;
  const rows = await db.rawRows(
    `${keyRowsBranch(db.engine, keyColumns, keyRows, rowOrder)}
     UNION ALL
     ${joinedPageBranch(db.engine, object, pageRows, rowOrder, { more: `, NULL, NULL, NULL, min(CASE WHEN ${check} THEN 1 ELSE 0 END)` })}`,
    [...params, size - 1, ...params, size],
    { long: size >= LONG_READ_ROWS },
  );
  // a row the engine cannot write as JavaScript does: the caller writes the page from raw rows
  if (rows.some((r) => r[0] === 'page' && toNumber(r[2] as number) > 0 && toNumber(r[8] as number) !== 1)) return undefined;
  const { items, count } = joinedPage(rows);
  const out: TickJsonPage = { items, count };
  const { last, next } = pageKeys(rows);
  if (last && next) out.next = { ts: String(last[0]), seq: String(last[1]), pk: String(last[2]) };
  return out;
}

/** A page of trades as JSON (see readTickJsonPage), in `form`; undefined when a size needs JavaScript's writing. */
export function readTradesJsonPage(db: SqlDriver, range: TickRange, form: TradeJsonForm, query: TickPageQuery): Promise<TickJsonPage | undefined> {
  return readTickJsonPage(db, 'trades', 'sip_timestamp', tradeObject(db.engine, form), `, ${text('size')} AS size_text`, form.decimalSize ? sizeTextIsDecimal(db.engine) : '1 = 1', range, query);
}

/** A page of quotes as JSON (see readTickJsonPage). */
export async function readQuotesJsonPage(db: SqlDriver, range: TickRange, query: TickPageQuery): Promise<TickJsonPage> {
  return (await readTickJsonPage(db, 'quotes', 'ts', quoteObject(), '', '1 = 1', range, query))!; // every quote can be written
}

/** Tick list reads of fewer rows run on SQLite's serving connection: about a ms, less than the hand-over to its reader thread. */
const LIST_READ_ON_LOOP_ROWS = 256;

/**
 * Ticks per part of a list read on PostgreSQL. Its rows arrive as text the driver decodes on the
 * event loop, each row at once: a whole list of 60,000 trades as one row of about 13 MB held the
 * loop 15-30 ms; rows of 4,096 ticks (about 1 MB) are decoded as they arrive, a ms or so each.
 */
const PG_PART_ROWS = 4096;

/**
 * The newest `maxRows` trades (form given) or quotes of `ticker`, of time `since` or later when
 * given, newest first (time, then sequence number, then store key, all descending), as the JSON
 * items readTradesJsonPage and readQuotesJsonPage write, with each item's length in bytes and its
 * position; undefined when one of them is a trade whose size the engine cannot write as JavaScript
 * does. One row beyond `maxRows` is read to tell whether any was left out. SQLite answers in one
 * part (bytes, read off the event loop for long lists), PostgreSQL in parts of PG_PART_ROWS.
 */
export async function readTickListItems(db: SqlDriver, ticker: string, form: TradeJsonForm | 'quotes', maxRows: number, since?: bigint): Promise<TickListItems | undefined> {
  const quotes = form === 'quotes';
  const sqlite = db.engine === 'sqlite';
  const [table, time] = quotes ? ['quotes', 'ts'] : ['trades', 'sip_timestamp'];
  const object = quotes ? quoteObject() : tradeObject(db.engine, form);
  const check = quotes || !form.decimalSize ? '1' : `CASE WHEN ${sizeTextIsDecimal(db.engine)} THEN 1 ELSE 0 END`;
  const bytes = sqlite ? 'length(CAST(item AS BLOB))' : 'octet_length(item)';
  const order = 'time DESC, seq DESC, pk DESC';
  const items = `string_agg(item, ',' ORDER BY ${order})`;
  const params: SqlValue[] = since === undefined ? [ticker, maxRows + 1] : [ticker, since, maxRows + 1];
  const part = sqlite ? '0' : `(row_number() OVER (ORDER BY ${time} DESC, sequence_number DESC, pk DESC) - 1) / ${PG_PART_ROWS}`;
  const rows = await db.rawRows(
    `SELECT count(*), min(writable), ${sqlite ? `CAST(${items} AS BLOB)` : items},
            string_agg(CAST(${bytes} AS TEXT), ',' ORDER BY ${order}),
            string_agg(CAST(time AS TEXT) || ':' || CAST(seq AS TEXT) || ':' || CAST(pk AS TEXT), ',' ORDER BY ${order})
       FROM (SELECT ${object} AS item, ${check} AS writable, ${time} AS time, sequence_number AS seq, pk, ${part} AS part
               FROM (SELECT *${quotes ? '' : `, ${text('size')} AS size_text`} FROM ${table}
                      WHERE ticker = ?${since === undefined ? '' : ` AND ${time} >= ?`}
                      ORDER BY ${time} DESC, sequence_number DESC, pk DESC LIMIT ?) t) p
      GROUP BY part ORDER BY part`,
    params,
    // on SQLite, off the event loop unless it is a few ticks (a read of the live ticks written since the last)
    { long: maxRows >= LIST_READ_ON_LOOP_ROWS },
  );
  const parts: TickListPart[] = [];
  let n = 0;
  for (const [count, writable, joined, lengths, keys] of rows) {
    const c = toNumber(count as number);
    if (c === 0) continue; // SQLite's aggregate over no rows
    if (toNumber(writable as number) !== 1) return undefined;
    parts.push({ count: c, items: Buffer.isBuffer(joined) ? joined : String(joined), lengths: String(lengths), keys: String(keys) });
    n += c;
  }
  const read: TickListItems = { count: n, complete: true, parts };
  return n > maxRows ? withoutOldest(read) : read;
}

/** `read` without its last (oldest) item, marked incomplete. */
function withoutOldest(read: TickListItems): TickListItems {
  const cut = (joined: string) => joined.slice(0, Math.max(0, joined.lastIndexOf(',')));
  const last = read.parts[read.parts.length - 1]!;
  const parts = read.parts.slice(0, -1);
  if (last.count > 1) {
    const lastLength = Number(last.lengths.slice(last.lengths.lastIndexOf(',') + 1));
    // the item's length is in bytes: cut text by the bytes of its last item, not by characters
    const items = Buffer.isBuffer(last.items) ? last.items : Buffer.from(last.items);
    parts.push({ count: last.count - 1, items: items.subarray(0, Math.max(0, items.length - lastLength - 1)), lengths: cut(last.lengths), keys: cut(last.keys) });
  }
  return { count: read.count - 1, complete: false, parts };
}

/** The JSON object of one bar row (barTuplesJson's keys and order), `otc` added when asked. */
function barObject(otc: boolean): string {
  return [
    `'{' || CASE WHEN v IS NULL THEN '' ELSE '"v":' || ${text('v')} || ',' END`,
    `CASE WHEN vw IS NULL THEN '' ELSE '"vw":' || ${text('vw')} || ',' END`,
    `'"o":' || ${text('o')} || ',"c":' || ${text('c')} || ',"h":' || ${text('h')} || ',"l":' || ${text('l')} || ',"t":' || ${text('t')}`,
    optional('n', 'n'),
    `'${otc ? ',"otc":true' : ''}}'`,
  ].join('\n || ');
}

/**
 * Reads up to range.limit minute bars of one ticker in [fromMs, toMs) as JSON, with whether every
 * bar of the page starts on a whole minute and, when another bar follows the page, the times of
 * the page's last bar and of that one.
 */
export async function readMinuteBarsJsonPage(db: SqlDriver, range: BarRange, otc: boolean): Promise<BarJsonPage> {
  const dir = range.order === 'asc' ? 'ASC' : 'DESC';
  const where = 'ticker = ? AND t >= ? AND t < ?';
  const params: SqlValue[] = [range.ticker, range.fromMs, range.toMs];
  const pageRows = `(SELECT * FROM minute_bars WHERE ${where} ORDER BY t ${dir} LIMIT ?)`;
  const keyRows = `(SELECT t FROM minute_bars WHERE ${where} ORDER BY t ${dir} LIMIT 2 OFFSET ?)`;
  // Each page row (one, or one per chunk) also says whether all its bars start on the minute.
  const rows = await db.rawRows(
    `${keyRowsBranch(db.engine, 't, CAST(NULL AS BIGINT) AS aligned', keyRows, `t ${dir}`)}
     UNION ALL
     ${joinedPageBranch(db.engine, barObject(otc), pageRows, `t ${dir}`, { more: ', NULL, min(CASE WHEN t % 60000 = 0 THEN 1 ELSE 0 END)' })}`,
    [...params, range.limit - 1, ...params, range.limit],
    { long: range.limit - 1 >= LONG_READ_ROWS },
  );
  const { items, count } = joinedPage(rows);
  const out: BarJsonPage = { items, count, aligned: rows.every((r) => r[0] !== 'page' || toNumber(r[2] as number) === 0 || toNumber(r[6] as number) === 1) };
  const { last, next } = pageKeys(rows);
  if (last && next) {
    out.lastT = toNumber(last[0] as number);
    out.nextT = toNumber(next[0] as number);
  }
  return out;
}

/**
 * The first `maxRows` minute bars of one ticker in [fromMs, toMs), ascending, grouped by UTC day
 * (fromMs >= 0, so that integer division gives the day): per day its bars' JSON objects, written
 * as readMinuteBarsJsonPage writes them, and their times.
 */
export async function readMinuteBarDays(db: SqlDriver, ticker: string, fromMs: number, toMs: number, maxRows: number, otc: boolean): Promise<MinuteBarDayItems[]> {
  if (fromMs < 0) throw new RangeError(`readMinuteBarDays: fromMs must not be negative, got ${fromMs}`);
  const items = `string_agg(${barObject(otc)}, ',' ORDER BY t)`;
  const rows = await db.rawRows(
    `SELECT t / ${DAY_MS} AS day, ${db.engine === 'sqlite' ? `CAST(${items} AS BLOB)` : items} AS items, string_agg(${text('t')}, ',' ORDER BY t) AS times
       FROM (SELECT * FROM minute_bars WHERE ticker = ? AND t >= ? AND t < ? ORDER BY t LIMIT ?) p
      GROUP BY t / ${DAY_MS} ORDER BY day`,
    [ticker, fromMs, toMs, maxRows],
    { long: maxRows >= LONG_READ_ROWS },
  );
  return rows.map((r) => ({ day: toNumber(r[0] as number), items: Buffer.isBuffer(r[1]) ? r[1] : Buffer.from(String(r[1])), times: String(r[2]) }));
}
