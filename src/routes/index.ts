import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { aggregateRoutes } from './aggregates.js';
import { conditionRoutes } from './conditions.js';
import { conversionRoutes } from './conversion.js';
import { corporateActionRoutes } from './corporate-actions.js';
import { economyRoutes } from './economy.js';
import { exchangeRoutes } from './exchanges.js';
import { filingRoutes } from './filings.js';
import { fundamentalRoutes } from './fundamentals.js';
import { indicatorRoutes } from './indicators.js';
import { marketStatusRoutes } from './market-status.js';
import { brandingRoutes } from './branding.js';
import { newsRoutes } from './news.js';
import { optionsRoutes } from './options.js';
import { snapshotRoutes } from './snapshots.js';
import { socialRoutes } from './social.js';
import { tickerEventRoutes } from './ticker-events.js';
import { tickerRoutes } from './tickers.js';
import { tradeQuoteRoutes } from './trades-quotes.js';
import { lastTickRoutes } from './last.js';
import { legacyTickRoutes } from './legacy-ticks.js';
import { universalSnapshotRoutes } from './universal-snapshot.js';

/** Every endpoint family; each file is a small plugin of thin handlers. */
export async function registerRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  await tickerRoutes(app, ctx);
  await tickerEventRoutes(app, ctx);
  await exchangeRoutes(app, ctx);
  await conditionRoutes(app, ctx);
  await corporateActionRoutes(app, ctx);
  await fundamentalRoutes(app, ctx);
  await filingRoutes(app, ctx);
  await economyRoutes(app, ctx);
  await marketStatusRoutes(app, ctx);
  await optionsRoutes(app, ctx);
  await snapshotRoutes(app, ctx);
  await universalSnapshotRoutes(app, ctx);
  await conversionRoutes(app, ctx);
  await indicatorRoutes(app, ctx);
  await newsRoutes(app, ctx);
  await brandingRoutes(app, ctx);
  await socialRoutes(app, ctx);
  await aggregateRoutes(app, ctx);
  await tradeQuoteRoutes(app, ctx);
  await lastTickRoutes(app, ctx);
  await legacyTickRoutes(app, ctx);
}
