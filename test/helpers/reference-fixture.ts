import type { TickerRecord } from '../../src/store/records.js';

const base = { locale: 'us' as const, market: 'stocks' as const, currency_name: 'usd', last_updated_utc: '2026-11-20T00:00:00Z' };

/** A small, hand-made universe whose expected answers can be worked out by hand. */
export const FIXTURE_TICKERS: TickerRecord[] = [
  { ...base, ticker: 'AAPL', name: 'Apple Inc.', primary_exchange: 'XNAS', type: 'CS', active: true, cik: '0000320193', composite_figi: 'BBG000B9XRY4', share_class_figi: 'BBG001S5N8V8', cusip: '037833100', list_date: '1980-12-12', valid_from: '1980-12-12', description: 'Maker of phones.', homepage_url: 'https://www.apple.com', address: { address1: 'One Apple Park Way', city: 'Cupertino', state: 'CA', postal_code: '95014' }, branding: { logo_url: '/v1/reference/company-branding/logo/aapl.svg' }, round_lot: 100, sic_code: '3571', sic_description: 'ELECTRONIC COMPUTERS', ticker_root: 'AAPL', total_employees: 154000, share_class_shares_outstanding: 15000000000, weighted_shares_outstanding: 15000000000 },
  { ...base, ticker: 'AAPL.WS', name: 'Apple Warrant Test', primary_exchange: 'XNAS', type: 'WARRANT', active: true, valid_from: '2020-01-01', list_date: '2020-01-01' },
  { ...base, ticker: 'AAPW', name: 'Awesome Pawn Corp', primary_exchange: 'XNYS', type: 'CS', active: true, valid_from: '2015-01-01', list_date: '2015-01-01' },
  { ...base, ticker: 'BRK.A', name: 'Berkshire Hathaway Inc.', primary_exchange: 'XNYS', type: 'CS', active: true, cik: '0001067983', valid_from: '1980-03-17', list_date: '1980-03-17', ticker_root: 'BRK', ticker_suffix: 'A' },
  { ...base, ticker: 'MSFT', name: 'Microsoft Corp', primary_exchange: 'XNAS', type: 'CS', active: true, cik: '0000789019', valid_from: '1986-03-13', list_date: '1986-03-13' },
  { ...base, ticker: 'SPY', name: 'SPDR S&P 500 ETF Trust', primary_exchange: 'ARCX', type: 'ETF', active: true, valid_from: '1993-01-29', list_date: '1993-01-29' },
  // renamed: two versions of one symbol
  { ...base, ticker: 'ZZRN', name: 'Old Name Holdings', primary_exchange: 'XNYS', type: 'CS', active: true, valid_from: '2010-01-04', valid_to: '2021-10-28', list_date: '2010-01-04' },
  { ...base, ticker: 'ZZRN', name: 'New Name Platforms', primary_exchange: 'XNAS', type: 'CS', active: true, valid_from: '2021-10-28', list_date: '2010-01-04' },
  // delisted
  { ...base, ticker: 'GONE', name: 'Gone Away Inc.', primary_exchange: 'XNYS', type: 'CS', active: false, valid_from: '2001-05-01', list_date: '2001-05-01', delisted_utc: '2023-05-17T00:00:00Z' },
  { ...base, market: 'otc', ticker: 'OTCX', name: 'Pink Sheet Example', primary_exchange: 'OTCM', type: 'OS', active: true, valid_from: '2012-01-01', list_date: '2012-01-01' },
  { ticker: 'X:BTCUSD', name: 'Bitcoin - United States Dollar', market: 'crypto', locale: 'global', active: true, currency_symbol: 'USD', currency_name: 'United States Dollar', base_currency_symbol: 'BTC', base_currency_name: 'Bitcoin', last_updated_utc: '2026-11-20T00:00:00Z', valid_from: '2013-01-01' },
  { ticker: 'C:EURUSD', name: 'Euro - United States Dollar', market: 'fx', locale: 'global', active: true, currency_symbol: 'USD', currency_name: 'United States Dollar', base_currency_symbol: 'EUR', base_currency_name: 'Euro', last_updated_utc: '2026-11-20T00:00:00Z', valid_from: '2000-01-01' },
  { ticker: 'I:SPX', name: 'Standard & Poor\'s 500', market: 'indices', locale: 'us', type: 'IX', active: true, source_feed: 'CBOE', last_updated_utc: '2026-11-20T00:00:00Z', valid_from: '1957-03-04' },
];

/** Many plain stock tickers for paging tests: T0000, T0001, ... */
export function bulkTickers(n: number, prefix = 'T'): TickerRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    ...base,
    ticker: `${prefix}${String(i).padStart(4, '0')}`,
    name: `Bulk Company ${i}`,
    primary_exchange: i % 2 ? 'XNAS' : 'XNYS',
    type: 'CS',
    active: true,
    valid_from: '2000-01-01',
  }));
}
