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
