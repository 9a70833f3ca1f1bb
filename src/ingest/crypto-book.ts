// Importer of crypto level-2 books: one record per level, `ticker, side, price, exchange, size,
// updated` (side bid or ask; exchange the crypto exchange id; updated Unix ns as digits, or an
// RFC 3339 time), as CSV (upstream's own book CSV has side, price, size, exchange), NDJSON or a
// JSON array. Each record is checked (`file:line: field: reason`); a file that holds a bad record
// writes nothing. A file replaces the whole stored book of every pair it holds.
import { statSync } from 'node:fs';
import { normalizeTicker } from '../domain/ticker-market.js';
import type { BookLevel } from '../store/repos/crypto-book.js';
import { MAX_STORED_NS, msToStoredNs } from '../domain/nanoseconds.js';
import { parseInstant } from '../domain/rfc3339.js';
import { ImportError, registerImporter, type Importer, type ImporterResult } from './load.js';
import { detectFormat, readSourceRecords, type FieldIssue } from './source-records.js';
import { fieldNamesFromHead } from './datasets.js';

export const CRYPTO_BOOK_DATASET = 'crypto-book';

const MAX_ISSUES = 20;
const BATCH = 5000;
const FIELDS = ['ticker', 'side', 'price', 'exchange', 'size', 'updated'] as const;
const NS_DIGITS = /^\d{1,19}$/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function number(v: unknown): number {
  return typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v.trim()) : NaN;
}

function updatedNs(v: unknown): bigint | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? BigInt(v) : undefined;
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  if (NS_DIGITS.test(s)) {
    const ns = BigInt(s);
    return ns <= MAX_STORED_NS ? ns : undefined;
  }
  const at = parseInstant(s);
  return at === undefined || at.dateOnly ? undefined : msToStoredNs(at.ms);
}

/** One level of a book, or what is wrong with the record. */
export function checkBookLevel(value: unknown): { level?: BookLevel; issues: FieldIssue[] } {
  if (!isObj(value)) return { issues: [{ field: '(record)', reason: 'must be a JSON object' }] };
  const issues: FieldIssue[] = [];
  for (const f of FIELDS) if (value[f] === undefined || value[f] === null || value[f] === '') issues.push({ field: f, reason: 'is required' });
  if (issues.length > 0) return { issues };
  const ticker = typeof value.ticker === 'string' ? value.ticker.trim() : '';
  if (!/^X:[A-Z0-9]{2,20}$/.test(normalizeTicker(ticker))) issues.push({ field: 'ticker', reason: 'must be a crypto pair such as X:BTCUSD' });
  const side = value.side;
  if (side !== 'bid' && side !== 'ask') issues.push({ field: 'side', reason: 'must be bid or ask' });
  const price = number(value.price);
  if (!Number.isFinite(price) || price <= 0) issues.push({ field: 'price', reason: 'must be a number above 0' });
  const exchange = number(value.exchange);
  if (!Number.isInteger(exchange) || exchange < 0 || exchange > 65_535) issues.push({ field: 'exchange', reason: 'must be an exchange id (an integer from 0 to 65535)' });
  const size = number(value.size);
  if (!Number.isFinite(size) || size <= 0) issues.push({ field: 'size', reason: 'must be a number above 0' });
  const updated = updatedNs(value.updated);
  if (updated === undefined) issues.push({ field: 'updated', reason: 'must be Unix nanoseconds as digits (quoted in JSON) or an RFC 3339 time' });
  if (issues.length > 0) return { issues };
  return { level: { ticker: normalizeTicker(ticker), side: side as BookLevel['side'], price, exchange, size, updated: updated! }, issues };
}

export const cryptoBookImporter: Importer = {
  name: CRYPTO_BOOK_DATASET,
  extensions: [],
  detect(path, head, opts) {
    if (opts?.dataset !== undefined) return opts.dataset === CRYPTO_BOOK_DATASET;
    const names = new Set(fieldNamesFromHead(path, head));
    return FIELDS.every((f) => names.has(f));
  },
  async run(ctx): Promise<ImporterResult> {
    const totalBytes = statSync(ctx.path).size;
    const problems: string[] = [];
    let more = 0;
    let rows = 0;
    let rejected = 0;
    let written = 0;
    // A pair's stored book is dropped when the file first shows the pair, inside the file's
    // transaction, so a file that fails later leaves the old book in place.
    const cleared = new Set<string>();
    let batch: BookLevel[] = [];
    const flush = async () => {
      if (problems.length === 0 && batch.length > 0) {
        const fresh = [...new Set(batch.map((l) => l.ticker))].filter((t) => !cleared.has(t));
        await ctx.store.cryptoBooks.clearBooks(fresh);
        for (const t of fresh) cleared.add(t);
        written += await ctx.store.cryptoBooks.upsertLevels(batch);
      }
      batch = [];
      ctx.progress({ bytes: 0, totalBytes, rows, rejected });
    };
    for await (const rec of readSourceRecords(ctx.path, await detectFormat(ctx.path))) {
      const checked = rec.issue ? { issues: [rec.issue] } : checkBookLevel(rec.value);
      if (checked.level) {
        rows++;
        batch.push(checked.level);
        if (batch.length >= BATCH) await flush();
      } else if (ctx.skipBadRows) {
        rejected++;
        ctx.reject({ line: rec.line, reason: checked.issues.map((p) => `${p.field}: ${p.reason}`).join('; '), raw: rec.value === undefined ? '' : JSON.stringify(rec.value) });
      } else {
        for (const p of checked.issues) {
          if (problems.length < MAX_ISSUES) problems.push(`${ctx.path}:${rec.line}: ${p.field}: ${p.reason}`);
          else more++;
        }
      }
    }
    if (problems.length > 0) throw new ImportError(problems.join('\n') + (more > 0 ? `\n… and ${more} more problem${more === 1 ? '' : 's'}` : ''));
    await flush();
    ctx.progress({ bytes: totalBytes, totalBytes, rows, rejected });
    return { kind: CRYPTO_BOOK_DATASET, rows, written, notes: [cleared.size === 1 ? 'the book of 1 pair replaced' : `the books of ${cleared.size} pairs replaced`] };
  },
};

registerImporter(cryptoBookImporter);
