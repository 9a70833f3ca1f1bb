// Field-for-field comparison of our bodies with the response schemas of upstream's OpenAPI document
// (../shared/spec/upstream-openapi.json): which upstream operation answers the same path, the
// declared fields of its 200 body ($ref, allOf, oneOf and anyOf resolved), and every difference of
// a body from them: a value of another JSON type, or a field upstream does not declare.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED_DIR } from './conformance.js';

export const UPSTREAM_OPENAPI = join(SHARED_DIR, 'spec', 'upstream-openapi.json');

interface RawSchema {
  $ref?: string;
  type?: string;
  properties?: Record<string, RawSchema>;
  items?: RawSchema;
  allOf?: RawSchema[];
  oneOf?: RawSchema[];
  anyOf?: RawSchema[];
  additionalProperties?: boolean | RawSchema;
  nullable?: boolean;
}

/** A response schema with references and compositions resolved. */
export interface Schema {
  /** JSON types allowed ('integer' | 'number' | 'string' | 'boolean' | 'array' | 'object'); empty: any. */
  types: Set<string>;
  nullable: boolean;
  /** Declared fields of an object; undefined when the object is free-form (no field is extra). */
  properties?: Map<string, Schema>;
  /** The schema of the values of a map-like object. */
  values?: Schema;
  items?: Schema;
}

export interface UpstreamOperation {
  path: string;
  /** Upstream's names of the path's parameters, in order. */
  params: string[];
  schema: Schema;
}

interface RawDoc {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: RawSchema }> }> }>>;
  components?: { schemas?: Record<string, RawSchema> };
}

/** The document, or undefined when ../shared is absent. */
export function loadUpstreamDoc(): RawDoc | undefined {
  return existsSync(UPSTREAM_OPENAPI) ? (JSON.parse(readFileSync(UPSTREAM_OPENAPI, 'utf8')) as RawDoc) : undefined;
}

/** A path with its parameter names blanked: `/v3/trades/{}`. Our and upstream's paths match on it. */
export const pathShape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

function resolve(doc: RawDoc, raw: RawSchema, depth = 0): Schema {
  if (depth > 30) return { types: new Set(), nullable: true };
  if (raw.$ref) {
    const name = raw.$ref.replace('#/components/schemas/', '');
    const target = doc.components?.schemas?.[name];
    if (!target) throw new Error(`unresolved $ref ${raw.$ref}`);
    return resolve(doc, { ...target, ...(raw.nullable ? { nullable: true } : {}) }, depth + 1);
  }
  const parts = [...(raw.allOf ?? []), ...(raw.oneOf ?? []), ...(raw.anyOf ?? [])].map((p) => resolve(doc, p, depth + 1));
  // Upstream writes "an object of any keys, each value like this" as a single property named `*`.
  const keys = Object.keys(raw.properties ?? {});
  if (keys.length === 1 && keys[0] === '*') raw = { ...raw, properties: undefined, additionalProperties: raw.properties!['*'] };
  const own: Schema = {
    types: new Set(raw.type ? [raw.type] : []),
    nullable: raw.nullable === true,
    properties: raw.properties ? new Map(Object.entries(raw.properties).map(([k, v]) => [k, resolve(doc, v, depth + 1)])) : undefined,
    values: typeof raw.additionalProperties === 'object' ? resolve(doc, raw.additionalProperties, depth + 1) : undefined,
    items: raw.items ? resolve(doc, raw.items, depth + 1) : undefined,
  };
  if (own.properties && !own.types.size) own.types.add('object');
  return parts.reduce(mergeSchemas, own);
}

/** The union of two schemas (allOf adds fields; for oneOf/anyOf any alternative's field is declared). */
function mergeSchemas(a: Schema, b: Schema): Schema {
  const types = a.types.size && b.types.size ? new Set([...a.types, ...b.types]) : new Set<string>([...a.types, ...b.types]);
  let properties: Map<string, Schema> | undefined;
  if (a.properties || b.properties) {
    properties = new Map(a.properties ?? []);
    for (const [k, v] of b.properties ?? []) properties.set(k, properties.has(k) ? mergeSchemas(properties.get(k)!, v) : v);
  }
  const pick = (x?: Schema, y?: Schema) => (x && y ? mergeSchemas(x, y) : x ?? y);
  return { types, nullable: a.nullable || b.nullable, properties, values: pick(a.values, b.values), items: pick(a.items, b.items) };
}

/** Every upstream GET operation with a JSON 200 schema, by path shape. */
export function upstreamOperations(doc: RawDoc): Map<string, UpstreamOperation[]> {
  const out = new Map<string, UpstreamOperation[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    const raw = item.get?.responses?.['200']?.content?.['application/json']?.schema;
    if (!raw) continue;
    const op: UpstreamOperation = { path, params: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!), schema: resolve(doc, raw) };
    out.set(pathShape(path), [...(out.get(pathShape(path)) ?? []), op]);
  }
  return out;
}

/** Every field path a schema declares (`results[].day.c`), outermost first. */
export function declaredFields(schema: Schema, path = '', depth = 0): string[] {
  if (depth > 8) return [];
  const out: string[] = [];
  if (schema.properties) {
    for (const [k, v] of schema.properties) {
      const p = path ? `${path}.${k}` : k;
      out.push(p, ...declaredFields(v, p, depth + 1));
    }
  }
  if (schema.items) out.push(...declaredFields(schema.items, `${path}[]`, depth + 1));
  if (schema.values) out.push(...declaredFields(schema.values, `${path}.*`, depth + 1));
  return out;
}

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** What one body shows against a schema: the declared fields it has, the values checked and every difference. */
export interface BodyCheck {
  present: Set<string>;
  values: number;
  /** `path: ours is X, upstream declares Y` lines. */
  typeErrors: string[];
  /** Paths of fields upstream does not declare. */
  extras: Set<string>;
}

export function checkBody(body: unknown, schema: Schema, into: BodyCheck = { present: new Set(), values: 0, typeErrors: [], extras: new Set() }): BodyCheck {
  const visit = (v: unknown, s: Schema, path: string) => {
    into.values++;
    if (v === null) {
      if (!s.nullable && s.types.size) into.typeErrors.push(`${path || '(body)'}: ours is null, upstream declares ${[...s.types].join('|')}`);
      return;
    }
    const t = jsonType(v);
    if (s.types.size && !s.types.has(t) && !(t === 'integer' && s.types.has('number'))) {
      into.typeErrors.push(`${path || '(body)'}: ours is ${t}, upstream declares ${[...s.types].join('|')}`);
      return;
    }
    if (Array.isArray(v)) {
      if (s.items) for (const item of v) visit(item, s.items, `${path}[]`);
    } else if (t === 'object') {
      for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
        if (child === undefined) continue;
        const p = path ? `${path}.${k}` : k;
        const declared = s.properties?.get(k);
        if (declared) {
          into.present.add(p);
          visit(child, declared, p);
        } else if (s.values) {
          into.present.add(`${path}.*`);
          visit(child, s.values, `${path}.*`);
        } else if (s.properties) into.extras.add(p);
      }
    }
  };
  visit(body, schema, '');
  return into;
}

/** The declared fields no body had, leaving out those whose parent is already missing. */
export function missingFields(schema: Schema, present: ReadonlySet<string>): string[] {
  const missing: string[] = [];
  for (const f of declaredFields(schema)) {
    if (present.has(f)) continue;
    if (missing.some((m) => f.startsWith(`${m}.`) || f.startsWith(`${m}[]`))) continue;
    missing.push(f);
  }
  return missing;
}
