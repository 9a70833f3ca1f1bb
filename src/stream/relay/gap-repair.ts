// Filling a hole in the recorded tape: after the upstream connection was down (or no process held
// it), the trades and minute bars of the recorded tickers over the gap are asked from upstream's
// REST API and stored. Trades already recorded are not written twice; minute bars are replaced by
// upstream's (a minute cut by the outage was recorded incomplete).
import type { FeedMarket } from '../markets.js';
import type { GapSource } from '../../upstream/rest-gap-source.js';
import { storeLiveMinuteBars, storeTicks } from '../../services/live-ticks.js';
import type { Store } from '../../store/index.js';

const MINUTE_MS = 60_000;
/** The longest gap repaired: older history is a back-fill's job (flat files or the REST importer), not a reconnect's. */
export const MAX_REPAIR_MS = 24 * 3_600_000;
const NS_PER_MS = 1_000_000n;

/** Markets whose tickers have trades upstream (forex has quotes only, indices values only). */
const TRADED: ReadonlySet<FeedMarket> = new Set(['stocks', 'options', 'crypto']);

export interface GapRepairResult {
  tickers: number;
  trades: number;
  bars: number;
  /** Tickers whose rows could not be fetched or stored (each logged). */
  failed: number;
}

export interface GapRepairInput {
  source: GapSource;
  store: Store;
  market: FeedMarket;
  tickers: readonly string[];
  fromMs: number;
  toMs: number;
  log(msg: string, err?: unknown): void;
}

export async function repairGap(input: GapRepairInput): Promise<GapRepairResult> {
  const { source, store, market, toMs } = input;
  const fromMs = Math.max(input.fromMs, toMs - MAX_REPAIR_MS);
  const result: GapRepairResult = { tickers: input.tickers.length, trades: 0, bars: 0, failed: 0 };
  // the minute the gap starts in and the one it ends in were recorded only in part
  const barsFrom = Math.floor(fromMs / MINUTE_MS) * MINUTE_MS;
  const barsTo = Math.ceil(toMs / MINUTE_MS) * MINUTE_MS;
  for (const ticker of input.tickers) {
    try {
      if (TRADED.has(market)) {
        const trades = await source.trades(ticker, BigInt(fromMs) * NS_PER_MS, BigInt(toMs) * NS_PER_MS);
        result.trades += (await storeTicks(store, trades, [])).trades;
      }
      const bars = await source.minuteBars(ticker, barsFrom, barsTo);
      await storeLiveMinuteBars(store, bars);
      result.bars += bars.length;
    } catch (err) {
      result.failed++;
      input.log(`relay: the ${market} gap of ${ticker} was not repaired: ${(err as Error).message}`);
    }
  }
  return result;
}
