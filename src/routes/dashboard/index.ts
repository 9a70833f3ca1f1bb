import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { AccountService, SignupMode } from '../../services/accounts.js';
import type { UpstreamStatus } from '../../services/upstream-status.js';
import type { ServerStatus } from '../../services/server-status.js';
import type { RouteContext } from '../../server/context.js';
import { registerSessionLayer } from '../../server/dashboard/session.js';
import { SignInLimit, type SignInLimitOptions } from '../../server/dashboard/sign-in-limit.js';
import { PlanCatalog } from '../../server/plans.js';
import { createRateLimiter } from '../../server/rate-limit.js';
import type { DashboardDeps } from './deps.js';
import { keyRoutes } from './keys.js';
import { operatorRoutes } from './operator.js';
import { upstreamStatusRoutes } from './upstream-status.js';
import { sessionRoutes } from './session.js';
import { staticRoutes } from './static.js';
import { usageRoutes } from './usage.js';

// The web dashboard, part of the API server (same process, same port): its JSON API under
// /dashboard/api/ and the single-page app under /dashboard/. Everything is registered in one
// encapsulated scope, so its cookie parsing, CSRF check and session lookups never run on the REST
// API's requests.

export interface DashboardOptions {
  /** Who may create an account: open (default), invite (operator invitations), closed (CLI only). */
  signup?: SignupMode;
  /** Cookies always Secure (set when the public URL is https; else Secure on https requests). */
  secureCookies?: boolean;
  /** Failed sign-ins per address and window; Redis shares the count across processes. */
  signInLimit?: SignInLimitOptions;
  redis?: Redis;
  /** Built assets (default dist/web). */
  assetsDir?: string;
  /** Lockout, session and token lifetimes (tests shorten them). */
  lockMs?: number;
  sessionMs?: number;
}

/** What the composition root builds over the store for the dashboard (routes never touch the store). */
export interface DashboardServices {
  /** Signs the session cookies; kept in the store so every process and restart shares it. */
  cookieSecret: string;
  accounts: AccountService;
  /** The store's size and row counts for the operator's status page. */
  storeStatus: () => Promise<ServerStatus>;
  /** The upstream ledger and call counts for the operator's page. */
  upstreamStatus?: () => Promise<UpstreamStatus>;
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../..', 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Registers the dashboard on an app built by buildApp (uses its plans, limiter and usage counters). */
export async function registerDashboard(app: FastifyInstance, ctx: RouteContext, services: DashboardServices, opts: DashboardOptions = {}): Promise<void> {
  const runtime = app.production;
  const plans = runtime?.plans ?? PlanCatalog.builtin();
  const { cookieSecret, accounts } = services;
  await app.register(async (scope) => {
    const session = await registerSessionLayer(scope, { cookieSecret, secure: opts.secureCookies ?? ctx.config.publicUrl?.startsWith('https://') ?? false, accounts });
    const deps: DashboardDeps = {
      ctx,
      accounts,
      session,
      signInLimit: new SignInLimit({ redis: opts.redis, ...opts.signInLimit }),
      plans,
      limiter: runtime?.limiter ?? createRateLimiter(),
      usage: runtime?.usage,
      signup: opts.signup ?? 'open',
      version: packageVersion(),
      storeStatus: services.storeStatus,
      upstreamStatus: services.upstreamStatus,
    };
    await sessionRoutes(scope, deps);
    await keyRoutes(scope, deps);
    await usageRoutes(scope, deps);
    await operatorRoutes(scope, deps);
    await upstreamStatusRoutes(scope, deps);
    await staticRoutes(scope, opts.assetsDir);
  });
}
