// Importers for news articles (the /v2/reference/news body's own field names) and social posts
// (id, source, author, created_utc, text, tickers, sentiment; docs/social.md). Accepted: a JSON
// array, an upstream response body ({"results": [...]}), NDJSON, or CSV with dotted column names
// for the publisher (publisher.name, ...) and lists as JSON or comma-separated text; `.gz` too.
// Every record is validated (`file:line: field: reason`), ids are natural keys (re-importing
// replaces, so importing twice changes nothing), and a file is written whole or not at all.
import { statSync } from 'node:fs';
import { formatInstant, parseInstant } from '../domain/rfc3339.js';
import type { Store } from '../store/index.js';
import type { NewsArticle, NewsInsight, Sentiment } from '../store/repos/news.js';
import type { SocialPost } from '../store/repos/social.js';
import { ImportError, registerImporter, type Importer } from './load.js';
import { detectFormat, readSourceRecords, type CsvCellConverters, type FieldIssue } from './source-records.js';


export type NewsSocialDataset = 'news' | 'social_posts';

export interface ImportIssue extends FieldIssue {
  line: number;
}

/** A file that was refused; nothing of it was written. */
export class RecordImportError extends ImportError {
  constructor(
    readonly file: string,
    readonly issues: ImportIssue[],
    readonly more = 0,
  ) {
    super(
      issues.map((i) => `${file}:${i.line}: ${i.field}: ${i.reason}`).join('\n') +
        (more > 0 ? `\n… and ${more} more problem${more === 1 ? '' : 's'}` : ''),
    );
  }
}

export interface ImportSummary {
  file: string;
  dataset: NewsSocialDataset;
  /** Records read and accepted. */
  records: number;
  /** Ids that were new to the store (the others replaced a stored record). */
  written: number;
}

const MAX_ISSUES = 20;
const BATCH = 1000;
const TICKER = /^[^\s,]{1,64}$/;
const TICKER_RULE = 'must be a ticker symbol (1 to 64 characters, no spaces or commas)';
const SENTIMENTS: readonly Sentiment[] = ['positive', 'neutral', 'negative'];

// ---------------------------------------------------------------------------------------------
// Validation: unknown JSON in, a clean record (only known fields, normalised times) or issues out.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** null counts as absent: some renderings of upstream bodies send null for missing fields. */
const absent = (v: unknown) => v === undefined || v === null;

class Checker {
  readonly issues: FieldIssue[] = [];
  constructor(private readonly o: Obj) {}

  fail(field: string, reason: string): undefined {
    this.issues.push({ field, reason });
    return undefined;
  }

  str(field: string, opts: { required?: boolean; nonEmpty?: boolean; max?: number; from?: Obj; path?: string } = {}): string | undefined {
    const v = (opts.from ?? this.o)[field];
    const name = opts.path ?? field;
    if (absent(v)) return opts.required ? this.fail(name, 'is required') : undefined;
    if (typeof v !== 'string') return this.fail(name, 'must be a string');
    if (opts.nonEmpty && v.trim().length === 0) return this.fail(name, 'must not be empty');
    if (opts.max !== undefined && v.length > opts.max) return this.fail(name, `must be at most ${opts.max} characters`);
    return v;
  }

  instant(field: string): { text: string; ms: number } | undefined {
    const v = this.str(field, { required: true });
    if (v === undefined) return undefined;
    const t = parseInstant(v);
    if (!t) return this.fail(field, `must be an RFC 3339 timestamp such as 2024-06-24T18:33:53Z, got ${JSON.stringify(v.slice(0, 40))}`);
    return { text: formatInstant(t.ms), ms: t.ms };
  }

  tickers(field: string, opts: { required: boolean; nonEmpty: boolean }): string[] | undefined {
    const v = this.o[field];
    if (absent(v)) return opts.required ? this.fail(field, 'is required') : undefined;
    if (!Array.isArray(v)) return this.fail(field, 'must be an array of ticker symbols');
    if (opts.nonEmpty && v.length === 0) return this.fail(field, 'must list at least one ticker');
    for (const [i, t] of v.entries()) if (typeof t !== 'string' || !TICKER.test(t)) return this.fail(`${field}[${i}]`, TICKER_RULE);
    return v as string[];
  }

  strings(field: string): string[] | undefined {
    const v = this.o[field];
    if (absent(v)) return undefined;
    if (!Array.isArray(v)) return this.fail(field, 'must be an array of strings');
    for (const [i, s] of v.entries()) if (typeof s !== 'string') return this.fail(`${field}[${i}]`, 'must be a string');
    return v as string[];
  }
}

export function validateNewsArticle(raw: unknown): { article?: NewsArticle; publishedMs?: number; issues: FieldIssue[] } {
  if (!isObj(raw)) return { issues: [{ field: '(record)', reason: 'must be a JSON object' }] };
  const c = new Checker(raw);
  const id = c.str('id', { required: true, nonEmpty: true, max: 200 });
  let publisher: NewsArticle['publisher'] | undefined;
  if (absent(raw.publisher)) c.fail('publisher', 'is required');
  else if (!isObj(raw.publisher)) c.fail('publisher', 'must be an object with name, homepage_url and logo_url');
  else {
    const p = raw.publisher;
    const name = c.str('name', { required: true, nonEmpty: true, from: p, path: 'publisher.name' });
    const homepage = c.str('homepage_url', { required: true, from: p, path: 'publisher.homepage_url' });
    const logo = c.str('logo_url', { required: true, from: p, path: 'publisher.logo_url' });
    const favicon = c.str('favicon_url', { from: p, path: 'publisher.favicon_url' });
    if (name !== undefined && homepage !== undefined && logo !== undefined) {
      publisher = { name, homepage_url: homepage, logo_url: logo, ...(favicon !== undefined ? { favicon_url: favicon } : {}) };
    }
  }
  const title = c.str('title', { required: true, nonEmpty: true });
  const author = c.str('author', { required: true });
  const published = c.instant('published_utc');
  const articleUrl = c.str('article_url', { required: true, nonEmpty: true });
  const tickers = c.tickers('tickers', { required: true, nonEmpty: false });
  const ampUrl = c.str('amp_url');
  const imageUrl = c.str('image_url');
  const description = c.str('description');
  const keywords = c.strings('keywords');
  let insights: NewsInsight[] | undefined;
  if (!absent(raw.insights)) {
    if (!Array.isArray(raw.insights)) c.fail('insights', 'must be an array of {ticker, sentiment, sentiment_reasoning}');
    else {
      insights = [];
      for (const [i, ins] of raw.insights.entries()) {
        const path = `insights[${i}]`;
        if (!isObj(ins)) {
          c.fail(path, 'must be an object with ticker, sentiment and sentiment_reasoning');
          continue;
        }
        const ticker = c.str('ticker', { required: true, from: ins, path: `${path}.ticker` });
        if (ticker !== undefined && !TICKER.test(ticker)) c.fail(`${path}.ticker`, TICKER_RULE);
        const sentiment = c.str('sentiment', { required: true, from: ins, path: `${path}.sentiment` });
        if (sentiment !== undefined && !SENTIMENTS.includes(sentiment as Sentiment)) c.fail(`${path}.sentiment`, 'must be positive, neutral or negative');
        const reasoning = c.str('sentiment_reasoning', { required: true, from: ins, path: `${path}.sentiment_reasoning` });
        if (ticker !== undefined && sentiment !== undefined && reasoning !== undefined) insights.push({ ticker, sentiment: sentiment as Sentiment, sentiment_reasoning: reasoning });
      }
    }
  }
  if (c.issues.length > 0) return { issues: c.issues };
  const article: NewsArticle = {
    id: id!,
    publisher: publisher!,
    title: title!,
    author: author!,
    published_utc: published!.text,
    article_url: articleUrl!,
    tickers: tickers!,
    ...(ampUrl !== undefined ? { amp_url: ampUrl } : {}),
    ...(imageUrl !== undefined ? { image_url: imageUrl } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(keywords !== undefined ? { keywords } : {}),
    ...(insights !== undefined ? { insights } : {}),
  };
  return { article, publishedMs: published!.ms, issues: [] };
}

export function validateSocialPost(raw: unknown): { post?: SocialPost; createdMs?: number; issues: FieldIssue[] } {
  if (!isObj(raw)) return { issues: [{ field: '(record)', reason: 'must be a JSON object' }] };
  const c = new Checker(raw);
  const id = c.str('id', { required: true, nonEmpty: true, max: 200 });
  const source = c.str('source', { required: true, nonEmpty: true, max: 64 });
  const author = c.str('author', { required: true, nonEmpty: true, max: 200 });
  const created = c.instant('created_utc');
  const text = c.str('text', { required: true });
  const tickers = c.tickers('tickers', { required: true, nonEmpty: true });
  let sentiment: number | undefined;
  if (!absent(raw.sentiment)) {
    if (typeof raw.sentiment !== 'number' || !Number.isFinite(raw.sentiment) || raw.sentiment < -1 || raw.sentiment > 1) {
      c.fail('sentiment', 'must be a number from -1 to 1');
    } else sentiment = raw.sentiment;
  }
  if (c.issues.length > 0) return { issues: c.issues };
  const post: SocialPost = {
    id: id!,
    source: source!,
    author: author!,
    created_utc: created!.text,
    text: text!,
    tickers: tickers!,
    ...(sentiment !== undefined ? { sentiment } : {}),
  };
  return { post, createdMs: created!.ms, issues: [] };
}

// ---------------------------------------------------------------------------------------------
// Reading: the generic reader (source-records.ts) with the CSV cells of news and social posts.

/** Which data set a record's field names belong to (dotted CSV names count by their first part). */
export function detectNewsSocial(fieldNames: readonly string[]): NewsSocialDataset | undefined {
  const names = new Set(fieldNames.map((f) => f.split('.')[0]));
  if (names.has('article_url') || names.has('publisher') || names.has('published_utc')) return 'news';
  if (names.has('created_utc') && names.has('text')) return 'social_posts';
  return undefined;
}

/** A CSV cell that holds a list: JSON (`["A","B"]`) or comma-separated text (`A,B`). */
function csvList(cell: string): unknown {
  const t = cell.trim();
  if (t.startsWith('[')) {
    try {
      return JSON.parse(t);
    } catch {
      return t;
    }
  }
  return t.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

function csvJson(cell: string): unknown {
  try {
    return JSON.parse(cell);
  } catch {
    return cell;
  }
}

function csvNumber(cell: string): unknown {
  const n = Number(cell.trim());
  return cell.trim() !== '' && Number.isFinite(n) ? n : cell;
}

const CSV_CELLS: Record<NewsSocialDataset, Record<string, (cell: string) => unknown>> = {
  news: { tickers: csvList, keywords: csvList, insights: csvJson, publisher: csvJson },
  social_posts: { tickers: csvList, sentiment: csvNumber },
};

// ---------------------------------------------------------------------------------------------
// Loading.

interface Loader {
  validate(value: unknown): { issues: FieldIssue[]; write?: () => void };
  flush(): Promise<void>;
  count(): Promise<number>;
}

function loaderFor(dataset: NewsSocialDataset, store: Store): Loader {
  if (dataset === 'news') {
    const repo = store.news;
    let batch: { article: NewsArticle; publishedMs: number }[] = [];
    return {
      validate(value) {
        const r = validateNewsArticle(value);
        return { issues: r.issues, write: r.article ? () => batch.push({ article: r.article!, publishedMs: r.publishedMs! }) : undefined };
      },
      async flush() {
        if (batch.length) await repo.upsertArticles(batch);
        batch = [];
      },
      count: () => repo.countArticles(),
    };
  }
  const repo = store.social;
  let batch: { post: SocialPost; createdMs: number }[] = [];
  return {
    validate(value) {
      const r = validateSocialPost(value);
      return { issues: r.issues, write: r.post ? () => batch.push({ post: r.post!, createdMs: r.createdMs! }) : undefined };
    },
    async flush() {
      if (batch.length) await repo.upsertPosts(batch);
      batch = [];
    },
    count: () => repo.countPosts(),
  };
}

export interface LoadOptions {
  dataset?: NewsSocialDataset;
  /** Leave bad records out (each handed to `reject`) instead of refusing the file. */
  skipBadRows?: boolean;
  reject?: (r: { line: number; reason: string; raw: string }) => void;
  progress?: (p: { bytes: number; totalBytes: number; rows: number; rejected: number }) => void;
}

/**
 * Reads, validates and upserts one file through `store`, which the caller has put inside a
 * transaction. Throws RecordImportError when a record is bad (unless skipBadRows).
 */
async function loadFile(store: Store, file: string, opts: LoadOptions): Promise<ImportSummary> {
  const format = await detectFormat(file);
  const totalBytes = statSync(file).size;
  let dataset = opts.dataset;
  const issues: ImportIssue[] = [];
  let more = 0;
  let records = 0;
  let rejected = 0;
  const report = (line: number, list: FieldIssue[], value: unknown) => {
    if (opts.skipBadRows) {
      rejected++;
      opts.reject?.({ line, reason: list.map((i) => `${i.field}: ${i.reason}`).join('; '), raw: JSON.stringify(value) ?? '' });
      return;
    }
    for (const i of list) {
      if (issues.length < MAX_ISSUES) issues.push({ line, ...i });
      else more++;
    }
  };
  let loader: Loader | undefined;
  let before = 0;
  let pending = 0;
  // A CSV header names the data set (unless --dataset did) and so how its cells are read.
  const cellsOfHeader: CsvCellConverters = (header) => {
    dataset ??= detectNewsSocial(header);
    return dataset ? CSV_CELLS[dataset] : {};
  };
  for await (const rec of readSourceRecords(file, format, cellsOfHeader)) {
    if (rec.issue) {
      report(rec.line, [rec.issue], rec.value);
      continue;
    }
    if (!dataset) {
      dataset = isObj(rec.value) ? detectNewsSocial(Object.keys(rec.value)) : undefined;
      if (!dataset) {
        throw new RecordImportError(file, [{ line: rec.line, field: '(record)', reason: 'is neither a news article (publisher, published_utc, article_url, …) nor a social post (created_utc, text, …)' }]);
      }
    }
    if (!loader) {
      loader = loaderFor(dataset, store);
      before = await loader.count();
    }
    const v = loader.validate(rec.value);
    if (v.issues.length > 0) {
      report(rec.line, v.issues, rec.value);
      continue;
    }
    records++;
    if (issues.length > 0) continue;
    v.write!();
    if (++pending >= BATCH) {
      await loader.flush();
      pending = 0;
      opts.progress?.({ bytes: 0, totalBytes, rows: records, rejected });
    }
  }
  if (issues.length > 0) throw new RecordImportError(file, issues, more);
  if (!loader || !dataset) throw new RecordImportError(file, [{ line: 1, field: '(file)', reason: 'holds no records' }]);
  await loader.flush();
  opts.progress?.({ bytes: totalBytes, totalBytes, rows: records, rejected });
  return { file, dataset, records, written: (await loader.count()) - before };
}

/**
 * Imports one file of news articles or social posts in one transaction: all of it or, when any
 * record is bad, nothing (RecordImportError lists the problems). The data set is detected from
 * the field names unless given. `written` counts ids that were new to the store.
 */
export async function importNewsSocialFile(store: Store, file: string, opts: LoadOptions = {}): Promise<ImportSummary> {
  return store.transaction((tx) => loadFile(tx, file, opts));
}

// ---------------------------------------------------------------------------------------------
// `tickerbase import`: the registry entry (src/ingest/load.ts runs it inside the file's transaction).

const DATASET_NAMES: Record<string, NewsSocialDataset> = { news: 'news', social_posts: 'social_posts', social: 'social_posts', posts: 'social_posts' };

/** Field names visible in a file's first bytes: the CSV header, or every JSON key. */
function fieldNamesInHead(head: Buffer): string[] {
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  const first = text.trimStart()[0];
  if (first === '[' || first === '{') return [...text.matchAll(/"([A-Za-z_][A-Za-z0-9_]*)"\s*:/g)].map((m) => m[1]!);
  return (text.split('\n', 1)[0] ?? '').split(',').map((f) => f.trim().replace(/^"|"$/g, ''));
}

export const newsSocialImporter: Importer = {
  name: 'news-social',
  extensions: ['.json', '.ndjson', '.jsonl', '.csv', '.json.gz', '.ndjson.gz', '.jsonl.gz', '.csv.gz'],
  detect(_path, head, opts) {
    if (opts?.dataset !== undefined) return Object.hasOwn(DATASET_NAMES, opts.dataset);
    return detectNewsSocial(fieldNamesInHead(head)) !== undefined;
  },
  async run(ctx) {
    const r = await loadFile(ctx.store, ctx.path, {
      dataset: ctx.dataset !== undefined && Object.hasOwn(DATASET_NAMES, ctx.dataset) ? DATASET_NAMES[ctx.dataset] : undefined,
      skipBadRows: ctx.skipBadRows,
      reject: (x) => ctx.reject(x),
      progress: (p) => ctx.progress(p),
    });
    return { kind: r.dataset, rows: r.records, written: r.written };
  },
};

registerImporter(newsSocialImporter);
