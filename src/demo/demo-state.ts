// What the store records about the demo data set it holds, in its meta table: the as-of date the
// stocks and indices reach, the generation scale, whether the set is pinned (loaded with an
// explicit as-of date, so starts do not roll it), and the instant forex and crypto reach.
import type { Store } from '../store/index.js';

const AS_OF = 'demo_as_of';
const SCALE = 'demo_scale';
const PINNED = 'demo_pinned';
const ROLLED_MS = 'demo_rolled_ms';

export interface DemoState {
  /** The last NYSE session of stock and index data (YYYY-MM-DD). */
  asOf: string;
  scale: number;
  pinned: boolean;
  /** Forex and crypto are generated up to this instant (exclusive, Unix ms); absent: to the end of asOf. */
  rolledMs?: number;
}

/** The recorded demo state, or undefined when the store holds no demo loaded with one recorded. */
export async function readDemoState(store: Store): Promise<DemoState | undefined> {
  const asOf = await store.meta.get(AS_OF);
  if (asOf === undefined || asOf === '') return undefined;
  const scale = Number(await store.meta.get(SCALE));
  const rolled = await store.meta.get(ROLLED_MS);
  return {
    asOf,
    scale: scale > 0 ? scale : 1,
    pinned: (await store.meta.get(PINNED)) === '1',
    rolledMs: rolled === undefined || rolled === '' ? undefined : Number(rolled),
  };
}

export async function writeDemoState(store: Store, state: DemoState): Promise<void> {
  await store.meta.set(AS_OF, state.asOf);
  await store.meta.set(SCALE, String(state.scale));
  await store.meta.set(PINNED, state.pinned ? '1' : '0');
  await store.meta.set(ROLLED_MS, state.rolledMs === undefined ? '' : String(state.rolledMs));
}
