import { existsSync, readFileSync } from 'node:fs';
import { SHARED_DIR } from './conformance.js';

// Our bodies held against the 200 schema upstream's OpenAPI document declares for a path, for
// endpoints with no recorded body: every field we send is one upstream declares, with its JSON type,
// and every field upstream requires is sent. Values are not compared.

export const UPSTREAM_OPENAPI = `${SHARED_DIR}/spec/upstream-openapi.json`;

type Json = Record<string, any>;

let doc: Json | undefined;
function load(): Json | undefined {
  if (doc === undefined && existsSync(UPSTREAM_OPENAPI)) doc = JSON.parse(readFileSync(UPSTREAM_OPENAPI, 'utf8')) as Json;
  return doc;
}

/** Whether upstream's OpenAPI document is available (it lives outside the repository). */
export const haveUpstreamOpenapi = existsSync(UPSTREAM_OPENAPI);

function resolve(s: Json): Json {
  const d = load()!;
  return s.$ref ? (s.$ref as string).split('/').slice(1).reduce((o: Json, k: string) => o[k], d) : s;
}

/** The 200 body schema upstream declares for a GET path (spelt as upstream spells it). */
export function upstreamResponseSchema(path: string): Json {
  const d = load();
  if (!d) throw new Error(`${UPSTREAM_OPENAPI} is not available`);
  const op = d.paths[path]?.get;
  if (!op) throw new Error(`upstream has no GET ${path}`);
  return resolve(op.responses['200'].content['application/json'].schema);
}

/** The example 200 body upstream's OpenAPI document gives for a GET path, if any. */
export function upstreamExample(path: string): unknown {
  return load()?.paths[path]?.get?.responses['200']?.content['application/json']?.example;
}

/** The query and path parameter names upstream declares for a GET path. */
export function upstreamParameters(path: string): string[] {
  const op = load()!.paths[path].get as Json;
  return ((op.parameters ?? []) as Json[]).map((p) => resolve(p).name as string);
}

function typeOk(value: unknown, type: string | undefined): boolean {
  switch (type) {
    case undefined:
      return true;
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'string':
    case 'boolean':
      return typeof value === type;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return true;
  }
}

/**
 * Where `value` departs from `schema`: a field upstream does not declare, a field of another JSON
 * type, or a required field missing. Fields typed `number` upstream accept integers.
 */
export function schemaDifferences(value: unknown, schema: Json, at = ''): string[] {
  const s = resolve(schema);
  const alternatives = (s.oneOf ?? s.anyOf) as Json[] | undefined;
  if (alternatives) {
    const tries = alternatives.map((a) => schemaDifferences(value, a, at));
    return tries.find((d) => d.length === 0) ?? tries[0]!;
  }
  if (s.allOf) return schemaDifferences(value, (s.allOf as Json[]).reduce((m, p) => mergeSchemas(m, resolve(p)), {}), at);
  if (value === null) return s.nullable ? [] : [`${at || '(body)'}: null where upstream has ${s.type ?? 'a value'}`];
  if (!typeOk(value, s.type)) return [`${at || '(body)'}: ${JSON.stringify(value)} is not ${s.type}`];
  const out: string[] = [];
  if (Array.isArray(value) && s.items) value.forEach((v, i) => out.push(...schemaDifferences(v, s.items, `${at}[${i}]`)));
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && s.properties) {
    const props = s.properties as Json;
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      if (!(k in props)) out.push(`${at}.${k}: not declared upstream`);
      else out.push(...schemaDifferences(v, props[k], `${at}.${k}`));
    }
    for (const k of (s.required ?? []) as string[]) if (!(k in value)) out.push(`${at}.${k}: required upstream, missing`);
  }
  return out;
}

function mergeSchemas(a: Json, b: Json): Json {
  return {
    ...a,
    ...b,
    properties: { ...(a.properties ?? {}), ...(b.properties ?? {}) },
    required: [...(a.required ?? []), ...(b.required ?? [])],
  };
}

/**
 * Differences of a native-envelope body from the 200 schema of an upstream GET path. `allowExtra`
 * names fields (as `.count`, `.results[].x` with indices blanked) upstream sends without declaring.
 */
export function upstreamBodyDifferences(path: string, body: unknown, allowExtra: string[] = []): string[] {
  const allowed = new Set(allowExtra.map((f) => `${f}: not declared upstream`));
  return schemaDifferences(body, upstreamResponseSchema(path)).filter((d) => !allowed.has(d.replace(/\[\d+\]/g, '[]')));
}
