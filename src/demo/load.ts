import type { Store } from '../store/index.js';
import { fundamentalsDemoStep } from './fundamentals.js';
import { marketStep } from './market.js';
import { newsStep } from './news.js';
import { optionsStep } from './options.js';
import { filingsEconomyDemoStep } from './filings-economy.js';
import { futuresDemoStep } from './futures.js';
import { cryptoBookDemoStep } from './crypto-book.js';
import { listingsDemoStep } from './listings.js';
import { futuresMarketDemoStep } from './futures-market.js';
import { partnerDemoStep } from './partner.js';
import { CONDITIONS, EXCHANGES, TICKER_TYPES } from './facts/reference.js';
import { writeDemoState } from './demo-state.js';
import type { DemoOptions, DemoStep } from './step.js';
import { demoTickers } from './universe.js';

/** The shipped real facts: ticker types, US exchanges, condition codes (replacing what is stored). */
async function loadReferenceFacts(store: Store): Promise<void> {
  await store.reference.replaceTickerTypes(TICKER_TYPES);
  await store.reference.replaceExchanges(EXCHANGES);
  await store.reference.replaceConditions(CONDITIONS);
}

/**
 * Loads the real facts into a store that has none (a store started without the demo serves its
 * own tickers, but /v3/reference/exchanges, /conditions and /tickers/types still need these).
 * Returns whether it loaded them.
 */
export async function ensureReferenceFacts(store: Store): Promise<boolean> {
  if ((await store.reference.listTickerTypes({})).length > 0) return false;
  // Several processes may start at once on one empty store (hosts of a PostgreSQL deployment):
  // the check and the load are one transaction, and such transactions take turns (SQLite's
  // BEGIN IMMEDIATE; a transaction-scoped advisory lock on PostgreSQL), so the later one sees the
  // facts and leaves them, instead of failing on their keys.
  return store.transaction(async (txStore) => {
    if ((await txStore.reference.listTickerTypes({})).length > 0) return false;
    await loadReferenceFacts(txStore);
    return true;
  }, { serializeOn: REFERENCE_FACTS_LOCK });
}

/** Advisory lock id of ensureReferenceFacts (any constant; names no row). */
const REFERENCE_FACTS_LOCK = 7_316_016_001;

const referenceStep: DemoStep = {
  name: 'reference data',
  async run(store, opts) {
    await loadReferenceFacts(store);
    const tickers = demoTickers(opts.asOf);
    for (let i = 0; i < tickers.length; i += 2000) await store.reference.upsertTickers(tickers.slice(i, i + 2000));
    return `${TICKER_TYPES.length} ticker types, ${EXCHANGES.length} exchanges, ${CONDITIONS.length} conditions, ${tickers.length} tickers`;
  },
};

/** Steps in load order; each area of the product adds its own. Every step is idempotent. */
export const DEMO_STEPS: DemoStep[] = [referenceStep, marketStep, newsStep, fundamentalsDemoStep, optionsStep, partnerDemoStep, filingsEconomyDemoStep, futuresDemoStep, futuresMarketDemoStep, listingsDemoStep, cryptoBookDemoStep];

export const DEMO_AS_OF = '2026-11-20';

export async function loadDemo(store: Store, partial: Partial<DemoOptions> = {}): Promise<void> {
  const opts: DemoOptions = { scale: 1, asOf: DEMO_AS_OF, log: () => {}, ...partial };
  for (const step of DEMO_STEPS) {
    const t0 = Date.now();
    const summary = await step.run(store, opts);
    opts.log(`demo: ${step.name}: ${summary} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
  await store.meta.set('demo_loaded', new Date().toISOString());
  await writeDemoState(store, { asOf: opts.asOf, scale: opts.scale, pinned: opts.pinned ?? false });
}
