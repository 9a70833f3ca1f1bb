// Reading an upstream frame without building it: a check that the text is JSON (the grammar
// JSON.parse accepts), done in one pass that allocates nothing but the results, and for a
// top-level array the bounds of each element and, for an element that is an object, the string
// values of the few keys routing reads (channel and symbol). JSON.parse would build every event
// as an object of a dozen fields only for two of them to be read, and at 20,000 events a second
// that parse was the relay's largest cost after the socket writes.

/** An element of the frame's array: where its text lies, and the routing fields of an object. */
export interface ScannedElement {
  start: number;
  end: number;
  /** Top-level string fields routing reads (an object element only). */
  fields?: RoutingFields;
}

/** The channel, and every key an event's symbol may be under (markets.ts symbolKeyOf); one shape for every event. */
export class RoutingFields {
  ev: string | undefined = undefined;
  sym: string | undefined = undefined;
  T: string | undefined = undefined;
  p: string | undefined = undefined;
  pair: string | undefined = undefined;
}
type RoutingKey = keyof RoutingFields;

/** The routing key the string token at `start` (quotes included, `length` characters between them) spells, if any, compared in place. */
function routingKeyAt(text: string, start: number, length: number): RoutingKey | undefined {
  switch (length) {
    case 1:
      return text.startsWith('"T"', start) ? 'T' : text.startsWith('"p"', start) ? 'p' : undefined;
    case 2:
      return text.startsWith('"ev"', start) ? 'ev' : undefined;
    case 3:
      return text.startsWith('"sym"', start) ? 'sym' : undefined;
    case 4:
      return text.startsWith('"pair"', start) ? 'pair' : undefined;
    default:
      return undefined;
  }
}

/** Whether the last string scanned held an escape (its value then needs decoding). */
let escaped = false;

const isDigit = (c: number) => c >= 48 && c <= 57;

function skipBlanks(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return i;
    i++;
  }
}

/** The index after the string opening at `i`, or -1 when it is not a JSON string. */
function scanString(text: string, i: number): number {
  escaped = false;
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 34 /* " */) return j + 1;
    if (c < 32) return -1;
    if (c !== 92 /* \ */) continue;
    escaped = true;
    const d = text.charCodeAt(++j);
    if (d === 117 /* u */) {
      for (let k = 1; k <= 4; k++) if (!isHex(text.charCodeAt(j + k))) return -1;
      j += 4;
    } else if (d !== 34 && d !== 92 && d !== 47 && d !== 98 && d !== 102 && d !== 110 && d !== 114 && d !== 116) return -1;
  }
  return -1;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/** The index after the number starting at `i`, or -1. */
function scanNumber(text: string, i: number): number {
  let j = i;
  if (text.charCodeAt(j) === 45 /* - */) j++;
  const first = text.charCodeAt(j);
  if (first === 48) j++;
  else if (first >= 49 && first <= 57) while (isDigit(text.charCodeAt(++j)));
  else return -1;
  if (text.charCodeAt(j) === 46 /* . */) {
    if (!isDigit(text.charCodeAt(++j))) return -1;
    while (isDigit(text.charCodeAt(++j)));
  }
  const e = text.charCodeAt(j);
  if (e === 101 || e === 69 /* e E */) {
    const s = text.charCodeAt(++j);
    if (s === 43 || s === 45) j++;
    if (!isDigit(text.charCodeAt(j))) return -1;
    while (isDigit(text.charCodeAt(++j)));
  }
  return j;
}

/** After a key (a string) at `i`: the index of its value, past the colon, or -1. */
function scanKey(text: string, i: number): number {
  if (text.charCodeAt(i) !== 34) return -1;
  i = skipBlanks(text, scanString(text, i));
  if (i < 0 || text.charCodeAt(i) !== 58 /* : */) return -1;
  return skipBlanks(text, i + 1);
}

/** The index after the JSON value starting at `i` (any nesting, kept on a stack), or -1. */
function scanValue(text: string, i: number): number {
  const open: number[] = [];
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 123 /* { */ || c === 91 /* [ */) {
      const close = c === 123 ? 125 : 93;
      i = skipBlanks(text, i + 1);
      if (text.charCodeAt(i) === close) i++;
      else {
        open.push(close);
        if (c === 123 && (i = scanKey(text, i)) < 0) return -1;
        continue;
      }
    } else if (c === 34) i = scanString(text, i);
    else if (c === 116 /* t */) i = text.startsWith('true', i) ? i + 4 : -1;
    else if (c === 102 /* f */) i = text.startsWith('false', i) ? i + 5 : -1;
    else if (c === 110 /* n */) i = text.startsWith('null', i) ? i + 4 : -1;
    else i = scanNumber(text, i);
    if (i < 0) return -1;
    // a value ended: close what it ends, or go on to the next value of its container
    for (;;) {
      if (open.length === 0) return i;
      i = skipBlanks(text, i);
      const d = text.charCodeAt(i);
      const close = open[open.length - 1]!;
      if (d === close) {
        open.pop();
        i++;
        continue;
      }
      if (d !== 44 /* , */) return -1;
      i = skipBlanks(text, i + 1);
      if (close === 125 && (i = scanKey(text, i)) < 0) return -1;
      break;
    }
  }
}

/** The string token's value (decoded only when it holds an escape). */
function stringValue(text: string, start: number, end: number, hadEscape: boolean): string {
  return hadEscape ? (JSON.parse(text.slice(start, end)) as string) : text.slice(start + 1, end - 1);
}

/** An object element: its end, with the routing fields gathered on the way (the last of a repeated key wins, as in JSON.parse). */
function scanObject(text: string, i: number, fields: RoutingFields): number {
  i = skipBlanks(text, i + 1);
  if (text.charCodeAt(i) === 125) return i + 1;
  for (;;) {
    if (text.charCodeAt(i) !== 34) return -1;
    const keyStart = i;
    i = scanString(text, i);
    if (i < 0) return -1;
    // an escaped key is decoded (rare); any other is compared where it lies
    const key = escaped ? routingKeyOf(stringValue(text, keyStart, i, true)) : routingKeyAt(text, keyStart, i - keyStart - 2);
    i = skipBlanks(text, i);
    if (text.charCodeAt(i) !== 58) return -1;
    i = skipBlanks(text, i + 1);
    const valueStart = i;
    if (text.charCodeAt(i) === 34) {
      i = scanString(text, i);
      if (i < 0) return -1;
      if (key) fields[key] = stringValue(text, valueStart, i, escaped);
    } else {
      i = scanValue(text, i);
      if (i < 0) return -1;
      if (key) fields[key] = undefined;
    }
    i = skipBlanks(text, i);
    const c = text.charCodeAt(i);
    if (c === 125) return i + 1;
    if (c !== 44) return -1;
    i = skipBlanks(text, i + 1);
  }
}

function routingKeyOf(key: string): RoutingKey | undefined {
  return key === 'ev' || key === 'sym' || key === 'T' || key === 'p' || key === 'pair' ? key : undefined;
}

/**
 * The elements of a frame that is a JSON array; undefined when the text is not JSON at all, and
 * 'not an array' when it is JSON of another kind.
 */
export function scanFrame(text: string): ScannedElement[] | 'not an array' | undefined {
  let i = skipBlanks(text, 0);
  if (text.charCodeAt(i) !== 91) {
    const end = scanValue(text, i);
    return end >= 0 && skipBlanks(text, end) === text.length ? 'not an array' : undefined;
  }
  const out: ScannedElement[] = [];
  i = skipBlanks(text, i + 1);
  if (text.charCodeAt(i) === 93) i++;
  else {
    for (;;) {
      const start = i;
      let fields: RoutingFields | undefined;
      if (text.charCodeAt(i) === 123) i = scanObject(text, i, (fields = new RoutingFields()));
      else i = scanValue(text, i);
      if (i < 0) return undefined;
      out.push({ start, end: i, fields });
      i = skipBlanks(text, i);
      const c = text.charCodeAt(i);
      if (c === 93) {
        i++;
        break;
      }
      if (c !== 44) return undefined;
      i = skipBlanks(text, i + 1);
    }
  }
  return skipBlanks(text, i) === text.length ? out : undefined;
}
