import fc from 'fast-check';

// Request generation for the route fuzzer, driven only by the server's own OpenAPI document, so
// routes added later are covered without touching this file.

export interface ParamSchema {
  type?: string | string[];
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  items?: ParamSchema;
  anyOf?: ParamSchema[];
}

export interface Param {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: ParamSchema;
  description?: string;
}

export interface Operation {
  path: string;
  params: Param[];
  /** Whether a 200 body carries status and request_id (false for plain bodies such as market status). */
  okHasRequestId: boolean;
}

interface OpenApiDoc {
  paths: Record<string, { get?: { parameters?: Param[]; responses?: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }> } }>;
}

function declaresRequestId(schema: Record<string, unknown> | undefined): boolean {
  if (!schema) return false;
  const props = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (!props) return false;
  if (props.request_id) return true;
  return props.data ? declaresRequestId(props.data) : false;
}

/** Every GET operation of the document with its path and query parameters. */
export function operationsOf(doc: OpenApiDoc): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const get = item.get;
    if (!get) continue;
    const okSchema = get.responses?.['200']?.content?.['application/json']?.schema;
    const op: Operation = {
      path,
      params: (get.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query'),
      okHasRequestId: declaresRequestId(okSchema),
    };
    // counterexamples print the path, not the whole parameter list
    Object.defineProperty(op, fc.toStringMethod, { value: () => JSON.stringify(path), enumerable: false });
    ops.push(op);
  }
  return ops;
}

const DATES = ['2026-11-18', '2026-11-20', '2026-11-02', '2025-06-02', '2024-12-31'];
const TICKERS = ['AAPL', 'MSFT', 'SPY', 'X:BTCUSD', 'C:EURUSD', 'I:SPX', 'O:AAPL261218C00200000', 'O:SPY261120P00600000', 'BRK.A'];
const WORDS = ['USD', 'EUR', 'BTC', 'JPY', 'gainers', 'losers', 'apple', 'aapl.svg', 'a', 'annual', 'quarterly', 'CS', 'XNAS', 'stocks', '1', '5', '10', '1700000000000', '2026-11-18T15:30:00Z', 'true'];
const POOL = [...DATES, ...TICKERS, ...WORDS];

function schemaType(s: ParamSchema): string | undefined {
  if (s.anyOf) return s.anyOf.map(schemaType).find(Boolean);
  return Array.isArray(s.type) ? s.type[0] : s.type;
}

function looksLikeDate(p: Param): boolean {
  return /\bdate\b|YYYY/.test(p.description ?? '') || /date|^from$|^to$|timestamp|^as_of/.test(p.name);
}

function looksLikeTicker(p: Param): boolean {
  return /ticker|symbol/i.test(p.description ?? '') || /ticker|underlying|contract|symbol/i.test(p.name);
}

/** Plausible values for a parameter, most plausible first. */
export function plausibleValues(p: Param): string[] {
  const s = p.schema;
  const type = schemaType(s);
  if (s.enum?.length) return s.enum.map(String);
  if (s.items?.enum?.length) return s.items.enum.map(String);
  if (type === 'boolean') return ['true', 'false'];
  if (type === 'integer' || type === 'number') {
    const lo = s.minimum ?? 0;
    const hi = s.maximum ?? lo + 100;
    const def = typeof s.default === 'number' ? [String(s.default)] : [];
    return [...new Set([...def, String(lo), String(Math.min(hi, lo + 1)), String(Math.min(hi, lo + 9)), String(hi)])];
  }
  let pool: string[];
  if (s.pattern) {
    const re = new RegExp(s.pattern);
    pool = POOL.filter((v) => re.test(v));
    if (pool.length === 0) pool = [...POOL];
  } else if (looksLikeTicker(p)) pool = TICKERS;
  else if (looksLikeDate(p)) pool = [...DATES, '1700000000000'];
  else pool = [...TICKERS, ...WORDS];
  return pool.filter((v) => v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity));
}

/** Hostile and malformed values: wrong types, huge numbers, empty, unicode, SQL, traversal, percent garbage. */
export const HOSTILE: string[] = [
  '', ' ', '0', '-1', '-0', '1.5', '1e400', '9'.repeat(40), '18446744073709551616', '-9223372036854775809', 'NaN', 'Infinity',
  'null', 'undefined', 'true', 'false', '[]', '{}', '[object Object]',
  "' OR 1=1 --", "'; DROP TABLE api_keys; --", '" OR ""="', '1; SELECT pg_sleep(10)', ') UNION SELECT hash FROM api_keys --', '%\' ESCAPE \'\\',
  '%', '%%', '%zz', '%G0', '%00', '%2F', '%2e%2e%2f', '%252F', '../../../../etc/passwd', '..\\..\\windows\\win.ini', '/', '//', '\\', '?', '#', '&', '=', ';', '*', '_',
  '\u0000', '\u202e', '\ufeff', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '💥', 'Ω≈ç√', '日本語', '\uffff', '\ud800',
  'a'.repeat(65), 'a'.repeat(600), 'Z'.repeat(9000),
  '2026-02-30', '0000-00-00', '9999-12-31', '2026-13-01', '1970-01-01', '-2026-01-01', ' 2026-01-01', '2026-1-1', '2026-11-20T25:00:00Z', '20261120',
  '<script>alert(1)</script>', '${jndi:ldap://x}', '__proto__', 'constructor', 'toString', 'hasOwnProperty',
  'O:', 'X:', 'C:', 'I:', 'O:SPY991399C99999999', 'o:spy', ':::', 'AAPL,MSFT', 'AAPL,,', ',', 'C:EUR-USD', 'X:BTC-USD',
];

export const hostileValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.bigInt(), fc.double()).map(String) },
  { weight: 1, arbitrary: fc.constantFrom(...DATES, ...TICKERS).map((v) => `${v}${'\u0301'}`) },
);

/** How a value goes into the URL: properly encoded, or raw (only what cannot be sent at all is escaped). */
export type Encoding = 'encoded' | 'raw';

function encodeRaw(v: string): string {
  let out = '';
  for (const ch of v) {
    const code = ch.codePointAt(0)!;
    out += code > 0x20 && code < 0x7f ? ch : Buffer.from(ch, 'utf8').toString('hex').replace(/../g, (h) => `%${h.toUpperCase()}`);
  }
  return out;
}

export function encodeValue(v: string, how: Encoding): string {
  if (how === 'raw') return encodeRaw(v);
  try {
    return encodeURIComponent(v);
  } catch {
    return encodeRaw(v); // lone surrogates: send their (invalid) UTF-8 bytes
  }
}

export interface RequestCase {
  op: Operation;
  path: Record<string, string>;
  query: [string, string][];
  /** The one parameter given a hostile value on top of an accepted baseline, if any. */
  mutated?: string;
  encoding: Encoding;
}

export function buildUrl(c: RequestCase): string {
  const path = c.op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const v = c.path[name] ?? '';
    return v === '' && c.encoding === 'encoded' ? '' : encodeValue(v, c.encoding);
  });
  const qs = c.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeValue(v, c.encoding)}`).join('&');
  return qs ? `${path}?${qs}` : path;
}
