// Importer for the new-style data sets (dividends, splits, statements, ratios, float, short
// interest and volume, risk factors and categories, Fed series): a JSON array, an upstream
// response body ({"results": [...]}), NDJSON or CSV, with the API's own field names, so captured
// upstream responses load as they are. The data set comes from --dataset or from the fields
// present; every record is checked against the declaration (`file:line: field: reason`); rows are
// upserted on their natural keys (importing twice changes nothing) inside the file's transaction.
import { statSync } from 'node:fs';
import { CsvChunk } from './csv.js';
import { ImportError, registerImporter, type Importer, type ImporterResult } from './load.js';
import { detectFormat, readSourceRecords, type FieldIssue } from './source-records.js';
import { normalizeCik } from '../domain/cik.js';
import { DIVIDENDS, SPLITS } from '../store/repos/corporate-actions.js';
import { DATASET_DECLARATIONS, datasetByName } from '../store/repos/dataset-catalog.js';
import type { DatasetDef, DatasetRecord, FieldDef, FieldValue } from '../store/repos/datasets.js';
import { parseDate } from '../domain/calendar.js';
import { formatInstant, parseInstant } from '../domain/rfc3339.js';

const MAX_ISSUES = 20;
const BATCH = 5000;
/** Records looked at to tell the data set from the fields. */
const DETECT_RECORDS = 20;
const ARRAY_ITEM = /^[^\s,]{1,64}$/;
/** A `label` item: any text up to 256 characters without commas or line breaks (channels, tags). */
const LABEL_ITEM = /^[^,\r\n]{1,256}$/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown) => v === undefined || v === null || v === '';

// ---------------------------------------------------------------------------------------------
// Validation of one record against its declaration

function checkNumber(f: FieldDef, v: unknown): number | string {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v.trim()) : NaN;
  if (!Number.isFinite(n)) return f.type === 'int' ? 'must be an integer' : 'must be a number';
  if (f.type === 'int' && !Number.isSafeInteger(n)) return 'must be an integer';
  if (f.positive && !(n > 0)) return 'must be above 0';
  if (f.min !== undefined && n < f.min) return `must be at least ${f.min}`;
  if (f.max !== undefined && n > f.max) return `must be at most ${f.max}`;
  return n;
}

/** The stored value of one field, or the reason it is refused (a string starting with "must"). */
function checkField(f: FieldDef, v: unknown): { value: FieldValue } | { reason: string } {
  switch (f.type) {
    case 'int':
    case 'float': {
      const n = checkNumber(f, v);
      return typeof n === 'number' ? { value: n } : { reason: n };
    }
    case 'bool':
      if (v === true || v === 'true' || v === 1 || v === '1') return { value: true };
      if (v === false || v === 'false' || v === 0 || v === '0') return { value: false };
      return { reason: 'must be true or false' };
    case 'date': {
      if (typeof v !== 'string' || parseDate(v) === null) return { reason: 'must be a real date in the form YYYY-MM-DD' };
      return { value: v };
    }
    case 'string-array': {
      let list: unknown = v;
      if (typeof v === 'string') {
        const t = v.trim();
        if (t.startsWith('[')) {
          try {
            list = JSON.parse(t);
          } catch {
            return { reason: 'must be a JSON array or a comma-separated list' };
          }
        } else list = t.split(',').map((s) => s.trim());
      }
      if (f.arrayItems === 'label') {
        if (!Array.isArray(list) || !list.every((x) => typeof x === 'string' && LABEL_ITEM.test(x))) {
          return { reason: 'must be a list of labels (1 to 256 characters, no commas or line breaks)' };
        }
      } else if (!Array.isArray(list) || !list.every((x) => typeof x === 'string' && ARRAY_ITEM.test(x))) {
        return { reason: 'must be a list of symbols (1 to 64 characters, no spaces or commas)' };
      }
      return { value: list as string[] };
    }
    case 'json': {
      // CSV cells hold JSON text; a JSON source gives the value itself.
      if (typeof v !== 'string' || !/^\s*[[{]/.test(v)) return { value: v as FieldValue };
      try {
        return { value: JSON.parse(v) as FieldValue };
      } catch {
        return { reason: 'must be JSON (an array or object)' };
      }
    }
    default: {
      const s = typeof v === 'number' ? String(v) : v;
      if (typeof s !== 'string') return { reason: 'must be a string' };
      if (f.normalize === 'cik') {
        if (!/^\d{1,10}$/.test(s)) return { reason: 'must be a CIK (1 to 10 digits)' };
        return { value: normalizeCik(s) };
      }
      if (f.format === 'date-time') {
        const at = parseInstant(s);
        if (at === undefined || at.dateOnly) return { reason: 'must be an RFC 3339 timestamp such as 2025-05-22T13:42:30Z' };
        return { value: formatInstant(at.ms) };
      }
      const max = f.maxLength ?? 256;
      if (s.length > max) return { reason: `must be at most ${max} characters` };
      if (f.enum && !f.enum.includes(s)) return { reason: `must be one of ${f.enum.join(', ')}` };
      return { value: s };
    }
  }
}

export interface CheckedRecord {
  record?: DatasetRecord;
  issues: FieldIssue[];
}

/** Checks a record (as JSON or CSV gave it) against a data set; unknown fields are left out. */
export function checkRecord(def: DatasetDef, value: unknown): CheckedRecord {
  if (!isObj(value)) return { issues: [{ field: '(record)', reason: 'must be a JSON object' }] };
  const record: DatasetRecord = {};
  const issues: FieldIssue[] = [];
  for (const [name, f] of Object.entries(def.fields)) {
    const v = value[name];
    if (absent(v)) {
      if (f.required && !f.derived) issues.push({ field: name, reason: 'is required' });
      continue;
    }
    const r = checkField(f, v);
    if ('reason' in r) issues.push({ field: name, reason: r.reason });
    else record[name] = r.value;
  }
  return issues.length > 0 ? { issues } : { record, issues };
}

// ---------------------------------------------------------------------------------------------
// Telling the data set from field names

export type Detection = { def: DatasetDef } | { candidates: DatasetDef[] } | undefined;

/**
 * The data set whose declaration fits the field names best: every required field present, then
 * fewest names it does not know, then most names it knows. Several equally good → ambiguous.
 */
export function detectDataset(names: Iterable<string>): Detection {
  const set = new Set(names);
  let best: { def: DatasetDef; unknown: number; known: number }[] = [];
  for (const def of DATASET_DECLARATIONS) {
    const required = Object.entries(def.fields).filter(([, f]) => f.required && !f.derived).map(([n]) => n);
    if (!required.every((n) => set.has(n))) continue;
    let known = 0;
    for (const n of set) if (def.fields[n]) known++;
    const unknown = set.size - known;
    const better = best.length === 0 || unknown < best[0]!.unknown || (unknown === best[0]!.unknown && known > best[0]!.known);
    if (better) best = [{ def, unknown, known }];
    else if (unknown === best[0]!.unknown && known === best[0]!.known) best.push({ def, unknown, known });
  }
  if (best.length === 0) return undefined;
  return best.length === 1 ? { def: best[0]!.def } : { candidates: best.map((b) => b.def) };
}

/** Keys of the JSON object starting at `start` (depth-1 keys only); tolerates a cut-off text. */
function objectKeys(text: string, start: number): string[] {
  const keys: string[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let strStart = 0;
  // A ':' at depth 1 always follows the key string just closed at depth 1.
  let lastString = '';
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') {
        inString = false;
        if (depth === 1) lastString = text.slice(strStart, i);
      }
    } else if (c === '"') {
      inString = true;
      strStart = i + 1;
    } else if (c === ':' && depth === 1) keys.push(lastString);
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) break;
  }
  return keys;
}

/** Field names of a file's first record, read from its first bytes (JSON, NDJSON or CSV). */
export function fieldNamesFromHead(path: string, head: Buffer): string[] {
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  const name = path.toLowerCase().replace(/\.gz$/, '');
  const t = text.trimStart();
  if (name.endsWith('.csv') || !(t.startsWith('[') || t.startsWith('{'))) {
    const firstLine = text.split('\n', 1)[0]!;
    const chunk = new CsvChunk(`${firstLine}\n`, 1);
    return chunk.next() && chunk.error === undefined ? chunk.fields().map((f) => f.trim()) : [];
  }
  if (t.startsWith('[')) {
    const at = t.indexOf('{');
    return at < 0 ? [] : objectKeys(t, at);
  }
  const results = /"results"\s*:\s*\[\s*\{/.exec(t);
  if (results) return objectKeys(t, results.index + results[0].length - 1);
  return objectKeys(t, 0);
}

/** The data set named by --dataset, or a clear error listing the names. */
function namedDataset(name: string): DatasetDef {
  const def = datasetByName(name);
  if (!def) throw new ImportError(`--dataset ${name}: unknown data set; one of ${DATASET_DECLARATIONS.map((d) => d.name).join(', ')}`);
  return def;
}

// ---------------------------------------------------------------------------------------------
// The importer

export const datasetImporter: Importer = {
  name: 'datasets',
  extensions: ['.json', '.ndjson', '.jsonl', '.csv', '.json.gz', '.ndjson.gz', '.jsonl.gz', '.csv.gz'],
  detect(path, head, opts) {
    if (opts?.dataset !== undefined) return datasetByName(opts.dataset) !== undefined;
    // Claim files whose fields fit one of the data sets, or several (run() then asks for --dataset).
    return detectDataset(fieldNamesFromHead(path, head)) !== undefined;
  },
  async run(ctx): Promise<ImporterResult> {
    const totalBytes = statSync(ctx.path).size;
    const format = await detectFormat(ctx.path);
    let def = ctx.dataset !== undefined ? namedDataset(ctx.dataset) : undefined;
    const issues: { line: number; text: string }[] = [];
    let more = 0;
    const unknownFields = new Set<string>();
    const pending: { line: number; value: unknown }[] = [];
    let batch: DatasetRecord[] = [];
    let rows = 0;
    let rejected = 0;
    // Corporate actions are written in one go at the end: their derived factors are refreshed per ticker once.
    const corporate: DatasetRecord[] = [];

    // One bad record is one reject (all its problems in the reason), or one message per problem.
    const report = (line: number, problems: FieldIssue[], raw: unknown) => {
      if (ctx.skipBadRows) {
        rejected++;
        const reason = problems.map((p) => `${p.field}: ${p.reason}`).join('; ');
        ctx.reject({ line, reason, raw: typeof raw === 'string' ? raw : JSON.stringify(raw) ?? '' });
        return;
      }
      for (const p of problems) {
        if (issues.length < MAX_ISSUES) issues.push({ line, text: `${ctx.path}:${line}: ${p.field}: ${p.reason}` });
        else more++;
      }
    };
    const flush = async () => {
      if (batch.length === 0 || issues.length > 0) return;
      if (def === DIVIDENDS || def === SPLITS) corporate.push(...batch);
      else await ctx.store.datasets.upsert(def!, batch);
      batch = [];
    };
    const accept = async (line: number, value: unknown) => {
      const checked = checkRecord(def!, value);
      if (!checked.record) {
        report(line, checked.issues, value);
        return;
      }
      if (isObj(value)) for (const k of Object.keys(value)) if (!def!.fields[k]) unknownFields.add(k);
      rows++;
      if (issues.length > 0) return;
      batch.push(checked.record);
      if (batch.length >= BATCH) await flush();
    };
    // The data set from the fields of the first records (held back until then), then those records.
    let before = 0;
    const settle = async () => {
      const names = new Set<string>();
      for (const p of pending) if (isObj(p.value)) for (const k of Object.keys(p.value)) names.add(k);
      const d = detectDataset(names);
      const line = pending[0]?.line ?? 1;
      if (d === undefined) throw new ImportError(`${ctx.path}:${line}: the fields (${[...names].join(', ')}) fit none of the data sets; pass --dataset (${DATASET_DECLARATIONS.map((x) => x.name).join(', ')})`);
      if ('candidates' in d) throw new ImportError(`${ctx.path}:${line}: the fields fit several data sets (${d.candidates.map((x) => x.name).join(', ')}); pass --dataset`);
      def = d.def;
      before = await ctx.store.datasets.count(def);
      for (const p of pending.splice(0)) await accept(p.line, p.value);
    };
    if (def) before = await ctx.store.datasets.count(def);

    for await (const rec of readSourceRecords(ctx.path, format)) {
      if (rec.issue) {
        report(rec.line, [rec.issue], '');
        continue;
      }
      if (def !== undefined) await accept(rec.line, rec.value);
      else if (pending.push({ line: rec.line, value: rec.value }) >= DETECT_RECORDS) await settle();
    }
    if (def === undefined) {
      if (pending.length === 0) throw new ImportError(`${ctx.path}:1: holds no records; pass --dataset to import an empty file`);
      await settle();
    }
    await flush();
    if (issues.length > 0) {
      // Records held back for detection are checked late: report in file order.
      const text = issues.sort((a, b) => a.line - b.line).map((i) => i.text).join('\n');
      throw new ImportError(text + (more > 0 ? `\n… and ${more} more problem${more === 1 ? '' : 's'}` : ''));
    }
    if (corporate.length > 0) await ctx.store.corporateActions.upsert(def!, corporate);
    // "New" rows: records whose natural key was not stored yet (re-imports replace in place).
    const written = (await ctx.store.datasets.count(def!)) - before;
    ctx.progress({ bytes: totalBytes, totalBytes, rows, rejected });
    const notes = unknownFields.size > 0 ? [`ignored fields not in ${def!.name}: ${[...unknownFields].sort().join(', ')}`] : [];
    return { kind: def!.name, rows, written, notes };
  },
};

registerImporter(datasetImporter);
