// The composition root: builds the services over the store (src/services), the HTTP shell
// (src/server), then registers every endpoint family (src/routes) on it. Commands and tests build
// their app here.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { adminRoutes } from './routes/admin.js';
import { MIN_ADMIN_TOKEN_LENGTH } from './server/admin-token.js';
import { healthRoutes } from './routes/health.js';
import { homeRoutes } from './routes/home.js';
import { registerDashboard, type DashboardOptions } from './routes/dashboard/index.js';
import { registerRoutes } from './routes/index.js';
import { registerApiBases } from './server/api-bases.js';
import { createServer, registerApiDocs, type BuildAppOptions } from './server/app.js';
import type { ServerContext } from './server/context.js';
import { AccountService } from './services/accounts.js';
import { createServices } from './services/index.js';
import { upstreamFiller, type UpstreamReadConfig } from './ingest/rest-read-fill.js';
import { ReadThrough } from './services/read-through.js';
import { withReadThrough } from './services/read-through-services.js';
import { upstreamStatus } from './services/upstream-status.js';
import { serverStatus } from './services/server-status.js';

export interface AppOptions extends BuildAppOptions {
  /** The web dashboard under /dashboard (default: off). */
  dashboard?: DashboardOptions;
  /** Data the store lacks fetched from upstream on a miss (serve --read-through). */
  readThrough?: UpstreamReadConfig & { negativeTtlMs?: number };
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance & { ctx: ServerContext }> {
  let services = createServices(opts.store, { now: opts.now ?? Date.now, riskFreeRate: opts.config.riskFreeRate, brandingDir: opts.config.brandingDir, minuteDaysBytes: opts.config.minuteDaysBytes, tickListBytes: opts.config.tickListBytes });
  const rt = opts.readThrough;
  const readThrough = rt && new ReadThrough({ ledger: opts.store.upstreamLedger, fill: upstreamFiller(opts.store, rt, services.now), now: services.now, deadlineMs: rt.deadlineMs, negativeTtlMs: rt.negativeTtlMs });
  if (readThrough) services = withReadThrough(services, readThrough);
  const { app, ctx, production } = await createServer(opts, services);
  const ops = opts.production ?? {};
  await healthRoutes(app, ctx, { redis: ops.redis, closing: ops.closing });
  await homeRoutes(app, { dashboard: opts.dashboard !== undefined });
  if (ops.adminToken !== undefined) {
    if (ops.adminToken.length < MIN_ADMIN_TOKEN_LENGTH) throw new Error(`the admin token must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters`);
    await adminRoutes(app, ctx, { token: ops.adminToken, plans: production.plans, usage: production.usage });
  }
  await registerApiDocs(app);
  // every endpoint family at the root and under each fixed prefix (/upstream, /envelope)
  await registerApiBases(app, ctx, registerRoutes);
  if (opts.dashboard) {
    const { plans } = production;
    const d = opts.dashboard;
    await registerDashboard(app, ctx, {
      cookieSecret: await opts.store.meta.getOrCreate('dashboard_cookie_secret', () => randomBytes(32).toString('hex')),
      accounts: new AccountService(opts.store, { defaultPlan: plans.defaultPlan, isPlan: (n) => plans.get(n) !== undefined, now: ctx.now, lockMs: d.lockMs, sessionMs: d.sessionMs }),
      storeStatus: () => serverStatus(opts.store),
      upstreamStatus: () => upstreamStatus(opts.store, readThrough),
    }, d);
  }
  const out = app as FastifyInstance & { ctx: ServerContext };
  out.ctx = ctx;
  return out;
}
