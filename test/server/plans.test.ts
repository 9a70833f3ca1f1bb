import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATASETS, MARKETS } from '../../src/domain/datasets.js';
import { BUILTIN_PLANS, loadPlans, PlanCatalog } from '../../src/server/plans.js';

const dir = mkdtempSync(join(tmpdir(), 'tb-plans-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function planFile(body: unknown): string {
  const file = join(dir, `plans-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body));
  return file;
}

describe('built-in plans', () => {
  const plans = PlanCatalog.builtin();

  it('free: reference and aggregates only, 5 requests a minute, 2 years, 15 minutes delayed', () => {
    const free = plans.get('free')!;
    expect(free.rate_limit).toEqual({ requests: 5, per_seconds: 60 });
    expect(free.history_years).toBe(2);
    expect(free.timeframe).toBe('delayed');
    expect(free.delay_minutes).toBe(15);
    expect(plans.entitled(free, 'reference')).toBe(true);
    for (const m of MARKETS) expect(plans.entitled(free, 'aggregates', m)).toBe(true);
    for (const d of ['trades', 'nbbo', 'snapshots', 'indicators', 'fundamentals', 'filings', 'economy', 'news']) expect(plans.entitled(free, d, 'stocks')).toBe(false);
  });

  it('each paid tier includes everything the tier below has, with more history and more requests', () => {
    const order = ['free', 'starter', 'developer', 'advanced', 'business'].map((n) => plans.get(n)!);
    for (let i = 1; i < order.length; i++) {
      const [lo, hi] = [order[i - 1]!, order[i]!];
      for (const d of DATASETS) if (plans.entitled(lo, d, 'stocks')) expect(plans.entitled(hi, d, 'stocks'), `${hi.name} ⊇ ${lo.name}: ${d}`).toBe(true);
      expect(hi.history_years === null || (lo.history_years !== null && hi.history_years > lo.history_years)).toBe(true);
      expect(hi.rate_limit === null || (lo.rate_limit !== null && hi.rate_limit.requests > lo.rate_limit.requests)).toBe(true);
    }
    expect(plans.get('advanced')!.timeframe).toBe('realtime');
    expect(plans.get('business')!.rate_limit).toBeNull();
  });

  it('demo covers every data set, including unknown future ones, without limits', () => {
    const demo = plans.get('demo')!;
    for (const d of [...DATASETS, 'something-new']) expect(plans.entitled(demo, d, 'crypto')).toBe(true);
    expect(demo.rate_limit).toBeNull();
    expect(demo.history_years).toBeNull();
  });

  it('names the plans that include a data set, and reads aliases (quotes = nbbo, otc = stocks)', () => {
    expect(plans.including('trades', 'stocks')).toEqual(['developer', 'advanced', 'business', 'demo']);
    expect(plans.including('quotes', 'otc')).toEqual(['advanced', 'business', 'demo']);
  });
});

describe('plans file (--plans)', () => {
  it('adds plans that extend built-ins and overrides built-ins by name', () => {
    const plans = loadPlans(
      planFile({
        plans: {
          team: { extends: 'advanced', rate_limit: { requests: 100, per_seconds: 1 }, markets: ['stocks', 'forex'] },
          free: { rate_limit: { requests: 10, per_seconds: 60 } },
        },
      }),
    );
    const team = plans.get('team')!;
    expect(team.datasets).toEqual(BUILTIN_PLANS.advanced!.datasets);
    expect(team.markets).toEqual(['stocks', 'fx']);
    expect(plans.entitled(team, 'aggregates', 'crypto')).toBe(false);
    expect(plans.get('free')!.rate_limit).toEqual({ requests: 10, per_seconds: 60 });
    expect(plans.get('free')!.history_years).toBe(2);
  });

  it('replace_builtins keeps only the file’s plans and demo', () => {
    const plans = loadPlans(planFile({ replace_builtins: true, default_plan: 'basic', plans: { basic: { extends: 'demo', rate_limit: { requests: 1, per_seconds: 1 } } } }));
    expect(plans.names().sort()).toEqual(['basic', 'demo']);
    expect(plans.defaultPlan).toBe('basic');
  });

  it.each([
    ['not JSON', '{plans:', /cannot read plans file .*plans-.*\.json/],
    ['an unknown field', { plans: { x: { extends: 'free', burst: 3 } } }, /\/plans\/x/],
    ['a missing field without extends', { plans: { x: { datasets: '*' } } }, /\/plans\/x.*give every field, or "extends"/],
    ['a bad rate', { plans: { x: { extends: 'free', rate_limit: { requests: 0, per_seconds: 60 } } } }, /\/plans\/x\/rate_limit\/requests/],
    ['an unknown market', { plans: { x: { extends: 'free', markets: ['bonds'] } } }, /\/plans\/x\/markets: unknown market "bonds"/],
    ['extends of a missing plan', { plans: { x: { extends: 'gold' } } }, /\/plans\/x\/extends: no plan named "gold"/],
    ['a missing default plan', { replace_builtins: true, plans: {} }, /default plan "free" is not defined/],
  ])('rejects %s with the file and the JSON path', (_what, body, message) => {
    expect(() => loadPlans(planFile(body))).toThrow(message);
  });
});
