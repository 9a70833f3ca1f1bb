import { randomBytes } from 'node:crypto';
import { tickerItemJson } from '../../domain/ticker-schemas.js';
import type { Row, SqlDriver, SqlValue } from '../driver.js';
import { toNumber, toOptionalString } from '../driver.js';
import type { ConditionRecord, ExchangeRecord, Market, TickerRecord, TickerTypeRecord } from '../records.js';
import { joinedPage, joinedPageBranch, keyRowsBranch, pageKeys, type JoinedItems } from './joined-json.js';
import { keysetCondition, likeContains, type KeysetPosition } from './keyset.js';

export const TICKER_SORT_FIELDS = [
  'ticker', 'name', 'market', 'locale', 'primary_exchange', 'type', 'currency_symbol', 'currency_name',
  'base_currency_symbol', 'base_currency_name', 'cik', 'composite_figi', 'share_class_figi',
  'last_updated_utc', 'delisted_utc',
] as const;
export type TickerSortField = (typeof TICKER_SORT_FIELDS)[number];
const NOT_NULL_TICKER_COLUMNS = new Set(['ticker', 'name', 'market', 'locale', 'last_updated_utc']);

export interface TickerQuery {
  ticker?: string;
  tickerGt?: string;
  tickerGte?: string;
  tickerLt?: string;
  tickerLte?: string;
  types?: string[];
  market?: Market;
  exchange?: string;
  cusip?: string;
  cik?: string;
  /** Point in time (YYYY-MM-DD); absent = the current version of each ticker. */
  date?: string;
  search?: string;
  active: boolean;
  sort: TickerSortField;
  order: 'asc' | 'desc';
  limit: number;
  after?: KeysetPosition;
}

export interface TickerRow {
  id: number;
  record: TickerRecord;
}

/** One page of the ticker list as its stored list-item JSON, joined by the engine. */
export interface TickerItemsPage {
  /** The page's items joined with commas (no brackets): bytes on SQLite, texts on PostgreSQL. */
  items: JoinedItems;
  count: number;
  /** The keyset position of the page's last row, when more rows follow it. */
  next?: KeysetPosition;
  /** The items are a slice of a list kept in memory (the ticker service's), not read from the store. */
  fromMemory?: boolean;
}

/** The current tickers of one list, in ticker order, as of one tickers version. */
export interface CurrentTickerItems {
  version: string;
  rows: { id: number; ticker: string; json: string }[];
}

export interface TickerItemRow {
  id: number;
  /** The row's value of the list's sort field ('' for none). */
  sortValue: string;
  /** The list item as JSON text. */
  json: string;
}

const CONDITION_SORT_EXPR = {
  asset_class: 'asset_class',
  id: 'id',
  type: 'type',
  name: 'name',
  data_types: 'data_types',
  legacy: 'legacy',
} as const;
export type ConditionSortField = keyof typeof CONDITION_SORT_EXPR;
export const CONDITION_SORT_FIELDS = Object.keys(CONDITION_SORT_EXPR) as ConditionSortField[];

export interface ConditionQuery {
  asset_class?: string;
  data_type?: string;
  id?: number;
  sip?: string;
  sort: ConditionSortField;
  order: 'asc' | 'desc';
  limit: number;
  after?: KeysetPosition;
}

const TICKER_COLUMNS = [
  'ticker', 'valid_from', 'valid_to', 'name', 'market', 'locale', 'primary_exchange', 'type', 'active',
  'currency_name', 'currency_symbol', 'base_currency_symbol', 'base_currency_name', 'cik', 'composite_figi',
  'share_class_figi', 'cusip', 'last_updated_utc', 'delisted_utc', 'list_date', 'details',
] as const;

// Fields kept in the `details` JSON column: shown by the overview only, never filtered on.
const DETAIL_FIELDS = [
  'description', 'homepage_url', 'phone_number', 'address', 'branding', 'market_cap',
  'share_class_shares_outstanding', 'weighted_shares_outstanding', 'round_lot', 'sic_code', 'sic_description',
  'ticker_root', 'ticker_suffix', 'total_employees', 'source_feed',
] as const;

function tickerToRow(t: TickerRecord): SqlValue[] {
  const details: Record<string, unknown> = {};
  for (const f of DETAIL_FIELDS) if (t[f] !== undefined) details[f] = t[f];
  return [
    t.ticker, t.valid_from, t.valid_to ?? null, t.name, t.market, t.locale, t.primary_exchange ?? null,
    t.type ?? null, t.active ? 1 : 0, t.currency_name ?? null, t.currency_symbol ?? null,
    t.base_currency_symbol ?? null, t.base_currency_name ?? null, t.cik ?? null, t.composite_figi ?? null,
    t.share_class_figi ?? null, t.cusip ?? null, t.last_updated_utc, t.delisted_utc ?? null, t.list_date ?? null,
    Object.keys(details).length > 0 ? JSON.stringify(details) : null,
    tickerItemJson(t),
  ];
}

const OPTIONAL_TEXT = [
  'primary_exchange', 'type', 'currency_name', 'currency_symbol', 'base_currency_symbol', 'base_currency_name',
  'cik', 'composite_figi', 'share_class_figi', 'cusip', 'delisted_utc', 'list_date', 'valid_to',
] as const;

function rowToTicker(row: Row): TickerRecord {
  const t: TickerRecord = {
    ticker: String(row.ticker),
    name: String(row.name),
    market: String(row.market) as Market,
    locale: String(row.locale) as 'us' | 'global',
    active: toNumber(row.active) === 1,
    last_updated_utc: String(row.last_updated_utc),
    valid_from: String(row.valid_from),
  };
  for (const f of OPTIONAL_TEXT) {
    const v = toOptionalString(row[f]);
    if (v !== undefined) (t as unknown as Record<string, unknown>)[f] = v;
  }
  if (row.details) Object.assign(t, JSON.parse(String(row.details)));
  return t;
}

function withBody<T>(row: Row): T {
  return JSON.parse(String(row.body)) as T;
}

/** WHERE and ORDER BY of a ticker list query; params end with the LIMIT's. */
function tickerListFilter(q: TickerQuery): { where: string; params: SqlValue[]; orderBy: string; sortExpr: string; dir: 'ASC' | 'DESC' } {
  const where: string[] = [];
  const params: SqlValue[] = [];
  if (q.date) {
    where.push('valid_from <= ? AND (valid_to IS NULL OR valid_to > ?)');
    params.push(q.date, q.date);
    // Active on D: listed on or before D and not delisted before D.
    const activeOn = '((list_date IS NULL OR list_date <= ?) AND (delisted_utc IS NULL OR substr(delisted_utc, 1, 10) >= ?))';
    where.push(q.active ? activeOn : `NOT ${activeOn}`);
    params.push(q.date, q.date);
  } else {
    where.push('valid_to IS NULL', 'active = ?');
    params.push(q.active ? 1 : 0);
  }
  const eq = (col: string, v: string | undefined) => {
    if (v !== undefined) {
      where.push(`${col} = ?`);
      params.push(v);
    }
  };
  eq('ticker', q.ticker);
  eq('market', q.market);
  eq('primary_exchange', q.exchange);
  eq('cusip', q.cusip);
  eq('cik', q.cik);
  for (const [op, v] of [['>', q.tickerGt], ['>=', q.tickerGte], ['<', q.tickerLt], ['<=', q.tickerLte]] as const) {
    if (v !== undefined) {
      where.push(`ticker ${op} ?`);
      params.push(v);
    }
  }
  if (q.types && q.types.length > 0) {
    // Index tickers may carry no type at all; the index type selects the indices market too.
    const marks = q.types.map(() => '?').join(', ');
    where.push(q.types.includes('IX') ? `(type IN (${marks}) OR market = 'indices')` : `type IN (${marks})`);
    params.push(...q.types);
  }
  if (q.search) {
    where.push("(LOWER(ticker) LIKE ? ESCAPE '\\' OR LOWER(name) LIKE ? ESCAPE '\\')");
    const pattern = likeContains(q.search);
    params.push(pattern, pattern);
  }
  const sortExpr = NOT_NULL_TICKER_COLUMNS.has(q.sort) ? q.sort : `COALESCE(${q.sort}, '')`;
  if (q.after) {
    const k = keysetCondition(sortExpr, 'id', q.order, q.after);
    where.push(k.sql);
    params.push(...k.params);
  }
  const dir = q.order === 'asc' ? 'ASC' : 'DESC';
  params.push(q.limit);
  return { where: where.join(' AND '), params, orderBy: `${sortExpr} ${dir}, id ${dir}`, sortExpr, dir };
}

export class ReferenceRepository {
  constructor(private readonly db: SqlDriver) {}

  /** Inserts or replaces ticker versions by (ticker, valid_from); returns rows written. */
  async upsertTickers(tickers: TickerRecord[]): Promise<number> {
    if (tickers.length === 0) return 0;
    const cols = [...TICKER_COLUMNS, 'list_json'];
    return this.db.transaction(async (tx) => {
      const written = await tx.insertMany({
        table: 'tickers',
        columns: cols,
        rows: tickers.map(tickerToRow),
        conflictColumns: ['ticker', 'valid_from'],
        updateColumns: cols.filter((c) => c !== 'ticker' && c !== 'valid_from'),
      });
      // unique per write, in every process: a time and random bits
      const version = `${Date.now().toString(36)}.${randomBytes(6).toString('hex')}`;
      await tx.run("INSERT INTO meta (key, value) VALUES ('tickers_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [version]);
      return written;
    });
  }

  async countTickers(): Promise<number> {
    const row = await this.db.get('SELECT COUNT(*) AS n FROM tickers');
    return toNumber(row?.n ?? 0);
  }

  async listTickers(q: TickerQuery): Promise<TickerRow[]> {
    const { where, params, orderBy } = tickerListFilter(q);
    const rows = await this.db.all(`SELECT id, ${TICKER_COLUMNS.join(', ')} FROM tickers WHERE ${where} ORDER BY ${orderBy} LIMIT ?`, params);
    return rows.map((row) => ({ id: toNumber(row.id), record: rowToTicker(row) }));
  }

  /**
   * The rows listTickers finds, as their stored list-item JSON (tickerItemJson) with the value of
   * the sort field (keyset position): no ticker objects are built. Rows stored before the JSON
   * column existed, until openStore fills them in, are rendered from their columns.
   */
  async listTickerItems(q: TickerQuery): Promise<TickerItemRow[]> {
    const { where, params, orderBy } = tickerListFilter(q);
    const rows = await this.db.all(`SELECT id, ${q.sort} AS sort_value, list_json FROM tickers WHERE ${where} ORDER BY ${orderBy} LIMIT ?`, params);
    if (rows.some((r) => r.list_json === null || r.list_json === undefined)) {
      return (await this.listTickers(q)).map((r) => ({ id: r.id, sortValue: r.record[q.sort] ?? '', json: tickerItemJson(r.record) }));
    }
    return rows.map((r) => ({ id: toNumber(r.id), sortValue: toOptionalString(r.sort_value) ?? '', json: String(r.list_json) }));
  }

  /**
   * A page of what listTickerItems reads (q.limit is the page size plus one: the row that tells
   * whether more follow), with the items joined by the engine (joined-json.ts): no row reaches
   * JavaScript, which on a 1,000-row page spares a string per row and the join of them. undefined
   * when a row of the page has no stored item yet (listTickerItems renders those).
   */
  async tickerItemsPage(q: TickerQuery): Promise<TickerItemsPage | undefined> {
    const { where, params, orderBy, sortExpr, dir } = tickerListFilter(q);
    const whereParams = params.slice(0, -1); // without the LIMIT's
    const size = q.limit - 1;
    const pageRows = `(SELECT id, ${sortExpr} AS sort_key, list_json FROM tickers WHERE ${where} ORDER BY ${orderBy} LIMIT ?)`;
    const keyRows = `(SELECT id, ${sortExpr} AS sort_key FROM tickers WHERE ${where} ORDER BY ${orderBy} LIMIT 2 OFFSET ?)`;
    const order = `sort_key ${dir}, id ${dir}`;
    // One statement, so one snapshot: the rows at the page's last place and the one after it
    // (the cursor's position and whether more follow), then the page joined.
    const rows = await this.db.rawRows(
      `${keyRowsBranch(this.db.engine, 'id, sort_key', keyRows, order)}
       UNION ALL
       ${joinedPageBranch(this.db.engine, 'list_json', pageRows, order, { filled: 'list_json', more: ', NULL, NULL' })}`,
      [...whereParams, size - 1, ...whereParams, size],
    );
    const page = joinedPage(rows);
    if (page.filled < page.count) return undefined;
    const out: TickerItemsPage = { items: page.items, count: page.count };
    const { last, next } = pageKeys(rows);
    if (last && next) out.next = { value: toOptionalString(last[1] as string) ?? '', id: toNumber(last[0] as number) };
    return out;
  }

  /**
   * Every current ticker of the list with this `active` flag (and market, when given) in the
   * list's ticker order, as stored list items, with the tickers version they are of: one
   * statement, so one snapshot. undefined when none or more than `maxRows` match, or a row has no
   * stored item yet.
   */
  async currentTickerItems(active: boolean, market: Market | undefined, maxRows: number): Promise<CurrentTickerItems | undefined> {
    const { where, params, orderBy } = tickerListFilter({ active, market, sort: 'ticker', order: 'asc', limit: maxRows + 1 });
    const rows = await this.db.rawRows(
      `SELECT (SELECT value FROM meta WHERE key = 'tickers_version') AS version, id, ticker, list_json FROM tickers WHERE ${where} ORDER BY ${orderBy} LIMIT ?`,
      params,
      { long: true },
    );
    if (rows.length === 0 || rows.length > maxRows || rows.some((r) => r[3] === null || r[3] === undefined)) return undefined;
    return { version: toOptionalString(rows[0]![0]) ?? '0', rows: rows.map((r) => ({ id: toNumber(r[1]), ticker: String(r[2]), json: String(r[3]) })) };
  }

  /** Writes the list-item JSON of ticker rows stored without it (older versions); returns rows filled. */
  async backfillTickerItems(batch = 2000): Promise<number> {
    let filled = 0;
    for (;;) {
      const rows = await this.db.all(`SELECT id, ${TICKER_COLUMNS.join(', ')} FROM tickers WHERE list_json IS NULL ORDER BY id LIMIT ?`, [batch]);
      if (rows.length === 0) return filled;
      await this.db.transaction(async (tx) => {
        for (const row of rows) await tx.run('UPDATE tickers SET list_json = ? WHERE id = ?', [tickerItemJson(rowToTicker(row)), row.id as SqlValue]);
      });
      filled += rows.length;
    }
  }

  /** Changes whenever ticker rows are written (any process): what the tickers list's ETags derive from. */
  async tickersVersion(): Promise<string> {
    const row = await this.db.get("SELECT value FROM meta WHERE key = 'tickers_version'");
    return row ? String(row.value) : '0';
  }

  /** The version of a ticker current on `date` (or now); undefined when none. */
  async getTicker(ticker: string, date?: string): Promise<TickerRecord | undefined> {
    const row = date
      ? await this.db.get(
          `SELECT ${TICKER_COLUMNS.join(', ')} FROM tickers WHERE ticker = ? AND valid_from <= ? AND (valid_to IS NULL OR valid_to > ?) ORDER BY valid_from DESC LIMIT 1`,
          [ticker, date, date],
        )
      : await this.db.get(`SELECT ${TICKER_COLUMNS.join(', ')} FROM tickers WHERE ticker = ? AND valid_to IS NULL`, [ticker]);
    return row ? rowToTicker(row) : undefined;
  }

  /** Every stored version whose ticker, composite FIGI or CUSIP is `value`, oldest first. */
  async tickerVersions(by: 'ticker' | 'composite_figi' | 'cusip', value: string): Promise<TickerRecord[]> {
    const column = ({ ticker: 'ticker', composite_figi: 'composite_figi', cusip: 'cusip' } as const)[by];
    const rows = await this.db.all(`SELECT ${TICKER_COLUMNS.join(', ')} FROM tickers WHERE ${column} = ? ORDER BY valid_from, ticker`, [value]);
    return rows.map(rowToTicker);
  }

  /** The current version (no valid_to) of each of these tickers that has one; any order. */
  async currentTickers(tickers: readonly string[]): Promise<TickerRecord[]> {
    const out: TickerRecord[] = [];
    // Bounded IN lists: SQLite caps bound parameters per statement.
    for (let i = 0; i < tickers.length; i += 500) {
      const part = tickers.slice(i, i + 500);
      const rows = await this.db.all(
        `SELECT ${TICKER_COLUMNS.join(', ')} FROM tickers WHERE valid_to IS NULL AND ticker IN (${part.map(() => '?').join(', ')})`,
        part,
      );
      for (const row of rows) out.push(rowToTicker(row));
    }
    return out;
  }

  async replaceTickerTypes(types: TickerTypeRecord[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM ticker_types');
      await tx.insertMany({
        table: 'ticker_types',
        columns: ['ord', 'code', 'asset_class', 'locale', 'body'],
        rows: types.map((t, i) => [i, t.code, t.asset_class, t.locale, JSON.stringify(t)]),
      });
    });
  }

  async listTickerTypes(f: { asset_class?: string; locale?: string }): Promise<TickerTypeRecord[]> {
    const { sql, params } = filters({ asset_class: f.asset_class, locale: f.locale });
    return (await this.db.all(`SELECT body FROM ticker_types${sql} ORDER BY ord`, params)).map(withBody<TickerTypeRecord>);
  }

  async replaceExchanges(exchanges: ExchangeRecord[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM exchanges');
      await tx.insertMany({
        table: 'exchanges',
        columns: ['asset_class', 'id', 'locale', 'ord', 'body'],
        rows: exchanges.map((e, i) => [e.asset_class, e.id, e.locale, i, JSON.stringify(e)]),
      });
    });
  }

  async listExchanges(f: { asset_class?: string; locale?: string }): Promise<ExchangeRecord[]> {
    const { sql, params } = filters({ asset_class: f.asset_class, locale: f.locale });
    return (await this.db.all(`SELECT body FROM exchanges${sql} ORDER BY asset_class, id, ord`, params)).map(withBody<ExchangeRecord>);
  }

  async replaceConditions(conditions: ConditionRecord[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM conditions');
      await tx.insertMany({
        table: 'conditions',
        columns: ['id', 'asset_class', 'type', 'name', 'data_types', 'sips', 'legacy', 'body'],
        rows: conditions.map((c) => [
          c.id, c.asset_class, c.type, c.name,
          // Delimited so that `LIKE '%,trade,%'` matches whole items only.
          `,${c.data_types.join(',')},`,
          `,${Object.keys(c.sip_mapping ?? {}).join(',')},`,
          c.legacy ? 1 : 0,
          JSON.stringify(c),
        ]),
      });
    });
  }

  async listConditions(q: ConditionQuery): Promise<{ pk: number; record: ConditionRecord; sortValue: string | number }[]> {
    const where: string[] = [];
    const params: SqlValue[] = [];
    if (q.asset_class) {
      where.push('asset_class = ?');
      params.push(q.asset_class);
    }
    if (q.data_type) {
      where.push('data_types LIKE ?');
      params.push(`%,${q.data_type},%`);
    }
    if (q.id !== undefined) {
      where.push('id = ?');
      params.push(q.id);
    }
    if (q.sip) {
      where.push('sips LIKE ?');
      params.push(`%,${q.sip},%`);
    }
    const sortExpr = CONDITION_SORT_EXPR[q.sort];
    if (q.after) {
      const k = keysetCondition(sortExpr, 'pk', q.order, q.after);
      where.push(k.sql);
      params.push(...k.params);
    }
    const dir = q.order === 'asc' ? 'ASC' : 'DESC';
    params.push(q.limit);
    const rows = await this.db.all(
      `SELECT pk, ${sortExpr} AS sort_value, body FROM conditions${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${sortExpr} ${dir}, pk ${dir} LIMIT ?`,
      params,
    );
    return rows.map((row) => ({
      pk: toNumber(row.pk),
      record: withBody<ConditionRecord>(row),
      sortValue: typeof row.sort_value === 'bigint' ? Number(row.sort_value) : (row.sort_value as string | number),
    }));
  }
}

function filters(eqs: Record<string, string | undefined>): { sql: string; params: SqlValue[] } {
  const where: string[] = [];
  const params: SqlValue[] = [];
  for (const [col, v] of Object.entries(eqs)) {
    if (v !== undefined) {
      where.push(`${col} = ?`);
      params.push(v);
    }
  }
  return { sql: where.length ? ` WHERE ${where.join(' AND ')}` : '', params };
}
