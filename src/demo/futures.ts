// The demo's futures reference data: the products, exchanges, the next few contracts of each
// product as of the demo date and the Globex sessions of the weeks around it, from the facts
// table, the expiry rules and the calendar. No randomness: the same date gives the same rows.
import { globexSessions, sessionEvents, utcOffsetTimestamp } from '../domain/futures-calendar.js';
import { contractTicker, lastTradeDate, listedMonths } from '../domain/futures-contracts.js';
import type { DatasetRecord } from '../store/repos/datasets.js';
import { addDays } from './civil-days.js';
import { FUTURES_EXCHANGE_FACTS, FUTURES_PRODUCT_FACTS } from './facts/futures.js';
import { upsertSets } from './partner.js';
import type { DemoStep } from './step.js';

/** Calendar days of session schedules before and after the demo date. */
const SCHEDULE_DAYS = 7;

/** Contracts per product in the demo, fewer where a later one is not listed yet on the date. */
const CONTRACTS_PER_PRODUCT = 4;

export function buildFuturesReferenceDemo(asOf: string): Record<string, DatasetRecord[]> {
  const products: DatasetRecord[] = [];
  const contracts: DatasetRecord[] = [];
  const schedules: DatasetRecord[] = [];
  const sessions = globexSessions(addDays(asOf, -SCHEDULE_DAYS), addDays(asOf, SCHEDULE_DAYS));
  for (const p of FUTURES_PRODUCT_FACTS) {
    const product: DatasetRecord = {
      asset_class: p.asset_class, asset_sub_class: p.asset_sub_class, date: asOf, last_updated: asOf, name: p.name, price_quotation: p.price_quotation,
      product_code: p.code, sector: p.sector, settlement_currency_code: 'USD', settlement_method: p.settlement_method, settlement_type: p.settlement_type,
      trade_currency_code: 'USD', trading_venue: p.venue, type: 'single', unit_of_measure: p.unit_of_measure, unit_of_measure_qty: p.unit_of_measure_qty,
    };
    if (p.sub_sector) product.sub_sector = p.sub_sector;
    products.push(product);
    for (const session of sessions) {
      for (const { event, at } of sessionEvents(session)) {
        schedules.push({ event, product_code: p.code, product_name: p.name, session_end_date: session.sessionEndDate, timestamp: utcOffsetTimestamp(at), trading_venue: p.venue });
      }
    }
    for (const [year, month] of listedMonths(p.expiry, p.months, asOf, CONTRACTS_PER_PRODUCT)) {
      const last = lastTradeDate(p.expiry, year, month);
      const first = addDays(last, -p.listedDays);
      if (first > asOf) continue;
      const ticker = contractTicker(p.code, year, month);
      // active and days_to_maturity are derived from the dates when the rows are stored;
      // max_order_quantity is a synthetic round limit (exchanges set their own per product)
      contracts.push({
        date: asOf, first_trade_date: first, group_code: p.code, last_trade_date: last, max_order_quantity: 2000, min_order_quantity: 1, name: `${ticker} Future`,
        product_code: p.code, settlement_date: last, settlement_tick_size: p.tick, spread_tick_size: p.tick, ticker, trade_tick_size: p.tick, trading_venue: p.venue, type: 'single',
      });
    }
  }
  return { 'futures-products': products, 'futures-contracts': contracts, 'futures-exchanges': FUTURES_EXCHANGE_FACTS.map((e) => ({ ...e })), 'futures-schedules': schedules };
}

export const futuresDemoStep: DemoStep = {
  name: 'futures products, contracts, exchanges and schedules',
  run: async (store, opts) => `${await upsertSets(store, buildFuturesReferenceDemo(opts.asOf))} futures reference rows`,
};
