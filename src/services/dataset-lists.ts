// The declared data-set lists (fundamentals, filings, economy, corporate actions): filters
// (`f`, `f.any_of`, `f.all_of`, `f.gt/.gte/.lt/.lte`) and `sort=a.asc,b.desc` parsed against a
// data set's declaration, and keyset pages of its rows.
import { parseDate } from '../domain/calendar.js';
import { normalizeCik } from '../domain/cik.js';
import { ApiError, badParameter } from '../domain/errors.js';
import { formatInstant, parseInstant } from '../domain/rfc3339.js';
import type { Store } from '../store/index.js';
import {
  effectiveSort,
  fromKeysetPosition,
  isSortable,
  parseSortSpec,
  toKeysetPosition,
  type Condition,
  type DatasetDef,
  type DatasetRecord,
  type DatasetRow,
  type FieldDef,
  type Scalar,
  type SortKey,
} from '../store/repos/datasets.js';
import type { KeysetRows, PageRequest } from './paging.js';

export type { Condition, DatasetDef, FieldDef, FilterForm } from '../store/repos/datasets.js';
export { DIVIDENDS, SPLITS } from '../store/repos/corporate-actions.js';
export {
  BALANCE_SHEETS,
  CASH_FLOW_STATEMENTS,
  FLOAT,
  INCOME_STATEMENTS,
  INFLATION,
  INFLATION_EXPECTATIONS,
  RATIOS,
  RISK_CATEGORIES,
  RISK_FACTORS,
  SHORT_INTEREST,
  SHORT_VOLUME,
  TREASURY_YIELDS,
} from '../store/repos/dataset-catalog.js';
export * from '../store/repos/partner-catalog.js';
export * from '../store/repos/economy-catalog.js';
export * from '../store/repos/filings-catalog.js';
export * from '../store/repos/futures-catalog.js';
export * from '../store/repos/listings-catalog.js';

export const RANGE_OPS = ['gt', 'gte', 'lt', 'lte'] as const;
export const MAX_LIST_VALUES = 1000;
export const MAX_TEXT = 256;

/** What one value of a field must look like, as the rule text of a 400. */
export function valueRule(f: FieldDef): string {
  switch (f.type) {
    case 'date':
      return 'a real date in the form YYYY-MM-DD';
    case 'int':
      return 'an integer';
    case 'float':
      return 'a number';
    case 'bool':
      return 'true or false';
    default:
      if (f.format === 'date-time') return 'a date (YYYY-MM-DD) or an RFC 3339 timestamp';
      return f.enum ? `one of ${f.enum.join(', ')}` : `text of at most ${MAX_TEXT} characters`;
  }
}

export function pluralRule(f: FieldDef): string {
  switch (f.type) {
    case 'date':
      return 'dates in the form YYYY-MM-DD';
    case 'int':
      return 'integers';
    case 'float':
      return 'numbers';
    default:
      if (f.format === 'date-time') return 'dates or RFC 3339 timestamps';
      return f.enum ? `values from ${f.enum.join(', ')}` : 'values';
  }
}

/** Checks and converts one filter value of `field` given as text (list elements) or already typed. */
export function filterValue(def: DatasetDef, field: string, raw: unknown, param: string, rule = valueRule(def.fields[field]!)): Scalar {
  const f = def.fields[field]!;
  const fail = () => badParameter(`${param} must be ${rule}`);
  switch (f.type) {
    case 'date': {
      const s = String(raw);
      if (parseDate(s) === null) throw fail();
      return s;
    }
    case 'int': {
      const n = typeof raw === 'number' ? raw : /^-?\d{1,17}$/.test(String(raw)) ? Number(raw) : NaN;
      if (!Number.isSafeInteger(n)) throw fail();
      return n;
    }
    case 'float': {
      const n = typeof raw === 'number' ? raw : String(raw).trim() === '' ? NaN : Number(raw);
      if (!Number.isFinite(n)) throw fail();
      return n;
    }
    case 'bool':
      if (raw === true || raw === 'true') return true;
      if (raw === false || raw === 'false') return false;
      throw fail();
    default: {
      const s = String(raw);
      if (s.length === 0 || s.length > MAX_TEXT) throw fail();
      if (f.type === 'string-array' && s.includes(',')) throw fail();
      if (f.format === 'date-time') {
        // Stored timestamps are UTC `…Z`, so a bound compares as text once it is written the same
        // way; a bare date is the start of that day (it sorts before every time of the day).
        const at = parseInstant(s);
        if (at === undefined) throw fail();
        return at.dateOnly ? s : formatInstant(at.ms);
      }
      return f.normalize === 'cik' ? normalizeCik(s) : s;
    }
  }
}

function listValues(def: DatasetDef, field: string, raw: string, param: string): Scalar[] {
  const f = def.fields[field]!;
  const rule = `a comma-separated list of at most ${MAX_LIST_VALUES} ${pluralRule(f)}`;
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length > MAX_LIST_VALUES || parts.some((p) => p === '')) throw badParameter(`${param} must be ${rule}`);
  return parts.map((p) => {
    if (f.enum && !f.enum.includes(p)) throw badParameter(`${param} must be ${rule}`);
    return filterValue(def, field, p, param, rule);
  });
}

/** `a.asc,b.desc,c` checked against the data set's sortable fields; 400 naming `sort` otherwise. */
export function parseSort(def: DatasetDef, spec: string): SortKey[] {
  const out: SortKey[] = [];
  const seen = new Set<string>();
  const items = spec.split(',');
  parseSortSpec(spec).forEach(({ field, dir }, i) => {
    if (!isSortable(def, field)) {
      const fields = Object.keys(def.fields).filter((f) => isSortable(def, f));
      throw badParameter(`sort must be a comma-separated list of fields, each optionally followed by .asc or .desc; '${items[i]!.trim()}' is not one of: ${fields.join(', ')}`);
    }
    if (seen.has(field)) return;
    seen.add(field);
    out.push({ field, dir });
  });
  return out;
}

export interface ParsedDatasetQuery {
  where: Condition[];
  sort: SortKey[];
  limit: number;
}

/** Turns validated query parameters into store conditions; 400 naming the parameter on bad values. */
export function parseDatasetQuery(def: DatasetDef, query: Record<string, unknown>): ParsedDatasetQuery {
  const limit = Number(query.limit ?? def.limit.default);
  if (!Number.isInteger(limit) || limit < 1 || limit > def.limit.max) throw badParameter(`limit must be an integer from 1 to ${def.limit.max}`);
  return { where: parseFilters(def, query), sort: parseSort(def, String(query.sort ?? def.sort)), limit };
}

/** The conditions of every declared filter form present in `query`. */
export function parseFilters(def: DatasetDef, query: Record<string, unknown>, wireName: (param: string) => string = (p) => p): Condition[] {
  const where: Condition[] = [];
  for (const [field, forms] of Object.entries(def.filters)) {
    if (forms.includes('eq') && query[field] !== undefined) {
      where.push({ field, op: 'eq', value: filterValue(def, field, query[field], wireName(field)) });
    }
    for (const op of ['any_of', 'all_of'] as const) {
      const param = `${field}.${op}`;
      if (forms.includes(op) && query[param] !== undefined) where.push({ field, op, value: listValues(def, field, String(query[param]), wireName(param)) });
    }
    if (forms.includes('range')) {
      for (const op of RANGE_OPS) {
        const param = `${field}.${op}`;
        if (query[param] === undefined) continue;
        where.push({ field, op, value: filterValue(def, field, query[param], wireName(param)) });
      }
    }
  }
  return where;
}

/** Which rows of a data set a list reads: its conditions, its sort, and the fields it writes. */
export interface DatasetSelection {
  where: Condition[];
  sort: SortKey[];
  /** Fields of each record (default: every field that is not hidden). */
  fields?: readonly string[];
}

export class DatasetListService {
  constructor(private readonly store: Pick<Store, 'datasets'>) {}

  /** The rows of `def` selected, after the cursor's position, in the selection's sort. */
  async list(def: DatasetDef, sel: DatasetSelection, page: PageRequest): Promise<KeysetRows<DatasetRow>> {
    let after;
    if (page.after) {
      after = fromKeysetPosition(page.after, effectiveSort(def, sel.sort).length);
      if (!after) throw new ApiError('BAD_CURSOR', 'cursor is invalid: use the next_url of a previous response unchanged');
    }
    const fields = sel.fields ?? Object.keys(def.fields).filter((f) => !def.fields[f]!.hidden);
    const rows = await this.store.datasets.list(def, { where: sel.where, sort: sel.sort, limit: page.limit, after }, fields);
    return { rows, position: (r) => toKeysetPosition(r.position) };
  }

  /** A declared list: the filters and sort of `query` (new-style parameters) parsed against `def`. */
  declared(def: DatasetDef, query: Record<string, unknown>, page: PageRequest): Promise<KeysetRows<DatasetRow>> {
    const parsed = parseDatasetQuery(def, query);
    return this.list(def, parsed, page);
  }

  /**
   * The description of one item of a point-in-time data set (one row per item and `date`, such as
   * a futures contract): its newest row dated on or before `asOf`, or its newest row of all.
   */
  async asOf(def: DatasetDef, field: string, value: string, asOf?: string): Promise<DatasetRecord | undefined> {
    // named as the caller's parameter: the list filter it becomes (date.lte) is not in its request
    if (asOf !== undefined && parseDate(asOf) === null) throw badParameter('as_of must be a real date in the form YYYY-MM-DD');
    const query = { [field]: value, sort: 'date.desc', limit: 1, ...(asOf ? { 'date.lte': asOf } : {}) };
    return (await this.declared(def, query, { limit: 1 })).rows[0]?.record;
  }
}
