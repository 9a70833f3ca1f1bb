// What the store records about the demo data set it holds, in its meta table: the as-of date the
// stocks and indices reach, the generation scale, whether the set is pinned (loaded with an
// explicit as-of date, so starts do not roll it), and the instant forex and crypto reach.
import { dateOfDay, localDayOf } from '../domain/calendar.js';
import type { Store } from '../store/index.js';
import { REAL_INDEX_SYMBOLS, REAL_STOCK_SYMBOLS } from './universe.js';

const AS_OF = 'demo_as_of';
const SCALE = 'demo_scale';
const PINNED = 'demo_pinned';
const ROLLED_MS = 'demo_rolled_ms';
/** Set by every demo load, including those made before the as-of date was recorded. */
const LOADED = 'demo_loaded';

export interface DemoState {
  /** The last NYSE session of stock and index data (YYYY-MM-DD). */
  asOf: string;
  scale: number;
  pinned: boolean;
  /** Forex and crypto are generated up to this instant (exclusive, Unix ms); absent: to the end of asOf. */
  rolledMs?: number;
}

/**
 * The recorded demo state; for a demo loaded before the state was recorded, the state inferred
 * from its stored data; undefined when the store holds no demo.
 */
export async function readDemoState(store: Store): Promise<DemoState | undefined> {
  const asOf = await store.meta.get(AS_OF);
  if (asOf === undefined || asOf === '') return inferDemoState(store);
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

/**
 * A demo loaded before the as-of date was recorded: its as-of date is the day of the latest
 * stored day bar of a demo index, else of a demo stock (indices first: no live tape prints them).
 * Its scale and pinning were not recorded either: it is taken as scale 1, and rolled.
 */
async function inferDemoState(store: Store): Promise<DemoState | undefined> {
  if ((await store.meta.get(LOADED)) === undefined) return undefined;
  for (const ticker of [...REAL_INDEX_SYMBOLS, ...REAL_STOCK_SYMBOLS]) {
    const last = await store.market.lastDayBarBefore(ticker, Number.MAX_SAFE_INTEGER);
    if (last) return { asOf: dateOfDay(localDayOf(last.t, 'America/New_York')), scale: 1, pinned: false };
  }
  return undefined;
}
