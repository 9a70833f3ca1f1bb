// The demo's futures products and exchanges: CME Group's published contract specifications
// (venue, quotation, unit, tick size, listed months, expiry rule). Exchange ids other than CME's
// (upstream's example gives CME id 4) are ours.
import type { ExpiryRule } from '../../domain/futures-contracts.js';

export interface FuturesProductFact {
  code: string;
  name: string;
  venue: string;
  asset_class: string;
  asset_sub_class: string;
  sector: string;
  sub_sector?: string;
  price_quotation: string;
  unit_of_measure: string;
  unit_of_measure_qty: number;
  settlement_method: string;
  settlement_type: string;
  tick: number;
  /** Delivery months listed (1–12). */
  months: readonly number[];
  expiry: ExpiryRule;
  /** Days between a contract's first and last trading day. */
  listedDays: number;
}

export const FUTURES_PRODUCT_FACTS: readonly FuturesProductFact[] = [
  {
    code: 'ES', name: 'E-mini S&P 500 Futures', venue: 'XCME', asset_class: 'financials', asset_sub_class: 'equity', sector: 'us_index', sub_sector: 'large_cap_index',
    price_quotation: 'U.S. dollars and cents per index point', unit_of_measure: 'IPNT', unit_of_measure_qty: 50, settlement_method: 'financially_settled', settlement_type: 'cash',
    tick: 0.25, months: [3, 6, 9, 12], expiry: 'third-friday', listedDays: 630,
  },
  {
    code: 'NQ', name: 'E-mini Nasdaq-100 Futures', venue: 'XCME', asset_class: 'financials', asset_sub_class: 'equity', sector: 'us_index', sub_sector: 'large_cap_index',
    price_quotation: 'U.S. dollars and cents per index point', unit_of_measure: 'IPNT', unit_of_measure_qty: 20, settlement_method: 'financially_settled', settlement_type: 'cash',
    tick: 0.25, months: [3, 6, 9, 12], expiry: 'third-friday', listedDays: 630,
  },
  {
    code: 'CL', name: 'Crude Oil Futures', venue: 'XNYM', asset_class: 'commodity', asset_sub_class: 'energy', sector: 'crude_oil',
    price_quotation: 'U.S. dollars and cents per barrel', unit_of_measure: 'BBL', unit_of_measure_qty: 1000, settlement_method: 'deliverable', settlement_type: 'physical',
    tick: 0.01, months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], expiry: 'crude', listedDays: 1800,
  },
  {
    code: 'GC', name: 'Gold Futures', venue: 'XCEC', asset_class: 'commodity', asset_sub_class: 'metals', sector: 'precious',
    price_quotation: 'U.S. dollars and cents per troy ounce', unit_of_measure: 'OZTR', unit_of_measure_qty: 100, settlement_method: 'deliverable', settlement_type: 'physical',
    tick: 0.1, months: [2, 4, 6, 8, 10, 12], expiry: 'third-last-weekday', listedDays: 720,
  },
  {
    code: 'ZN', name: '10-Year T-Note Futures', venue: 'XCBT', asset_class: 'financials', asset_sub_class: 'interest_rate', sector: 'long_term_gov',
    price_quotation: 'Points and fractions of points with par on the basis of 100 points', unit_of_measure: 'USD', unit_of_measure_qty: 100000,
    settlement_method: 'deliverable', settlement_type: 'physical', tick: 0.015625, months: [3, 6, 9, 12], expiry: 'seventh-before-last-weekday', listedDays: 270,
  },
];

export const FUTURES_EXCHANGE_FACTS = [
  { acronym: 'CME', id: '4', locale: 'US', mic: 'XCME', name: 'Chicago Mercantile Exchange', operating_mic: 'XCME', type: 'exchange', url: 'https://www.cmegroup.com' },
  { acronym: 'CBOT', id: '5', locale: 'US', mic: 'XCBT', name: 'Chicago Board of Trade', operating_mic: 'XCME', type: 'exchange', url: 'https://www.cmegroup.com' },
  { acronym: 'NYMEX', id: '6', locale: 'US', mic: 'XNYM', name: 'New York Mercantile Exchange', operating_mic: 'XCME', type: 'exchange', url: 'https://www.cmegroup.com' },
  { acronym: 'COMEX', id: '7', locale: 'US', mic: 'XCEC', name: 'Commodity Exchange', operating_mic: 'XCME', type: 'exchange', url: 'https://www.cmegroup.com' },
] as const;

/**
 * Market data of the demo's front contracts: a synthetic price level around which the sessions
 * move (in the range the products traded in during 2025), the typical contracts per minute, and
 * the CME multicast channel quotes and trades are stamped with (ours, one per product).
 */
export const FUTURES_MARKET_FACTS: Readonly<Record<string, { price: number; minuteVolume: number; channel: number }>> = {
  ES: { price: 6600, minuteVolume: 900, channel: 310 },
  NQ: { price: 24500, minuteVolume: 350, channel: 312 },
  CL: { price: 62, minuteVolume: 250, channel: 382 },
  GC: { price: 4050, minuteVolume: 120, channel: 360 },
  ZN: { price: 112.5, minuteVolume: 700, channel: 344 },
};
