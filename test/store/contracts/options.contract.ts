// The options repository contract: contracts stored and read back field for field (optional
// fields omitted), upserts by ticker, filtered and keyset-paged lists, and the open interest in
// force on a day.
import { describe, expect, it } from 'vitest';
import type { ContractQuery, OptionsContractRecord } from '../../../src/store/repos/options.js';
import { countRows, useStore, type MakeStore } from './store-fixture.js';

function contract(ticker: string, strike: number, extra: Partial<OptionsContractRecord> = {}): OptionsContractRecord {
  return {
    ticker, underlying_ticker: 'AAPL', contract_type: 'call', exercise_style: 'american', expiration_date: '2026-12-18',
    strike_price: strike, shares_per_contract: 100, ...extra,
  };
}

const C150 = contract('O:AAPL261218C00150000', 150, { primary_exchange: 'BATO', cfi: 'OCASPS', list_date: '2026-01-02' });
const C200 = contract('O:AAPL261218C00200000', 200, { additional_underlyings: [{ type: 'equity', underlying: 'VMW', amount: 44 }], correction: 1 });
const P150 = contract('O:AAPL261218P00150000', 150, { contract_type: 'put' });
const OLD = contract('O:AAPL251219C00150000', 150, { expiration_date: '2025-12-19' });
const MSFT = contract('O:MSFT261218C00400000', 400, { underlying_ticker: 'MSFT' });

export function runOptionsRepoContract(makeStore: MakeStore): void {
  describe('options repository', () => {
    const store = useStore(makeStore);
    const seeded = async () => {
      if ((await store().options.countContracts()) === 0) await store().options.upsertContracts([C150, C200, P150, OLD, MSFT]);
    };

    it('reads a contract back field for field, with only the fields it has', async () => {
      await seeded();
      expect(await store().options.getContract(C150.ticker)).toEqual(C150);
      expect(await store().options.getContract(C200.ticker)).toEqual(C200);
      expect(await store().options.getContract(P150.ticker)).toEqual(P150);
      expect(await store().options.getContract('O:NOPE')).toBeUndefined();
    });

    it('upserts by ticker: the same contracts again add nothing; a changed one replaces the old', async () => {
      await seeded();
      await store().options.upsertContracts([C150, C200]);
      expect(await store().options.countContracts()).toBe(5);
      await store().options.upsertContracts([{ ...C200, shares_per_contract: 10 }]);
      expect((await store().options.getContract(C200.ticker))!.shares_per_contract).toBe(10);
      await store().options.upsertContracts([C200]);
    });

    it('filters by underlying, type, expiration and strike ranges', async () => {
      await seeded();
      const list = async (q: Partial<ContractQuery>) =>
        (await store().options.listContracts({ sort: 'ticker', order: 'asc', limit: 50, ...q })).map((c) => c.ticker);
      expect(await list({ underlying_ticker: { eq: 'AAPL' }, contract_type: 'put' })).toEqual([P150.ticker]);
      expect(await list({ strike_price: { gte: 150, lt: 200 }, expiration_date: { gt: '2026-01-01' } })).toEqual([C150.ticker, P150.ticker]);
      expect(await list({ underlying_ticker: { gt: 'AAPL' } })).toEqual([MSFT.ticker]);
      expect(await list({ as_of: '2026-06-01', expired: true })).toEqual([OLD.ticker]);
      expect(await list({ as_of: '2025-12-01', expired: false })).toEqual([OLD.ticker, C200.ticker, P150.ticker, MSFT.ticker]);
    });

    it('sorts by a field with the ticker as tiebreaker, and pages by keyset', async () => {
      await seeded();
      const q = { sort: 'strike_price' as const, order: 'desc' as const, limit: 2 };
      const first = await store().options.listContracts(q);
      expect(first.map((c) => c.ticker)).toEqual([MSFT.ticker, C200.ticker]);
      const last = first[1]!;
      const rest = await store().options.listContracts({ ...q, limit: 10, after: { value: last.strike_price, id: last.ticker } });
      expect(rest.map((c) => c.ticker)).toEqual([P150.ticker, C150.ticker, OLD.ticker]);
    });

    it('answers the latest open interest on or before a day, per contract', async () => {
      await seeded();
      expect(await store().options.upsertOpenInterest([
        { ticker: C150.ticker, date: '2026-11-18', open_interest: 10 },
        { ticker: C150.ticker, date: '2026-11-20', open_interest: 30 },
        { ticker: C200.ticker, date: '2026-11-19', open_interest: 7 },
      ])).toBe(3);
      await store().options.upsertOpenInterest([{ ticker: C150.ticker, date: '2026-11-20', open_interest: 31 }]);
      expect(await countRows(store(), 'options_open_interest')).toBe(3);
      const on19 = await store().options.openInterestOn([C150.ticker, C200.ticker, P150.ticker], '2026-11-19');
      expect([...on19.entries()].sort()).toEqual([[C150.ticker, 10], [C200.ticker, 7]]);
      expect((await store().options.openInterestOn([C150.ticker], '2026-11-21')).get(C150.ticker)).toBe(31);
      expect((await store().options.openInterestOn([C150.ticker], '2026-11-01')).size).toBe(0);
    });
  });
}
