// A small slice of the demo data set for tests that call every endpoint: the demo's own
// generators, restricted to a few instruments per market and a small tick scale, so that it loads
// in seconds on either engine yet has data in every area (reference facts and tickers, bars,
// trades and quotes of every market, option chains, news and social posts, fundamentals,
// corporate actions, filings, economy, the partner data sets, futures reference and market data,
// IPOs, related companies and crypto books).
import { filingsEconomyDemoStep } from '../../src/demo/filings-economy.js';
import { loadFundamentals } from '../../src/demo/fundamentals.js';
import { ensureReferenceFacts } from '../../src/demo/load.js';
import { loadDemoMarket } from '../../src/demo/market.js';
import { newsStep } from '../../src/demo/news.js';
import { optionsStep } from '../../src/demo/options.js';
import { futuresDemoStep } from '../../src/demo/futures.js';
import { cryptoBookDemoStep } from '../../src/demo/crypto-book.js';
import { listingsDemoStep } from '../../src/demo/listings.js';
import { frontContracts, futuresMarketDemoStep } from '../../src/demo/futures-market.js';
import { partnerDemoStep } from '../../src/demo/partner.js';
import { demoTickers } from '../../src/demo/universe.js';
import type { Store } from '../../src/store/index.js';

export const SAMPLE_AS_OF = '2026-11-20';

/** The instruments with market data, per market (the option chains are on the stock underlyings). */
export const SAMPLE_MARKET_TICKERS = {
  stocks: ['AAPL', 'SPY'],
  forex: ['C:EURUSD'],
  crypto: ['X:BTCUSD'],
  indices: ['I:SPX'],
  /** The front contracts of ES and CL (ESZ6, CLZ6). */
  futures: frontContracts(SAMPLE_AS_OF).filter((c) => c.product.code === 'ES' || c.product.code === 'CL').map((c) => c.ticker),
} as const;

/**
 * Instruments with market data that the path-parameter samples leave out: a second index, so that
 * the indices snapshot lists more than one item without every per-ticker endpoint being asked for it.
 */
const EXTRA_TRADED = ['I:NDX'];

/** Ticks per session relative to the demo's first start: enough for many pages at small limits. */
const SCALE = 0.1;
/** Every n-th ticker of the demo universe is stored too, so lists hold every kind of ticker. */
const TICKER_STRIDE = 400;

export async function loadDemoSample(store: Store): Promise<void> {
  const opts = { asOf: SAMPLE_AS_OF, scale: SCALE, log: () => {} };
  await ensureReferenceFacts(store);
  const traded = new Set<string>([...Object.values(SAMPLE_MARKET_TICKERS).flat(), ...EXTRA_TRADED]);
  const tickers = demoTickers(SAMPLE_AS_OF).filter((t, i) => traded.has(t.ticker) || i % TICKER_STRIDE === 0);
  await store.reference.upsertTickers(tickers);
  await loadDemoMarket(store, opts, [...traded]);
  await newsStep.run(store, opts);
  await loadFundamentals(store, { asOf: SAMPLE_AS_OF, shortVolumeDays: 20 });
  await optionsStep.run(store, opts);
  await partnerDemoStep.run(store, opts);
  await filingsEconomyDemoStep.run(store, opts);
  await futuresDemoStep.run(store, opts);
  await listingsDemoStep.run(store, opts);
  await cryptoBookDemoStep.run(store, opts);
  await futuresMarketDemoStep.run(store, opts);
}

/**
 * An option contract of the sample chain that has trades and greeks (unexpired on the demo's last
 * day), the latest expiring first so that its bars cover the most history.
 */
export async function tradedOptionContract(t: { get(url: string): Promise<{ body: any }> }): Promise<string> {
  const chain = await t.get(`/v3/snapshot/options/${SAMPLE_MARKET_TICKERS.stocks[0]}?limit=250&order=desc&sort=expiration_date`);
  const traded = (chain.body.results as { details: { ticker: string }; last_trade?: unknown; greeks?: unknown }[]).find((r) => r.last_trade && r.greeks);
  if (!traded) throw new Error('no option contract of the demo chain has trades and greeks');
  return traded.details.ticker;
}
