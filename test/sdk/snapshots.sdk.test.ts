import { describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { HULL_CALL, loadTextbookCases, referenceContracts } from '../helpers/options-fixture.js';
import { AFTER, DAY, loadSnapshotFixture } from '../helpers/snapshot-fixture.js';
import { useNativeServer } from '../helpers/app-fixture.js';

// The official client, unmodified, against a native-mode server on a free port: snapshots, the
// option chain and contracts, indicators, conversion and market status.
for (const engine of engines()) {
  describe(`@massive.com/client-js on snapshots, options, indicators, conversion and market status (${engine.name})`, () => {
    let clock = AFTER;
    const { server } = useNativeServer(engine, async (store) => {
      await loadSnapshotFixture(store);
      await store.options.upsertContracts(referenceContracts());
      await loadTextbookCases(store);
      await store.market.insertBars(
        'day',
        Array.from({ length: 60 }, (_, i) => ({ ticker: 'IND', t: Date.parse('2026-09-01T04:00:00Z') + i * 86_400_000, o: 100 + i, h: 101 + i, l: 99 + i, c: 100 + i + (i % 3), v: 1000, vw: 100 + i, n: 10 })),
      );
    }, { now: () => clock, riskFreeRate: 0.05 });

    it('stock snapshots: all (repeated tickers key), one, gainers', async () => {
      clock = AFTER;
      const rest = server.client();
      const all = await rest.getStocksSnapshotTickers({ tickers: ['AAA', 'BBB'] });
      expect(all.status).toBe('OK');
      expect(all.tickers?.map((x) => x.ticker)).toEqual(['AAA', 'BBB']);
      const one = await rest.getStocksSnapshotTicker({ stocksTicker: 'AAA' });
      expect(one.ticker?.lastTrade?.p).toBe(106);
      expect(one.ticker?.prevDay?.c).toBe(100);
      const gainers = await rest.getStocksSnapshotDirection({ direction: 'gainers' as never });
      expect(gainers.tickers).toHaveLength(20);
      expect(gainers.tickers?.[0]?.ticker).toBe('G24');
      const err = await rest.getStocksSnapshotTicker({ stocksTicker: 'NOPE' }).catch((e: { response?: { status: number; data: unknown } }) => e.response);
      expect(err?.status).toBe(404);
    });

    it('forex and crypto snapshots (the C: ticker percent-encoded by the client)', async () => {
      clock = Date.parse(`${DAY}T16:00:00Z`);
      const rest = server.client();
      const fx = await rest.getForexSnapshotTicker({ ticker: 'C:EURUSD' });
      expect(fx.ticker?.lastQuote?.b).toBe(1.1219);
      const fxAll = await rest.getForexSnapshotTickers({ tickers: ['C:EURUSD', 'C:GBPUSD'] });
      expect(fxAll.tickers).toHaveLength(2);
      const losers = await rest.getCryptoSnapshotDirection({ direction: 'losers' as never });
      expect(losers.tickers?.map((x) => x.ticker)).toEqual(['X:ETHUSD']);
      const btc = await rest.getCryptoSnapshotTicker({ ticker: 'X:BTCUSD' });
      expect(btc.ticker?.lastTrade?.p).toBe(63_000);
    });

    it('option contracts: list with pagination, one contract', async () => {
      clock = Date.parse('2026-11-19T16:00:00Z');
      const rest = server.client({ pagination: true });
      const list = await rest.listOptionsContracts({ underlyingTicker: 'ZZA', limit: 4 });
      expect(list.results).toHaveLength(13);
      const one = await server.client().getOptionsContract({ optionsTicker: 'O:ZZA270115C00052500' });
      expect(one.results?.shares_per_contract).toBe(150);
    });

    it('option chain with pagination, and one contract with its greeks', async () => {
      clock = Date.parse('2026-11-19T16:00:00Z');
      const paged = server.client({ pagination: true });
      const chain = await paged.getOptionsChain({ underlyingAsset: 'ZZA', limit: 5, contractType: 'call' as never });
      expect(chain.results).toHaveLength(7);
      expect(chain.results?.every((r) => r.details?.contract_type === 'call')).toBe(true);
      clock = HULL_CALL.clockMs;
      const rest = server.client();
      const c = await rest.getOptionContract({ underlyingAsset: 'HULA', optionContract: HULL_CALL.contract.ticker });
      expect(c.results?.greeks?.delta).toBeCloseTo(0.522, 3);
      expect(c.results?.implied_volatility).toBeCloseTo(0.2, 3);
    });

    it('indicators: SMA, EMA, RSI and MACD', async () => {
      clock = Date.parse('2026-11-20T22:00:00Z');
      const rest = server.client();
      const sma = await rest.getStocksSMA({ stockTicker: 'IND', window: 5, limit: 3, expandUnderlying: true });
      expect(sma.results?.values).toHaveLength(3);
      expect(sma.results?.underlying?.aggregates?.length).toBe(3 + 4);
      expect(sma.next_url).toMatch(/\?cursor=/);
      const ema = await rest.getStocksEMA({ stockTicker: 'IND', window: 5, timestampGte: '2026-10-01', order: 'asc' as never, limit: 2 });
      expect(ema.results?.values?.[0]?.timestamp).toBe(Date.parse('2026-10-01T04:00:00Z'));
      const rsi = await rest.getStocksRSI({ stockTicker: 'IND', limit: 1 });
      expect(rsi.results?.values?.[0]?.value).toBeGreaterThan(0);
      const macd = await rest.getStocksMACD({ stockTicker: 'IND', shortWindow: 3, longWindow: 6, signalWindow: 3, limit: 2 });
      expect(macd.results?.values?.[0]?.histogram).toBeCloseTo(macd.results!.values![0]!.value! - macd.results!.values![0]!.signal!, 12);
    });

    it('currency conversion', async () => {
      clock = Date.parse(`${DAY}T16:00:00Z`);
      const rest = server.client();
      const c = await rest.getCurrencyConversion({ from: 'GBP', to: 'JPY', amount: 100, precision: 2 as never });
      expect(c.status).toBe('success');
      expect(c.converted).toBe(19128.29);
    });

    it('market status and holidays', async () => {
      clock = Date.parse('2026-11-20T15:00:00Z');
      const rest = server.client();
      const s = await rest.getMarketStatus();
      expect(s.market).toBe('open');
      expect(s.serverTime).toBe('2026-11-20T10:00:00-05:00');
      const h = await rest.getMarketHolidays();
      expect(Array.isArray(h)).toBe(true);
      expect((h as Array<{ date?: string }>)[0]?.date).toBe('2026-11-26');
    });
  });
}
