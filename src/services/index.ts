// Every query and computation the routes need, built once over one store by the composition root
// (src/app.ts) and handed to the routes as ctx.services; routes never see the store itself.
import type { Store } from '../store/index.js';
import { BrandingService } from './branding.js';
import { LastTickService } from './last-ticks.js';
import { LegacyTickService } from './legacy-ticks.js';
import { DatasetListService } from './dataset-lists.js';
import { FuturesMarketService } from './futures-market.js';
import { ConsensusRatingService } from './consensus-ratings.js';
import { CryptoBookService } from './crypto-book.js';
import { FuturesMarketStatusService } from './futures-market-status.js';
import { LegacyFinancialsService } from './legacy-financials.js';
import { KeyService, StoreHealthService } from './keys.js';
import { AggregateService, ConversionService, IndicatorService } from './market-data.js';
import { NewsService } from './news.js';
import { OptionsService } from './options.js';
import { ReferenceService } from './reference.js';
import { LiveSnapshots } from './live-snapshots.js';
import { listenLiveWrites } from './live-events.js';
import { LiveVersions } from './live-versions.js';
import { SnapshotService, type SnapshotInputsReader } from './snapshots.js';
import { SocialService } from './social.js';
import { SummaryService } from './summaries.js';
import { TickerEventService } from './ticker-events.js';
import { TickerService } from './tickers.js';
import { TradeQuoteService } from './trades-quotes.js';
import { UniversalSnapshotService } from './universal-snapshot.js';

export interface ServiceOptions {
  /** The clock every time-dependent answer uses (tests set it). */
  now: () => number;
  /** Directory of branding images (absent: none is served). */
  brandingDir?: string;
  /** Risk-free rate for option greeks when no 3-month treasury yield is stored (annual decimal). */
  riskFreeRate?: number;
  /** Bytes the minute bars kept in memory by day may hold (0: none kept). */
  minuteDaysBytes?: number;
  /** Bytes the trades and quotes kept in memory by ticker may hold (0: none kept). */
  tickListBytes?: number;
}

export function createServices(store: Store, opts: ServiceOptions) {
  const liveSnapshots = new LiveSnapshots(store, opts.now);
  const liveInputs: SnapshotInputsReader = (market, tickers, nowMs) => liveSnapshots.inputs(market, tickers, nowMs);
  const universalSnapshot = new UniversalSnapshotService(store, opts.riskFreeRate, liveInputs);
  const datasetLists = new DatasetListService(store);
  const liveVersions = new LiveVersions(store, () => store.importVersion());
  return {
    now: opts.now,
    /** Changes whenever stored data may have changed: keys the response cache. */
    dataVersion: (): string => store.dataVersion(),
    /** Versions of answers about one ticker's or one market's data (RouteSpec.liveScope). */
    liveVersions,
    tickers: new TickerService(store, opts.now),
    reference: new ReferenceService(store),
    tickerEvents: new TickerEventService(store),
    lastTicks: new LastTickService(store.market),
    tradesQuotes: new TradeQuoteService(store.market, () => store.dataVersion(), opts.tickListBytes, {
      importVersion: () => store.importVersion(),
      listen: (listener) => listenLiveWrites(store, listener),
    }),
    legacyTicks: new LegacyTickService(store.market),
    aggregates: new AggregateService(store, opts.now, opts.minuteDaysBytes),
    indicators: new IndicatorService(store, opts.now),
    conversion: new ConversionService(store),
    snapshots: new SnapshotService(store, liveSnapshots),
    options: new OptionsService(store, opts.now, opts.riskFreeRate, liveInputs),
    datasetLists,
    futuresMarketStatus: new FuturesMarketStatusService(datasetLists, opts.now),
    cryptoBooks: new CryptoBookService(store),
    futuresMarket: new FuturesMarketService(store),
    consensusRatings: new ConsensusRatingService(store),
    legacyFinancials: new LegacyFinancialsService(store),
    keys: new KeyService(store, opts.now),
    storeHealth: new StoreHealthService(store),
    branding: new BrandingService(opts.brandingDir),
    news: new NewsService(store),
    social: new SocialService(store),
    universalSnapshot,
    summaries: new SummaryService(universalSnapshot),
  };
}

export type Services = ReturnType<typeof createServices>;
