import type { AccountService, SignupMode } from '../../services/accounts.js';
import type { ServerStatus } from '../../services/server-status.js';
import type { UpstreamStatus } from '../../services/upstream-status.js';
import type { RouteContext } from '../../server/context.js';
import type { SessionLayer } from '../../server/dashboard/session.js';
import type { SignInLimit } from '../../server/dashboard/sign-in-limit.js';
import type { PlanCatalog } from '../../server/plans.js';
import type { RateLimiter } from '../../server/rate-limit.js';
import type { UsageRecorder } from '../../server/usage.js';

/** What the dashboard's route plugins share. */
export interface DashboardDeps {
  ctx: RouteContext;
  accounts: AccountService;
  session: SessionLayer;
  signInLimit: SignInLimit;
  plans: PlanCatalog;
  limiter: RateLimiter;
  /** Pending usage counters, flushed before usage is read so the pages show the latest requests. */
  usage?: UsageRecorder;
  signup: SignupMode;
  version: string;
  storeStatus: () => Promise<ServerStatus>;
  upstreamStatus?: () => Promise<UpstreamStatus>;
}
