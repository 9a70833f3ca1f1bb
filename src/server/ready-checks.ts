// Parts of a process that report to /ready besides the store and Redis (the feed shared across
// processes, the upstream relay): each a name and a function giving its state when /ready is
// asked, or undefined when it has nothing to report (the feed of a lone process). `degraded` keeps
// /ready at 200 and names the reason, unless the caller requires that part (`/ready?require=feed`:
// a load balancer in front of feed clients), when it is 503 like `failing`.
import type { FastifyInstance } from 'fastify';

export interface ReadyReport {
  state: 'ok' | 'degraded' | 'failing';
  detail: string;
  /** What `checks.<name>` says (default: `ok`, or the detail). */
  label?: string;
}

export type ReadyCheck = () => ReadyReport | undefined;

declare module 'fastify' {
  interface FastifyInstance {
    readyChecks?: Map<string, ReadyCheck>;
  }
}

/** The app's extra readiness checks (made on first use). */
export function readyChecksOf(app: FastifyInstance): Map<string, ReadyCheck> {
  if (!app.readyChecks) app.decorate('readyChecks', new Map<string, ReadyCheck>());
  return app.readyChecks!;
}
