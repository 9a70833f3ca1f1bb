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
