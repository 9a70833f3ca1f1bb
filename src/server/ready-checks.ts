// Parts of a process that report to /ready besides the store and Redis (the upstream relay): each
// a name and a function giving its state when /ready is asked. `degraded` keeps /ready at 200 and
// names the reason; `failing` makes it 503.
import type { FastifyInstance } from 'fastify';

export interface ReadyReport {
  state: 'ok' | 'degraded' | 'failing';
  detail: string;
}

export type ReadyCheck = () => ReadyReport;

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
