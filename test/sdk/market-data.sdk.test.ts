import { describe, expect, it } from 'vitest';
import { nyMidnight, nyTime } from '../../src/domain/calendar.js';
import { engines } from '../helpers/engines.js';
import { AAPL_TRADES, FIXTURE_NOW, aaplAdjusted, seedMarket, utc } from '../helpers/market-fixture.js';
import { useNativeServer } from '../helpers/app-fixture.js';

// The official client, unmodified, against a native-mode server on a free port: it sends the key
// as ?apiKey=, percent-encodes path parameters and follows next_url by appending &apiKey=.
// (It parses ns times into JS numbers, so they are compared approximately here; the exact
// digits are checked on the raw bodies in test/routes.)

for (const engine of engines()) {
  describe(`@massive.com/client-js on the market-data endpoints (${engine.name})`, () => {
    const { server } = useNativeServer(engine, seedMarket, { now: () => FIXTURE_NOW });

    it('getStocksAggregates', async () => {
      const rest = server.client();
      const res = await rest.getStocksAggregates({ stocksTicker: 'AAPL', multiplier: 1, timespan: 'day' as never, from: '2024-03-07', to: '2024-03-12' });
      expect(res).toMatchObject({ ticker: 'AAPL', status: 'OK', adjusted: true, resultsCount: 4, queryCount: 4 });
      expect(res.results?.[0]).toMatchObject({ ...aaplAdjusted(8), t: nyMidnight('2024-03-07') });
    });

    it('getStocksAggregates with pagination follows next_url over every page', async () => {
      const paged = server.client({ pagination: true });
      const res = await paged.getStocksAggregates({ stocksTicker: 'AAPL', multiplier: 1, timespan: 'hour' as never, from: '2024-03-08', to: '2024-03-11', limit: 100, adjusted: false });
      const direct = await server.client().getStocksAggregates({ stocksTicker: 'AAPL', multiplier: 1, timespan: 'hour' as never, from: '2024-03-08', to: '2024-03-11', limit: 50_000, adjusted: false });
      expect(direct.results).toHaveLength(32);
      const walked = [...(res.results ?? [])].sort((a, b) => a.t - b.t);
      expect(walked).toEqual(direct.results);
      expect(walked[0]).toMatchObject({ t: nyTime('2024-03-08', '04:00'), o: 1000 });
    });

    it('getForexAggregates and getCryptoAggregates with prefixed tickers', async () => {
      const rest = server.client();
      const fx = await rest.getForexAggregates({ forexTicker: 'C:EURUSD', multiplier: 1, timespan: 'day' as never, from: '2024-03-04', to: '2024-03-08' });
      expect(fx.results?.map((b) => b.t)).toEqual(['04', '05', '06', '07', '08'].map((d) => utc(`2024-03-${d}T00:00:00Z`)));
      const btc = await rest.getCryptoAggregates({ cryptoTicker: 'X:BTCUSD', multiplier: 1, timespan: 'hour' as never, from: '2024-03-10', to: '2024-03-10' });
      expect(btc.resultsCount).toBe(23);
    });

    it('getPreviousStocksAggregates and getGroupedStocksAggregates', async () => {
      const rest = server.client();
      const prev = await rest.getPreviousStocksAggregates({ stocksTicker: 'AAPL' });
      expect(prev.results?.[0]).toMatchObject({ T: 'AAPL', t: nyTime('2024-03-15', '16:00'), c: aaplAdjusted(14).c });
      const grouped = await rest.getGroupedStocksAggregates({ date: '2024-03-08', includeOtc: true });
      expect(grouped.results?.map((b) => b.T)).toEqual(['AAPL', 'OTCX']);
      const fx = await rest.getGroupedForexAggregates({ date: '2024-03-06' });
      expect(fx.results?.[0]).toMatchObject({ T: 'C:EURUSD', t: utc('2024-03-06T23:59:59.999Z') });
    });

    it('getStocksOpenClose and getCryptoOpenClose', async () => {
      const rest = server.client();
      const oc = await rest.getStocksOpenClose({ stocksTicker: 'AAPL', date: '2024-03-08', adjusted: false });
      expect(oc).toMatchObject({ status: 'OK', symbol: 'AAPL', from: '2024-03-08', open: 1330, close: 1719, preMarket: 1000, afterHours: 1959 });
      const btc = await rest.getCryptoOpenClose({ from: 'BTC', to: 'USD', date: '2024-03-10' });
      expect(btc).toMatchObject({ symbol: 'BTC-USD', isUTC: true, open: 68_000.5, close: 69_000.25 });
      const missing = await rest.getStocksOpenClose({ stocksTicker: 'AAPL', date: '2024-03-09' }).catch((e: { response?: { status: number; data: unknown } }) => e.response);
      expect(missing).toMatchObject({ status: 404, data: { status: 'NOT_FOUND', message: 'Data not found.' } });
    });

    it('getStocksTrades with pagination returns every trade once', async () => {
      const paged = server.client({ pagination: true });
      const res = await paged.getStocksTrades({ stockTicker: 'AAPL', timestamp: '2024-03-11', limit: 3, order: 'asc' as never });
      expect(res.results?.map((r) => r.id).sort()).toEqual(AAPL_TRADES.map((t) => t.id).sort());
      const first = res.results?.find((r) => r.id === 't1');
      expect(Math.abs(first!.sip_timestamp - Number(AAPL_TRADES[0]!.sip_timestamp))).toBeLessThan(1000);
    });

    it('getStocksQuotes with timestamp filters', async () => {
      const rest = server.client();
      const res = await rest.getStocksQuotes({ stockTicker: 'AAPL', timestampGte: '2024-03-11T13:30:00.4Z', timestampLt: '2024-03-11T13:30:00.9Z' });
      expect(res.results?.map((r) => r.sequence_number)).toEqual([102, 101]);
    });

    it('getLastStocksTrade, getLastStocksQuote, getLastCurrencyQuote and getLastCryptoTrade', async () => {
      const rest = server.client();
      const trade = await rest.getLastStocksTrade({ stocksTicker: 'AAPL' });
      expect(trade.results).toMatchObject({ T: 'AAPL', p: 171, i: 't11' });
      const quote = await rest.getLastStocksQuote({ stocksTicker: 'AAPL' });
      expect(quote.results).toMatchObject({ T: 'AAPL', P: 170.06, p: 170.03 });
      const fx = await rest.getLastCurrencyQuote({ from: 'EUR', to: 'USD' });
      expect(fx).toMatchObject({ status: 'success', symbol: 'EUR/USD', last: { ask: 1.0937, bid: 1.0935, timestamp: utc('2024-03-08T21:59:59Z') } });
      const btc = await rest.getLastCryptoTrade({ from: 'BTC', to: 'USD' });
      expect(btc).toMatchObject({ status: 'success', symbol: 'BTC-USD', last: { price: 69_000.25 } });
    });
  });
}
