// The declared data-set list endpoints, generated from a data-set declaration: the query schema
// (validation + OpenAPI) of every declared filter form, the response schema, and the route that
// pages through services/dataset-lists.ts.
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { MAX_LIST_VALUES, MAX_TEXT, pluralRule, RANGE_OPS, valueRule, type DatasetDef, type FieldDef } from '../services/dataset-lists.js';
import type { RouteContext, RouteMeta } from './context.js';
import { listPage } from './pagination.js';
import { getRoute, requestCacheKey } from './route.js';
import { Cursor, DateString, Limit, StringEnum } from './schemas.js';

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

export interface DatasetListRouteSpec extends Omit<RouteMeta, 'url'> {
  def: DatasetDef;
  url: string;
  aliases?: string[];
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /**
   * A filter the path gives instead of the query (`/futures/vX/products/:product_code/schedules`):
   * the url names it as a parameter, and the query takes none of its forms.
   */
  pathFilter?: string;
}

/** Registers the list endpoint of a declared data set (and its alias paths). */
export function datasetListRoute(app: FastifyInstance, ctx: RouteContext, spec: DatasetListRouteSpec): void {
  const { def, pathFilter } = spec;
  const family = `b:${def.name}`;
  const querystring = datasetQuerySchema(def);
  const ofPathFilter = (k: string) => k === pathFilter || k.startsWith(`${pathFilter}.`);
  if (pathFilter) for (const k of Object.keys(querystring.properties)) if (ofPathFilter(k)) delete querystring.properties[k];
  getRoute(app, ctx, {
    url: spec.url,
    aliases: spec.aliases,
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: spec.tags,
    dataset: spec.dataset,
    market: spec.market,
    ...(pathFilter ? { params: Type.Object({ [pathFilter]: Type.String({ minLength: 1, maxLength: MAX_TEXT, description: `text of at most ${MAX_TEXT} characters` }) }) } : {}),
    querystring,
    response: datasetListBody(def),
    // Records hold exactly the declared wire fields (no nulls, no bigints), so the native
    // serializer gives the schema's output; on 50,000-row pages it is ~3x faster than the
    // schema-compiled one, which checks every optional number of every row.
    serializer: 'native',
    cacheKey: requestCacheKey(ctx),
    handler: ({ params, query, req }) => {
      // the path's value alone: the query's forms of that filter are not this route's parameters
      const asked = pathFilter
        ? { ...Object.fromEntries(Object.entries(query).filter(([k]) => !ofPathFilter(k))), [pathFilter]: (params as Record<string, string>)[pathFilter] }
        : query;
      return listPage(ctx, req, asked as Record<string, unknown> & { limit: number }, {
        family,
        read: (q, page) => ctx.services.datasetLists.declared(def, q, page),
        present: (rows) => rows.map((r) => r.record),
      });
    },
  });
}
