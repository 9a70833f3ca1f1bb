// Importer for ticker reference data (/v3/reference/tickers and /v3/reference/tickers/{ticker})
// with the API's own field names, so a captured upstream body loads as it is: a JSON array, a list
// body ({"results": [...]}), an overview body ({"results": {...}}), NDJSON or CSV (`.gz` too).
//
// Rules:
// - Required: ticker (1 to 64 characters, no whitespace), name (non-empty), market (stocks, crypto,
//   fx, otc, indices), locale (us, global).
// - Optional, checked: active (true/false; CSV 'true'/'false'; default true, false when
//   delisted_utc is given), cik (1 to 10 digits, padded to 10), list_date (YYYY-MM-DD),
//   last_updated_utc and delisted_utc (RFC 3339 date-times, kept in UTC; last_updated_utc defaults
//   to now), market_cap / share_class_shares_outstanding / weighted_shares_outstanding (numbers
//   >= 0), total_employees (whole number >= 0), round_lot (whole number > 0), address and branding
//   (objects of strings; in CSV dotted columns such as address.city or JSON text), the other
//   TickerRecord strings, and cusip (stored for the filter, never served). Unknown fields are
//   ignored (named in the summary).
// - Versions: `valid_from` (YYYY-MM-DD) may be given, and `valid_to` for a closed past version.
//   Without valid_from a ticker with no current version gets '1900-01-01' and a ticker with a
//   current version keeps that version's valid_from: the record updates the current version in
//   place (fields it leaves out keep their stored values; last_updated_utc, when not given, stays
//   as stored if nothing else changed, else becomes now), so importing twice changes nothing. A
//   valid_from after the current version's starts a new version and closes the current one on that
//   day; one before it is refused unless valid_to is given. No other history is made up.
// - Chosen by the fields (ticker, name, market and locale, and none of the fields that tell news,
//   social posts, options contracts, flat files or the data sets apart) or by `--dataset tickers`.
//   Atomic per file inside the file's transaction: a bad record is reported as
//   `file:line: field: reason` and nothing of the file is kept (or, with --skip-bad-rows, it goes
//   to the rejects file). `written` counts new versions; updated and unchanged ones are noted.
import { readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parseDate } from '../domain/calendar.js';
import { formatInstant, parseInstant } from '../domain/rfc3339.js';
import type { Market, TickerAddress, TickerBranding, TickerRecord } from '../store/records.js';
import { detectDataset, fieldNamesFromHead } from './datasets.js';
import { ImportError, registerImporter, type Importer, type ImporterResult } from './load.js';
import { detectNewsSocial } from './news-social.js';
import { detectFormat, readSourceRecords, type FieldIssue } from './source-records.js';

export const TICKERS_DATASET = 'tickers';
const MAX_ISSUES = 20;
const BATCH = 1000;
const DEFAULT_VALID_FROM = '1900-01-01';
const TICKER_RE = /^\S{1,64}$/;
const MARKETS: readonly Market[] = ['stocks', 'crypto', 'fx', 'otc', 'indices'];
const LOCALES = ['us', 'global'] as const;
const IDENTIFYING = ['ticker', 'name', 'market', 'locale'];
/** Fields that belong to the other record importers (options contracts, news, social, flat files). */
const FOREIGN = new Set([
  'underlying_ticker', 'contract_type', 'exercise_style', 'expiration_date', 'strike_price', 'shares_per_contract',
  'article_url', 'publisher', 'published_utc', 'created_utc', 'text', 'sentiment',
  'window_start', 'sip_timestamp', 'participant_timestamp', 'ask_price', 'bid_price', 'price', 'size', 'volume',
]);

const STRING_FIELDS = [
  'primary_exchange', 'type', 'currency_name', 'currency_symbol', 'base_currency_symbol', 'base_currency_name',
  'composite_figi', 'share_class_figi', 'cusip', 'source_feed', 'description', 'homepage_url', 'phone_number',
  'sic_code', 'sic_description', 'ticker_root', 'ticker_suffix',
] as const;
const ADDRESS_FIELDS = ['address1', 'address2', 'city', 'state', 'postal_code', 'country'] as const;
const BRANDING_FIELDS = ['logo_url', 'icon_url', 'accent_color', 'light_color', 'dark_color'] as const;
const KNOWN = new Set<string>([
  ...IDENTIFYING, ...STRING_FIELDS, 'active', 'cik', 'list_date', 'last_updated_utc', 'delisted_utc', 'market_cap',
  'share_class_shares_outstanding', 'weighted_shares_outstanding', 'total_employees', 'round_lot', 'address',
  'branding', 'valid_from', 'valid_to',
]);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown) => v === undefined || v === null || v === '';

/** A checked record: the ticker version it describes, which fields it gave, and its valid_from/valid_to if given. */
export interface CheckedTicker {
  record?: TickerRecord;
  /** Fields present in the record (for merging into a stored current version). */
  given?: Set<string>;
  validFrom?: string;
  validTo?: string;
  issues: FieldIssue[];
}

/** Checks one record as JSON or CSV gave it; `now` fills a missing last_updated_utc. */
export function checkTicker(value: unknown, now: string): CheckedTicker {
  if (!isObj(value)) return { issues: [{ field: '(record)', reason: 'must be a JSON object' }] };
  const issues: FieldIssue[] = [];
  const bad = (field: string, reason: string): undefined => {
    issues.push({ field, reason });
    return undefined;
  };
  const given = new Set<string>();
  const out: Obj = {};
  const str = (field: string, max: number, from: Obj = value, path = field): string | undefined => {
    const v = from[field];
    if (absent(v)) return undefined;
    const s = typeof v === 'number' && Number.isFinite(v) ? String(v) : v;
    if (typeof s !== 'string') return bad(path, 'must be a string');
    if (s.length > max) return bad(path, `must be at most ${max} characters`);
    return s;
  };

  for (const f of IDENTIFYING) if (absent(value[f])) bad(f, 'is required');
  const ticker = str('ticker', 64);
  if (ticker !== undefined && !TICKER_RE.test(ticker)) bad('ticker', 'must be a symbol of 1 to 64 characters without spaces');
  const name = str('name', 1000);
  if (name !== undefined && name.trim() === '') bad('name', 'must not be empty');
  const market = str('market', 16);
  if (market !== undefined && !(MARKETS as readonly string[]).includes(market)) bad('market', `must be one of ${MARKETS.join(', ')}`);
  const locale = str('locale', 16);
  if (locale !== undefined && !(LOCALES as readonly string[]).includes(locale)) bad('locale', `must be one of ${LOCALES.join(', ')}`);

  for (const f of STRING_FIELDS) {
    const s = str(f, f === 'description' ? 100_000 : 1000);
    if (s !== undefined) out[f] = s;
  }
  if (!absent(value.active)) {
    const v = value.active;
    if (v === true || v === 'true') out.active = true;
    else if (v === false || v === 'false') out.active = false;
    else bad('active', 'must be true or false');
  }
  if (!absent(value.cik)) {
    const s = typeof value.cik === 'number' ? String(value.cik) : value.cik;
    if (typeof s === 'string' && /^\d{1,10}$/.test(s.trim())) out.cik = s.trim().padStart(10, '0');
    else bad('cik', 'must be a CIK (1 to 10 digits)');
  }
  const date = (field: string): string | undefined => {
    const v = value[field];
    if (absent(v)) return undefined;
    if (typeof v !== 'string' || parseDate(v) === null) return bad(field, 'must be a real date in the form YYYY-MM-DD');
    return v;
  };
  const listDate = date('list_date');
  if (listDate !== undefined) out.list_date = listDate;
  const validFrom = date('valid_from');
  const validTo = date('valid_to');
  if (validTo !== undefined) {
    if (absent(value.valid_from)) bad('valid_from', 'is required when valid_to is given');
    else if (validFrom !== undefined && validTo <= validFrom) bad('valid_to', 'must be after valid_from');
  }
  const instant = (field: string): string | undefined => {
    const v = value[field];
    if (absent(v)) return undefined;
    const t = typeof v === 'string' ? parseInstant(v) : undefined;
    if (!t || t.dateOnly) return bad(field, `must be an RFC 3339 timestamp such as 2024-06-24T00:00:00Z, got ${JSON.stringify(String(v).slice(0, 40))}`);
    return formatInstant(t.ms);
  };
  const updated = instant('last_updated_utc');
  if (updated !== undefined) out.last_updated_utc = updated;
  const delisted = instant('delisted_utc');
  if (delisted !== undefined) out.delisted_utc = delisted;
  const number = (field: string, rule: 'nonnegative' | 'count' | 'positive-count') => {
    const v = value[field];
    if (absent(v)) return;
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v.trim()) : NaN;
    if (!Number.isFinite(n) || n < 0) return void bad(field, rule === 'nonnegative' ? 'must be a number of at least 0' : rule === 'count' ? 'must be a whole number of at least 0' : 'must be a whole number above 0');
    if (rule !== 'nonnegative' && !Number.isSafeInteger(n)) return void bad(field, rule === 'count' ? 'must be a whole number of at least 0' : 'must be a whole number above 0');
    if (rule === 'positive-count' && n === 0) return void bad(field, 'must be a whole number above 0');
    out[field] = n;
  };
  number('market_cap', 'nonnegative');
  number('share_class_shares_outstanding', 'nonnegative');
  number('weighted_shares_outstanding', 'nonnegative');
  number('total_employees', 'count');
  number('round_lot', 'positive-count');
  const object = (field: 'address' | 'branding', keys: readonly string[]) => {
    let v = value[field];
    if (absent(v)) return;
    if (typeof v === 'string') {
      try {
        v = JSON.parse(v);
      } catch {
        return void bad(field, `must be an object (in CSV: JSON text or columns ${field}.${keys[0]}, …)`);
      }
    }
    if (!isObj(v)) return void bad(field, `must be an object with ${keys.join(', ')}`);
    const o: Obj = {};
    for (const k of keys) {
      const s = str(k, 1000, v, `${field}.${k}`);
      if (s !== undefined) o[k] = s;
    }
    if (Object.keys(o).length > 0) out[field] = o;
  };
  object('address', ADDRESS_FIELDS);
  object('branding', BRANDING_FIELDS);

  if (issues.length > 0) return { issues };
  for (const k of Object.keys(value)) if (!absent(value[k]) && KNOWN.has(k)) given.add(k);
  const record = {
    ticker: ticker!,
    name: name!,
    market: market as Market,
    locale: locale as 'us' | 'global',
    active: (out.active as boolean | undefined) ?? delisted === undefined,
    last_updated_utc: updated ?? now,
    valid_from: validFrom ?? DEFAULT_VALID_FROM,
    ...out,
    ...(validTo !== undefined ? { valid_to: validTo } : {}),
  } as TickerRecord & { address?: TickerAddress; branding?: TickerBranding };
  return { record, given, validFrom, validTo, issues };
}

// ---------------------------------------------------------------------------------------------
// Detection

/** Field names of the file's first record; an overview body ({"results": {...}}) counts by its results. */
function headFieldNames(path: string, head: Buffer): string[] {
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  const t = text.trimStart();
  if (t.startsWith('{')) {
    const overview = /"results"\s*:\s*\{/.exec(t);
    if (overview && !/"results"\s*:\s*\[/.test(t)) return fieldNamesFromHead('results.json', Buffer.from(t.slice(overview.index + overview[0].length - 1)));
  }
  return fieldNamesFromHead(path, head);
}

/** Whether field names are those of ticker records and of no other importer's records. */
export function looksLikeTickers(fieldNames: readonly string[]): boolean {
  const names = new Set(fieldNames.map((f) => f.split('.')[0]!));
  if (!IDENTIFYING.every((n) => names.has(n))) return false;
  for (const n of names) if (FOREIGN.has(n)) return false;
  return detectNewsSocial([...names]) === undefined && detectDataset(names) === undefined;
}

// ---------------------------------------------------------------------------------------------
// Loading

/** Line of the `"results": {` of an overview body (records of a JSON object all report line 1). */
function overviewLine(path: string): number {
  try {
    const raw = readFileSync(path);
    const text = (path.toLowerCase().endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
    const at = text.search(/"results"\s*:\s*\{/);
    return at < 0 ? 1 : text.slice(0, at).split('\n').length;
  } catch {
    return 1;
  }
}

/** JSON with object keys sorted, to compare records whatever their key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObj(v)) {
    return `{${Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

interface Pending {
  line: number;
  raw: unknown;
  checked: CheckedTicker;
}

export const tickersImporter: Importer = {
  name: TICKERS_DATASET,
  extensions: ['.json', '.json.gz', '.ndjson', '.ndjson.gz', '.jsonl', '.jsonl.gz', '.csv', '.csv.gz'],
  detect(path, head, opts) {
    if (opts?.dataset !== undefined) return opts.dataset === TICKERS_DATASET;
    return looksLikeTickers(headFieldNames(path, head));
  },
  async run(ctx): Promise<ImporterResult> {
    const totalBytes = statSync(ctx.path).size;
    const format = await detectFormat(ctx.path);
    const now = formatInstant(Math.floor(Date.now() / 1000) * 1000);
    const repo = ctx.store.reference;
    const before = await repo.countTickers();
    const issues: { line: number; text: string }[] = [];
    let more = 0;
    let rows = 0;
    let rejected = 0;
    let updated = 0;
    let unchanged = 0;
    const unknownFields = new Set<string>();
    let pending: Pending[] = [];

    const report = (line: number, problems: FieldIssue[], raw: unknown) => {
      if (ctx.skipBadRows) {
        rejected++;
        ctx.reject({ line, reason: problems.map((p) => `${p.field}: ${p.reason}`).join('; '), raw: raw === undefined ? '' : JSON.stringify(raw) ?? '' });
        return;
      }
      for (const p of problems) {
        if (issues.length < MAX_ISSUES) issues.push({ line, text: `${ctx.path}:${line}: ${p.field}: ${p.reason}` });
        else more++;
      }
    };

    // Resolves the versions of a batch against the store (current versions seen inside this
    // transaction, so earlier batches of the file count) and writes them.
    const flush = async () => {
      const batch = pending;
      pending = [];
      if (batch.length === 0) return;
      const current = new Map<string, TickerRecord>();
      const tickers = [...new Set(batch.map((p) => p.checked.record!.ticker))];
      for (const t of await repo.currentTickers(tickers)) current.set(t.ticker, t);
      const writes = new Map<string, TickerRecord>();
      const put = (t: TickerRecord) => writes.set(`${t.ticker}\u0000${t.valid_from}`, t);
      for (const p of batch) {
        const { record, given, validFrom, validTo } = p.checked;
        const rec = record!;
        const cur = current.get(rec.ticker);
        if (validTo !== undefined) {
          // A closed past version, as given (closes the current version when it is that one).
          if (cur && cur.valid_from === rec.valid_from) current.delete(rec.ticker);
          put(rec);
          rows++;
          continue;
        }
        if (!cur) {
          put(rec);
          current.set(rec.ticker, rec);
          rows++;
          continue;
        }
        if (validFrom !== undefined && validFrom < cur.valid_from) {
          report(p.line, [{ field: 'valid_from', reason: `is before the current version's valid_from (${cur.valid_from}); give valid_to to import a past version` }], p.raw);
          continue;
        }
        rows++;
        if (validFrom !== undefined && validFrom > cur.valid_from) {
          // A new version from validFrom: the current one ends that day.
          put({ ...cur, valid_to: validFrom });
          put(rec);
          current.set(rec.ticker, rec);
          continue;
        }
        // The current version, updated in place: fields the record leaves out keep their values.
        const merged: Record<string, unknown> = { ...cur };
        for (const [k, v] of Object.entries(rec)) if (given!.has(k)) merged[k] = v;
        merged.valid_from = cur.valid_from;
        if (!given!.has('active') && given!.has('delisted_utc')) merged.active = false;
        if (!given!.has('last_updated_utc')) merged.last_updated_utc = cur.last_updated_utc;
        if (canonical(merged) === canonical(cur)) {
          unchanged++;
          continue;
        }
        if (!given!.has('last_updated_utc')) merged.last_updated_utc = now;
        const next = merged as unknown as TickerRecord;
        put(next);
        current.set(rec.ticker, next);
        updated++;
      }
      if (issues.length === 0 && writes.size > 0) await repo.upsertTickers([...writes.values()]);
      ctx.progress({ bytes: 0, totalBytes, rows, rejected });
    };

    const overview = format === 'json' ? { line: 0 } : undefined;
    for await (const rec of readSourceRecords(ctx.path, format)) {
      if (rec.issue) {
        report(rec.line, [rec.issue], undefined);
        continue;
      }
      let value = rec.value;
      let line = rec.line;
      // An overview body ({"results": {...}}) comes whole: the record is its `results`.
      if (isObj(value) && isObj(value.results) && absent(value.ticker)) {
        value = value.results;
        if (overview) line = overview.line ||= overviewLine(ctx.path);
      }
      const checked = checkTicker(value, now);
      if (!checked.record) {
        report(line, checked.issues, value);
        continue;
      }
      if (isObj(value)) for (const k of Object.keys(value)) if (!KNOWN.has(k)) unknownFields.add(k);
      if (issues.length > 0) {
        rows++;
        continue;
      }
      pending.push({ line, raw: value, checked });
      if (pending.length >= BATCH) await flush();
    }
    await flush();
    if (issues.length > 0) {
      const text = issues.sort((a, b) => a.line - b.line).map((i) => i.text).join('\n');
      throw new ImportError(text + (more > 0 ? `\n… and ${more} more problem${more === 1 ? '' : 's'}` : ''));
    }
    if (rows === 0 && rejected === 0) throw new ImportError(`${ctx.path}:1: holds no ticker records`);
    ctx.progress({ bytes: totalBytes, totalBytes, rows, rejected });
    const notes = [`${updated} updated, ${unchanged} unchanged`];
    if (unknownFields.size > 0) notes.push(`ignored fields not in tickers: ${[...unknownFields].sort().join(', ')}`);
    return { kind: TICKERS_DATASET, rows, written: (await repo.countTickers()) - before, notes };
  },
};

registerImporter(tickersImporter);
