import { readFileSync } from 'node:fs';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { DATASETS, isMarketless, MARKETS, normaliseDataset, normaliseMarket } from '../domain/datasets.js';

// Plans decide what a key may read (data sets × markets), how far back (history), how fresh
// (real-time, 15-minute delayed or end of day) and how often (requests per window). The built-ins
// follow upstream's tiers (its pricing tiers and the x-polygon-entitlement-* fields of its
// OpenAPI document); a JSON file given with --plans / TICKERBASE_PLANS adds plans or
// replaces built-ins of the same name.


const RateLimit = Type.Object(
  {
    requests: Type.Integer({ minimum: 1 }),
    per_seconds: Type.Integer({ minimum: 1, maximum: 86_400 }),
  },
  { additionalProperties: false },
);

const PlanFields = {
  description: Type.Optional(Type.String()),
  /** Data sets, or "*" for all (including ones added later). */
  datasets: Type.Union([Type.Literal('*'), Type.Array(Type.String({ minLength: 1 }))]),
  markets: Type.Union([Type.Literal('*'), Type.Array(Type.String({ minLength: 1 }))]),
  /** Years of history before today; null = no limit. */
  history_years: Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: 200 }), Type.Null()]),
  /** realtime; delayed by delay_minutes; end_of_day = today's data only after the session (20:00 ET). */
  timeframe: Type.Union([Type.Literal('realtime'), Type.Literal('delayed'), Type.Literal('end_of_day')]),
  delay_minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440 })),
  /** null = unlimited. */
  rate_limit: Type.Union([RateLimit, Type.Null()]),
  /** WebSocket feed connections per key and market (absent: the server's default; 0: no feed access). */
  stream_connections: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
};

export const PlanSchema = Type.Object(PlanFields, { additionalProperties: false });
export type PlanSpec = Static<typeof PlanSchema>;

const PartialPlan = Type.Object(
  { extends: Type.Optional(Type.String({ minLength: 1 })), ...Type.Partial(Type.Object(PlanFields)).properties },
  { additionalProperties: false },
);

const PlanFile = Type.Object(
  {
    /** Drop the built-in plans (demo stays: the demo key needs it). */
    replace_builtins: Type.Optional(Type.Boolean()),
    /** Plan given to keys created without --plan. */
    default_plan: Type.Optional(Type.String({ minLength: 1 })),
    plans: Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_-]{0,31}$' }), PartialPlan),
  },
  { additionalProperties: false },
);

export interface Plan extends PlanSpec {
  name: string;
}

const MINUTE = 60;

/**
 * Built-ins, cheapest first. Rates: upstream's free tier is 5/minute; paid tiers are "unlimited" with ~100/s guidance.
 * A description names the data sets only: timeframe, history and rate limit are shown from their
 * fields, so the text cannot contradict them.
 */
export const BUILTIN_PLANS: Record<string, PlanSpec> = {
  free: {
    description: 'Aggregates (bars) and reference data',
    datasets: ['reference', 'aggregates'],
    markets: '*',
    history_years: 2,
    timeframe: 'delayed',
    delay_minutes: 15,
    rate_limit: { requests: 5, per_seconds: MINUTE },
  },
  starter: {
    description: 'Free, plus snapshots, technical indicators, news and fundamentals',
    datasets: ['reference', 'aggregates', 'snapshots', 'indicators', 'news', 'fundamentals'],
    markets: '*',
    history_years: 5,
    timeframe: 'delayed',
    delay_minutes: 15,
    rate_limit: { requests: 1_000, per_seconds: MINUTE },
  },
  developer: {
    description: 'Starter, plus trades and filings',
    datasets: ['reference', 'aggregates', 'snapshots', 'indicators', 'news', 'fundamentals', 'trades', 'filings'],
    markets: '*',
    history_years: 10,
    timeframe: 'delayed',
    delay_minutes: 15,
    rate_limit: { requests: 3_000, per_seconds: MINUTE },
  },
  advanced: {
    description: 'Developer, plus quotes (NBBO) and economy data',
    datasets: ['reference', 'aggregates', 'snapshots', 'indicators', 'news', 'fundamentals', 'trades', 'filings', 'nbbo', 'economy'],
    markets: '*',
    history_years: 20,
    timeframe: 'realtime',
    rate_limit: { requests: 6_000, per_seconds: MINUTE },
  },
  business: {
    description: 'Every data set, fair market value (fmv) included',
    datasets: [...DATASETS],
    markets: '*',
    history_years: null,
    timeframe: 'realtime',
    rate_limit: null,
  },
  demo: {
    description: 'Every data set: the plan of the key made at first start, so the demo shows the whole API',
    datasets: '*',
    markets: '*',
    history_years: null,
    timeframe: 'realtime',
    rate_limit: null,
  },
};

export class PlanCatalog {
  private readonly plans: Map<string, Plan>;

  constructor(
    plans: Record<string, PlanSpec>,
    readonly defaultPlan = 'free',
  ) {
    this.plans = new Map(Object.entries(plans).map(([name, spec]) => [name, { name, ...spec }]));
    if (!this.plans.has(defaultPlan)) throw new Error(`default plan "${defaultPlan}" is not defined (plans: ${this.names().join(', ')})`);
  }

  static builtin(): PlanCatalog {
    return new PlanCatalog(BUILTIN_PLANS);
  }

  get(name: string): Plan | undefined {
    return this.plans.get(name);
  }

  names(): string[] {
    return [...this.plans.keys()];
  }

  list(): Plan[] {
    return [...this.plans.values()];
  }

  /** Whether the plan covers the data set (and the market, for data sets sold per market). */
  entitled(plan: Plan, dataset: string, market?: string): boolean {
    const d = normaliseDataset(dataset);
    if (plan.datasets !== '*' && !plan.datasets.includes(d)) return false;
    if (isMarketless(d) || market === undefined || plan.markets === '*') return true;
    return plan.markets.includes(normaliseMarket(market) as string);
  }

  /** Names of the plans that cover the data set and market, in catalogue order. */
  including(dataset: string, market?: string): string[] {
    return this.list().filter((p) => this.entitled(p, dataset, market)).map((p) => p.name);
  }
}

function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? 'number' : typeof v;
}

/** The first violation, looking inside unions at the member of the value's own kind (TypeBox only says "Expected union value"). */
function firstError(schema: TSchema, value: unknown, prefix = ''): { path: string; message: string } | undefined {
  const e = Value.Errors(schema, value).First();
  if (!e) return undefined;
  const members = (e.schema as { anyOf?: TSchema[] }).anyOf;
  if (members) {
    const kind = kindOf(e.value);
    const member = members.find((m) => {
      const t = (m as { type?: string; const?: unknown }).type ?? kindOf((m as { const?: unknown }).const);
      return t === kind || (t === 'integer' && kind === 'number');
    });
    if (member) {
      const inner = firstError(member, e.value, prefix + e.path);
      if (inner) return inner;
    }
  }
  return { path: prefix + e.path, message: e.message };
}

function describeErrors(file: string, value: unknown): string {
  const e = firstError(PlanFile, value);
  return `${file}: ${e?.path || '/'}: ${e?.message ?? 'invalid'}`;
}

/**
 * Loads plans from a JSON file over the built-ins. Each plan may `extends` another (built-in or
 * earlier in the file) and override some fields. Errors name the file and the JSON path.
 */
export function loadPlanFile(file: string): PlanCatalog {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read plans file ${file}: ${(err as Error).message}`);
  }
  if (!Value.Check(PlanFile, raw)) throw new Error(`invalid plans file: ${describeErrors(file, raw)}`);
  const parsed = raw as Static<typeof PlanFile>;
  const out: Record<string, PlanSpec> = parsed.replace_builtins ? { demo: BUILTIN_PLANS.demo } : { ...BUILTIN_PLANS };
  for (const [name, partial] of Object.entries(parsed.plans)) {
    const { extends: base, ...fields } = partial;
    const parent = base ? out[base] : out[name];
    if (base && !parent) throw new Error(`invalid plans file: ${file}: /plans/${name}/extends: no plan named "${base}" (define it earlier)`);
    const merged = { ...(parent ?? {}), ...fields };
    if (!Value.Check(PlanSchema, merged)) {
      const e = firstError(PlanSchema, merged);
      throw new Error(`invalid plans file: ${file}: /plans/${name}${e?.path ?? ''}: ${e?.message ?? 'invalid'} (give every field, or "extends" a plan)`);
    }
    const spec = merged as PlanSpec;
    if (spec.timeframe === 'delayed' && !spec.delay_minutes) throw new Error(`invalid plans file: ${file}: /plans/${name}/delay_minutes: required when timeframe is "delayed"`);
    if (spec.markets !== '*') {
      const bad = spec.markets.find((m) => !(MARKETS as readonly string[]).includes(normaliseMarket(m) as string));
      if (bad) throw new Error(`invalid plans file: ${file}: /plans/${name}/markets: unknown market "${bad}" (one of ${MARKETS.join(', ')})`);
      spec.markets = spec.markets.map((m) => normaliseMarket(m) as string);
    }
    if (spec.datasets !== '*') spec.datasets = spec.datasets.map((d) => normaliseDataset(d));
    out[name] = spec;
  }
  try {
    return new PlanCatalog(out, parsed.default_plan ?? 'free');
  } catch (err) {
    throw new Error(`invalid plans file: ${file}: ${(err as Error).message}`);
  }
}

/** The catalogue for a server or CLI run: the file when one is given, else the built-ins. */
export function loadPlans(file?: string): PlanCatalog {
  return file ? loadPlanFile(file) : PlanCatalog.builtin();
}
