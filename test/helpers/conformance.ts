import { fileURLToPath } from 'node:url';
// Recorded-body conformance: compares the field names and JSON types of our bodies with the
// upstream bodies kept in ../shared/fixtures/upstream (see its README). Values are never
// compared: the recorded ones are old and partly hand-edited.
//
// Usage:
//   const upstream = upstreamBody('v2/aggs/ticker/AAPL/prev.json');   // undefined when absent
//   if (!upstream) return skipConformance('prev');
//   expectSameShape(ours, upstream, { allowMissing: ['results[].n'], allowExtra: ['request_id'] });
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

/** `../shared` beside the project (present in the developers' and CI's checkouts, absent in a user's clone). */
export const SHARED_DIR = process.env.TICKERBASE_SHARED_DIR ?? fileURLToPath(new URL('../../../shared', import.meta.url));
export const UPSTREAM_DIR = process.env.UPSTREAM_FIXTURES ?? `${SHARED_DIR}/fixtures/upstream`;

/** Whether the recorded bodies are available (they live outside the repository). */
export const haveUpstream = existsSync(join(UPSTREAM_DIR, 'index.json'));

/** A recorded body by its file (relative to upstream/), or undefined when the folder is absent. */
export function upstreamBody(file: string): unknown {
  const path = join(UPSTREAM_DIR, file);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
}

/** Prints why a conformance check did not run (a skipped check must say so). */
export function skipConformance(what: string): void {
  console.log(`conformance of ${what} skipped: no recorded body under ${UPSTREAM_DIR}`);
}

/**
 * The shape of a JSON value: 'string' | 'number' | 'boolean' | 'null' for scalars,
 * { object: {key: shape} } for objects and { array: shape | null } for arrays, where the element
 * shape merges every element (an object key present in some elements only is still listed).
 */
export type Shape = 'string' | 'number' | 'boolean' | 'null' | { object: Record<string, Shape> } | { array: Shape | null } | { mixed: Shape[] };

function merge(a: Shape | null, b: Shape): Shape {
  if (a === null) return b;
  if (typeof a === 'string' || typeof b === 'string') {
    return JSON.stringify(a) === JSON.stringify(b) ? a : { mixed: [a, b] };
  }
  if ('object' in a && 'object' in b) {
    const out: Record<string, Shape> = { ...a.object };
    for (const [k, v] of Object.entries(b.object)) out[k] = k in out ? merge(out[k]!, v) : v;
    return { object: out };
  }
  if ('array' in a && 'array' in b) {
    if (a.array === null) return b;
    if (b.array === null) return a;
    return { array: merge(a.array, b.array) };
  }
  return { mixed: [a, b] };
}

export function shapeOf(json: unknown): Shape {
  if (json === null) return 'null';
  if (Array.isArray(json)) {
    let el: Shape | null = null;
    for (const item of json) el = merge(el, shapeOf(item));
    return { array: el };
  }
  switch (typeof json) {
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'object': {
      const out: Record<string, Shape> = {};
      for (const [k, v] of Object.entries(json as Record<string, unknown>)) if (v !== undefined) out[k] = shapeOf(v);
      return { object: out };
    }
    default:
      throw new TypeError(`not JSON: ${typeof json}`);
  }
}

function kind(s: Shape): string {
  if (typeof s === 'string') return s;
  if ('object' in s) return 'object';
  if ('array' in s) return 'array';
  return `mixed(${s.mixed.map(kind).join('|')})`;
}

export interface ShapeOptions {
  /**
   * Paths of upstream keys ours may lack (`results[].n`, `next_url`), or true for any: keys that
   * are optional upstream (only when there is a value) or that we document as not served.
   */
  allowMissing?: readonly string[] | true;
  /** Paths of keys ours may have that the recorded body lacks (documented additions). */
  allowExtra?: readonly string[];
  /** Paths where the recorded body has null and ours the type upstream's schema declares. */
  allowNull?: readonly string[];
}

/** Every difference in key sets and JSON types between two shapes, as readable lines. */
export function shapeDifferences(ours: Shape, upstream: Shape, opts: ShapeOptions = {}, path = ''): string[] {
  const out: string[] = [];
  const here = path || '(body)';
  if (upstream === 'null' && (opts.allowNull ?? []).includes(path)) return out;
  if (kind(ours) !== kind(upstream)) {
    out.push(`${here}: ours is ${kind(ours)}, upstream is ${kind(upstream)}`);
    return out;
  }
  if (typeof ours === 'string' || typeof upstream === 'string') return out;
  if ('object' in ours && 'object' in upstream) {
    const missingOk = (p: string) => opts.allowMissing === true || (opts.allowMissing ?? []).includes(p);
    for (const [k, v] of Object.entries(ours.object)) {
      const p = path ? `${path}.${k}` : k;
      if (!(k in upstream.object)) {
        if (!(opts.allowExtra ?? []).includes(p)) out.push(`${p}: only in ours`);
        continue;
      }
      out.push(...shapeDifferences(v, upstream.object[k]!, opts, p));
    }
    for (const k of Object.keys(upstream.object)) {
      const p = path ? `${path}.${k}` : k;
      if (!(k in ours.object) && !missingOk(p)) out.push(`${p}: missing in ours`);
    }
  } else if ('array' in ours && 'array' in upstream && ours.array !== null && upstream.array !== null) {
    out.push(...shapeDifferences(ours.array, upstream.array, opts, `${path}[]`));
  }
  return out;
}

/** Asserts that `ours` has upstream's keys (bar allowed omissions) and no others, with the same JSON types. */
export function expectSameShape(ours: unknown, upstream: unknown, opts: ShapeOptions = {}): void {
  expect(shapeDifferences(shapeOf(ours), shapeOf(upstream), opts)).toEqual([]);
}

/**
 * A test-declaring check for one describe block: `check(what, file, url, opts)` declares a test that
 * GETs `url` from the app and compares its body's shape with the recorded upstream `file`
 * (skipped, saying so, when the recordings are absent).
 */
export function conformanceCheck(app: { get(url: string): Promise<{ body: unknown }> }): (what: string, file: string, url: string, opts?: ShapeOptions) => void {
  return (what, file, url, opts = {}) =>
    it(what, async () => {
      const upstream = upstreamBody(file);
      if (!haveUpstream || upstream === undefined) return skipConformance(what);
      expectSameShape((await app.get(url)).body, upstream, opts);
    });
}
