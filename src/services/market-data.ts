// Aggregates, indicators and currency conversion over one store: the computations live in
// aggregates.ts, indicators.ts and conversion.ts; these services bind them to the store and clock.
import { listenLiveWrites } from './live-events.js';
import type { CryptoOpenClose, OpenClose } from '../domain/aggregate-schemas.js';
import type { IndicatorKind } from '../domain/indicators.js';
import type { Store } from '../store/index.js';
import {
  cryptoOpenClose,
  groupedDaily,
  openClose,
  previousClose,
  rangeBars,
  rangeBarsJson,
  type DailyBar,
  type GroupedMarket,
  type RangeJson,
  type RangeRequest,
  type AggregatesStore,
  type RangeResult,
} from './aggregates.js';
import { convert, type Conversion } from './conversion.js';
import { MinuteBarDays } from './minute-bar-days.js';
import { VersionedMemo } from './versioned-memo.js';
import { MAX_INSTANT_MS } from '../domain/bars.js';
import { indicatorValues, type IndicatorRequest, type IndicatorResult, type IndicatorValue } from './indicators.js';
import type { KeysetRows, PageRequest } from './paging.js';

type MarketStore = Pick<Store, 'market' | 'corporateActions' | 'reference'>;

export class AggregateService {
  /** Minute bars kept by day, for ascending `1/minute` pages over bars no split adjusts (none with a budget of 0). */
  readonly minuteDays?: MinuteBarDays;

  /**
   * The store as ranges read it, with a ticker's splits and listing kept per data version: every
   * range request reads both, and on PostgreSQL each is a round trip.
   */
  private readonly rangeStore: AggregatesStore;

  /** Reads kept per data version (splits, listings, newest bars). */
  private readonly memo: VersionedMemo;

  constructor(
    private readonly store: MarketStore & Pick<Store, 'dataVersion' | 'importVersion'>,
    private readonly now: () => number,
    minuteDaysBytes?: number,
  ) {
    if (minuteDaysBytes !== 0) {
      const days = new MinuteBarDays(store.market, () => store.importVersion(), minuteDaysBytes);
      listenLiveWrites(store, (w) => days.forgetLiveBars(w.bars));
      this.minuteDays = days;
    }
    const memo = new VersionedMemo(() => store.dataVersion());
    this.memo = memo;
    this.rangeStore = {
      market: store.market,
      corporateActions: {
        splitsFor: (ticker) => memo.get(`splits\0${ticker}`, () => store.corporateActions.splitsFor(ticker)),
        dividendsFor: (ticker) => store.corporateActions.dividendsFor(ticker),
      },
      reference: {
        getTicker: (ticker, date) => (date === undefined ? memo.get(`ticker\0${ticker}`, () => store.reference.getTicker(ticker)) : store.reference.getTicker(ticker, date)),
      },
    };
  }

  /** The start time (ms) of the newest stored minute or day bar of `ticker`; undefined when it has none. */
  newestBarMs(ticker: string): Promise<number | undefined> {
    return this.memo.get(`newest\0${ticker}`, async () => {
      const newest = (kind: 'minute' | 'day') => this.store.market.readBars(kind, { ticker, fromMs: -MAX_INSTANT_MS, toMs: MAX_INSTANT_MS, order: 'desc', limit: 1 });
      const [minute, day] = await Promise.all([newest('minute'), newest('day')]);
      const times = [...minute, ...day].map((b) => b.t);
      return times.length === 0 ? undefined : Math.max(...times);
    });
  }

  range(req: RangeRequest): Promise<RangeResult> {
    return rangeBars(this.rangeStore, req);
  }

  /** range() with the bars written as the JSON text of the `results` array. */
  rangeJson(req: RangeRequest): Promise<RangeJson> {
    return rangeBarsJson(this.rangeStore, req, this.minuteDays);
  }

  /** The day bar of the last completed session by the server clock. */
  previousClose(ticker: string, adjusted: boolean): Promise<DailyBar | undefined> {
    return previousClose(this.store, ticker, adjusted, this.now());
  }

  grouped(market: GroupedMarket, day: number, opts: { adjusted: boolean; includeOtc: boolean }): Promise<DailyBar[]> {
    return groupedDaily(this.store, market, day, opts);
  }

  openClose(ticker: string, day: number, adjusted: boolean): Promise<OpenClose | undefined> {
    return openClose(this.store, ticker, day, adjusted);
  }

  /** First and last trades of the UTC day of the crypto pair X:{from}{to} (symbols upper case). */
  cryptoOpenClose(from: string, to: string, day: number): Promise<CryptoOpenClose | undefined> {
    return cryptoOpenClose(this.store, `X:${from}${to}`, `${from}-${to}`, day);
  }
}

/** An indicator request without its page: the values in [lo, hi) by bar start (ms). */
export type IndicatorQuery<K extends IndicatorKind> = Omit<IndicatorRequest<K>, 'limit'>;

export class IndicatorService {
  constructor(private readonly store: MarketStore, private readonly now: () => number) {}

  /**
   * One page of indicator values, keyset-paged on the value's timestamp; never values of bars that
   * start after now. `result` also holds the bars behind the page (underlying.aggregates).
   */
  async page<K extends IndicatorKind>(q: IndicatorQuery<K>, page: PageRequest): Promise<KeysetRows<IndicatorValue> & { result: IndicatorResult }> {
    let lo = q.lo;
    let hi = Math.min(q.hi, this.now() + 1);
    const after = page.after?.value;
    if (typeof after === 'number') {
      // resume strictly past the last value of the previous page
      if (q.order === 'desc') hi = Math.min(hi, after);
      else lo = Math.max(lo, after + 1);
    }
    // the service reads one value more than it is asked for
    const result = await indicatorValues(this.store, { ...q, lo, hi, limit: page.limit - 1 });
    return { rows: result.values, position: (v) => ({ value: v.timestamp, id: 0 }), result };
  }
}

export class ConversionService {
  constructor(private readonly store: Pick<Store, 'market'>) {}

  /** `amount` of `from` in `to` at the latest quotes at or before `atMs`; undefined when no quote converts them. */
  convert(req: { from: string; to: string; amount: number; precision: number; atMs: number }): Promise<Conversion | undefined> {
    const { atMs, ...rest } = req;
    return convert((ticker, at) => this.store.market.lastQuote(ticker, at), { ...rest, atNs: BigInt(atMs) * 1_000_000n });
  }
}
