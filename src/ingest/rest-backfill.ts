// Back-fill from upstream's REST API (`tickerbase sync rest`, and each read-through miss): the
// units to fetch are those the ledger does not record as complete; each unit's pages are followed
// with next_url, each page is stored in one transaction together with the ledger's note of where
// the unit stands (so a run killed between pages resumes at the next page, and a page is never
// half stored), and the unit is recorded complete after its last page.
import { dateOfDay, dayOfDate, localDayOf, tradingDaysBetween } from '../domain/calendar.js';
import type { Store } from '../store/index.js';
import { rangesMissing, type LedgerUnit } from '../store/repos/upstream-ledger.js';
import type { UpstreamCallTally } from '../upstream/call-tally.js';
import type { UpstreamBody, UpstreamRestClient } from '../upstream/rest-client.js';
import { REST_DATASET_SPECS, type RestDatasetName, type UnitRequest } from '../upstream/rest-datasets.js';
import { UpstreamError } from '../upstream/rest-errors.js';
import { storeUpstreamPage, WHOLE_PARTS } from './rest-page-writer.js';

const NY = 'America/New_York';

export interface UnitOutcome {
  unit: LedgerUnit;
  status: 'complete' | 'failed';
  rows: number;
  calls: number;
  /** Upstream had nothing for the unit (404, or no records). */
  empty: boolean;
  error?: UpstreamError;
  notes: string[];
}

const nowUtc = (ms: number) => new Date(ms).toISOString();

/** Which request of the unit a stored next_url continues (by its path), or -1. */
function requestOfNext(requests: readonly UnitRequest[], next: string): number {
  const path = next.split('?')[0]!;
  return requests.findIndex((r) => r.path.split('?')[0] === path);
}

/**
 * Fetches one unit and stores it, page by page; resumes a partial unit at the next_url the
 * ledger kept. Never throws for upstream's refusals of this unit (they are its outcome, recorded
 * in the ledger as failed), except a refused key (401), which stops everything.
 */
export async function fetchUnit(store: Store, client: UpstreamRestClient, unit: LedgerUnit, opts: { now: () => number; tally?: UpstreamCallTally }): Promise<UnitOutcome> {
  const spec = REST_DATASET_SPECS[unit.dataset as RestDatasetName];
  if (!spec) throw new Error(`unknown data set ${unit.dataset}`);
  const requests = spec.requests(unit);
  const prior = await store.upstreamLedger.get(unit);
  let start = 0;
  let resumeAt: string | undefined;
  if (prior?.status === 'partial' && prior.nextUrl) {
    const i = requestOfNext(requests, prior.nextUrl);
    if (i >= 0 && !WHOLE_PARTS.has(requests[i]!.part)) {
      start = i;
      resumeAt = prior.nextUrl;
    }
  }
  const outcome: UnitOutcome = { unit, status: 'complete', rows: 0, calls: 0, empty: true, notes: [] };
  const callsBefore = opts.tally?.total.calls ?? 0;
  const ticker = unit.ticker;
  try {
    for (let i = start; i < requests.length; i++) {
      const request = requests[i]!;
      const whole: unknown[] = [];
      const first = i === start && resumeAt !== undefined ? resumeAt : request.path;
      for (let next: string | undefined = first; next !== undefined; ) {
        const page = await client.get(next);
        outcome.calls++;
        if (page.status === 404) {
          // A single record upstream does not have (an unknown ticker) is the unit's outcome, not an empty list.
          if (request.part === 'ticker-overview') throw new UpstreamError('not_found', page.url, `upstream has no ticker ${ticker} (HTTP 404)`, undefined, 404);
          break;
        }
        next = page.next;
        if (WHOLE_PARTS.has(request.part)) {
          if (Array.isArray(page.body.results)) whole.push(...page.body.results);
          continue;
        }
        const stored = await store.transaction(async (tx) => {
          const r = await storeUpstreamPage(tx, request, ticker, page.body, page.url, opts.now());
          // Where the unit stands: the next page of this request, else the first of the next request.
          const resume = next ?? requests[i + 1]?.path;
          if (resume !== undefined) await tx.upstreamLedger.record(unit, { status: 'partial', nextUrl: resume, rows: r.rows, calls: 1, nowUtc: nowUtc(opts.now()) });
          else await tx.upstreamLedger.record(unit, { status: 'complete', rows: r.rows, calls: 1, nowUtc: nowUtc(opts.now()) });
          return r;
        });
        outcome.rows += stored.rows;
        outcome.notes.push(...stored.notes);
        if (stored.rows > 0) outcome.empty = false;
      }
      // An empty list (or a 404) never replaces a stored one: upstream has these lists always.
      if (WHOLE_PARTS.has(request.part) && whole.length > 0) {
        const body: UpstreamBody = { results: whole };
        const stored = await store.transaction(async (tx) => {
          const r = await storeUpstreamPage(tx, request, ticker, body, `${client.baseUrl}${request.path}`, opts.now());
          await tx.upstreamLedger.record(unit, { status: i + 1 < requests.length ? 'partial' : 'complete', rows: r.rows, calls: outcome.calls, nowUtc: nowUtc(opts.now()) });
          return r;
        });
        outcome.rows += stored.rows;
        outcome.notes.push(...stored.notes);
        if (stored.rows > 0) outcome.empty = false;
      }
    }
    // A unit whose every request found nothing (404 or no records) is complete too: upstream has none.
    const entry = await store.upstreamLedger.get(unit);
    if (entry?.status !== 'complete') await store.upstreamLedger.record(unit, { status: 'complete', rows: 0, calls: 0, nowUtc: nowUtc(opts.now()) });
  } catch (err) {
    if (!(err instanceof UpstreamError) || err.kind === 'unauthorized') throw err;
    outcome.status = 'failed';
    outcome.error = err;
    outcome.empty = err.kind === 'not_found';
    const entry = await store.upstreamLedger.get(unit);
    // A failed unit keeps the page it had reached (a re-run resumes there).
    await store.upstreamLedger.record(unit, { status: entry?.status === 'partial' ? 'partial' : 'failed', nextUrl: entry?.nextUrl, rows: 0, calls: 0, error: err.message, nowUtc: nowUtc(opts.now()) });
  } finally {
    if (opts.tally) {
      outcome.calls = opts.tally.total.calls - callsBefore;
      const t = opts.tally.take();
      await store.upstreamLedger.addToCounters({ calls: t.calls, refused: t.refused, failed: t.failed, rows: outcome.rows });
    }
  }
  return outcome;
}

export interface BackfillPlanOptions {
  datasets: readonly RestDatasetName[];
  /** Tickers of per-ticker data sets (upper-cased by the caller). */
  tickers: readonly string[];
  /** Every stored active ticker for data sets fetched per ticker; the whole list for the others. */
  allTickers: boolean;
  /** Days of dated data sets (YYYY-MM-DD); required when one is asked for. */
  from?: string;
  to?: string;
  /** Fetch undated units (reference data, corporate actions) again even when complete. */
  refresh?: boolean;
  now: () => number;
}

export interface BackfillPlan {
  units: LedgerUnit[];
  /** Units left out because the ledger has them complete. */
  skipped: number;
  notes: string[];
}

/** The last day whose data is final: yesterday in New York (today's is still arriving). */
export function lastCompleteDay(nowMs: number): string {
  return dateOfDay(localDayOf(nowMs, NY) - 1);
}

async function storedActiveTickers(store: Store): Promise<string[]> {
  const out: string[] = [];
  for (;;) {
    const page = await store.reference.listTickers({ active: true, sort: 'ticker', order: 'asc', limit: 1000, ...(out.length > 0 ? { tickerGt: out[out.length - 1] } : {}) });
    out.push(...page.map((r) => r.record.ticker));
    if (page.length < 1000) return out;
  }
}

/** The units a run must fetch: those of the asked data sets, tickers and days that the ledger lacks. */
export async function planBackfill(store: Store, opts: BackfillPlanOptions): Promise<BackfillPlan> {
  const plan: BackfillPlan = { units: [], skipped: 0, notes: [] };
  let every: string[] | undefined;
  const last = lastCompleteDay(opts.now());
  for (const name of opts.datasets) {
    const spec = REST_DATASET_SPECS[name];
    let tickers: string[];
    if (spec.perTicker === 'never') tickers = ['*'];
    else if (opts.allTickers && spec.perTicker === 'optional') tickers = ['*'];
    else if (opts.allTickers) tickers = every ??= await storedActiveTickers(store);
    else tickers = [...opts.tickers];
    if (tickers.length === 0) {
      plan.notes.push(`${name}: no tickers (give --tickers, or --all-tickers after syncing tickers)`);
      continue;
    }
    if (!spec.dated) {
      for (const ticker of tickers) {
        const unit = { dataset: name, ticker, from: '', to: '' };
        if (!opts.refresh && (await store.upstreamLedger.covers(unit))) plan.skipped++;
        else plan.units.push(unit);
      }
      continue;
    }
    if (!opts.from || !opts.to) throw new Error(`${name} is fetched by day: give --from and --to`);
    const to = opts.to > last ? last : opts.to;
    if (to !== opts.to) plan.notes.push(`${name}: days after ${last} are left out (a day is final once it has ended in New York)`);
    if (to < opts.from) continue;
    for (const ticker of tickers) {
      const missing = rangesMissing(await store.upstreamLedger.completeRanges(name, ticker), opts.from, to);
      if (missing.length === 0) plan.skipped++;
      for (const m of missing) plan.units.push({ dataset: name, ticker, from: m.from, to: m.to });
    }
  }
  return plan;
}

/** Minute bars of one stock day at most (04:00 to 20:00 New York). */
const MINUTES_PER_DAY = 960;
const AGGS_PAGE = 50_000;

/** The fewest calls a unit can take (more when upstream pages more, as trades and quotes do). */
export function estimateCalls(unit: LedgerUnit): number {
  const spec = REST_DATASET_SPECS[unit.dataset as RestDatasetName];
  const requests = spec.requests(unit).length;
  if (unit.dataset === 'aggs-minute') {
    const days = tradingDaysBetween(unit.from, unit.to).length;
    return Math.max(1, Math.ceil((days * MINUTES_PER_DAY) / AGGS_PAGE));
  }
  return requests;
}

/** Days a dated unit spans (for messages). */
export function unitDays(unit: LedgerUnit): number {
  return unit.from === '' ? 0 : dayOfDate(unit.to) - dayOfDate(unit.from) + 1;
}

export interface BackfillSummary {
  units: number;
  completed: number;
  /** `dataset ticker from..to: reason` of each unit that failed. */
  failures: string[];
  rows: number;
  calls: number;
  refused: number;
  seconds: number;
}

const unitLabel = (u: LedgerUnit) => `${u.dataset} ${u.ticker === '*' ? '(all)' : u.ticker}${u.from ? ` ${u.from}..${u.to}` : ''}`;

/**
 * Fetches the plan's units one after another (the rate budget is upstream's, so there is nothing
 * to gain from running them side by side); a failed unit is reported and the others go on. A
 * refused key (401) stops the run at once.
 */
export async function runBackfill(store: Store, client: UpstreamRestClient, plan: BackfillPlan, opts: { now: () => number; tally: UpstreamCallTally; log: (line: string) => void }): Promise<BackfillSummary> {
  const started = performance.now();
  const summary: BackfillSummary = { units: plan.units.length, completed: 0, failures: [], rows: 0, calls: 0, refused: 0, seconds: 0 };
  for (const [i, unit] of plan.units.entries()) {
    const o = await fetchUnit(store, client, unit, opts);
    summary.rows += o.rows;
    const where = `[${i + 1}/${plan.units.length}] ${unitLabel(unit)}`;
    if (o.status === 'failed') {
      summary.failures.push(`${unitLabel(unit)}: ${o.error!.message}`);
      opts.log(`${where}: failed: ${o.error!.message}`);
      continue;
    }
    summary.completed++;
    const what = o.empty ? 'upstream has nothing for it' : `${o.rows.toLocaleString('en-US')} records`;
    opts.log(`${where}: ${what}, ${o.calls} call${o.calls === 1 ? '' : 's'}${o.notes.length ? `; ${o.notes.join('; ')}` : ''}`);
  }
  summary.calls = opts.tally.total.calls;
  summary.refused = opts.tally.total.refused;
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}
