// The declared data-set list endpoints, generated from a data-set declaration: query schema
// (validation + OpenAPI), parsing of filters (`f`, `f.any_of`, `f.all_of`, `f.gt/.gte/.lt/.lte`)
// and of `sort=a.asc,b.desc`, keyset paging through signed cursors, and the response schema.
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { parseDate } from '../domain/calendar.js';
import {
  effectiveSort,
  fromKeysetPosition,
  isSortable,
  parseSortSpec,
  toKeysetPosition,
  type Condition,
  type DatasetDef,
  type FieldDef,
  type Scalar,
  type SortKey,
} from '../store/repos/datasets.js';
import { normalizeCik } from '../domain/cik.js';
import type { RouteMeta, ServerContext } from './context.js';
import { ApiError, badParameter } from '../domain/errors.js';
import { finishPage, pagedQuery } from './pagination.js';
import { getRoute } from './route.js';
import { Cursor, DateString, Limit, StringEnum } from './schemas.js';

const RANGE_OPS = ['gt', 'gte', 'lt', 'lte'] as const;
const MAX_LIST_VALUES = 1000;
const MAX_TEXT = 256;

/** What one value of a field must look like, as the rule text of a 400. */
function valueRule(f: FieldDef): string {
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
      return f.enum ? `one of ${f.enum.join(', ')}` : `text of at most ${MAX_TEXT} characters`;
  }
}

function pluralRule(f: FieldDef): string {
  switch (f.type) {
    case 'date':
      return 'dates in the form YYYY-MM-DD';
    case 'int':
      return 'integers';
    case 'float':
      return 'numbers';
    default:
      return f.enum ? `values from ${f.enum.join(', ')}` : 'values';
  }
}

function singleSchema(f: FieldDef, op: 'eq' | 'range'): TSchema {
  switch (f.type) {
    case 'date':
      return DateString();
    case 'int':
      return Type.Integer({ description: valueRule(f) });
    case 'float':
      return Type.Number({ description: valueRule(f) });
    case 'bool':
      return Type.Boolean();
    default:
      // Ranges on enumerated text compare lexicographically, so any text is a valid bound.
      if (f.enum && op === 'eq') return StringEnum(f.enum);
      return Type.String({ minLength: 1, maxLength: MAX_TEXT, description: `text of at most ${MAX_TEXT} characters` });
  }
}

const listSchema = (f: FieldDef) =>
  Type.String({ minLength: 1, maxLength: 20_000, description: `a comma-separated list of at most ${MAX_LIST_VALUES} ${pluralRule(f)}` });

/** Query properties of every declared filter form of a data set (also used by the v3 twins). */
export function filterProperties(def: DatasetDef): Record<string, TSchema> {
  const props: Record<string, TSchema> = {};
  for (const [name, forms] of Object.entries(def.filters)) {
    const f = def.fields[name]!;
    if (forms.includes('eq')) props[name] = Type.Optional(singleSchema(f, 'eq'));
    if (forms.includes('any_of')) props[`${name}.any_of`] = Type.Optional(listSchema(f));
    if (forms.includes('all_of')) props[`${name}.all_of`] = Type.Optional(listSchema(f));
    if (forms.includes('range')) for (const op of RANGE_OPS) props[`${name}.${op}`] = Type.Optional(singleSchema(f, 'range'));
  }
  return props;
}

/** The querystring schema of a declared data-set endpoint: every declared filter form, limit, sort, cursor. */
export function datasetQuerySchema(def: DatasetDef): TObject {
  const props = filterProperties(def);
  props.limit = Limit(def.limit.default, def.limit.max);
  props.sort = Type.String({
    default: def.sort,
    minLength: 1,
    maxLength: 1000,
    description: 'a comma-separated list of fields, each optionally followed by .asc or .desc',
  });
  props.cursor = Type.Optional(Cursor);
  return Type.Object(props);
}

/** One wire record of a data set: hidden fields left out; required ones marked so. */
export function datasetItemSchema(def: DatasetDef): TObject {
  const props: Record<string, TSchema> = {};
  for (const [name, f] of Object.entries(def.fields)) {
    if (f.hidden) continue;
    const opts = f.description ? { description: f.description } : {};
    let s: TSchema;
    switch (f.type) {
      case 'int':
        s = Type.Integer(opts);
        break;
      case 'float':
        s = Type.Number(opts);
        break;
      case 'bool':
        s = Type.Boolean(opts);
        break;
      case 'string-array':
        s = Type.Array(Type.String(), opts);
        break;
      case 'json':
        s = Type.Unknown(opts);
        break;
      default:
        s = Type.String(opts);
    }
    props[name] = f.required ? s : Type.Optional(s);
  }
  return Type.Object(props);
}

export function datasetListBody(def: DatasetDef): TObject {
  return Type.Object({
    status: Type.String(),
    request_id: Type.String(),
    count: Type.Integer({ description: 'Number of results in this response.' }),
    results: Type.Array(datasetItemSchema(def)),
    next_url: Type.Optional(Type.String({ description: 'URL of the next page; absent on the last page.' })),
  });
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
export function parseFilters(def: DatasetDef, query: Record<string, unknown>): Condition[] {
  const where: Condition[] = [];
  for (const [field, forms] of Object.entries(def.filters)) {
    if (forms.includes('eq') && query[field] !== undefined) {
      where.push({ field, op: 'eq', value: filterValue(def, field, query[field], field) });
    }
    for (const op of ['any_of', 'all_of'] as const) {
      const param = `${field}.${op}`;
      if (forms.includes(op) && query[param] !== undefined) where.push({ field, op, value: listValues(def, field, String(query[param]), param) });
    }
    if (forms.includes('range')) {
      for (const op of RANGE_OPS) {
        const param = `${field}.${op}`;
        if (query[param] === undefined) continue;
        where.push({ field, op, value: filterValue(def, field, query[param], param) });
      }
    }
  }
  return where;
}

export interface DatasetListRouteSpec extends Omit<RouteMeta, 'url'> {
  def: DatasetDef;
  url: string;
  aliases?: string[];
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
}

/** Registers the list endpoint of a declared data set (and its alias paths). */
export function datasetListRoute(app: FastifyInstance, ctx: ServerContext, spec: DatasetListRouteSpec): void {
  const { def } = spec;
  const family = `b:${def.name}`;
  const wireFields = Object.keys(def.fields).filter((f) => !def.fields[f]!.hidden);
  getRoute(app, ctx, {
    url: spec.url,
    aliases: spec.aliases,
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: spec.tags,
    dataset: spec.dataset,
    market: spec.market,
    querystring: datasetQuerySchema(def),
    response: datasetListBody(def),
    handler: async ({ query: raw, req, reply }) => {
      const { query, after } = pagedQuery<Record<string, unknown>>(ctx, family, raw as Record<string, unknown>);
      const parsed = parseDatasetQuery(def, query);
      let position;
      if (after) {
        position = fromKeysetPosition(after, effectiveSort(def, parsed.sort).length);
        if (!position) throw new ApiError('BAD_CURSOR', 'cursor is invalid: use the next_url of a previous response unchanged');
      }
      const rows = await ctx.store.datasets.list(def, { where: parsed.where, sort: parsed.sort, limit: parsed.limit + 1, after: position }, wireFields);
      const page = finishPage(ctx, req, family, query, parsed.limit, rows, (r) => toKeysetPosition(r.position));
      const results = page.rows.map((r) => r.record);
      // Records hold exactly the declared wire fields (no nulls, no bigints), so the native
      // serializer gives the schema's output; on 50,000-row pages it is ~3x faster than the
      // schema-compiled one, which checks every optional number of every row.
      reply.serializer(JSON.stringify);
      return { count: results.length, results, ...(page.next_url ? { next_url: page.next_url } : {}) };
    },
  });
}
