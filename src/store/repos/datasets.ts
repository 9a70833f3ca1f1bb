// The generic store side of the declared data sets: one declaration per data set
// (table, typed fields, natural key, endpoint filters, default sort, limits) drives the table
// layout, idempotent upserts, filtered keyset-paged listing, the query schema and import
// validation. Both engines run the same SQL; the few dialect differences are handled here.
import { createHash } from 'node:crypto';
import type { SqlDriver, SqlValue } from '../driver.js';
import type { KeysetPosition } from './keyset.js';

/** Storage and wire type of a field. `string-array` fields (e.g. `tickers`) are stored as ',A,B,'. */
export type FieldType = 'text' | 'date' | 'int' | 'float' | 'bool' | 'json' | 'string-array';

/** Filter forms a declared data-set endpoint offers on a field: `f`, `f.any_of`, `f.all_of`, `f.gt/.gte/.lt/.lte`. */
export type FilterForm = 'eq' | 'any_of' | 'all_of' | 'range';

export interface FieldDef {
  type: FieldType;
  /** Required on import (and NOT NULL in the table). */
  required?: boolean;
  /** Allowed values (text fields). */
  enum?: readonly string[];
  /** Stored and importable but not part of the data set's wire record (e.g. v3-only columns). */
  hidden?: boolean;
  /** Filled by the data set's `prepare` when a record leaves it out, so optional on import. */
  derived?: boolean;
  /** Numbers: inclusive bounds, or strictly above zero. */
  min?: number;
  max?: number;
  positive?: boolean;
  /** Text: longest accepted value on import (default 256). */
  maxLength?: number;
  /** `cik`: digits only, stored and emitted zero-padded to 10 digits. */
  normalize?: 'cik';
  /** Text: an RFC 3339 timestamp, stored in UTC (`…Z`) so that ranges compare as text. */
  format?: 'date-time';
  /** String arrays: `symbol` items (the default: no spaces, ≤ 64 characters) or free `label` text without commas. */
  arrayItems?: 'symbol' | 'label';
  /** OpenAPI description of the field. */
  description?: string;
}

export type DatasetFields = Record<string, FieldDef>;

export interface DatasetDef {
  /** Data-set name used by `import --dataset`, cursors and docs, e.g. `balance-sheets`. */
  name: string;
  table: string;
  /** Fields in wire order. */
  fields: DatasetFields;
  /** Natural key: an upsert with the same key replaces the row. */
  key: readonly string[];
  /** A key field computed (when absent) as a hash of other fields: upstream-style `E…` ids. */
  derivedKey?: { field: string; from: readonly string[]; prefix: string };
  /** Filters, per field. */
  filters: Readonly<Record<string, readonly FilterForm[]>>;
  /** Default `sort` parameter, e.g. `period_end.asc`. */
  sort: string;
  limit: { default: number; max: number };
  /** Serve only the latest row per group (ratios, float: "latest value per ticker"). */
  latestPer?: { group: string; by: string };
  /** Fills derivable fields of a validated record before it is stored (e.g. adjustment_type). */
  prepare?: (record: DatasetRecord) => void;
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };
export type FieldValue = string | number | boolean | string[] | JsonValue;
/** A record as the API shows it: field name → value; absent fields are omitted, never null. */
export type DatasetRecord = Record<string, FieldValue>;
export type Scalar = string | number | boolean;

export type ConditionOp = 'eq' | 'ne' | 'any_of' | 'all_of' | 'gt' | 'gte' | 'lt' | 'lte';

/**
 * One predicate. On a string-array field `eq` means "contains", `any_of` "contains at least one",
 * `all_of` "contains all". `otherField` compares two columns (v3 `reverse_split`).
 */
export type Condition =
  | { field: string; op: Exclude<ConditionOp, 'any_of' | 'all_of'>; value: Scalar }
  | { field: string; op: 'any_of' | 'all_of'; value: readonly Scalar[] }
  | { field: string; op: 'gt' | 'lt'; otherField: string };

export interface SortKey {
  field: string;
  dir: 'asc' | 'desc';
}

/** Where a page ended: the values of its last row's sort tuple and that row's pk. */
export interface DatasetPosition {
  values: (string | number | null)[];
  pk: number;
}

export interface DatasetQuery {
  where: readonly Condition[];
  sort: readonly SortKey[];
  /** Rows to fetch (a route asks for its limit + 1 to learn whether more exist). */
  limit: number;
  after?: DatasetPosition;
}

export interface DatasetRow {
  record: DatasetRecord;
  position: DatasetPosition;
}

const NAME = /^[a-z_][a-z0-9_]*$/;

/** Checks a declaration once at module load, so a typo fails at startup, not on a request. */
export function defineDataset(def: DatasetDef): DatasetDef {
  if (!NAME.test(def.table)) throw new Error(`dataset ${def.name}: bad table name ${def.table}`);
  for (const f of Object.keys(def.fields)) if (!NAME.test(f) || f === 'pk') throw new Error(`dataset ${def.name}: bad field name ${f}`);
  const has = (f: string) => def.fields[f] !== undefined;
  for (const k of def.key) {
    if (!has(k)) throw new Error(`dataset ${def.name}: key field ${k} is not declared`);
    if (!def.fields[k]!.required) throw new Error(`dataset ${def.name}: key field ${k} must be required`);
  }
  for (const [f, forms] of Object.entries(def.filters)) {
    if (!has(f)) throw new Error(`dataset ${def.name}: filter on undeclared field ${f}`);
    const t = def.fields[f]!.type;
    if (t === 'json') throw new Error(`dataset ${def.name}: json field ${f} cannot be filtered`);
    if (forms.includes('all_of') && t !== 'string-array') throw new Error(`dataset ${def.name}: all_of needs an array field (${f})`);
    if (forms.includes('range') && t === 'string-array') throw new Error(`dataset ${def.name}: no range on array field ${f}`);
  }
  for (const s of parseSortSpec(def.sort)) if (!isSortable(def, s.field)) throw new Error(`dataset ${def.name}: default sort on ${s.field}`);
  if (def.latestPer && (!has(def.latestPer.group) || !has(def.latestPer.by))) throw new Error(`dataset ${def.name}: bad latestPer`);
  if (def.derivedKey && !def.fields[def.derivedKey.field]?.derived) throw new Error(`dataset ${def.name}: derivedKey field must be marked derived`);
  // Field and filter names arrive from clients (`sort=constructor`), so the maps they index have
  // no prototype: an inherited name is simply not a field.
  return { ...def, fields: Object.assign(Object.create(null), def.fields), filters: Object.assign(Object.create(null), def.filters) };
}

/** Fields a client may sort by: every scalar field of the wire record. */
export function isSortable(def: DatasetDef, field: string): boolean {
  const f = def.fields[field];
  return f !== undefined && !f.hidden && f.type !== 'json' && f.type !== 'string-array';
}

/** `a.asc,b.desc,c` → sort keys (no validation beyond shape; callers check the fields). */
export function parseSortSpec(spec: string): SortKey[] {
  return spec.split(',').map((part) => {
    const p = part.trim();
    if (p.endsWith('.asc')) return { field: p.slice(0, -4), dir: 'asc' as const };
    if (p.endsWith('.desc')) return { field: p.slice(0, -5), dir: 'desc' as const };
    return { field: p, dir: 'asc' as const };
  });
}

// ---------------------------------------------------------------------------------------------
// Encoding between records and rows

const q = (name: string) => `"${name}"`;

/** `['AAPL','MSFT']` → ',AAPL,MSFT,' so "contains X" is a substring test for ',X,' on both engines. */
export function encodeArray(values: readonly string[]): string {
  return `,${values.join(',')},`;
}

function decodeArray(text: string): string[] {
  return text.length <= 2 ? [] : text.slice(1, -1).split(',');
}

function toColumn(type: FieldType, v: FieldValue | undefined): SqlValue {
  if (v === undefined || v === null) return null;
  switch (type) {
    case 'bool':
      return v ? 1 : 0;
    case 'json':
      return JSON.stringify(v);
    case 'string-array':
      return encodeArray(v as string[]);
    case 'int':
    case 'float':
      return v as number;
    default:
      return String(v);
  }
}

/** How a stored (non-null) value becomes the record's value; undefined = as the driver gives it. */
function decoderOf(type: FieldType): ((v: unknown) => FieldValue) | undefined {
  switch (type) {
    case 'bool':
      return (v) => Number(v) === 1;
    case 'json':
      return (v) => JSON.parse(String(v)) as JsonValue;
    case 'string-array':
      return (v) => decodeArray(String(v));
    case 'int':
    case 'float':
      // Both drivers already give numbers; PostgreSQL int8 arrives as bigint when asked, not here.
      return (v) => (typeof v === 'number' ? v : Number(v));
    default:
      return undefined;
  }
}

/** Every stored column of a data set, in declaration order (hidden ones included). */
export function columnsOf(def: DatasetDef): string[] {
  return Object.keys(def.fields);
}

/** The upstream-style id of a record: prefix + sha256 of its identifying fields. */
export function derivedId(def: DatasetDef, record: DatasetRecord): string {
  const dk = def.derivedKey!;
  const h = createHash('sha256');
  for (const f of dk.from) h.update(JSON.stringify(record[f] ?? null)).update('\0');
  return `${dk.prefix}${h.digest('hex')}`;
}

// ---------------------------------------------------------------------------------------------
// Cursor positions

/** Packs a tuple position into the foundation's single-value keyset position (for cursors). */
export function toKeysetPosition(p: DatasetPosition): KeysetPosition {
  return { value: JSON.stringify(p.values), id: p.pk };
}

/** Unpacks a cursor's position; undefined when it does not have the shape of `sort`. */
export function fromKeysetPosition(k: KeysetPosition, sortLength: number): DatasetPosition | undefined {
  if (typeof k.value !== 'string' || typeof k.id !== 'number' || !Number.isSafeInteger(k.id)) return undefined;
  let values: unknown;
  try {
    values = JSON.parse(k.value);
  } catch {
    return undefined;
  }
  if (!Array.isArray(values) || values.length !== sortLength) return undefined;
  if (!values.every((v) => v === null || typeof v === 'string' || typeof v === 'number')) return undefined;
  return { values: values as (string | number | null)[], pk: k.id };
}

// ---------------------------------------------------------------------------------------------
// The repository

/**
 * The order a query really runs in: the requested keys, then the natural key (stable, meaningful
 * ties), then pk. Duplicates are dropped.
 */
export function effectiveSort(def: DatasetDef, sort: readonly SortKey[]): SortKey[] {
  const out: SortKey[] = [];
  const seen = new Set<string>();
  for (const s of [...sort, ...def.key.map((field) => ({ field, dir: 'asc' as const }))]) {
    if (seen.has(s.field) || !def.fields[s.field] || def.fields[s.field]!.type === 'string-array' || def.fields[s.field]!.type === 'json') continue;
    seen.add(s.field);
    out.push(s);
  }
  return out;
}

export class DatasetRepository {
  constructor(private readonly db: SqlDriver) {}

  /**
   * Inserts records, replacing any row with the same natural key (idempotent). Records must be
   * validated already (see ingest/datasets.ts); derivable fields and the derived key are filled
   * here. Within one call the last record of a key wins.
   * Returns the number of records written.
   */
  async upsert(def: DatasetDef, records: readonly DatasetRecord[]): Promise<number> {
    if (records.length === 0) return 0;
    const cols = columnsOf(def);
    const types = cols.map((c) => def.fields[c]!.type);
    // PostgreSQL refuses one statement that touches the same key twice, so dedupe first.
    const byKey = new Map<string, SqlValue[]>();
    for (const r of records) {
      const rec = { ...r };
      def.prepare?.(rec);
      if (def.derivedKey && rec[def.derivedKey.field] === undefined) rec[def.derivedKey.field] = derivedId(def, rec);
      const row = cols.map((c, i) => toColumn(types[i]!, rec[c]));
      byKey.set(JSON.stringify(def.key.map((k) => rec[k] ?? null)), row);
    }
    const rows = [...byKey.values()];
    const quoted = cols.map(q);
    const keyCols = new Set(def.key);
    await this.db.insertMany({
      table: def.table,
      columns: quoted,
      rows,
      conflictColumns: def.key.map(q),
      updateColumns: cols.filter((c) => !keyCols.has(c)).map(q),
    });
    return rows.length;
  }

  async count(def: DatasetDef): Promise<number> {
    const row = await this.db.get(`SELECT COUNT(*) AS n FROM ${q(def.table)}`);
    return Number(row?.n ?? 0);
  }

  /** Deletes every row (tests, demo rebuilds). */
  async clear(def: DatasetDef): Promise<void> {
    await this.db.run(`DELETE FROM ${q(def.table)}`);
  }

  /**
   * One page of rows matching `query`, in its sort order, resuming after `query.after`. Records
   * carry `fields` only (default: every declared field, hidden ones included).
   */
  async list(def: DatasetDef, query: DatasetQuery, fields: readonly string[] = columnsOf(def)): Promise<DatasetRow[]> {
    const where: string[] = [];
    const params: SqlValue[] = [];
    const table = q(def.table);
    for (const c of query.where) {
      const sql = this.condition(def, c, params);
      where.push(sql);
    }
    if (def.latestPer) {
      const { group, by } = def.latestPer;
      where.push(`${q(by)} = (SELECT MAX(l.${q(by)}) FROM ${table} AS l WHERE l.${q(group)} = ${table}.${q(group)})`);
    }

    // The order as components: a nullable field sorts its NULLs last in either direction, via a
    // 0/1 flag ahead of the value, so the keyset comparison never meets a NULL it cannot order.
    const sort = effectiveSort(def, query.sort);
    const components: { expr: string; dir: 'asc' | 'desc'; valueIndex: number; flag: boolean }[] = [];
    sort.forEach((s, i) => {
      const col = q(s.field);
      if (!def.fields[s.field]!.required) components.push({ expr: `(CASE WHEN ${col} IS NULL THEN 1 ELSE 0 END)`, dir: 'asc', valueIndex: i, flag: true });
      components.push({ expr: col, dir: s.dir, valueIndex: i, flag: false });
    });
    components.push({ expr: 'pk', dir: 'asc', valueIndex: -1, flag: false });

    if (query.after) {
      if (query.after.values.length !== sort.length) throw new RangeError('cursor position does not match the sort');
      const valueOf = (c: (typeof components)[number]): string | number | null => {
        if (c.valueIndex < 0) return query.after!.pk;
        const v = query.after!.values[c.valueIndex]!;
        return c.flag ? (v === null ? 1 : 0) : v;
      };
      // Strictly after: for some i, equal on every component before i and beyond on component i.
      const ors: string[] = [];
      for (let i = 0; i < components.length; i++) {
        const v = valueOf(components[i]!);
        if (v === null) continue; // nothing sorts after NULL inside the NULL group
        const parts: string[] = [];
        for (let j = 0; j < i; j++) {
          const w = valueOf(components[j]!);
          if (w === null) parts.push(`${components[j]!.expr} IS NULL`);
          else {
            parts.push(`${components[j]!.expr} = ?`);
            params.push(w);
          }
        }
        parts.push(`${components[i]!.expr} ${components[i]!.dir === 'asc' ? '>' : '<'} ?`);
        params.push(v);
        ors.push(`(${parts.join(' AND ')})`);
      }
      where.push(ors.length > 0 ? `(${ors.join(' OR ')})` : '1 = 0');
    }

    const selected = [...new Set([...fields, ...sort.map((s) => s.field)])];
    const sql = `SELECT pk, ${selected.map(q).join(', ')} FROM ${table}`
      + (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '')
      + ` ORDER BY ${components.map((c) => `${c.expr} ${c.dir.toUpperCase()}`).join(', ')} LIMIT ?`;
    params.push(query.limit);
    const rows = await this.db.all(sql, params);
    // Hot loop on big pages: one decoder lookup per column, not per value.
    const decoders = fields.map((f) => [f, decoderOf(def.fields[f]!.type)] as const);
    return rows.map((row) => {
      const record: DatasetRecord = {};
      for (const [f, decode] of decoders) {
        const v = row[f];
        if (v !== null && v !== undefined) record[f] = decode ? decode(v) : (v as FieldValue);
      }
      return { record, position: { values: sort.map((s) => positionValue(def.fields[s.field]!.type, row[s.field])), pk: Number(row.pk) } };
    });
  }

  private condition(def: DatasetDef, c: Condition, params: SqlValue[]): string {
    const f = def.fields[c.field];
    if (!f) throw new RangeError(`unknown field ${c.field}`);
    const col = q(c.field);
    if ('otherField' in c) {
      if (!def.fields[c.otherField]) throw new RangeError(`unknown field ${c.otherField}`);
      return `${col} ${c.op === 'gt' ? '>' : '<'} ${q(c.otherField)}`;
    }
    if (f.type === 'string-array') {
      const contains = this.db.engine === 'postgres' ? `strpos(${col}, ?) > 0` : `instr(${col}, ?) > 0`;
      const values = Array.isArray(c.value) ? c.value : [c.value];
      for (const v of values) params.push(`,${String(v)},`);
      if (c.op === 'eq' || values.length === 1) return contains;
      if (c.op === 'any_of') return `(${values.map(() => contains).join(' OR ')})`;
      if (c.op === 'all_of') return `(${values.map(() => contains).join(' AND ')})`;
      throw new RangeError(`${c.op} is not supported on array field ${c.field}`);
    }
    const bind = (v: Scalar): SqlValue => (typeof v === 'boolean' ? (v ? 1 : 0) : v);
    switch (c.op) {
      case 'any_of':
      case 'all_of': {
        if (c.value.length === 0) return '1 = 0';
        for (const v of c.value) params.push(bind(v));
        return `${col} IN (${c.value.map(() => '?').join(', ')})`;
      }
      default: {
        const op = { eq: '=', ne: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' }[c.op];
        params.push(bind(c.value));
        return `${col} ${op} ?`;
      }
    }
  }
}

function positionValue(type: FieldType, v: unknown): string | number | null {
  if (v === null || v === undefined) return null;
  if (type === 'int' || type === 'float' || type === 'bool') return Number(v);
  return String(v);
}
