// Importer for option contracts: a JSON array, an upstream /v3/reference/options/contracts body
// ({"results": [...]}), NDJSON or CSV, with the API's field names (ticker, underlying_ticker,
// contract_type, exercise_style, expiration_date, strike_price, shares_per_contract,
// primary_exchange, cfi, correction, additional_underlyings) plus an optional `list_date`. Tickers
// may omit the `O:` prefix. Every record is checked (`file:line: field: reason`); contracts are
// upserted by ticker, so importing a file twice changes nothing. Chosen by the field names, or by
// `--dataset options-contracts`.
import { statSync } from 'node:fs';
import { parseDate } from '../domain/calendar.js';
import type { AdditionalUnderlying, OptionsContractRecord } from '../store/repos/options.js';
import { fieldNamesFromHead } from './datasets.js';
import { ImportError, registerImporter, type Importer, type ImporterResult } from './load.js';
import { detectFormat, readSourceRecords, type FieldIssue } from './source-records.js';

export const OPTIONS_CONTRACTS_DATASET = 'options-contracts';
const MAX_ISSUES = 20;
const BATCH = 5000;
const IDENTIFYING = ['ticker', 'underlying_ticker', 'contract_type', 'expiration_date', 'strike_price'];
const CONTRACT_TYPES = ['call', 'put', 'other'] as const;
const EXERCISE_STYLES = ['american', 'european', 'bermudan'] as const;
const OPTION_TICKER = /^O:[A-Z0-9.]{1,10}\d{6}[CP]\d{8}$/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown) => v === undefined || v === null || v === '';

function num(v: unknown): number {
  return typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v.trim()) : NaN;
}

function text(v: unknown, max: number): string | undefined {
  const s = typeof v === 'number' ? String(v) : v;
  return typeof s === 'string' && s.length > 0 && s.length <= max ? s : undefined;
}

function deliverables(v: unknown): AdditionalUnderlying[] | string {
  let list = v;
  if (typeof v === 'string') {
    try {
      list = JSON.parse(v);
    } catch {
      return 'must be a JSON array of {type, underlying, amount}';
    }
  }
  if (!Array.isArray(list)) return 'must be an array of {type, underlying, amount}';
  const out: AdditionalUnderlying[] = [];
  for (const d of list) {
    if (!isObj(d) || !text(d.type, 32) || !text(d.underlying, 32) || !Number.isFinite(num(d.amount))) {
      return 'must be an array of {type, underlying, amount} (amount a number)';
    }
    out.push({ type: String(d.type), underlying: String(d.underlying), amount: num(d.amount) });
  }
  return out;
}

/** A checked contract, or the problems of the record. */
export function checkContract(value: unknown): { contract?: OptionsContractRecord; issues: FieldIssue[] } {
  if (!isObj(value)) return { issues: [{ field: '(record)', reason: 'must be a JSON object' }] };
  const issues: FieldIssue[] = [];
  const bad = (field: string, reason: string) => issues.push({ field, reason });
  const required = (field: string) => {
    if (absent(value[field])) bad(field, 'is required');
    return !absent(value[field]);
  };

  let ticker = '';
  if (required('ticker')) {
    const raw = String(value.ticker).trim();
    ticker = raw.startsWith('O:') ? raw : `O:${raw}`;
    if (!OPTION_TICKER.test(ticker)) bad('ticker', 'must be an option ticker such as O:SPY251219C00650000');
  }
  let underlying = '';
  if (required('underlying_ticker')) {
    underlying = text(value.underlying_ticker, 32) ?? '';
    if (!underlying) bad('underlying_ticker', 'must be a symbol of at most 32 characters');
  }
  const oneOf = <T extends string>(field: string, allowed: readonly T[]): T | undefined => {
    if (!required(field)) return undefined;
    const v = String(value[field]);
    if (!(allowed as readonly string[]).includes(v)) {
      bad(field, `must be one of ${allowed.join(', ')}`);
      return undefined;
    }
    return v as T;
  };
  const contractType = oneOf('contract_type', CONTRACT_TYPES);
  const exerciseStyle = oneOf('exercise_style', EXERCISE_STYLES);
  const date = (field: string, need: boolean): string | undefined => {
    if (need ? !required(field) : absent(value[field])) return undefined;
    const v = value[field];
    if (typeof v !== 'string' || parseDate(v) === null) {
      bad(field, 'must be a real date in the form YYYY-MM-DD');
      return undefined;
    }
    return v;
  };
  const expiration = date('expiration_date', true);
  const listDate = date('list_date', false);
  const positive = (field: string, allowZero: boolean): number | undefined => {
    if (!required(field)) return undefined;
    const n = num(value[field]);
    if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) {
      bad(field, allowZero ? 'must be a number of at least 0' : 'must be a number above 0');
      return undefined;
    }
    return n;
  };
  const strike = positive('strike_price', true);
  const shares = positive('shares_per_contract', false);

  const contract: Partial<OptionsContractRecord> = {};
  for (const field of ['primary_exchange', 'cfi'] as const) {
    if (absent(value[field])) continue;
    const s = text(value[field], 16);
    if (s) contract[field] = s;
    else bad(field, 'must be a string of at most 16 characters');
  }
  if (!absent(value.correction)) {
    const n = num(value.correction);
    if (Number.isSafeInteger(n) && n >= 0) contract.correction = n;
    else bad('correction', 'must be a whole number of at least 0');
  }
  if (!absent(value.additional_underlyings)) {
    const d = deliverables(value.additional_underlyings);
    if (typeof d === 'string') bad('additional_underlyings', d);
    else if (d.length) contract.additional_underlyings = d;
  }
  if (issues.length) return { issues };
  return {
    contract: {
      ticker,
      underlying_ticker: underlying,
      contract_type: contractType!,
      exercise_style: exerciseStyle!,
      expiration_date: expiration!,
      strike_price: strike!,
      shares_per_contract: shares!,
      ...contract,
      ...(listDate ? { list_date: listDate } : {}),
    },
    issues,
  };
}

export const optionsContractsImporter: Importer = {
  name: OPTIONS_CONTRACTS_DATASET,
  extensions: ['.json', '.json.gz', '.ndjson', '.ndjson.gz', '.jsonl', '.jsonl.gz', '.csv', '.csv.gz'],
  detect(path, head, opts) {
    if (opts?.dataset !== undefined) return opts.dataset === OPTIONS_CONTRACTS_DATASET;
    const names = new Set(fieldNamesFromHead(path, head));
    return IDENTIFYING.every((n) => names.has(n));
  },
  async run(ctx): Promise<ImporterResult> {
    const totalBytes = statSync(ctx.path).size;
    const format = await detectFormat(ctx.path);
    const before = await ctx.store.options.countContracts();
    const issues: string[] = [];
    let more = 0;
    let rows = 0;
    let rejected = 0;
    let batch: OptionsContractRecord[] = [];
    const flush = async () => {
      if (batch.length && issues.length === 0) await ctx.store.options.upsertContracts(batch);
      batch = [];
      ctx.progress({ bytes: 0, totalBytes, rows, rejected });
    };
    for await (const rec of readSourceRecords(ctx.path, format)) {
      const checked = rec.issue ? { issues: [rec.issue] } : checkContract(rec.value);
      if (!checked.contract) {
        if (ctx.skipBadRows) {
          rejected++;
          const reason = checked.issues.map((p) => `${p.field}: ${p.reason}`).join('; ');
          ctx.reject({ line: rec.line, reason, raw: rec.value === undefined ? '' : JSON.stringify(rec.value) });
        } else {
          for (const p of checked.issues) {
            if (issues.length < MAX_ISSUES) issues.push(`${ctx.path}:${rec.line}: ${p.field}: ${p.reason}`);
            else more++;
          }
        }
        continue;
      }
      rows++;
      batch.push(checked.contract);
      if (batch.length >= BATCH) await flush();
    }
    if (issues.length) throw new ImportError(issues.join('\n') + (more ? `\n… and ${more} more problem${more === 1 ? '' : 's'}` : ''));
    await flush();
    ctx.progress({ bytes: totalBytes, totalBytes, rows, rejected });
    return { kind: OPTIONS_CONTRACTS_DATASET, rows, written: (await ctx.store.options.countContracts()) - before };
  },
};

registerImporter(optionsContractsImporter);
