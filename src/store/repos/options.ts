// Option contracts and their open interest (schema: migrations/<engine>/0200_options.sql). One SQL dialect
// for both engines; lists are keyset-paged on (sort column, ticker).
import type { Row, SqlDriver, SqlValue } from '../driver.js';
import { toNumber, toOptionalNumber, toOptionalString } from '../driver.js';
import { keysetCondition, type KeysetPosition } from './keyset.js';

export type ContractType = 'call' | 'put' | 'other';
export type ExerciseStyle = 'american' | 'european' | 'bermudan';

export interface AdditionalUnderlying {
  type: string;
  underlying: string;
  amount: number;
}

/** A contract with the wire fields of /v3/reference/options/contracts, plus its listing date when known. */
export interface OptionsContractRecord {
  ticker: string;
  underlying_ticker: string;
  contract_type: ContractType;
  exercise_style: ExerciseStyle;
  expiration_date: string;
  strike_price: number;
  shares_per_contract: number;
  primary_exchange?: string;
  cfi?: string;
  correction?: number;
  additional_underlyings?: AdditionalUnderlying[];
  /** Not a wire field: the first day the contract existed (bounds `as_of`). */
  list_date?: string;
}

export const CONTRACT_SORT_FIELDS = ['ticker', 'underlying_ticker', 'expiration_date', 'strike_price'] as const;
export type ContractSortField = (typeof CONTRACT_SORT_FIELDS)[number];

export interface RangeFilter<T> {
  eq?: T;
  gt?: T;
  gte?: T;
  lt?: T;
  lte?: T;
}

export interface ContractQuery {
  underlying_ticker?: RangeFilter<string>;
  ticker?: string;
  contract_type?: ContractType;
  expiration_date?: RangeFilter<string>;
  strike_price?: RangeFilter<number>;
  /** Point in time (YYYY-MM-DD): with `expired`, keeps contracts listed by then and (not) expired before it. */
  as_of?: string;
  expired?: boolean;
  sort: ContractSortField;
  order: 'asc' | 'desc';
  limit: number;
  after?: KeysetPosition;
}

export interface OpenInterestRecord {
  ticker: string;
  /** The session day (YYYY-MM-DD) the figure applies to: contracts open at the end of the previous session. */
  date: string;
  open_interest: number;
}

const COLUMNS = [
  'ticker', 'underlying_ticker', 'contract_type', 'exercise_style', 'expiration_date', 'strike_price',
  'shares_per_contract', 'primary_exchange', 'cfi', 'correction', 'additional_underlyings', 'list_date',
] as const;
const SELECT = COLUMNS.join(', ');
/** Rows per multi-row statement, and tickers per IN list: well under both engines' parameter limits. */
const CHUNK = 500;

function toRow(c: OptionsContractRecord): SqlValue[] {
  return [
    c.ticker, c.underlying_ticker, c.contract_type, c.exercise_style, c.expiration_date, c.strike_price,
    c.shares_per_contract, c.primary_exchange ?? null, c.cfi ?? null, c.correction ?? null,
    c.additional_underlyings && c.additional_underlyings.length > 0 ? JSON.stringify(c.additional_underlyings) : null,
    c.list_date ?? null,
  ];
}

function fromRow(r: Row): OptionsContractRecord {
  const rec: OptionsContractRecord = {
    ticker: String(r.ticker),
    underlying_ticker: String(r.underlying_ticker),
    contract_type: String(r.contract_type) as ContractType,
    exercise_style: String(r.exercise_style) as ExerciseStyle,
    expiration_date: String(r.expiration_date),
    strike_price: toNumber(r.strike_price),
    shares_per_contract: toNumber(r.shares_per_contract),
  };
  const primary = toOptionalString(r.primary_exchange);
  if (primary !== undefined) rec.primary_exchange = primary;
  const cfi = toOptionalString(r.cfi);
  if (cfi !== undefined) rec.cfi = cfi;
  const correction = toOptionalNumber(r.correction);
  if (correction !== undefined) rec.correction = correction;
  if (r.additional_underlyings !== null && r.additional_underlyings !== undefined) {
    rec.additional_underlyings = JSON.parse(String(r.additional_underlyings)) as AdditionalUnderlying[];
  }
  const listDate = toOptionalString(r.list_date);
  if (listDate !== undefined) rec.list_date = listDate;
  return rec;
}

function addRange<T extends SqlValue>(where: string[], params: SqlValue[], column: string, f: RangeFilter<T> | undefined): void {
  if (!f) return;
  for (const [op, v] of [['=', f.eq], ['>', f.gt], ['>=', f.gte], ['<', f.lt], ['<=', f.lte]] as const) {
    if (v !== undefined) {
      where.push(`${column} ${op} ?`);
      params.push(v);
    }
  }
}

function placeholders(n: number): string {
  return Array(n).fill('?').join(', ');
}

export class OptionsRepository {
  constructor(private readonly db: SqlDriver) {}

  /** Inserts or replaces contracts by ticker; all or nothing. Returns rows written. */
  async upsertContracts(contracts: readonly OptionsContractRecord[]): Promise<number> {
    if (contracts.length === 0) return 0;
    const update = COLUMNS.filter((c) => c !== 'ticker');
    return this.db.transaction(async (tx) => {
      let written = 0;
      for (let i = 0; i < contracts.length; i += CHUNK) {
        written += await tx.insertMany({
          table: 'options_contracts',
          columns: [...COLUMNS],
          rows: contracts.slice(i, i + CHUNK).map(toRow),
          conflictColumns: ['ticker'],
          updateColumns: update,
        });
      }
      return written;
    });
  }

  async countContracts(): Promise<number> {
    return toNumber((await this.db.get('SELECT COUNT(*) AS n FROM options_contracts'))!.n);
  }

  /** Contracts matching the query, in (sort, ticker) order, at most `limit` rows after `after`. */
  async listContracts(q: ContractQuery): Promise<OptionsContractRecord[]> {
    const where: string[] = [];
    const params: SqlValue[] = [];
    addRange(where, params, 'underlying_ticker', q.underlying_ticker);
    if (q.ticker !== undefined) {
      where.push('ticker = ?');
      params.push(q.ticker);
    }
    if (q.contract_type !== undefined) {
      where.push('contract_type = ?');
      params.push(q.contract_type);
    }
    addRange(where, params, 'expiration_date', q.expiration_date);
    addRange(where, params, 'strike_price', q.strike_price);
    if (q.as_of !== undefined) {
      where.push('(list_date IS NULL OR list_date <= ?)');
      params.push(q.as_of);
      if (q.expired !== undefined) {
        where.push(q.expired ? 'expiration_date < ?' : 'expiration_date >= ?');
        params.push(q.as_of);
      }
    }
    if (q.after) {
      const k = keysetCondition(q.sort, 'ticker', q.order, q.after);
      where.push(k.sql);
      params.push(...k.params);
    }
    const dir = q.order === 'asc' ? 'ASC' : 'DESC';
    const order = q.sort === 'ticker' ? `ticker ${dir}` : `${q.sort} ${dir}, ticker ${dir}`;
    params.push(q.limit);
    const rows = await this.db.all(
      `SELECT ${SELECT} FROM options_contracts${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ?`,
      params,
    );
    return rows.map(fromRow);
  }

  async getContract(ticker: string): Promise<OptionsContractRecord | undefined> {
    const row = await this.db.get(`SELECT ${SELECT} FROM options_contracts WHERE ticker = ?`, [ticker]);
    return row ? fromRow(row) : undefined;
  }

  /** Inserts or replaces open interest by (ticker, date). */
  async upsertOpenInterest(rows: readonly OpenInterestRecord[]): Promise<number> {
    if (rows.length === 0) return 0;
    return this.db.transaction(async (tx) => {
      let written = 0;
      for (let i = 0; i < rows.length; i += CHUNK) {
        written += await tx.insertMany({
          table: 'options_open_interest',
          columns: ['ticker', 'date', 'open_interest'],
          rows: rows.slice(i, i + CHUNK).map((r) => [r.ticker, r.date, r.open_interest]),
          conflictColumns: ['ticker', 'date'],
          updateColumns: ['open_interest'],
        });
      }
      return written;
    });
  }

  /** The latest open interest on or before `date` of each ticker that has one, in one query per chunk. */
  async openInterestOn(tickers: readonly string[], date: string): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (let i = 0; i < tickers.length; i += CHUNK) {
      const chunk = tickers.slice(i, i + CHUNK);
      const rows = await this.db.all(
        `SELECT o.ticker, o.open_interest FROM options_open_interest o
         JOIN (SELECT ticker, MAX(date) AS d FROM options_open_interest WHERE ticker IN (${placeholders(chunk.length)}) AND date <= ? GROUP BY ticker) m
           ON o.ticker = m.ticker AND o.date = m.d`,
        [...chunk, date],
      );
      for (const r of rows) out.set(String(r.ticker), toNumber(r.open_interest));
    }
    return out;
  }
}
