// JSON for the feed with exact integers: nanosecond timestamps (about 1.7e18) exceed the range a
// double holds exactly, so they travel as bigint and are written as plain digits.

export type WireValue = string | number | bigint | boolean | readonly WireValue[] | { readonly [k: string]: WireValue };
export type WireEvent = { readonly ev: string } & { readonly [k: string]: WireValue };

function encodeValue(v: WireValue): string {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      if (!Number.isFinite(v)) throw new TypeError(`not a finite number: ${v}`);
      return String(v);
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      if (Array.isArray(v)) return `[${v.map(encodeValue).join(',')}]`;
      return encodeObject(v as { readonly [k: string]: WireValue });
  }
}

function encodeObject(o: { readonly [k: string]: WireValue }): string {
  let out = '{';
  let first = true;
  for (const k in o) {
    const v = o[k];
    if (v === undefined || v === null) continue; // absent fields are left out, never sent as null
    out += `${first ? '' : ','}${JSON.stringify(k)}:${encodeValue(v)}`;
    first = false;
  }
  return `${out}}`;
}

/** One event as JSON text, integers exact. */
export function encodeEvent(e: WireEvent): string {
  return isPlain(e) ? JSON.stringify(e) : encodeObject(e);
}

/**
 * Whether JSON.stringify writes the event exactly as encodeObject does (and about twice as
 * fast): every field a string, a boolean, a finite number or a list of strings and finite
 * numbers. Bigints, absent (null) fields and nested objects take the slow path.
 */
function isPlain(o: { readonly [k: string]: WireValue }): boolean {
  for (const k in o) {
    const v = o[k];
    switch (typeof v) {
      case 'string':
      case 'boolean':
        continue;
      case 'number':
        if (Number.isFinite(v)) continue;
        return false;
      case 'object':
        if (Array.isArray(v) && v.every((x) => typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x)))) continue;
        return false;
      default:
        return false;
    }
  }
  return true;
}

export { parseJsonExact } from '../domain/exact-json.js';
