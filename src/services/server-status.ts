import type { Store } from '../store/index.js';
import type { StoreStatus } from '../store/repos/store-status.js';

export interface ServerStatus extends StoreStatus {
  /** When the demo data set was loaded, if it was. */
  demo_loaded_utc?: string;
}

/** The store's size, row counts of the main tables, and whether the demo data was loaded. */
export async function serverStatus(store: Store): Promise<ServerStatus> {
  const [status, demo] = await Promise.all([store.status(), store.meta.get('demo_loaded')]);
  return demo === undefined ? status : { ...status, demo_loaded_utc: demo };
}

/** The live feed's reach across processes, as /ready reports it. */
export interface FeedReadiness {
  /** Events published on this process reach every process's subscribers now. */
  shared: boolean;
  /** Published events waiting to be sent to the other processes. */
  queued: number;
  reason?: string;
}

/** What the app exposes for /ready (a Fastify decoration, set when the feed is attached). */
interface Decorated {
  decorate(name: string, value: unknown): unknown;
  hasDecorator(name: string): boolean;
}

const FEED_READINESS = 'feedReadiness';

/** Called by the feed of a process that shares it with others (undefined: one process). */
export function provideFeedReadiness(app: Decorated, readiness: () => FeedReadiness | undefined): void {
  app.decorate(FEED_READINESS, readiness);
}

export function feedReadinessOf(app: Decorated): FeedReadiness | undefined {
  if (!app.hasDecorator(FEED_READINESS)) return undefined;
  return (app as unknown as Record<string, () => FeedReadiness | undefined>)[FEED_READINESS]!();
}
