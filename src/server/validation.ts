import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { ApiError } from '../domain/errors.js';

interface SchemaLike {
  type?: string | string[];
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  description?: string;
  items?: SchemaLike;
}

function describeRule(name: string, s: SchemaLike | undefined, keyword: string): string {
  if (!s) return `${name} is invalid`;
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (s.enum) return `${name} must be one of: ${s.enum.join(', ')}`;
  if (type === 'integer') {
    if (s.minimum !== undefined && s.maximum !== undefined) return `${name} must be an integer from ${s.minimum} to ${s.maximum}`;
    if (s.minimum !== undefined) return `${name} must be an integer of at least ${s.minimum}`;
    return `${name} must be an integer`;
  }
  if (type === 'number') {
    if (s.minimum !== undefined) return `${name} must be a number of at least ${s.minimum}`;
    return `${name} must be a number`;
  }
  if (type === 'boolean') return `${name} must be true or false`;
  if (s.description) return `${name} must be ${s.description}`;
  if (keyword === 'maxLength') return `${name} is too long`;
  if (type === 'array' && s.items) return describeRule(name, s.items, keyword);
  return `${name} is invalid`;
}

/** Turns the first schema violation into a 400 that names the parameter and its rule. */
export function formatValidationError(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const e = errors[0] as FastifySchemaValidationError & { parentSchema?: SchemaLike; schema?: unknown };
  if (!e) return new ApiError('BAD_PARAMETER', `invalid ${dataVar}`);
  if (e.keyword === 'required') {
    const missing = String((e.params as { missingProperty?: string }).missingProperty ?? '');
    return new ApiError('BAD_PARAMETER', `${missing} is required`);
  }
  // instancePath is a JSON pointer: /limit, /tickers/0, /ticker.gt
  const name = decodeURIComponent(e.instancePath.split('/')[1] ?? dataVar).replace(/~1/g, '/').replace(/~0/g, '~');
  return new ApiError('BAD_PARAMETER', describeRule(name, e.parentSchema, e.keyword));
}

// Strict reading of numbers and single-valued parameters. Ajv's coercion takes whatever
// JavaScript's Number() takes ("0x10", "1e3", " 5", "5.0" for an integer), and a repeated
// parameter arrives as an array whose error blames the type. Before the schema runs, each
// integer parameter must be decimal digits (optionally signed), each number plain decimal
// notation, and a parameter that is not a list may be given once.

type ParamKind = 'integer' | 'number' | 'list' | 'list-of-integer' | 'list-of-number' | 'other';

const INTEGER_TEXT = /^-?\d+$/;
const DECIMAL_TEXT = /^-?\d+(?:\.\d+)?$/;

function typesOf(s: SchemaLike & { anyOf?: SchemaLike[]; oneOf?: SchemaLike[] }): string[] {
  const own = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
  const alt = [...(s.anyOf ?? []), ...(s.oneOf ?? [])].flatMap(typesOf);
  return [...own, ...alt];
}

function kindOf(s: SchemaLike): ParamKind {
  const types = typesOf(s);
  if (types.includes('array')) {
    const item = s.items ? kindOf(s.items) : 'other';
    return item === 'integer' ? 'list-of-integer' : item === 'number' ? 'list-of-number' : 'list';
  }
  // a parameter that also takes text (a date or a timestamp) is checked by its own schema
  if (types.includes('string')) return 'other';
  if (types.includes('integer')) return 'integer';
  if (types.includes('number')) return 'number';
  return 'other';
}

/** Each property of a querystring or params schema with what it accepts; undefined when nothing to check. */
export function parameterKinds(schema: unknown): Map<string, { kind: ParamKind; schema: SchemaLike }> | undefined {
  const props = (schema as { properties?: Record<string, SchemaLike> } | undefined)?.properties;
  if (!props) return undefined;
  const out = new Map<string, { kind: ParamKind; schema: SchemaLike }>();
  for (const [name, s] of Object.entries(props)) out.set(name, { kind: kindOf(s), schema: s });
  return out;
}

function badText(kind: ParamKind, text: string): boolean {
  if (kind === 'integer' || kind === 'list-of-integer') return !INTEGER_TEXT.test(text);
  if (kind === 'number' || kind === 'list-of-number') return !DECIMAL_TEXT.test(text);
  return false;
}

/**
 * The 400 for the first parameter of `values` (a parsed query or path) given twice or written
 * in a form its type does not take; undefined when all are well formed.
 */
export function strictParameterError(values: unknown, kinds: Map<string, { kind: ParamKind; schema: SchemaLike }>): ApiError | undefined {
  if (!values || typeof values !== 'object') return undefined;
  for (const name in values) {
    const spec = kinds.get(name);
    if (spec === undefined) continue;
    const v = (values as Record<string, unknown>)[name];
    const list = spec.kind.startsWith('list');
    if (Array.isArray(v) && !list) return new ApiError('BAD_PARAMETER', `${name} is given ${v.length} times; give it once`);
    const texts = Array.isArray(v) ? v : [v];
    if (texts.some((t) => typeof t === 'string' && badText(spec.kind, t))) {
      return new ApiError('BAD_PARAMETER', describeRule(name, list ? (spec.schema.items ?? spec.schema) : spec.schema, 'type'));
    }
  }
  return undefined;
}

interface RouteLike {
  schema?: { querystring?: unknown; params?: unknown };
  preValidation?: unknown;
}

type PreValidation = (req: { query: unknown; params: unknown }, reply: unknown, done: (err?: Error) => void) => void;

/**
 * An onRoute hook: routes with a querystring or params schema check their raw parameters
 * (strictParameterError) before Ajv coerces them; routes without skip the run.
 */
export function addStrictParameters(route: RouteLike): void {
  const query = parameterKinds(route.schema?.querystring);
  const params = parameterKinds(route.schema?.params);
  if (!query && !params) return;
  const check: PreValidation = (req, _reply, done) => {
    done((query && strictParameterError(req.query, query)) || (params && strictParameterError(req.params, params)) || undefined);
  };
  const own = route.preValidation;
  route.preValidation = own === undefined ? [check] : [check, ...(Array.isArray(own) ? own : [own])];
}

/**
 * An onRoute hook factory: routes whose querystring or params schemas are equal in content get
 * one shared schema object, so Ajv (which keeps compiled validators per schema object) compiles
 * each distinct schema once. Compiling validators is most of the time an app takes to start, and
 * every endpoint is registered at the root and under each fixed prefix (api-bases.ts) with
 * schemas built anew each time.
 */
export function shareParameterSchemas(): (route: RouteLike) => void {
  const seen = new Map<string, unknown>();
  const shared = (schema: unknown): unknown => {
    if (schema === undefined || schema === null || typeof schema !== 'object') return schema;
    const text = JSON.stringify(schema);
    const first = seen.get(text);
    if (first !== undefined) return first;
    seen.set(text, schema);
    return schema;
  };
  return (route) => {
    const s = route.schema;
    if (s === undefined) return;
    if (s.querystring !== undefined) s.querystring = shared(s.querystring);
    if (s.params !== undefined) s.params = shared(s.params);
  };
}
