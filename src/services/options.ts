// Option contracts (reference list and one contract) and the option chain snapshot: contracts
// read from the store, snapshots computed by options-chain.ts at a clock.
import { nyDateOf } from '../domain/calendar.js';
import { badParameter } from '../domain/errors.js';
import type { OptionSnapshot } from '../domain/snapshot-schemas.js';
import type { Store } from '../store/index.js';
import { CONTRACT_SORT_FIELDS, type ContractQuery, type OptionsContractRecord, type RangeFilter } from '../store/repos/options.js';
import { parseCalendarDate } from './dates.js';
import { CHAIN_SORT_FIELDS, chainContracts, optionSnapshots, type ChainSortField } from './options-chain.js';
import type { KeysetRows, PageRequest } from './paging.js';
import { storeInputsReader, type SnapshotInputsReader, type VisibleTicks } from './snapshots.js';

export { CHAIN_SORT_FIELDS, CONTRACT_SORT_FIELDS };

type OptionsStore = Pick<Store, 'options' | 'snapshotReads' | 'datasets' | 'corporateActions'>;

export const RANGE_SUFFIXES = ['gt', 'gte', 'lt', 'lte'] as const;

/** A list's parameters as the request names them: `name` and its `.gt/.gte/.lt/.lte` forms among them. */
type Params = Record<string, unknown>;

/** Reads `name` and its range forms from validated parameters; dates are checked to be real days. */
function rangeOf<T extends string | number>(query: Params, name: string, isDate = false): RangeFilter<T> | undefined {
  const f: RangeFilter<T> = {};
  let any = false;
  for (const [key, prop] of [[name, 'eq'], ...RANGE_SUFFIXES.map((s) => [`${name}.${s}`, s])] as const) {
    const v = query[key];
    if (v === undefined) continue;
    if (isDate) parseCalendarDate(String(v), key);
    (f as Record<string, unknown>)[prop] = v;
    any = true;
  }
  return any ? f : undefined;
}

/** Upstream's Python mock asks for contracts without the `O:` prefix; accept both spellings. */
function withOptionPrefix(ticker: string): string {
  return ticker.startsWith('O:') ? ticker : `O:${ticker}`;
}

export type ContractWire = Omit<OptionsContractRecord, 'list_date'>;

/** The wire record: everything but the storage-only listing date. */
export function contractToWire(c: OptionsContractRecord): ContractWire {
  const { list_date: _ld, ...wire } = c;
  return wire;
}

export interface ContractListParams extends Params {
  ticker?: string;
  contract_type?: 'call' | 'put';
  as_of?: string;
  expired: boolean;
  sort: ContractQuery['sort'];
  order: 'asc' | 'desc';
}

export interface ChainParams extends Params {
  /** Fixed on the first page, so a cursor cannot be replayed on another underlying. */
  underlying?: string;
  contract_type?: 'call' | 'put';
  sort: ChainSortField;
  order: 'asc' | 'desc';
}

/** How a snapshot is shown: which ticks the plan sees, and whether the clock lags real time. */
export type SnapshotView = VisibleTicks & { timeframe: 'REAL-TIME' | 'DELAYED' };

export class OptionsService {
  constructor(
    private readonly store: OptionsStore,
    private readonly now: () => number,
    private readonly fallbackRate: number | undefined,
    /** Where snapshots' market data is read: the live state's where it holds it (default: the store). */
    private readonly inputsOf: SnapshotInputsReader = storeInputsReader(store.snapshotReads),
  ) {}

  /**
   * The parameters of a contracts list's first page: `as_of` is fixed to today (New York) when
   * absent, so that later pages answer the same question.
   */
  firstContractsQuery<Q extends ContractListParams>(q: Q): Q {
    if (q.as_of) parseCalendarDate(q.as_of, 'as_of');
    return { ...q, as_of: q.as_of ?? nyDateOf(this.now()) };
  }

  async contracts(q: ContractListParams, page: PageRequest): Promise<KeysetRows<OptionsContractRecord>> {
    if (q.as_of) parseCalendarDate(q.as_of, 'as_of');
    const rows = await this.store.options.listContracts({
      underlying_ticker: rangeOf<string>(q, 'underlying_ticker'),
      ticker: q.ticker === undefined ? undefined : withOptionPrefix(q.ticker),
      contract_type: q.contract_type,
      expiration_date: rangeOf<string>(q, 'expiration_date', true),
      strike_price: rangeOf<number>(q, 'strike_price'),
      as_of: q.as_of,
      expired: q.expired,
      sort: q.sort,
      order: q.order,
      limit: page.limit,
      after: page.after,
    });
    const sort = q.sort;
    return { rows, position: (r) => ({ value: r[sort], id: r.ticker }) };
  }

  /** One contract (with or without the `O:` prefix); undefined when unknown or listed after `asOf`. */
  async contract(ticker: string, asOf: string | undefined): Promise<ContractWire | undefined> {
    if (asOf) parseCalendarDate(asOf, 'as_of');
    const c = await this.store.options.getContract(withOptionPrefix(ticker));
    if (!c || (asOf && c.list_date && c.list_date > asOf)) return undefined;
    return contractToWire(c);
  }

  /** The chain's contracts of `underlying` at the clock, keyset-paged on the sort field. */
  async chain(underlying: string, q: ChainParams, page: PageRequest, nowMs: number): Promise<KeysetRows<OptionsContractRecord>> {
    if (q.underlying !== undefined && q.underlying !== underlying) {
      throw badParameter('cursor belongs to another underlyingAsset: use the next_url of a previous response unchanged');
    }
    const rows = await chainContracts(this.store, {
      underlying,
      strike_price: rangeOf<number>(q, 'strike_price'),
      expiration_date: rangeOf<string>(q, 'expiration_date', true),
      contract_type: q.contract_type,
      sort: q.sort,
      order: q.order,
      limit: page.limit,
      after: page.after,
    }, nowMs);
    const sort = q.sort;
    return { rows, position: (r) => ({ value: r[sort], id: r.ticker }) };
  }

  /** Snapshots of contracts of one underlying, in their order. */
  chainSnapshots(underlying: string, contracts: readonly OptionsContractRecord[], nowMs: number, view: SnapshotView): Promise<OptionSnapshot[]> {
    return optionSnapshots(this.store, this.inputsOf, underlying, contracts, nowMs, { ...view, fallbackRate: this.fallbackRate });
  }

  /** The snapshot of one contract of `underlying`; undefined when it is not a contract on it. */
  async contractSnapshot(underlying: string, ticker: string, nowMs: number, view: SnapshotView): Promise<OptionSnapshot | undefined> {
    const contract = await this.store.options.getContract(withOptionPrefix(ticker));
    if (!contract || contract.underlying_ticker !== underlying) return undefined;
    const [snapshot] = await this.chainSnapshots(underlying, [contract], nowMs, view);
    return snapshot;
  }
}
