import type { FastifyRequest } from 'fastify';
import { dateOfDay, dayOfDate, nyDateOf, nyMidnight, nyTime, parseDate } from '../domain/calendar.js';
import type { RequestGuard, RouteMeta } from './context.js';
import { narrowNsRange } from '../domain/plan-window.js';
import { ApiError } from '../domain/errors.js';
import { isMarketless, normaliseDataset, normaliseMarket, TIME_SERIES } from '../domain/datasets.js';
import type { Plan, PlanCatalog } from './plans.js';

// Entitlements, history and delay. The guard runs for every keyed route (getRoute's onRequest),
// reads the route's `dataset` and `market`, and answers 403 NOT_AUTHORIZED when the key's plan
// lacks them. For time-series data sets it also fixes the request's data window:
//
//   earliest = start of the plan's history (e.g. 2 years before today, 00:00 ET)
//   latest   = now (real-time), now − delay (delayed), or the start of today until 20:00 ET (end of day)
//
// A request wholly outside the window is answered 403 with upstream's wording ("Your plan doesn't
// include this data timeframe"), naming the window. A request that overlaps it is served and the
// rows outside are cut (see cutToWindow, applied to every response by a global hook, and
// applyDataWindow for handlers that cut in SQL themselves). The body then says so: `status` is
// "DELAYED" when the delay cut rows (as upstream does for delayed plans), and a `notice` field
// explains any cut.

export interface DataWindow {
  /** First instant (ms) the plan may see; -Infinity when unlimited. */
  earliestMs: number;
  /** Last instant (ms) the plan may see; +Infinity when unlimited (never in practice: realtime = now). */
  latestMs: number;
  /** The window is behind the clock (delayed or end-of-day plan). */
  delayed: boolean;
  plan?: string;
}

const UNBOUNDED: DataWindow = { earliestMs: -Infinity, latestMs: Infinity, delayed: false };

interface WindowState {
  window: DataWindow;
  /** The handler cut the data itself (applyDataWindow), so the generic cut is skipped. */
  applied: boolean;
  /** What was cut, for the body's notice and status. */
  cutHistory: boolean;
  cutDelay: boolean;
  /**
   * The handler's time range was narrowed to the window (windowedMs, windowedNs), the end of a
   * real-time window included: the answer may change with the clock alone.
   */
  narrowed?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The plan catalogue (set by setupProduction). */
    plans?: PlanCatalog;
  }
  interface FastifyRequest {
    /** The key's plan (set by the entitlement guard on keyed routes). */
    plan?: Plan;
    /** The route's entitlement metadata (set by the first production guard). */
    routeMeta?: RouteMeta;
    dataWindowState?: WindowState;
  }
}

/** Market of a route for this request (fixed or derived from the request, e.g. a ticker prefix). */
export function routeMarket(req: FastifyRequest, meta: RouteMeta): string | undefined {
  const m = typeof meta.market === 'function' ? meta.market(req) : meta.market;
  return normaliseMarket(m);
}

function subtractYears(date: string, years: number): string {
  const whole = Math.floor(years);
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  let day = d;
  if (m === 2 && d === 29 && parseDate(`${y - whole}-02-29`) === null) day = 28;
  const shifted = `${String(y - whole).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  const extraDays = Math.round((years - whole) * 365.25);
  return extraDays ? dateOfDay(dayOfDate(shifted) - extraDays) : shifted;
}

/** The window a plan sees at instant `now`. */
export function planWindow(plan: Plan, now: number): DataWindow {
  const today = nyDateOf(now);
  const earliestMs = plan.history_years === null ? -Infinity : nyMidnight(subtractYears(today, plan.history_years));
  let latestMs = now;
  if (plan.timeframe === 'delayed') latestMs = now - (plan.delay_minutes ?? 15) * 60_000;
  else if (plan.timeframe === 'end_of_day' && now < nyTime(today, '20:00')) latestMs = nyMidnight(today) - 1;
  return { earliestMs, latestMs, delayed: plan.timeframe !== 'realtime', plan: plan.name };
}

/** The data window of this request: unbounded for non-time-series data and unguarded routes. */
export function dataWindow(req: FastifyRequest): DataWindow {
  return req.dataWindowState?.window ?? UNBOUNDED;
}

/**
 * For handlers that bound their queries by the window themselves (snapshots as of the delayed
 * clock, SQL ranges): returns the window and turns the generic response cut off for this request.
 * Call `noteDataCut(req, {history, delay})` when rows were left out so the body says so.
 */
export function applyDataWindow(req: FastifyRequest): DataWindow {
  if (req.dataWindowState) req.dataWindowState.applied = true;
  return dataWindow(req);
}

export function noteDataCut(req: FastifyRequest, cut: { history?: boolean; delay?: boolean }): void {
  const s = req.dataWindowState;
  if (!s) return;
  s.cutHistory ||= Boolean(cut.history);
  s.cutDelay ||= Boolean(cut.delay);
}

/**
 * For handlers whose reads take a time range and whose bodies are written by the store (so the
 * generic cut cannot see their rows): [fromMs, toMs] (inclusive, Unix ms of the rows' times)
 * narrowed to the plan's window, and the cut noted when the request reaches beyond it (older than
 * the history, or later than a delayed window's end). `empty` when nothing of it is in the window.
 */
export function windowedMs(req: FastifyRequest, fromMs: number, toMs: number): { fromMs: number; toMs: number; empty: boolean } {
  const w = applyDataWindow(req);
  const history = fromMs < w.earliestMs;
  const late = toMs > w.latestMs;
  // A real-time window ends now: reading up to it leaves out nothing the plan could see later.
  if (history || (late && w.delayed)) noteDataCut(req, { history, delay: late && w.delayed });
  const from = Math.max(fromMs, w.earliestMs);
  const to = Math.min(toMs, w.latestMs);
  if ((from !== fromMs || to !== toMs) && req.dataWindowState) req.dataWindowState.narrowed = true;
  return { fromMs: from, toMs: to, empty: from > to };
}

/** windowedMs for [gte, lt) in ns (undefined: open), as tick reads take it. */
export function windowedNs(req: FastifyRequest, gte: bigint | undefined, lt: bigint | undefined): { gte?: bigint; lt?: bigint; empty: boolean } {
  const r = narrowNsRange(gte, lt, applyDataWindow(req));
  if (r.cut.history || r.cut.delay) noteDataCut(req, r.cut);
  if ((r.gte !== gte || r.lt !== lt) && req.dataWindowState) req.dataWindowState.narrowed = true;
  return { gte: r.gte, lt: r.lt, empty: r.gte !== undefined && r.lt !== undefined && r.gte >= r.lt };
}

/**
 * For handlers whose read a real-time window ended at now (windowedMs, windowedNs), and nothing
 * else of the window narrowed: when the newest stored row the read could reach (`newestMs`, its
 * time; undefined when there is none) is no later than that instant, the window left out nothing,
 * and while the stored data stays as it is nothing can appear after it. The answer is then the
 * same at any later instant and the response cache may keep it as one over a past range: apps
 * polling the latest rows of a store nobody is writing to get them again without a read.
 */
export async function finalUntilWrite(req: FastifyRequest, newestMs: () => Promise<number | undefined>): Promise<void> {
  const s = req.dataWindowState;
  if (!s?.narrowed || s.window.delayed || s.cutHistory || s.cutDelay) return;
  const newest = await newestMs();
  if (newest === undefined || newest <= s.window.latestMs) s.narrowed = false;
}

/**
 * Whether the answer to this request is the same for every key of its plan while the stored data
 * stays as it is: the route has no data window, or its handler bounded its read by the window
 * (windowedMs, windowedNs) and the window left the read's range as asked. Later the window only
 * reaches further on the late side; its early side moves with the day (the response cache keys
 * answers by it, windowScope).
 */
export function windowLeftWhole(req: FastifyRequest): boolean {
  const s = req.dataWindowState;
  return s === undefined || (s.applied && !s.narrowed && !s.cutHistory && !s.cutDelay);
}

/**
 * Whether the handler's body is final as far as the plan's window goes: the route has no window,
 * or the handler bounded its read by it and no delay was cut (which turns the status to DELAYED
 * in the body). A history cut only adds the notice, which the send step splices into any body.
 */
export function windowDoneByHandler(req: FastifyRequest): boolean {
  const s = req.dataWindowState;
  return s === undefined || (s.applied && !s.cutDelay);
}

/** What a cached answer of a windowed route depends on besides the request: the plan and the start of its window. */
export function windowScope(req: FastifyRequest): string {
  const s = req.dataWindowState;
  return s === undefined ? '' : `${s.window.plan}\0${s.window.earliestMs}\0`;
}

/** Field-level check for handlers: e.g. include a snapshot's lastQuote only when entitled(req, 'nbbo'). */
export function entitled(req: FastifyRequest, dataset: string, market?: string): boolean {
  const plans = req.server.plans;
  if (!req.plan || !plans) return true;
  return plans.entitled(req.plan, dataset, market ?? (req.routeMeta ? routeMarket(req, req.routeMeta) : undefined));
}

function describeWindow(plan: Plan, w: DataWindow): string {
  const from = Number.isFinite(w.earliestMs) ? `from ${nyDateOf(w.earliestMs)}` : 'all history';
  const to = plan.timeframe === 'realtime' ? 'up to now' : plan.timeframe === 'delayed' ? `up to ${plan.delay_minutes ?? 15} minutes ago` : 'up to the previous day (today after 20:00 ET)';
  return `${from}, ${to}`;
}

// ---------------------------------------------------------------------------
// The requested interval, read generically from path and query parameters

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const INT_RE = /^\d{1,19}$/;

/** [start, end] in ms of a time input, or undefined when it is not one (validation answers that). */
function timeInput(value: unknown): [number, number] | undefined {
  if (typeof value !== 'string') return undefined;
  if (DATE_RE.test(value)) {
    if (parseDate(value) === null) return undefined;
    const start = nyMidnight(value);
    return [start, start + 86_400_000 - 1];
  }
  if (INT_RE.test(value)) {
    let n = Number(value);
    if (n > 1e17) n /= 1e6; // ns
    else if (n > 1e14) n /= 1e3; // µs
    else if (n < 1e11) n *= 1000; // s
    return [n, n];
  }
  const t = Date.parse(value);
  return /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(t) ? [t, t] : undefined;
}

/** The bounds a request asks for, from `from`/`to`/`date` path parameters and `timestamp*` / `date` query parameters. */
export function requestedInterval(req: FastifyRequest): { lo: number; hi: number } {
  let lo = -Infinity;
  let hi = Infinity;
  const params = (req.params ?? {}) as Record<string, unknown>;
  const query = (req.query ?? {}) as Record<string, unknown>;
  if (typeof query.cursor === 'string' && query.cursor) return { lo, hi }; // the cursor's query is opaque here
  const at = (v: unknown, lower: boolean, upper: boolean) => {
    const r = timeInput(v);
    if (!r) return;
    if (lower) lo = Math.max(lo, r[0]);
    if (upper) hi = Math.min(hi, r[1]);
  };
  at(params.from, true, false);
  at(params.to, false, true);
  at(params.date, true, true);
  at(query.date, true, true);
  at(query.timestamp, true, true);
  at(query['timestamp.gte'], true, false);
  at(query['timestamp.gt'], true, false);
  at(query['timestamp.lte'], false, true);
  at(query['timestamp.lt'], false, true);
  return { lo, hi };
}

/**
 * The entitlement guard: plan known, data set and market covered, requested time inside the
 * plan's window. Sets req.plan and the request's data window.
 */
export function entitlementGuard(plans: PlanCatalog, now: () => number): RequestGuard {
  return (req, meta) => {
    req.routeMeta = meta;
    const key = req.apiKey;
    if (!key) return;
    const plan = plans.get(key.plan);
    if (!plan) {
      throw new ApiError('NOT_AUTHORIZED', `This key's plan "${key.plan}" is not configured on this server (plans: ${plans.names().join(', ')}). Ask the operator to issue a new key.`);
    }
    req.plan = plan;
    const dataset = normaliseDataset(meta.dataset);
    const market = routeMarket(req, meta);
    if (!plans.entitled(plan, dataset, market)) {
      const including = plans.including(dataset, market);
      const what = market && !isMarketless(dataset) ? `${dataset} data for ${market}` : `${dataset} data`;
      throw new ApiError(
        'NOT_AUTHORIZED',
        `You are not entitled to this data: the ${plan.name} plan does not include ${what}. ` +
          (including.length ? `Plans that include it: ${including.join(', ')}.` : 'No configured plan includes it.') +
          ' Please upgrade your plan.',
      );
    }
    if (!TIME_SERIES.has(dataset)) return;
    const at = now();
    const window = planWindow(plan, at);
    req.dataWindowState = { window, applied: false, cutHistory: false, cutDelay: false };
    const { lo, hi } = requestedInterval(req);
    // The range is checked before the plan: a reversed range is the handler's 400 to give, and a
    // range wholly after now holds nothing yet for any plan (upstream answers it empty, not 403).
    if (lo > hi || lo > at) return;
    if (hi < window.earliestMs || lo > window.latestMs) {
      throw new ApiError(
        'NOT_AUTHORIZED',
        `Your plan doesn't include this data timeframe: the ${plan.name} plan covers ${describeWindow(plan, window)}. Please upgrade your plan.`,
      );
    }
  };
}

// ---------------------------------------------------------------------------
// The generic cut of response bodies

const NS_PER_MS = 1_000_000n;

function rowTimeMs(row: unknown): number | undefined {
  if (!row || typeof row !== 'object') return undefined;
  const r = row as Record<string, unknown>;
  for (const f of ['sip_timestamp', 'participant_timestamp']) {
    const v = r[f];
    if (typeof v === 'bigint') return Number(v / NS_PER_MS);
    if (typeof v === 'number') return Math.floor(v / 1e6);
  }
  for (const f of ['t', 'timestamp']) {
    const v = r[f];
    if (typeof v === 'number') return v;
    if (typeof v === 'bigint') return Number(v);
  }
  return undefined;
}

function cutRows(rows: unknown[], w: DataWindow): { kept: unknown[]; history: boolean; delay: boolean; trailing: boolean } {
  const kept: unknown[] = [];
  let history = false;
  let delay = false;
  let trailing = false;
  rows.forEach((row, i) => {
    const t = rowTimeMs(row);
    if (t === undefined || (t >= w.earliestMs && t <= w.latestMs)) {
      kept.push(row);
      return;
    }
    if (t < w.earliestMs) history = true;
    else delay = true;
    if (i === rows.length - 1) trailing = true;
  });
  return { kept, history, delay, trailing };
}

/**
 * Removes rows outside the window from an inner body: `results[]` of bars (`t`), ticks
 * (`sip_timestamp`) and indicator `results.values[]` (`timestamp`). Fixes counts, drops next_url
 * when the rows cut were the page's far end (later pages would be cut too), and records the cut.
 */
export function cutToWindow(inner: Record<string, unknown>, state: WindowState): void {
  const w = state.window;
  let target: unknown[] | undefined;
  let put: ((rows: unknown[]) => void) | undefined;
  const results = inner.results;
  if (Array.isArray(results)) {
    target = results;
    put = (rows) => {
      inner.results = rows;
    };
  } else if (results && typeof results === 'object' && Array.isArray((results as Record<string, unknown>).values)) {
    const holder = results as Record<string, unknown>;
    target = holder.values as unknown[];
    put = (rows) => {
      holder.values = rows;
    };
  }
  if (!target || !put || target.length === 0) return;
  const { kept, history, delay, trailing } = cutRows(target, w);
  if (kept.length === target.length) return;
  put(kept);
  if (typeof inner.resultsCount === 'number') inner.resultsCount = kept.length;
  if (typeof inner.count === 'number') inner.count = kept.length;
  if (trailing) delete inner.next_url;
  state.cutHistory ||= history;
  // A real-time window ends now: a row stamped after it (published while the request ran) is left
  // out, but the plan is not delayed and the body must not say so.
  state.cutDelay ||= delay && w.delayed;
}

/** The sentence a cut body carries in `notice`. */
export function cutNotice(req: FastifyRequest): string | undefined {
  const s = req.dataWindowState;
  if (!s || !(s.cutHistory || s.cutDelay) || !req.plan) return undefined;
  const parts: string[] = [];
  if (s.cutHistory) parts.push(`data before ${nyDateOf(s.window.earliestMs)} is outside the ${req.plan.name} plan's ${req.plan.history_years} years of history`);
  if (s.cutDelay) {
    parts.push(
      req.plan.timeframe === 'end_of_day'
        ? `today's data is available to the ${req.plan.name} plan after the end of the day`
        : `the ${req.plan.name} plan's data is ${req.plan.delay_minutes ?? 15} minutes delayed`,
    );
  }
  return `Results were cut: ${parts.join('; ')}.`;
}
