import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { DATASETS, MARKETS, isMarketless } from '../../domain/datasets.js';
import type { Plan as PlanSpec, PlanCatalog } from '../../server/plans.js';
import type { AccountRecord } from '../../services/accounts.js';
import type { DashboardDeps } from './deps.js';
import { answer, dashboardSchema, Ok, Plan, RateLimitState } from './schemas.js';

// Usage of the signed-in account: requests per day and endpoint family for 30 days, the rate-limit
// state of its keys, and its plan's entitlements; and the plans table.

const UsageDay = Type.Object({ day: Type.String(), requests: Type.Integer(), errors: Type.Integer(), families: Type.Record(Type.String(), Type.Integer()) });

/** A plan with its entitlements as a data set × market table. */
export function planTable(plans: PlanCatalog, p: PlanSpec) {
  return {
    name: p.name,
    ...(p.description ? { description: p.description } : {}),
    timeframe: p.timeframe,
    ...(p.delay_minutes ? { delay_minutes: p.delay_minutes } : {}),
    history_years: p.history_years,
    rate_limit: p.rate_limit,
    entitlements: DATASETS.map((dataset) => ({
      dataset,
      markets: Object.fromEntries(MARKETS.map((m) => [m, isMarketless(dataset) ? plans.entitled(p, dataset) : plans.entitled(p, dataset, m)])),
    })),
  };
}

export async function usageRoutes(app: FastifyInstance, d: DashboardDeps): Promise<void> {
  const { ctx, accounts, session, plans } = d;

  app.get(
    '/dashboard/api/usage',
    {
      preHandler: session.requireAccount,
      schema: dashboardSchema(ctx, {
        summary: 'Requests per day and endpoint family (30 days), rate-limit state and plan entitlements',
        response: Ok({ days: Type.Array(UsageDay), plan: Type.Union([Plan, Type.Null()]), rate_limit: Type.Union([RateLimitState, Type.Null()]) }),
      }),
    },
    async (req, reply) => {
      const account = req.dashboardAccount as AccountRecord;
      await d.usage?.flush();
      const [days, keys] = await Promise.all([accounts.usage({ accountId: account.id }, 30), accounts.listKeys(account.id)]);
      const plan = plans.get(account.plan);
      let rate_limit = null;
      if (plan?.rate_limit) {
        const live = keys.filter((k) => !k.revoked_utc);
        const states = await Promise.all(live.map((k) => d.limiter.peek(k.id, plan)));
        rate_limit = {
          ...plan.rate_limit,
          keys: live.map((k, i) => ({ key_id: k.id, prefix: k.prefix, remaining: states[i]?.remaining ?? plan.rate_limit!.requests, reset_ms: states[i]?.resetMs ?? ctx.now() })),
        };
      }
      return answer(ctx, req, reply, { days, plan: plan ? planTable(plans, plan) : null, rate_limit });
    },
  );

  app.get(
    '/dashboard/api/admin/usage',
    {
      preHandler: session.requireAdmin,
      schema: dashboardSchema(ctx, { summary: "Requests per day and endpoint family (30 days) over every key of the server, the demo key's and the CLI's included (operators only)", response: Ok({ days: Type.Array(UsageDay) }) }),
    },
    async (req, reply) => {
      await d.usage?.flush();
      return answer(ctx, req, reply, { days: await accounts.usage('server', 30) });
    },
  );

  app.get(
    '/dashboard/api/plans',
    { preHandler: session.requireAccount, schema: dashboardSchema(ctx, { summary: 'Every configured plan with its entitlements', response: Ok({ default_plan: Type.String(), results: Type.Array(Plan) }) }) },
    async (req, reply) => answer(ctx, req, reply, { default_plan: plans.defaultPlan, results: plans.list().map((p) => planTable(plans, p)) }),
  );
}
