// Every paginated endpoint walked to its end. The endpoints are the GET operations of the server's
// own OpenAPI document that take a `cursor`, so an endpoint added later is walked without editing
// this file (an unknown path parameter fails the test until a sample value is added below). Each
// is asked on a slice of the demo data set for every market it serves; following next_url at a
// small limit must answer 200 on every page and return exactly the rows, in the same order, of
// the same request at the endpoint's largest limit.
import { describe, expect, it } from 'vitest';
import { useSeededApp } from '../helpers/app-fixture.js';
import type { TestApp } from '../helpers/app.js';
import { SAMPLE_MARKET_TICKERS, loadDemoSample, tradedOptionContract } from '../helpers/demo-sample.js';
import { engines } from '../helpers/engines.js';

interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: { enum?: unknown[]; maximum?: number; type?: string };
}
interface OpenApi {
  paths: Record<string, Record<string, { parameters?: Param[] }>>;
}

/** One request to walk: an operation with its path filled and its variant query (no limit, no key). */
interface WalkCase {
  op: string;
  url: string;
  maxLimit: number;
}

const MARKET_TICKERS = Object.values(SAMPLE_MARKET_TICKERS).flat();

/**
 * Sample values of path parameters by name; `ticker` also gets an option contract that has trades
 * (found at run time). The dates span the demo's minute days and some weeks of day bars.
 */
const PATH_SAMPLES: Record<string, readonly string[]> = {
  ticker: MARKET_TICKERS,
  underlyingAsset: SAMPLE_MARKET_TICKERS.stocks,
  multiplier: ['1'],
  timespan: ['minute', 'day'],
  from: ['2026-09-01'],
  to: ['2026-11-20'],
  product_code: ['ES', 'NQ'],
};

/**
 * Lists that hold fewer than two rows on any data set, so no limit splits them into pages; the test
 * checks that each still does, so an entry cannot hide a list that has grown.
 */
const SINGLE_ROW_LISTS: Record<string, string> = {
  '/forex/v1/exchanges': 'upstream knows one currency venue, and so does the demo',
};

/** Query parameters whose every enumerated value is walked (direction, and the market of a list). */
const VARIANT_PARAMS = new Set(['order', 'market']);
const isDirection = (p: Param) => p.name === 'sort' && p.schema.enum?.length === 2 && p.schema.enum.includes('asc');

function cross(lists: [string, readonly string[]][]): Record<string, string>[] {
  let out: Record<string, string>[] = [{}];
  for (const [name, values] of lists) out = out.flatMap((o) => values.map((v) => ({ ...o, [name]: v })));
  return out;
}

/** The walk cases of every paginated GET operation, and the operations whose parameters have no sample. */
function walkCases(doc: OpenApi, optionContract: string): { cases: WalkCase[]; unsampled: string[] } {
  const cases: WalkCase[] = [];
  const unsampled: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const params = item.get?.parameters ?? [];
    const limit = params.find((p) => p.name === 'limit' && p.in === 'query');
    if (!params.some((p) => p.name === 'cursor' && p.in === 'query') || !limit) continue;
    const pathLists: [string, readonly string[]][] = [];
    for (const p of params.filter((p) => p.in === 'path')) {
      const values = p.name === 'ticker' ? [...PATH_SAMPLES.ticker!, optionContract] : PATH_SAMPLES[p.name];
      if (!values) unsampled.push(`${path}: no sample value for path parameter {${p.name}}`);
      else pathLists.push([p.name, values]);
    }
    const queryLists: [string, readonly string[]][] = params
      .filter((p) => p.in === 'query' && (VARIANT_PARAMS.has(p.name) || isDirection(p)) && p.schema.enum)
      .map((p) => [p.name, p.schema.enum!.map(String)]);
    for (const pathValues of cross(pathLists)) {
      const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathValues[name]!));
      for (const query of cross(queryLists)) {
        const qs = new URLSearchParams(query).toString();
        cases.push({ op: path, url: qs ? `${filled}?${qs}` : filled, maxLimit: limit.schema.maximum ?? 1000 });
      }
    }
  }
  return { cases, unsampled };
}

/** A page's rows: `results` when it is an array, else its `values` (indicators). */
function rowsOf(body: any): unknown[] {
  if (Array.isArray(body?.results)) return body.results;
  if (Array.isArray(body?.results?.values)) return body.results.values;
  return [];
}

const withLimit = (url: string, limit: number) => `${url}${url.includes('?') ? '&' : '?'}limit=${limit}`;

/** Follows next_url from `first`; the rows of every page, or where it stopped with what status. */
async function walk(t: TestApp, first: string): Promise<{ rows: unknown[]; pages: number; error?: { page: number; status: number; body: unknown } }> {
  const rows: unknown[] = [];
  let url: string | undefined = first;
  let pages = 0;
  while (url) {
    const res = await t.get(url);
    pages++;
    if (res.status !== 200) return { rows, pages, error: { page: pages, status: res.status, body: res.body } };
    rows.push(...rowsOf(res.body));
    if (pages > 2000) throw new Error(`${first}: more than 2000 pages`);
    const next: string | undefined = res.body.next_url;
    url = next ? new URL(next).pathname + new URL(next).search : undefined;
  }
  return { rows, pages };
}

const numbersOf = (v: unknown): number[] =>
  typeof v === 'number' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(numbersOf) : [];

/**
 * Where two rows differ (paths, empty when they are the same row). Indicator values are computed
 * per page from a finite lookback (exact for SMA up to summation order, seed-independent to about
 * e^-10 for EMA, RSI and MACD), so fractional numbers may differ by 1e-5 of the row's largest
 * number (MACD's histogram is a small difference of two large values); all else must be equal.
 */
function rowDifferences(a: unknown, b: unknown): string[] {
  const scale = Math.max(1e-9, ...numbersOf(a).map(Math.abs), ...numbersOf(b).map(Math.abs));
  const out: string[] = [];
  const visit = (x: unknown, y: unknown, path: string) => {
    if (typeof x === 'number' && typeof y === 'number') {
      const same = Number.isInteger(x) && Number.isInteger(y) ? x === y : Math.abs(x - y) <= 1e-5 * scale;
      if (!same) out.push(`${path}: ${x} vs ${y}`);
    } else if (x && y && typeof x === 'object' && typeof y === 'object') {
      for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) visit((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], `${path}.${k}`);
    } else if (x !== y) out.push(`${path}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`);
  };
  visit(a, b, '');
  return out;
}

/** What differs between a walk's rows and the one-page rows, as a readable line (undefined when equal). */
function difference(walked: unknown[], whole: unknown[]): string | undefined {
  const at = walked.findIndex((r, i) => i >= whole.length || rowDifferences(r, whole[i]).length > 0);
  if (at < 0 && walked.length === whole.length) return undefined;
  const a = walked.map((r) => JSON.stringify(r));
  const b = whole.map((r) => JSON.stringify(r));
  const inWhole = new Set(b);
  const seen = new Set<string>();
  let duplicates = 0;
  for (const r of a) {
    if (seen.has(r)) duplicates++;
    seen.add(r);
  }
  const missing = b.filter((r) => !seen.has(r)).length;
  const extra = a.filter((r) => !inWhole.has(r)).length;
  const first = at < 0 ? 'the walk is shorter' : at >= whole.length ? 'the walk is longer' : `row ${at} differs in ${rowDifferences(walked[at], whole[at]).slice(0, 5).join('; ')}`;
  return `${a.length} rows walked vs ${b.length} in one page (${missing} missing, ${duplicates} duplicated, ${extra} not in the page); ${first}`;
}

for (const engine of engines()) {
  describe(`every paginated endpoint walked to the end on demo data (${engine.name})`, () => {
    const { t } = useSeededApp(engine, loadDemoSample, { envelope: 'native' });

    it('answers every page, with no row missing or repeated against one large page', async () => {
      const doc = (await t.app.inject({ url: '/openapi.json' })).json() as OpenApi;
      const { cases, unsampled } = walkCases(doc, await tradedOptionContract(t));
      expect(unsampled).toEqual([]);

      const failures: string[] = [];
      const walkedOps = new Map<string, number>();
      for (const c of cases) {
        const whole = await walk(t, withLimit(c.url, c.maxLimit));
        if (whole.error) {
          // A request the endpoint refuses for this market (4xx) is not a paging case; a 5xx is a failure.
          if (whole.error.status >= 500 || whole.error.page > 1) failures.push(`${c.url} at limit ${c.maxLimit}: page ${whole.error.page} HTTP ${whole.error.status} ${JSON.stringify(whole.error.body)}`);
          continue;
        }
        if (c.op in SINGLE_ROW_LISTS) {
          if (whole.rows.length > 1) failures.push(`${c.url}: ${whole.rows.length} rows, yet listed as a list of fewer than two`);
          else walkedOps.set(c.op, 0);
          continue;
        }
        if (whole.rows.length < 2) continue;
        // About twelve pages, yet never the largest limit (the whole walk's own page boundaries).
        const small = Math.max(1, Math.min(Math.ceil(whole.rows.length / 12), Math.ceil(c.maxLimit / 3)));
        const walked = await walk(t, withLimit(c.url, small));
        if (walked.error) {
          failures.push(`${c.url} at limit ${small}: page ${walked.error.page} HTTP ${walked.error.status} ${JSON.stringify(walked.error.body)}`);
          continue;
        }
        const diff = difference(walked.rows, whole.rows);
        if (diff) failures.push(`${c.url} at limit ${small} (${walked.pages} pages): ${diff}`);
        else if (walked.pages > 1) walkedOps.set(c.op, (walkedOps.get(c.op) ?? 0) + 1);
      }
      const ops = [...new Set(cases.map((c) => c.op))];
      for (const op of ops) if (!walkedOps.has(op)) failures.push(`${op}: no request of it returned more than one page on the demo data`);
      console.log(`${engine.name}: ${ops.length} paginated operations, ${cases.length} requests, ${[...walkedOps.values()].reduce((a, b) => a + b, 0)} walked over several pages`);
      expect(failures).toEqual([]);
    }, 900_000);
  });
}
