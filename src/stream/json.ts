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

/**
 * JSON.parse, except that integers of 16 or more digits (beyond 2^53) become bigint. Numbers
 * inside strings are left alone.
 */
export function parseJsonExact(text: string): unknown {
  const marked = markLongIntegers(text);
  if (marked === text) return JSON.parse(text);
  return JSON.parse(marked, (_k, v: unknown) => (typeof v === 'string' && v.startsWith(BIG_MARK) ? BigInt(v.slice(BIG_MARK.length)) : v));
}

// A string no JSON text can hold unescaped, written escaped into the marked text.
const BIG_MARK = '\u0000big:';
const BIG_MARK_ESCAPED = '\\u0000big:';

function markLongIntegers(text: string): string {
  let out = '';
  let last = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) {
      inString = true;
      continue;
    }
    if ((c >= 48 && c <= 57) || c === 45 /* - */) {
      let j = i + (c === 45 ? 1 : 0);
      while (j < text.length && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
      const next = text.charCodeAt(j);
      const digits = j - i - (c === 45 ? 1 : 0);
      if (digits >= 16 && next !== 46 /* . */ && next !== 101 && next !== 69 /* e E */) {
        out += `${text.slice(last, i)}"${BIG_MARK_ESCAPED}${text.slice(i, j)}"`;
        last = j;
      }
      i = j - 1;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}
