// JSON.parse with exact integers: nanosecond timestamps (about 1.7e18) exceed the range a double
// holds exactly, so integers of 16 or more digits are read as bigint (the feed: published events,
// upstream's WebSocket frames) or kept as their decimal text (upstream's REST answers, which are
// stored through importers that read such text).

/**
 * JSON.parse, except that integers of 16 or more digits (beyond 2^53) become bigint. Numbers
 * inside strings are left alone.
 */
export function parseJsonExact(text: string): unknown {
  // Most texts hold no number of 16 digits: parsed once, a look at their numbers tells (a
  // literal of 16 digits or more parses to at least 1e15), cheaper than scanning the text for
  // digits first (0.05 against 0.35 µs for a published trade of 120 characters).
  const plain = JSON.parse(text) as unknown;
  if (!hasLargeNumber(plain)) return plain;
  const marked = markLongIntegers(text);
  if (marked === text) return plain;
  return JSON.parse(marked, (_k, v: unknown) => (typeof v === 'string' && v.startsWith(BIG_MARK) ? BigInt(v.slice(BIG_MARK.length)) : v));
}

/** Whether a parsed JSON value holds a number of magnitude 1e15 or more, at any depth. */
function hasLargeNumber(v: unknown): boolean {
  if (typeof v === 'number') return v >= 1e15 || v <= -1e15;
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (hasLargeNumber(v[i])) return true;
    return false;
  }
  for (const k in v) if (hasLargeNumber((v as Record<string, unknown>)[k])) return true;
  return false;
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

// A JSON number token, or a string (skipped whole, so digits inside strings are left alone).
const JSON_TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * JSON.parse keeping every integer of 16 digits or more as its decimal text: nanosecond times and
 * exchange sequence numbers are beyond a double's 2^53, and JSON.parse would round them.
 */
export function parseJsonLongIntegersAsText(text: string): unknown {
  return JSON.parse(text.replace(JSON_TOKEN, (t) => (t.charCodeAt(0) !== 34 && /^-?\d{16,}$/.test(t) ? `"${t}"` : t)));
}
